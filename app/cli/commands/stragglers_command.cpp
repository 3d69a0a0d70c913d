// `kinetoscope-cli stragglers`: per iteration the rank the others waited for,
// the wait it caused, and what its path before that collective spent longer
// in than the median member's; then, over every collective of the job, who
// arrived last how often and who waited (arrival_stragglers, which a job
// summary answers alike).

#include "app/cli/commands/commands.h"
#include "app/cli/commands/job_path_cli.h"
#include "app/cli/inputs/load_for_cli.h"
#include "app/cli/inputs/summary_input.h"
#include "app/cli/output/cli_output.h"
#include "core/analysis/cross_rank/arrival_stragglers.h"
#include "core/analysis/cross_rank/stragglers.h"

#include <ostream>

namespace ks::cli {

namespace {

    constexpr const char* kUsage =
        "usage: kinetoscope-cli stragglers PATH... [--iteration I | --window A:B]\n"
        "       [--format table|csv|json] [--threads N]\n"
        "  --iteration:  ProfilerStep#I only (default: every iteration)\n"
        "  --window:     A:B in us from the job's start\n";

} // namespace

const char* const kStragglersUsage = kUsage;

int runStragglersCommand(const std::vector<std::string>& args, std::ostream& out, std::ostream& err)
{
    const std::string command = "kinetoscope-cli stragglers";
    CliArgs parsed(args, { "--iteration", "--window", "--format", "--threads" }, {});
    std::string problem;
    const core::JobPathOptions options = jobPathOptions(parsed, problem);
    const std::string format = outputFormat(parsed, problem);
    if (rejectArguments(parsed, problem, command, kUsage, err))
        return 2;
    if (const auto summary = summaryArgument(parsed))
        return stragglersFromSummary(*summary, format, out, err);
    const auto frames = loadFramesForCli(parsed, core::AnalysisOptions {}, command, err);
    if (!frames)
        return 1;
    if (frames->ranks.size() < 2) { // nothing to compare: no need to build the job's path
        printWithNotes(core::AnalysisOutput::notApplicable("stragglers need at least two ranks"), {}, format,
            "stragglers", out);
        return 0;
    }
    const auto job = jobPathOf(*frames, options, parsed, command, err);
    if (!job)
        return 1;
    core::TraceSet traces;
    for (const core::RankFrame& frame : frames->ranks)
        traces.ranks.push_back(frame.trace);
    const core::ArrivalSummary arrivals = core::summarizeArrivals(traces);
    std::vector<std::string> notes = job->notes;
    if (!arrivals.clockNote.empty())
        notes.push_back("arrival_stragglers: " + arrivals.clockNote);
    printWithNotes(
        withArrivalStragglers(core::stragglersTable(*job), arrivals), notes, format, "stragglers", out);
    return 0;
}

} // namespace ks::cli
