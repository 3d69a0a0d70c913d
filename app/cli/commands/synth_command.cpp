// `kinetoscope-cli synth`: writes synthetic multi-rank Kineto traces, or scales
// a real trace up along time, for benchmarks and demos.
#include "app/cli/cli_args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/output/cli_output.h"
#include "app/common/thread_pool_parallel_for.h"
#include "core/synth/synthetic_trace_generator.h"
#include "core/synth/trace_scaler.h"

#include <charconv>
#include <cmath>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace ks::cli {

namespace {

    constexpr const char* kPrefix = "kinetoscope-cli synth: ";

    // Parses an integer option in [lo, hi]; on failure writes one line to `err`.
    std::optional<std::int64_t> integerOption(const CliArgs& args, const std::string& name,
        std::int64_t fallback, std::int64_t lo, std::int64_t hi, std::ostream& err)
    {
        const auto text = args.value(name);
        if (!text)
            return fallback;
        std::int64_t value = 0;
        const auto result = std::from_chars(text->data(), text->data() + text->size(), value);
        if (result.ec != std::errc() || result.ptr != text->data() + text->size() || value < lo
            || value > hi) {
            err << kPrefix << name << ": expected an integer from " << lo << " to " << hi << ", got '"
                << *text << "'\n";
            return std::nullopt;
        }
        return value;
    }

    std::optional<double> sizeOption(const CliArgs& args, std::ostream& err)
    {
        const auto text = args.value("--size-mb");
        if (!text) {
            err << kPrefix << "--size-mb: required (uncompressed MB of JSON per rank)\n";
            return std::nullopt;
        }
        double value = 0;
        const auto result = std::from_chars(text->data(), text->data() + text->size(), value);
        if (result.ec != std::errc() || result.ptr != text->data() + text->size() || !(value > 0)
            || value > 1'000'000) {
            err << kPrefix << "--size-mb: expected a positive number of MB, got '" << *text << "'\n";
            return std::nullopt;
        }
        return value;
    }

    // "--stragglers 3,7 [--slowdown F]": those ranks' compute kernels take F
    // times longer (1.5 when not given). False after writing the problem to `err`.
    bool stragglerOptions(const CliArgs& args, core::SynthOptions& options, std::ostream& err)
    {
        const auto list = args.value("--stragglers");
        const auto slowdown = args.value("--slowdown");
        if (!list) {
            if (slowdown)
                err << kPrefix << "--slowdown: only valid with --stragglers\n";
            return !slowdown;
        }
        std::string problem;
        const auto ranks = parseNumberList(list, problem);
        if (!ranks || ranks->empty()) {
            err << kPrefix << "--stragglers: expected rank numbers like 3,7, got '" << *list << "'\n";
            return false;
        }
        for (const std::int64_t rank : *ranks) {
            if (rank < 0 || rank >= options.ranks) {
                err << kPrefix << "--stragglers: rank " << rank << " is outside the job (0 to "
                    << options.ranks - 1 << ")\n";
                return false;
            }
            options.stragglers.push_back(static_cast<int>(rank));
        }
        options.slowdown = 1.5;
        if (slowdown) {
            double value = 0;
            const auto result = std::from_chars(slowdown->data(), slowdown->data() + slowdown->size(), value);
            if (result.ec != std::errc() || result.ptr != slowdown->data() + slowdown->size()
                || !(value >= 1.0) || value > 100.0) {
                err << kPrefix << "--slowdown: expected a factor from 1 to 100, got '" << *slowdown << "'\n";
                return false;
            }
            options.slowdown = value;
        }
        return true;
    }

    void printFile(const core::WrittenFile& file, bool gzip, std::ostream& out)
    {
        out << file.path << ": " << file.events << " events, " << file.jsonBytes << " bytes JSON";
        if (gzip)
            out << ", " << file.fileBytes << " bytes gzip";
        out << '\n';
    }

    int runScale(const CliArgs& args, const std::string& outDir, bool gzip, int level, std::ostream& out,
        std::ostream& err)
    {
        for (const char* option : { "--ranks", "--size-mb", "--seed", "--stragglers", "--slowdown" }) {
            if (args.value(option)) {
                err << kPrefix << option << ": cannot be combined with --from\n";
                return 2;
            }
        }
        const auto copies = integerOption(args, "--copies", 2, 1, 100000, err);
        if (!copies)
            return 2;
        core::ScaleOptions options;
        options.inputPath = *args.value("--from");
        options.copies = static_cast<int>(*copies);
        options.outDir = outDir;
        options.gzip = gzip;
        options.gzipLevel = level;
        auto written = core::scaleTrace(options);
        if (!written) {
            err << kPrefix << written.error().describe() << '\n';
            return 1;
        }
        printFile(written.value(), gzip, out);
        return 0;
    }

