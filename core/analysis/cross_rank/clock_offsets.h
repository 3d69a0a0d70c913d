#pragma once

// Estimated clock offsets between ranks.
//
// Every member leaves a blocking collective within a few microseconds of the
// others, whatever time each arrived: the ends of one instance are one moment
// seen through each rank's clock. So the difference of two ranks' ends,
// over many instances, is the difference of their clocks. Each rank's offset
// is the median of its per-instance differences to the ranks already placed
// (rank index 0 is the reference, offset 0), after rejecting outliers (more
// than 3 robust standard deviations, from the median absolute deviation, away
// from the median). The spread is the largest distance of a kept difference
// from the offset: the estimate is good to about that much.
// Ranks joined to the reference only through sub-groups are placed in later
// rounds through the ranks placed before them.

#include "core/analysis/cross_rank/collective_match.h"

#include <cstddef>
#include <string>
#include <vector>

namespace ks::core {

struct RankClockOffset
{
    std::int64_t rank = 0; // trace rank number
    // Add to this rank's recorded times to put them on the reference's clock.
    TimeNs offset = 0;
    TimeNs spread = 0; // see the header comment; 0 for the reference
    std::size_t samples = 0; // collective instances used
    std::size_t rejected = 0; // instances rejected as outliers
    bool estimated = false; // false: no collective shared with a placed rank (offset 0)
};

struct ClockOffsets
{
    std::vector<RankClockOffset> ranks; // one per rank, in the order given
    std::size_t referenceIndex = 0;
    std::vector<std::string> notes; // ranks that could not be placed, too few samples

    // The offsets alone, for CollectiveSkewOptions::clockOffsets and the timeline.
    std::vector<TimeNs> offsets() const;
};

// rankNumbers[i] is the trace rank of the match's rankIndex i (a job summary has no traces).
ClockOffsets estimateClockOffsets(const std::vector<std::int64_t>& rankNumbers, const CollectiveMatch& match);
ClockOffsets estimateClockOffsets(const std::vector<const RankTrace*>& ranks, const CollectiveMatch& match);
ClockOffsets estimateClockOffsets(const TraceSet& traces, const CollectiveMatch& match);

// The match with every member's arrival and end moved onto the reference rank's
// clock (offsets indexed by rankIndex), instances again in order of first arrival.
// Who arrived last and who waited reads these: on ranks whose recorded clocks
// start at their own profiler start (CPU-only and old-format traces), the
// recorded arrivals name the rank whose clock runs behind, not the late one.
CollectiveMatch onEstimatedClocks(CollectiveMatch match, const ClockOffsets& clocks);

// One line naming the ranks the estimate moved by at least `notable` (the
// largest first, at most three), or empty when none moved that much.
std::string clockOffsetsNote(const ClockOffsets& clocks, TimeNs notable = 10'000);

} // namespace ks::core
