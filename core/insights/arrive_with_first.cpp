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

namespace {

    // A late member's stretch before its arrival and how much of it goes.
    struct Lateness
    {
        TimeNs from = 0; // recorded clock: it left its previous collective
        TimeNs arrival = 0;
        TimeNs late = 0; // arrival - the first member's arrival
    };

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

    TimeNs firstWork(const RankFrame& frame)
    {
        TimeNs first = 0;
        bool any = false;
        for (const FrameRow& row : frame.rows)
            if (!any || row.ts < first) {
                first = row.ts;
                any = true;
            }
        return first;
    }

} // namespace

std::vector<WhatIfRankEdits> arriveWithTheFirst(
    const FrameSet& frames, const CollectiveMatch& match, const std::vector<std::size_t>& instances)
{
    const std::size_t rankCount = frames.ranks.size();
    const std::vector<std::vector<TimeNs>> ends = collectiveEnds(match, rankCount);
    std::vector<std::optional<TimeNs>> firstWorkOf(rankCount); // scanned once per rank, when needed
    std::map<std::size_t, std::vector<Lateness>> byRank;
    for (const std::size_t i : instances) {
        const CollectiveInstance& inst = match.instances[i];
        const TimeNs first = inst.firstArrival();
        for (const CollectiveMember& m : inst.members) {
            if (m.rankIndex >= rankCount || m.start <= first)
                continue;
            // It left its previous collective at the latest end at or before its arrival.
            const std::vector<TimeNs>& e = ends[m.rankIndex];
            const auto it = std::upper_bound(e.begin(), e.end(), m.start);
            std::optional<TimeNs>& rankStart = firstWorkOf[m.rankIndex];
            if (it == e.begin() && !rankStart)
                rankStart = firstWork(frames.ranks[m.rankIndex]) + frames.minTs;
            const TimeNs from = it == e.begin() ? *rankStart : *std::prev(it);
            byRank[m.rankIndex].push_back({ std::min(from, m.start), m.start, m.start - first });
        }
    }
    std::vector<WhatIfRankEdits> out;
    for (auto& [rankIndex, stretches] : byRank) {
        std::sort(stretches.begin(), stretches.end(),
            [](const Lateness& a, const Lateness& b) { return a.arrival < b.arrival; });
        WhatIfRankEdits edits;
        edits.rank = frames.ranks[rankIndex].rank;
        TimeNs covered = std::numeric_limits<TimeNs>::min(); // windows may not overlap
        for (const Lateness& s : stretches) {
            const TimeNs from = std::max(s.from, covered);
            if (s.arrival <= from)
                continue;
            covered = s.arrival;
            const TimeNs length = s.arrival - from;
            const double keep =
                std::max(0.0, 1.0 - static_cast<double>(s.late) / static_cast<double>(length));
            for (const PathBound bound : { PathBound::Cpu, PathBound::GpuCompute, PathBound::GpuCommWait,
                     PathBound::LaunchOverhead, PathBound::KernelGap })
                edits.windows.push_back({ from - frames.minTs, s.arrival - frames.minTs, bound, keep });
        }
        if (!edits.empty()) {
            std::stable_sort(edits.windows.begin(), edits.windows.end(),
                [](const WhatIfRankEdits::Window& a, const WhatIfRankEdits::Window& b) {
                    return a.start < b.start;
                });
            out.push_back(std::move(edits));
        }
    }
    return out;
}

} // namespace ks::core
