// The cross-rank path as tables for the CLI and the app.

#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/tables/microseconds.h"
#include "core/analysis/tables/table_dict.h"

#include <algorithm>

namespace ks::core {

namespace {

    double ms(TimeNs ns)
    {
        return static_cast<double>(ns) / 1e6;
    }

    std::size_t joinedCount(const CrossRankPath& path)
    {
        return static_cast<std::size_t>(std::count_if(path.collectives.begin(), path.collectives.end(),
            [](const JoinedCollective& c) { return c.joined; }));
    }

    Table summaryTable(const JobCriticalPath& job)
    {
        using namespace jobpath;
        Table t;
        t.name = "summary";
        t.columns = { kLengthMs.column(), kMeasuredMs.column(), kRanks.column(), kCollectives.column(),
            kHops.column() };
        t.addRow({ ms(job.path.length), ms(job.measuredTime), static_cast<std::int64_t>(job.ranks.size()),
            static_cast<std::int64_t>(joinedCount(job.path)),
            static_cast<std::int64_t>(job.path.hops.size()) });
        return t;
    }

    // Per rank on the path and bound type; ranks the path never visits are left out.
    Table byRankTable(const JobCriticalPath& job)
    {
        using namespace jobpath;
        Table t;
        t.name = "by_rank";
        t.columns = { kRank.column(), kModel.column() };
        for (std::size_t b = 0; b < kPathBoundCount; ++b)
            t.columns.push_back({ std::string(pathBoundName(static_cast<PathBound>(b))) + "_ms", "ms" });
        t.columns.push_back(kTotalMs.column());
        for (const CondensedRank& r : job.ranks) {
            const auto sums = job.path.timeByBound(r.rank);
            TimeNs total = 0;
            for (const TimeNs s : sums)
                total += s;
            if (total == 0)
                continue;
            std::vector<Cell> row { r.rank, std::string(r.serialModel ? "serial" : "graph") };
            for (const TimeNs s : sums)
                row.emplace_back(ms(s));
            row.emplace_back(ms(total));
            t.addRow(row);
        }
        return t;
    }

    Table hopsTable(const JobCriticalPath& job)
    {
        using namespace jobpath;
        Table t;
        t.name = "hops";
        t.columns = { kFromRank.column(), kToRank.column(), kCollective.column(), kInstance.column(),
            kPathOffsetMs.column() };
        for (const PathHop& h : job.path.hops)
            t.addRow({ h.fromRank, h.toRank, h.collective, static_cast<std::int64_t>(h.instance),
                ms(h.pathOffset) });
        return t;
    }

    Table segmentsTable(const JobCriticalPath& job)
    {
        using namespace jobpath;
        Table t;
        t.name = "segments";
        t.columns = { kPathOffsetMs.column(), kRank.column(), kBound.column(), kName.column(),
            kStartUs.column(), kDurationMs.column(), kEventIndex.column() };
        for (const PathSegment& s : job.path.segments)
            t.addRow({ ms(s.pathOffset), s.rank, std::string(pathBoundName(s.piece.bound)),
                s.piece.name.str(), microseconds(s.piece.start), ms(s.piece.duration), s.piece.eventIndex });
        return t;
    }

    double changePct(TimeNs before, TimeNs after)
    {
        return before > 0 ? 100.0 * static_cast<double>(after - before) / static_cast<double>(before) : 0.0;
    }

} // namespace

AnalysisOutput jobCriticalPathTables(const JobCriticalPath& job)
{
    if (!job.path.ok)
        return AnalysisOutput::notApplicable(
            job.path.notes.empty() ? std::string("no cross-rank path") : job.path.notes.back());
    return AnalysisOutput::of(dictOfTables({ { "summary", summaryTable(job) },
        { "by_rank", byRankTable(job) }, { "hops", hopsTable(job) }, { "segments", segmentsTable(job) } }));
}

TimeNs whatIfMeasuredTime(const JobCriticalPath& before, const JobCriticalPath& after)
{
    return before.measuredTime + (after.path.length - before.path.length);
}

AnalysisOutput whatIfTables(const JobCriticalPath& before, const JobCriticalPath& after)
{
    if (!before.path.ok || !after.path.ok)
        return AnalysisOutput::notApplicable("no cross-rank path to scale");
    using namespace jobpath;
    Table t;
    t.name = "what_if";
    t.columns = { kQuantity.column(), kBeforeMs.column(), kAfterMs.column(), kChangePct.column() };
    t.addRow({ std::string("path_length"), ms(before.path.length), ms(after.path.length),
        changePct(before.path.length, after.path.length) });
    const TimeNs estimated = whatIfMeasuredTime(before, after);
    t.addRow({ std::string("iteration_time"), ms(before.measuredTime), ms(estimated),
        changePct(before.measuredTime, estimated) });
    AnalysisOutput scaled = jobCriticalPathTables(after);
    HtaResult dict;
    dict.kind = HtaResult::Kind::Dict;
    dict.entries.emplace_back("what_if", HtaResult::dataFrame(std::move(t)));
    for (auto& entry : scaled.result.entries)
        dict.entries.emplace_back("after_" + entry.first, std::move(entry.second));
    return AnalysisOutput::of(std::move(dict));
}

} // namespace ks::core
