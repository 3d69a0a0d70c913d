#include "core/analysis/cross_rank/collective_skew.h"

#include "core/analysis/tables/microseconds.h"

#include <algorithm>
#include <limits>
#include <map>

namespace ks::core {

namespace {

    // One instance's times on the adjusted clocks.
    struct Timing
    {
        TimeNs firstArrival = std::numeric_limits<TimeNs>::max();
        TimeNs lastArrival = std::numeric_limits<TimeNs>::min();
        TimeNs firstEnd = std::numeric_limits<TimeNs>::max();
        TimeNs lastArrivingEnd = 0; // the end of the member that arrived last
        std::size_t lastRankIndex = 0;
    };

    Timing timingOf(const CollectiveInstance& inst, const std::vector<TimeNs>& offsets)
    {
        Timing t;
        for (const CollectiveMember& m : inst.members) {
            const TimeNs shift = m.rankIndex < offsets.size() ? offsets[m.rankIndex] : 0;
            const TimeNs start = m.start + shift;
            t.firstArrival = std::min(t.firstArrival, start);
            t.firstEnd = std::min(t.firstEnd, m.end + shift);
            if (start > t.lastArrival) {
                t.lastArrival = start;
                t.lastArrivingEnd = m.end + shift;
                t.lastRankIndex = m.rankIndex;
            }
        }
        return t;
    }

} // namespace

AnalysisOutput collectiveSkew(const TraceSet& traces, std::size_t top)
{
    CollectiveSkewOptions options;
    options.top = top;
    return collectiveSkew(traces, options);
}

AnalysisOutput collectiveSkew(const TraceSet& traces, const CollectiveSkewOptions& options)
{
    return collectiveSkew(traces, matchCollectives(traces), options);
}

namespace {

    // The table for a match whose rankIndex i is rank number rankNumbers[i].
    AnalysisOutput skewTable(const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers,
        TimeNs origin, const CollectiveSkewOptions& options)
    {
        namespace col = collective_skew_columns;

        struct Row
        {
            const CollectiveInstance* inst;
            Timing timing;
        };

        std::vector<Row> rows;
        for (const CollectiveInstance& inst : match.instances)
            if (inst.members.size() >= 2)
                rows.push_back({ &inst, timingOf(inst, options.clockOffsets) });
        if (rows.empty())
            return AnalysisOutput::notApplicable("no collective appears on two ranks");
        std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
            return a.timing.lastArrival - a.timing.firstArrival
                > b.timing.lastArrival - b.timing.firstArrival;
        });
        rows.resize(std::min(rows.size(), options.top));

        Table t;
        t.name = "collective_skew";
        for (const ColumnId& c : { col::kGroup, col::kBackend, col::kName, col::kInstance, col::kMatchedBy,
                 col::kRanks, col::kFirstArrival, col::kSkew, col::kLastRank, col::kTransfer, col::kWaitShare,
                 col::kMessageBytes, col::kBusBandwidth })
            t.columns.push_back(c.column());
        for (const Row& r : rows) {
            const CollectiveInstance& inst = *r.inst;
            const CollectiveGroup& group = match.group(inst.group);
            const Timing& tm = r.timing;
            const TimeNs skew = tm.lastArrival - tm.firstArrival;
            const TimeNs transfer = std::max<TimeNs>(0, tm.firstEnd - tm.lastArrival);
            const double share = skew + transfer > 0
                ? 100.0 * static_cast<double>(skew) / static_cast<double>(skew + transfer)
                : 0.0;
            Cell bytes;
            Cell busBandwidth;
            if (inst.messageBytes >= 0) {
                bytes = inst.messageBytes;
                // The last member to arrive does not wait: its time is the transfer.
                const TimeNs lastTime = tm.lastArrivingEnd - tm.lastArrival;
                const std::size_t groupRanks =
                    group.size > 0 ? static_cast<std::size_t>(group.size) : inst.members.size();
                if (lastTime > 0)
                    busBandwidth = static_cast<double>(inst.messageBytes) / static_cast<double>(lastTime)
                        * busBandwidthFactor(inst.name, groupRanks); // bytes/ns = GB/s
            }
            t.addRow({ group.label(), std::string(collectiveBackendName(group.backend)), inst.name,
                inst.ordinal, std::string(collectiveMatchRuleName(inst.rule)),
                static_cast<std::int64_t>(inst.members.size()), microseconds(tm.firstArrival - origin),
                microseconds(skew), rankNumbers[tm.lastRankIndex], microseconds(transfer), share, bytes,
                busBandwidth });
        }
        return AnalysisOutput::of(HtaResult::dataFrame(std::move(t)));
    }

} // namespace

AnalysisOutput collectiveSkew(
    const TraceSet& traces, const CollectiveMatch& match, const CollectiveSkewOptions& options)
{
    if (traces.ranks.size() < 2)
        return AnalysisOutput::notApplicable("collective skew needs at least two ranks");
    std::vector<std::int64_t> rankNumbers;
    for (const auto& rank : traces.ranks)
        rankNumbers.push_back(rank->rank);
    return skewTable(match, rankNumbers, traces.startNs(), options);
}

AnalysisOutput collectiveSkewOf(const CollectiveMatch& match, const std::vector<std::int64_t>& rankNumbers,
    TimeNs origin, const CollectiveSkewOptions& options)
{
    if (rankNumbers.size() < 2)
        return AnalysisOutput::notApplicable("collective skew needs at least two ranks");
    return skewTable(match, rankNumbers, origin, options);
}

std::vector<CollectiveArrival> sameCollectiveOnRanks(
    const CollectiveMatch& match, std::size_t rankIndex, std::uint32_t slice)
{
    std::vector<CollectiveArrival> arrivals;
    const auto instance = match.instanceOf(rankIndex, slice);
    if (!instance)
        return arrivals;
    for (const CollectiveMember& m : match.instances[*instance].members)
        arrivals.push_back({ m.rankIndex, m.slice, m.start, m.end });
    return arrivals;
}

std::vector<CollectiveArrival> sameCollectiveOnRanks(
    const std::vector<const RankTrace*>& ranks, std::size_t rankIndex, std::uint32_t slice)
{
    return sameCollectiveOnRanks(matchCollectives(ranks), rankIndex, slice);
}

} // namespace ks::core