    int runGenerate(const CliArgs& args, const std::string& outDir, bool gzip, int level, std::ostream& out,
        std::ostream& err)
    {
        if (args.value("--copies")) {
            err << kPrefix << "--copies: only valid with --from\n";
            return 2;
        }
        const auto ranks = integerOption(args, "--ranks", 1, 1, 65536, err);
        if (!ranks)
            return 2;
        const auto sizeMb = sizeOption(args, err);
        if (!sizeMb)
            return 2;
        const auto seed = integerOption(args, "--seed", 1, 0, INT64_MAX, err);
        const auto threads = integerOption(args, "--threads", 0, 0, 1024, err);
        if (!seed || !threads)
            return 2;

        core::SynthOptions options;
        options.ranks = static_cast<int>(*ranks);
        options.targetBytes = static_cast<std::uint64_t>(std::llround(*sizeMb * 1e6));
        options.seed = static_cast<std::uint64_t>(*seed);
        options.outDir = outDir;
        options.gzip = gzip;
        options.gzipLevel = level;
        options.pythonFunctions = !args.flag("--no-python");
        if (!stragglerOptions(args, options, err))
            return 2;
        auto plan = core::planSyntheticJob(options);
        if (!plan) {
            err << kPrefix << plan.error().describe() << '\n';
            return 1;
        }
        // Ranks are independent once planned: write them in parallel (gzip is the
        // slow part, one core per file).
        std::vector<std::optional<core::Result<core::WrittenFile>>> results(
            static_cast<std::size_t>(options.ranks));
        app::parallelForOnThreads(
            results.size(),
            [&](std::size_t r) {
                results[r].emplace(core::writeSyntheticRank(plan.value(), static_cast<int>(r)));
            },
            static_cast<unsigned>(*threads));
        int status = 0;
        for (const auto& result : results) {
            if (result->ok()) {
                printFile(result->value(), gzip, out);
            } else {
                err << kPrefix << result->error().describe() << '\n';
                status = 1;
            }
        }
        return status;
    }

} // namespace

const char* const kSynthUsage =
    "usage: kinetoscope-cli synth --ranks N --size-mb S --out DIR [--gzip] [--gzip-level L] [--seed K]\n"
    "       [--stragglers R,.. [--slowdown F]] [--no-python] [--threads N]\n"
    "       kinetoscope-cli synth --from TRACE --copies N --out DIR [--gzip] [--gzip-level L]\n"
    "  Writes realistic synthetic Kineto traces: N ranks of about S MB of JSON each, or TRACE's\n"
    "  events repeated N times along time (ids made unique). --stragglers: those ranks' compute\n"
    "  kernels take F times longer (default 1.5) while collectives still end together.\n";

int runSynthCommand(const std::vector<std::string>& arguments, std::ostream& out, std::ostream& err)
{
    const CliArgs args(arguments,
        { "--ranks", "--size-mb", "--out", "--seed", "--from", "--copies", "--gzip-level", "--threads",
            "--stragglers", "--slowdown" },
        { "--gzip", "--no-python" });
    if (!args.ok()) {
        err << kPrefix << args.error() << '\n';
        return 2;
    }
    if (!args.positional().empty()) {
        err << kPrefix << "unexpected argument '" << args.positional().front() << "'\n";
        return 2;
    }
    const auto outDir = args.value("--out");
    if (!outDir || outDir->empty()) {
        err << kPrefix << "--out: required (output folder)\n";
        return 2;
    }
    // --gzip-level implies --gzip; 6 is zlib's default trade-off.
    const auto level = integerOption(args, "--gzip-level", 6, 1, 9, err);
    if (!level)
        return 2;
    const bool gzip = args.flag("--gzip") || args.value("--gzip-level").has_value();
    if (args.value("--from"))
        return runScale(args, *outDir, gzip, static_cast<int>(*level), out, err);
    return runGenerate(args, *outDir, gzip, static_cast<int>(*level), out, err);
}

} // namespace ks::cli
