#include "core/analysis/cross_rank/arrival_stragglers.h"

#include "core/analysis/cross_rank/clock_offsets.h"
#include "core/analysis/tables/microseconds.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <string>

namespace ks::core {

namespace {

    std::string formatWait(TimeNs ns)
    {
        char text[32];
        std::snprintf(text, sizeof text, "%.3f ms", static_cast<double>(ns) / 1e6);
        return text;
    }

} // namespace

ArrivalSummary summarizeArrivalsOnOneClock(
    const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers)
{
    ArrivalSummary out;
    std::vector<RankArrivalStats> stats(rankNumbers.size());
    std::vector<std::map<std::int64_t, TimeNs>> waiters(rankNumbers.size()); // straggler -> rank -> wait
    for (std::size_t r = 0; r < rankNumbers.size(); ++r)
        stats[r].rank = rankNumbers[r];
    for (const CollectiveInstance& inst : match.instances) {
        if (inst.members.size() < 2)
            continue;
        ++out.instances;
        const std::size_t last = inst.lastArrivingMember();
        std::size_t first = 0;
        TimeNs nextLatest = std::numeric_limits<TimeNs>::min();
        for (std::size_t m = 0; m < inst.members.size(); ++m) {
            if (inst.members[m].start < inst.members[first].start)
                first = m;
            if (m != last)
                nextLatest = std::max(nextLatest, inst.members[m].start);
        }
        const CollectiveMember& lastMember = inst.members[last];
        RankArrivalStats& straggler = stats[lastMember.rankIndex];
        ++straggler.timesLast;
        straggler.lastBy += lastMember.start - nextLatest;
        ++stats[inst.members[first].rankIndex].timesFirst;
        for (std::size_t m = 0; m < inst.members.size(); ++m) {
            const CollectiveMember& member = inst.members[m];
            RankArrivalStats& s = stats[member.rankIndex];
            ++s.collectives;
            const TimeNs wait = lastMember.start - member.start;
            s.totalWait += wait;
            if (m != last && wait > 0) {
                straggler.waitCaused += wait;
                waiters[lastMember.rankIndex][rankNumbers[member.rankIndex]] += wait;
            }
        }
    }
    for (std::size_t r = 0; r < stats.size(); ++r) {
        if (stats[r].collectives == 0)
            continue;
        std::vector<std::pair<std::int64_t, TimeNs>> by(waiters[r].begin(), waiters[r].end());
        std::stable_sort(
            by.begin(), by.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        by.resize(std::min(by.size(), kWaitedByShown));
        stats[r].waitedBy = std::move(by);
        out.ranks.push_back(std::move(stats[r]));
    }
    std::stable_sort(
        out.ranks.begin(), out.ranks.end(), [](const RankArrivalStats& a, const RankArrivalStats& b) {
            return a.totalWait != b.totalWait ? a.totalWait < b.totalWait : a.rank < b.rank;
        });
    return out;
}

ArrivalSummary summarizeArrivals(const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers)
{
    const ClockOffsets clocks = estimateClockOffsets(rankNumbers, match);
    ArrivalSummary out = summarizeArrivalsOnOneClock(onEstimatedClocks(match, clocks), rankNumbers);
    out.clockNote = clockOffsetsNote(clocks);
    return out;
}

ArrivalSummary summarizeArrivals(const TraceSet& traces)
{
    std::vector<std::int64_t> rankNumbers;
    for (const auto& rank : traces.ranks)
        rankNumbers.push_back(rank->rank);
    return summarizeArrivals(matchCollectives(traces), rankNumbers);
}

AnalysisOutput arrivalStragglersTable(const ArrivalSummary& summary)
{
    if (summary.instances == 0)
        return AnalysisOutput::notApplicable("no collective appears on two ranks");
    namespace col = arrival_stragglers;
    Table t;
    t.name = "arrival_stragglers";
    for (const ColumnId& c : { col::kRank, col::kCollectives, col::kTimesLast, col::kTimesFirst,
             col::kPctLast, col::kTotalWait, col::kMeanWait, col::kWaitCaused, col::kLastBy, col::kWaitedBy })
        t.columns.push_back(c.column());
    for (const RankArrivalStats& s : summary.ranks) {
        std::string waitedBy;
        for (const auto& [rank, wait] : s.waitedBy)
            waitedBy += (waitedBy.empty() ? "" : ", ") + std::to_string(rank) + " (" + formatWait(wait) + ")";
        const auto n = static_cast<double>(s.collectives);
        t.addRow({ s.rank, static_cast<std::int64_t>(s.collectives), static_cast<std::int64_t>(s.timesLast),
            static_cast<std::int64_t>(s.timesFirst), 100.0 * static_cast<double>(s.timesLast) / n,
            microseconds(s.totalWait), microseconds(s.totalWait) / n, microseconds(s.waitCaused),
            microseconds(s.lastBy), waitedBy });
    }
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(t)));
}

} // namespace ks::core
