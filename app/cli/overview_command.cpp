// `kinetoscope-cli overview`: X1's rank overview, one row per rank and
// iteration with stragglers flagged, for a person or a script.

#include "app/cli/cli_args.h"
#include "app/cli/cli_output.h"
#include "app/cli/commands.h"
#include "app/cli/load_for_cli.h"
#include "app/cli/summary_input.h"
#include "core/analysis/cross_rank/rank_overview.h"

#include <ostream>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli overview PATH... [--ranks R,..] [--iterations I,..]\n"
        "       [--margin F] [--format table|csv|json] [--hta-compat] [--threads N]\n";

} // namespace

const char* const kOverviewUsage = kUsage;

int runOverviewCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    CliArgs parsed(
        args, { "--ranks", "--iterations", "--margin", "--format", "--threads" }, { "--hta-compat" });
    std::string problem;
    core::AnalysisOptions options;
    options.mode = parsed.flag("--hta-compat") ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
    options.ranks = parseNumberList(parsed.value("--ranks"), problem);
    options.iterations = parseNumberList(parsed.value("--iterations"), problem);
    core::RankOverviewOptions overview;
    try {
        if (const auto margin = parsed.value("--margin"))
            overview.stragglerMargin = std::stod(*margin);
    } catch (...) {
        problem = "--margin needs a number";
    }
    const std::string format = outputFormat(parsed, problem);
    if (rejectArguments(parsed, problem, "kinetoscope-cli overview", kUsage, err))
        return 2;
    if (const auto summary = summaryArgument(parsed))
        return overviewFromSummary(*summary, format, out, err);
    auto frames = loadFramesForCli(parsed, options, "kinetoscope-cli overview", err);
    if (!frames)
        return 1;
    const core::AnalysisOutput result = core::rankOverview(frames.value(), options, overview);
    if (!result.ok) {
        out << "rank overview: not applicable: " << result.error << '\n';
        return 0;
    }
    printResult(result.result, format, "rank_overview", out);
    return 0;
}

} // namespace ks::cli
