#include "core/insights/balance_straggler.h"

#include "core/insights/arrive_with_first.h"

#include <algorithm>
#include <limits>

namespace ks::core {

namespace {

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

} // namespace

WhatIfRankEdits balanceStraggler(
    const FrameSet& frames, const JobCriticalPath& job, const std::vector<const Straggler*>& stragglers)
{
    std::int64_t rank = 0;
    std::vector<ArrivalStretch> stretches;
    for (const Straggler* s : stragglers) {
        if (s->medianRank < 0 || s->segment <= s->medianSegment)
            continue;
        std::size_t rankPos = 0;
        const RankCollective* late = lateCollective(job, *s, rankPos);
        if (!late || rankPos >= frames.ranks.size())
            continue;
        rank = s->rank;
        // It left its previous collective at the latest end at or before its arrival.
        TimeNs from = std::numeric_limits<TimeNs>::min();
        for (const RankCollective& rc : job.ranks[rankPos].collectives)
            if (rc.end <= late->arrival)
                from = std::max(from, rc.end);
        if (from == std::numeric_limits<TimeNs>::min())
            from = std::min(firstWork(frames.ranks[rankPos]), late->arrival);
        stretches.push_back({ from, late->arrival, s->segment - s->medianSegment });
    }
    return shortenedBeforeArrivals(rank, std::move(stretches));
}

} // namespace ks::core
