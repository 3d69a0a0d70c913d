#pragma once

// The time a critical path spends on a rank inside given ranges, answered from
// sorted segment ends instead of a scan of every segment: the rules ask it once
// per kernel, stretch or step, and a long path has a million segments.

#include "core/analysis/cross_rank/cross_rank_path.h"
#include "core/analysis/frame/intervals.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ks::core {

class PathTimeIndex
{
public:
    explicit PathTimeIndex(const std::vector<PathSegment>& segments);

    // The sum over the rank's segments of their overlap with `merged` (sorted,
    // disjoint intervals in the segments' time base): what a scan of every
    // segment against every interval gives, overlapping segments counted each.
    TimeNs within(std::int64_t rank, const std::vector<Interval>& merged) const;

private:
    // One rank's segments as their sorted starts and sorted ends, each with the
    // running sum before it, relative to `base` so that the sums stay small.
    struct RankEnds
    {
        TimeNs base = 0;
        std::vector<TimeNs> starts;
        std::vector<TimeNs> ends;
        std::vector<TimeNs> startSums; // startSums[i] = starts[0] + ... + starts[i-1]
        std::vector<TimeNs> endSums;
    };

    // Σ over segments of their time before t: Σ_{start<t} (t - start) - Σ_{end<t} (t - end).
    static TimeNs timeBefore(const RankEnds& r, TimeNs t);

    std::unordered_map<std::int64_t, RankEnds> m_ranks;
};

} // namespace ks::core
