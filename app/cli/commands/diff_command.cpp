// `kinetoscope-cli diff`: D1 trace diff of two traces or folders (HTA's
// TraceDiff.compare_traces and ops_diff).
#include "app/cli/cli_args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/output/cli_output.h"
#include "app/cli/output/json_out.h"
#include "core/analysis/hta/trace_diff.h"
#include "core/report/hta_json_writer.h"
#include "core/report/table_text.h"

#include <filesystem>
#include <fstream>
#include <functional>
#include <ostream>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli diff CONTROL TEST [--hta-compat] [--ranks R,..] [--iterations I,..]\n"
        "       [--control-ranks R,..] [--test-ranks R,..] [--control-iterations I,..] [--test-iterations "
        "I,..]\n"
        "       [--device cpu|gpu|all] [--short-names] [--labels CONTROL,TEST]\n"
        "       [--format table|csv|json] [--out DIR] [--threads N]\n";

    std::optional<std::vector<std::int64_t>> numberList(
        const CliArgs& args, const std::string& name, std::string& error)
    {
        std::string problem;
        auto values = parseNumberList(args.value(name), problem);
        if (!problem.empty())
            error = name + ": " + problem;
        return values;
    }

    // One output of the command: HTA's call, the reference file name, its args.
    struct DiffCall
    {
        std::string htaCall;
        std::string fileName;
        std::string argsJson;
        std::function<core::AnalysisOutput()> run;
    };

    std::string argsJson(const core::TraceDiffOptions& o, const std::string& control, const std::string& test)
    {
        std::string out = "{\"control\":" + jsonQuote(control) + ",\"test\":" + jsonQuote(test);
        if (o.device != core::DiffDevice::All)
            out += std::string(",\"device_type\":\"DeviceType.")
                + (o.device == core::DiffDevice::Cpu ? "CPU" : "GPU") + "\"";
        if (o.shortNames)
            out += ",\"use_short_name\":true";
        return out + "}";
    }

    bool emit(const DiffCall& call, const std::string& format, const std::optional<std::string>& outDir,
        std::ostream& out, std::ostream& err)
    {
        const core::AnalysisOutput result = call.run();
        if (!result.ok)
            out << call.htaCall << ": not applicable: " << result.error << '\n';
        const std::string stem = call.fileName.substr(0, call.fileName.size() - 5);
        std::string text;
        std::string extension = ".json";
        if (format == "json") {
            text = core::htaCallJson(call.htaCall, call.argsJson, result);
        } else if (!result.ok) {
            return true;
        } else if (format == "csv") {
            extension = ".csv";
            for (const auto& [suffix, table] : core::framesOf(result.result)) {
                if (!outDir)
                    text += "# " + stem + suffix + "\n";
                text += core::tableAsCsv(*table);
            }
        } else {
            extension = ".txt";
            text = core::resultAsText(stem, result.result);
        }
        if (!outDir) {
            out << text;
            return true;
        }
        return writeTextFile(
            std::filesystem::path(*outDir) / (stem + extension), text, "kinetoscope-cli diff", err);
    }

    std::optional<core::TraceDiffOptions> parseOptions(const CliArgs& parsed, std::ostream& err)
    {
        core::TraceDiffOptions o;
        o.mode = parsed.flag("--hta-compat") ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
        o.shortNames = parsed.flag("--short-names");
        std::string error;
        const auto ranks = numberList(parsed, "--ranks", error);
        const auto iterations = numberList(parsed, "--iterations", error);
        o.control.ranks =
            parsed.value("--control-ranks") ? numberList(parsed, "--control-ranks", error) : ranks;
        o.test.ranks = parsed.value("--test-ranks") ? numberList(parsed, "--test-ranks", error) : ranks;
        o.control.iterations = parsed.value("--control-iterations")
            ? numberList(parsed, "--control-iterations", error)
            : iterations;
        o.test.iterations =
            parsed.value("--test-iterations") ? numberList(parsed, "--test-iterations", error) : iterations;
        const std::string device = parsed.value("--device").value_or("all");
        if (device == "cpu")
            o.device = core::DiffDevice::Cpu;
        else if (device == "gpu")
            o.device = core::DiffDevice::Gpu;
        else if (device != "all")
            error = "--device: expected cpu, gpu or all, got '" + device + "'";
        if (const auto labels = parsed.value("--labels")) {
            const std::size_t comma = labels->find(',');
            if (comma == std::string::npos || comma == 0 || comma + 1 == labels->size())
                error = "--labels: expected CONTROL,TEST";
            else {
                o.control.label = labels->substr(0, comma);
                o.test.label = labels->substr(comma + 1);
            }
        }
        if (!error.empty()) {
            err << "kinetoscope-cli diff: " << error << '\n' << kUsage;
            return std::nullopt;
        }
        return o;
    }

} // namespace

