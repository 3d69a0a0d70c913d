#include "core/insights/balance_straggler.h"

#include <algorithm>
#include <limits>

namespace ks::core {

namespace {

    TimeNs firstWork(const RankFrame& frame)
    {
        TimeNs first = std::numeric_limits<TimeNs>::max();
        for (const FrameRow& row : frame.rows)
            first = std::min(first, row.ts);
        return first == std::numeric_limits<TimeNs>::max() ? 0 : first;
    }

    // The straggler's collective at its `instance`, and its rank's position.
    const RankCollective* lateCollective(const JobCriticalPath& job, const Straggler& s, std::size_t& rankPos)
    {
        if (s.instance >= job.path.collectives.size())
            return nullptr;
        for (const JoinedCollective::Member& m : job.path.collectives[s.instance].members)
            if (m.rankPos < job.ranks.size() && job.ranks[m.rankPos].rank == s.rank) {
                rankPos = m.rankPos;
                return &job.ranks[m.rankPos].collectives[m.local];
            }
        return nullptr;
    }

    struct Stretch
    {
        TimeNs from = 0; // frame time: it left its previous collective
        TimeNs arrival = 0;
        TimeNs excess = 0;
    };

} // namespace

WhatIfRankEdits balanceStraggler(
    const FrameSet& frames, const JobCriticalPath& job, const std::vector<const Straggler*>& stragglers)
{
    WhatIfRankEdits edits;
    std::vector<Stretch> stretches;
    for (const Straggler* s : stragglers) {
        if (s->medianRank < 0 || s->segment <= s->medianSegment)
            continue;
        std::size_t rankPos = 0;
        const RankCollective* late = lateCollective(job, *s, rankPos);
        if (!late || rankPos >= frames.ranks.size())
            continue;
        edits.rank = s->rank;
        // It left its previous collective at the latest end at or before its arrival.
        TimeNs from = std::numeric_limits<TimeNs>::min();
        for (const RankCollective& rc : job.ranks[rankPos].collectives)
            if (rc.end <= late->arrival)
                from = std::max(from, rc.end);
        if (from == std::numeric_limits<TimeNs>::min())
            from = std::min(firstWork(frames.ranks[rankPos]), late->arrival);
        stretches.push_back({ from, late->arrival, s->segment - s->medianSegment });
    }
    std::sort(stretches.begin(), stretches.end(),
        [](const Stretch& a, const Stretch& b) { return a.arrival < b.arrival; });
    TimeNs covered = std::numeric_limits<TimeNs>::min(); // windows may not overlap
    for (const Stretch& s : stretches) {
        const TimeNs from = std::max(s.from, covered);
        if (s.arrival <= from)
            continue;
        covered = s.arrival;
        const double keep = std::max(
            0.0, 1.0 - static_cast<double>(s.excess) / static_cast<double>(s.arrival - from));
        for (const PathBound bound : { PathBound::Cpu, PathBound::GpuCompute, PathBound::GpuCommWait,
                 PathBound::LaunchOverhead, PathBound::KernelGap })
            edits.windows.push_back({ from, s.arrival, bound, keep });
    }
    std::stable_sort(edits.windows.begin(), edits.windows.end(),
        [](const WhatIfRankEdits::Window& a, const WhatIfRankEdits::Window& b) { return a.start < b.start; });
    return edits;
}

} // namespace ks::core
