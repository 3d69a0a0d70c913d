#include "app/cli/inputs/summary_input.h"

#include "app/cli/commands/job_path_cli.h"
#include "app/cli/output/cli_output.h"
#include "core/analysis/cross_rank/iteration_stragglers.h"
#include "core/analysis/cross_rank/rank_overview.h"
#include "core/summary/job_overview.h"

#include <algorithm>
#include <array>
#include <fstream>
#include <ostream>

namespace ks::cli {

namespace {

    bool isSqliteFile(const std::string& path)
    {
        std::ifstream in(path, std::ios::binary);
        std::array<char, 16> head {};
        if (!in.read(head.data(), head.size()))
            return false;
        return std::string_view(head.data(), head.size()) == std::string_view("SQLite format 3\0", 16);
    }

    std::optional<core::JobOverview> readJob(const std::string& path, std::size_t top, std::ostream& err)
    {
        auto job = core::readJobOverview(path, top);
        if (!job) {
            err << job.error().describe() << '\n';
            return std::nullopt;
        }
        return std::move(job).value();
    }

} // namespace

std::optional<std::string> summaryArgument(const CliArgs& args)
{
    if (args.positional().size() != 1)
        return std::nullopt;
    const std::string& path = args.positional().front();
    return isSqliteFile(path) ? std::optional(path) : std::nullopt;
}

int overviewFromSummary(
    const std::string& path, const std::string& format, std::ostream& out, std::ostream& err)
{
    const auto job = readJob(path, 20, err);
    if (!job)
        return 1;
    printResult(core::HtaResult::dataFrame(job->rankOverview), format, "rank_overview", out);
    return 0;
}

int collectivesFromSummary(
    const std::string& path, std::size_t top, const std::string& format, std::ostream& out, std::ostream& err)
{
    const auto job = readJob(path, top, err);
    if (!job)
        return 1;
    // As `collectives` prints a folder: the match's notes, then the table.
    std::ostream& notes = format == "table" ? out : err;
    for (const std::string& note : job->collectives.match.notes)
        notes << "note: " << note << '\n';
    if (!job->collectiveSkew.ok) {
        out << "collective skew: not applicable: " << job->collectiveSkew.error << '\n';
        return 0;
    }
    printResult(job->collectiveSkew.result, format, "collective_skew", out);
    return 0;
}

int stragglersFromSummary(
    const std::string& path, const std::string& format, std::ostream& out, std::ostream& err)
{
    const auto job = readJob(path, 20, err);
    if (!job)
        return 1;
    // Per iteration the rank the others waited for, from the stored arrivals and ends as
    // the folder picks it; why it was late (its path before the collective) needs its events.
    const std::vector<core::IterationStraggler> found = core::iterationStragglers(
        job->collectives.match, job->collectives.ranks, job->collectives.rankNumbers);
    std::vector<std::string> notes {
        "from the summary's collectives: per iteration the rank the others "
        "waited for and the wait it caused, as on the folder; arrival_stragglers: "
        "who arrived last at the collectives and who waited, as on the folder; why "
        "a rank is late (segment_ms, why) needs its events"
    };
    notes.insert(notes.end(), job->collectives.match.notes.begin(), job->collectives.match.notes.end());
    if (!job->arrivals.clockNote.empty())
        notes.push_back("arrival_stragglers: " + job->arrivals.clockNote);
    std::vector<std::int64_t> late;
    for (const core::IterationStraggler& s : found)
        if (std::find(late.begin(), late.end(), s.rank) == late.end())
            late.push_back(s.rank);
    std::string outliers;
    for (const std::size_t row : core::computeOutlierRows(job->profiles))
        outliers += (outliers.empty() ? "" : ", ") + std::to_string(job->ranks[row].rank);
    if (!outliers.empty())
        notes.push_back("GPU compute outliers (the utilisation profiles): rank " + outliers);
    std::string files;
    std::size_t named = 0;
    for (const core::JobRank& r : job->ranks)
        if (named < 8 && std::find(late.begin(), late.end(), r.rank) != late.end()) {
            files += " " + r.file;
            ++named;
        }
    if (!files.empty())
        notes.push_back("for why, open those ranks' traces: kinetoscope-cli stragglers" + files
            + " (with the ranks they wait for: the job's folder, or --ranks of insights)");
    printWithNotes(withArrivalStragglers(core::iterationStragglersTable(found), job->arrivals), notes, format,
        "stragglers", out);
    return 0;
}

} // namespace ks::cli
