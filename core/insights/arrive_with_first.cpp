#include "core/insights/arrive_with_first.h"

#include <algorithm>
#include <iterator>
#include <limits>
#include <map>
#include <optional>

namespace ks::core {

double waitSharePct(const CollectiveInstance& instance)
{
    const TimeNs skew = instance.lastArrival() - instance.firstArrival();
    const TimeNs transfer = std::max<TimeNs>(0, instance.firstEnd() - instance.lastArrival());
    return skew + transfer > 0 ? 100.0 * static_cast<double>(skew) / static_cast<double>(skew + transfer)
                               : 0.0;
}

WhatIfRankEdits shortenedBeforeArrivals(std::int64_t rank, std::vector<ArrivalStretch> stretches)
{
    std::sort(stretches.begin(), stretches.end(),
        [](const ArrivalStretch& a, const ArrivalStretch& b) { return a.arrival < b.arrival; });
    WhatIfRankEdits edits;
    edits.rank = rank;
    TimeNs covered = std::numeric_limits<TimeNs>::min();
    for (const ArrivalStretch& s : stretches) {
        const TimeNs from = std::max(s.from, covered);
        if (s.arrival <= from)
            continue;
        covered = s.arrival;
        const double keep =
            std::max(0.0, 1.0 - static_cast<double>(s.shortenBy) / static_cast<double>(s.arrival - from));
        for (const PathBound bound : { PathBound::Cpu, PathBound::GpuCompute, PathBound::GpuCommWait,
                 PathBound::LaunchOverhead, PathBound::KernelGap })
            edits.windows.push_back({ from, s.arrival, bound, keep });
    }
    std::stable_sort(edits.windows.begin(), edits.windows.end(),
        [](const WhatIfRankEdits::Window& a, const WhatIfRankEdits::Window& b) { return a.start < b.start; });
    return edits;
}

TimeNs firstWork(const RankFrame& frame)
{
    TimeNs first = std::numeric_limits<TimeNs>::max();
    for (const FrameRow& row : frame.rows)
        first = std::min(first, row.ts);
    return first == std::numeric_limits<TimeNs>::max() ? 0 : first;
}

namespace {

    // Per rank the ends of every collective it took part in, ascending.
    std::vector<std::vector<TimeNs>> collectiveEnds(const CollectiveMatch& match, std::size_t rankCount)
    {
        std::vector<std::vector<TimeNs>> ends(rankCount);
        for (const CollectiveInstance& inst : match.instances)
            for (const CollectiveMember& m : inst.members)
                if (m.rankIndex < rankCount)
                    ends[m.rankIndex].push_back(m.end);
        for (auto& e : ends)
            std::sort(e.begin(), e.end());
        return ends;
    }

} // namespace

std::vector<WhatIfRankEdits> arriveWithTheFirst(
    const FrameSet& frames, const CollectiveMatch& match, const std::vector<std::size_t>& instances)
{
    const std::size_t rankCount = frames.ranks.size();
    const std::vector<std::vector<TimeNs>> ends = collectiveEnds(match, rankCount);
    std::vector<std::optional<TimeNs>> firstWorkOf(rankCount); // scanned once per rank, when needed
    std::map<std::size_t, std::vector<ArrivalStretch>> byRank;
    for (const std::size_t i : instances) {
        const CollectiveInstance& inst = match.instances[i];
        const TimeNs first = inst.firstArrival();
        for (const CollectiveMember& m : inst.members) {
            if (m.rankIndex >= rankCount || m.start <= first)
                continue;
            // It left its previous collective at the latest end at or before its arrival
            // (recorded clocks here, frame time in the stretch).
            const std::vector<TimeNs>& e = ends[m.rankIndex];
            const auto it = std::upper_bound(e.begin(), e.end(), m.start);
            std::optional<TimeNs>& rankStart = firstWorkOf[m.rankIndex];
            if (it == e.begin() && !rankStart)
                rankStart = firstWork(frames.ranks[m.rankIndex]) + frames.minTs;
            const TimeNs from = it == e.begin() ? *rankStart : *std::prev(it);
            byRank[m.rankIndex].push_back(
                { std::min(from, m.start) - frames.minTs, m.start - frames.minTs, m.start - first });
        }
    }
    std::vector<WhatIfRankEdits> out;
    for (auto& [rankIndex, stretches] : byRank) {
        WhatIfRankEdits edits = shortenedBeforeArrivals(frames.ranks[rankIndex].rank, std::move(stretches));
        if (!edits.empty())
            out.push_back(std::move(edits));
    }
    return out;
}

} // namespace ks::core
