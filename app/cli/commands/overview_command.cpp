// `kinetoscope-cli overview`: X1's rank overview, one row per rank and
// iteration with stragglers flagged, for a person or a script.

#include "app/cli/cli_args.h"
#include "app/cli/commands/commands.h"
#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/inputs/summary_input.h"
#include "app/cli/output/cli_output.h"
#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/efficiency/efficiency.h"
#include "core/session/efficiency_request.h"

#include <iomanip>
#include <ostream>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli overview PATH... [--ranks R,..] [--iterations I,..]\n"
        "       [--margin F] [--format table|csv|json] [--hta-compat] [--threads N]\n"
        "  Below the table: Model FLOPs Utilisation of the steps (FLOPs of the ops `roofline`\n"
        "  models / (step time x the device's dense matrix peak)).\n";

    // MFU of the wanted ranks and iterations: one line (for a person below the table,
    // on stderr in the machine formats). FLOPs come from the ops' recorded shapes.
    void printMfu(core::TraceAnalyses& session, const core::AnalysisOptions& analysis, std::ostream& out)
    {
        const core::EfficiencyRequest request =
            core::efficiencyRequest(session.traces(), analysis.ranks.value_or(std::vector<std::int64_t> {}),
                analysis.iterations.value_or(std::vector<std::int64_t> {}));
        const core::DeviceChoice& device = request.device;
        const core::EfficiencyReport& report = *session.efficiency(request.options);
        if (report.error || !report.shapesRecorded || !report.mfu.mfu) {
            out << "MFU: not available ("
                << (report.error                    ? report.error->describe()
                           : !report.shapesRecorded ? std::string(core::kNoShapesMessage)
                                                    : device.note)
                << ")\n";
            return;
        }
        out << std::setprecision(4) << "MFU: " << *report.mfu.mfu * 100.0 << " % ("
            << report.mfu.modelFlops / 1e12 << " TFLOP in " << report.mfu.stepTimeUs / 1000.0
            << " ms of steps, " << report.mfu.peakLabel << " " << report.mfu.peakTflops << " TFLOP/s of "
            << device.peaks->name << ")\n";
    }

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
    const auto session = loadSessionForCli(parsed, err);
    if (!session)
        return 1;
    const auto frames = sessionFramesForCli(
        *session, options, cliWork(threadsOption(parsed)), "kinetoscope-cli overview", err);
    if (!frames)
        return 1;
    const core::AnalysisOutput result = core::rankOverview(*frames, options, overview);
    if (!result.ok) {
        out << "rank overview: not applicable: " << result.error << '\n';
        return 0;
    }
    printResult(result.result, format, "rank_overview", out);
    printMfu(*session, options, format == "table" ? out : err);
    return 0;
}

} // namespace ks::cli
