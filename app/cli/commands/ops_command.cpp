// `kinetoscope-cli ops`: per-operator statistics equal to PyTorch's
// key_averages() (calls, self CPU, CPU total, shares, average; GPU time where
// the trace has GPU work), grouped by name or further.

#include "app/cli/cli_args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/output/cli_output.h"
#include "core/analysis/operators/operator_stats.h"

#include <optional>
#include <ostream>
#include <stdexcept>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli ops PATH... [--by name|shapes|node|rank|iteration] [--window A:B]\n"
        "       [--ranks R,..] [--format table|csv|json] [--threads N]\n"
        "  Per operator: calls, self CPU, CPU total, their shares of all self CPU time, average,\n"
        "  and GPU time and kernels launched where the trace has GPU work; PyTorch's key_averages()\n"
        "  rules. --window A:B keeps ops starting A..B microseconds after the trace's start.\n"
        "  With [memory] events (profile_memory=True): CPU Mem, Self CPU Mem, CUDA Mem, Self CUDA Mem.\n";

    // "A:B" in µs -> [A, B) in ns; problem set when it does not parse.
    void parseWindow(
        const std::string& text, std::optional<double>& from, std::optional<double>& to, std::string& problem)
    {
        const std::size_t colon = text.find(':');
        try {
            if (colon == std::string::npos)
                throw std::invalid_argument("no colon");
            if (colon > 0)
                from = std::stod(text.substr(0, colon));
            if (colon + 1 < text.size())
                to = std::stod(text.substr(colon + 1));
        } catch (...) {
            problem = "--window needs A:B in microseconds (either side may be empty), got \"" + text + "\"";
        }
    }

} // namespace

const char* const kOpsUsage = kUsage;

int runOpsCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CliArgs parsed(args, { "--by", "--window", "--ranks", "--format", "--threads" }, {});
    std::string problem;
    core::OperatorStatsOptions options;
    if (const auto by = parsed.value("--by")) {
        if (auto g = core::operatorGroupingNamed(*by))
            options.by = *g;
        else
            problem = "--by takes name, shapes, node, rank or iteration, got \"" + *by + "\"";
    }
    if (auto ranks = parseNumberList(parsed.value("--ranks"), problem))
        options.ranks = *ranks;
    std::optional<double> fromUs, toUs;
    if (const auto window = parsed.value("--window"))
        parseWindow(*window, fromUs, toUs, problem);
    const std::string format = outputFormat(parsed, problem);
    if (rejectArguments(parsed, problem, "kinetoscope-cli ops", kUsage, err))
        return 2;
    auto loaded = loadForCli(parsed.positional(), parsed, err);
    if (!loaded)
        return 1;
    const core::TimeNs origin = loaded->startNs();
    if (fromUs)
        options.windowStart = origin + static_cast<core::TimeNs>(*fromUs * 1000.0);
    if (toUs)
        options.windowEnd = origin + static_cast<core::TimeNs>(*toUs * 1000.0);
    const core::OperatorStats stats = core::operatorStats(*loaded, options);
    if (stats.error) { // input shapes are re-read from the file, which changed
        err << stats.error->describe() << '\n';
        return 1;
    }
    for (const std::string& note : stats.notes)
        err << "note: " << note << '\n';
    if (stats.rows.empty()) {
        out << "operator statistics: not applicable: no CPU operators"
            << (options.windowStart || options.windowEnd ? " in the window" : "") << '\n';
        return 0;
    }
    printResult(core::HtaResult::dataFrame(core::operatorStatsTable(stats, options.by)), format,
        "operator_stats", out);
    if (format == "table")
        out << "Self CPU time total: " << static_cast<double>(stats.selfCpuSum) / 1000.0 << " us\n";
    return 0;
}

} // namespace ks::cli
