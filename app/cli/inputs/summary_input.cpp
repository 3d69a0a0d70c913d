#include "app/cli/inputs/summary_input.h"

#include "app/cli/commands/job_path_cli.h"
#include "app/cli/output/cli_output.h"
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
    // What the summary knows: the ranks X1 flags per iteration and the compute
    // outliers of job mode. Why a rank is late needs its events.
    core::Table t;
    t.name = "stragglers";
    t.columns = { { "rank", "" }, { "iterations_flagged", "" }, { "compute_outlier", "" }, { "file", "" } };
    std::vector<std::int64_t> ranks;
    std::map<std::int64_t, std::int64_t> flagged;
    const auto rank = job->rankOverview.find(core::rank_overview::kRank);
    const auto flag = job->rankOverview.find(core::rank_overview::kStraggler);
    if (rank && flag)
        for (const auto& row : job->rankOverview.rows)
            if (core::cellAsDouble(row[*flag]).value_or(0) > 0)
                ++flagged[static_cast<std::int64_t>(core::cellAsDouble(row[*rank]).value_or(-1))];
    std::map<std::int64_t, bool> outlier;
    for (const std::size_t row : core::computeOutlierRows(job->profiles))
        outlier[job->ranks[row].rank] = true;
    std::vector<std::string> files;
    for (const core::JobRank& r : job->ranks) {
        if (!flagged.count(r.rank) && !outlier.count(r.rank))
            continue;
        t.addRow({ r.rank, flagged.count(r.rank) ? flagged[r.rank] : std::int64_t { 0 },
            std::int64_t { outlier.count(r.rank) ? 1 : 0 }, r.file });
        if (files.size() < 8)
            files.push_back(r.file);
    }
    std::vector<std::string> notes {
        "from the summary: ranks whose GPU busy time passes the median by the straggler margin (per "
        "iteration) or whose GPU compute is an outlier; arrival_stragglers: who arrived last at the "
        "collectives and who waited, as on the folder; why a rank is late needs the events"
    };
    notes.insert(notes.end(), job->collectives.match.notes.begin(), job->collectives.match.notes.end());
    if (!files.empty()) {
        std::string command = "for why, open those ranks' traces: kinetoscope-cli stragglers";
        for (const std::string& f : files)
            command += " " + f;
        command += " (with the ranks they wait for: the job's folder, or --ranks of insights)";
        notes.push_back(command);
    }
    printWithNotes(withArrivalStragglers(
                       core::AnalysisOutput::of(core::HtaResult::dataFrame(std::move(t))), job->arrivals),
        notes, format, "stragglers", out);
    return 0;
}

} // namespace ks::cli