const char* const kDiffUsage = kUsage;

int runDiffCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CliArgs parsed(args,
        { "--ranks", "--iterations", "--control-ranks", "--test-ranks", "--control-iterations",
            "--test-iterations", "--device", "--labels", "--format", "--out", "--threads" },
        { "--hta-compat", "--short-names" });
    if (!parsed.ok() || parsed.positional().size() != 2) {
        err << "kinetoscope-cli diff: "
            << (parsed.ok() ? "give exactly two paths: CONTROL TEST" : parsed.error()) << '\n'
            << kUsage;
        return 2;
    }
    const auto options = parseOptions(parsed, err);
    if (!options)
        return 2;
    const std::string format = parsed.value("--format").value_or("table");
    if (format != "table" && format != "csv" && format != "json") {
        err << "kinetoscope-cli diff: unknown format '" << format << "'\n" << kUsage;
        return 2;
    }
    const std::string& controlPath = parsed.positional()[0];
    const std::string& testPath = parsed.positional()[1];
    std::optional<core::DiffTrace> traces[2];
    for (int side = 0; side < 2; ++side) {
        auto loaded = loadForCli({ parsed.positional()[static_cast<std::size_t>(side)] }, parsed, err);
        if (!loaded)
            return 1;
        auto trace = core::loadDiffTrace(*loaded, options->mode);
        if (!trace) {
            err << "kinetoscope-cli: " << trace.error().describe() << '\n';
            return 1;
        }
        traces[side] = std::move(trace).value();
    }
    const core::DiffTrace& control = *traces[0];
    const core::DiffTrace& test = *traces[1];

    const std::optional<std::string> outDir = parsed.value("--out");
    std::vector<DiffCall> calls;
    auto compare = [&](const std::string& file, const core::TraceDiffOptions& o) {
        calls.push_back({ "compare_traces", file, argsJson(o, controlPath, testPath),
            [&control, &test, o] { return core::compareTraces(control, test, o); } });
    };
    compare("compare_traces.json", *options);
    if (outDir) {
        // The variants HTA's reference holds: short names, GPU only, CPU only.
        auto shortNames = *options;
        shortNames.shortNames = true;
        compare("compare_traces__short_name.json", shortNames);
        auto gpu = *options;
        gpu.device = core::DiffDevice::Gpu;
        compare("compare_traces__gpu.json", gpu);
        auto cpu = *options;
        cpu.device = core::DiffDevice::Cpu;
        compare("compare_traces__cpu.json", cpu);
        if (!ensureDirectory(*outDir, "kinetoscope-cli diff", err))
            return 1;
    }
    calls.push_back({ "ops_diff", "ops_diff.json", argsJson(*options, controlPath, testPath),
        [&control, &test, o = *options] { return core::opsDiff(control, test, o); } });
    for (const DiffCall& call : calls)
        if (!emit(call, format, outDir, out, err))
            return 1;
    return 0;
}

} // namespace ks::cli
