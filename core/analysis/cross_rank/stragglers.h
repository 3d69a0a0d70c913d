#pragma once

// Why the straggler is late: per iteration, the rank the
// others waited for, how much wait it caused, and what its path before that
// collective spent more time in than the median member's.
//
// A member's wait at a collective is its duration minus the transfer (the
// shortest member's duration), so no clock alignment is needed. The rank that
// caused the wait is the last to arrive: the member with the shortest duration.

#include "core/analysis/cross_rank/job_critical_path.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

struct NameDelta
{
    std::string name;
    TimeNs delta = 0; // straggler minus median member, ns
};

struct Straggler
{
    std::int64_t iteration = -1; // -1: collectives outside any ProfilerStep
    std::int64_t rank = 0;
    TimeNs waitCaused = 0; // Σ over the iteration's collectives of the others' wait for it
    // At `instance`, how long before it the next-latest member arrived (durations
    // compared, as for the wait): however fast it gets, that collective still
    // waits for the next-latest member, so fixing it gives back at most this.
    TimeNs aheadOfNext = 0;
    std::size_t collectives = 0; // collectives of the iteration it arrived last at
    // The collective where it caused the most wait, and the comparison there.
    std::uint32_t instance = 0;
    std::string collective;
    std::int64_t medianRank = -1; // -1 when no other member has a known path
    TimeNs segment = 0; // its path from the previous boundary to the arrival
    TimeNs medianSegment = 0;
    std::vector<NameDelta> reasons; // largest first, at most three, positive only
    // traceEvents index of the longest piece of the first reason on the straggler's
    // segment (where to look on the timeline), -1 when there is no reason.
    std::int64_t reasonEvent = -1;
    std::string why; // "rank 2: +14.2 ms in aten::…"
};

// Reads the pieces of the edges stragglerEdges(job) names (jobCriticalPath
// names them); without them a straggler's "why" has no reasons.
std::vector<Straggler> findStragglers(const JobCriticalPath& job);

// The condensed edges findStragglers compares: per iteration, the straggler's
// and the median other member's segment before the collective.
std::vector<RankEdge> stragglerEdges(const JobCriticalPath& job);

namespace stragglers {
    constexpr const char* kIteration = "iteration";
    constexpr const char* kRank = "rank";
    constexpr const char* kWaitCausedMs = "wait_caused_ms";
    constexpr const char* kCollectives = "collectives_last";
    constexpr const char* kCollective = "collective";
    constexpr const char* kMedianRank = "median_rank";
    constexpr const char* kSegmentMs = "segment_ms";
    constexpr const char* kMedianSegmentMs = "median_segment_ms";
    constexpr const char* kWhy = "why";
} // namespace stragglers

// One row per iteration; "not applicable" when no collective was joined.
AnalysisOutput stragglersTable(const JobCriticalPath& job);

} // namespace ks::core
