#pragma once

#include "core/model/rank_trace.h"

#include <array>
#include <cstdint>
#include <vector>

namespace ks::core {

// Busy time by kernel kind in fixed bins over time, per GPU stream.
//
// Bins are aligned on multiples of a power-of-two width counted from time 0,
// so a bin of width w lies inside exactly one bin of any larger power of two:
// each rank bins at the finest width that fits its own span into `bins` bins,
// and the job's profile is those bins summed into the job's coarser width,
// exactly, whatever the order, the shard or the process that binned each
// rank. No first pass over the files is needed to learn the job's span.
struct StreamProfile
{
    std::int64_t stream = -1;
    std::int64_t widthNs = 1;
    std::int64_t firstBin = 0; // absolute bin index (start / widthNs) of busy[0]
    // Per bin, ns busy with computation, communication, memory, other work.
    std::vector<std::array<std::int64_t, 4>> busy;
};

// floor(a / b) for b > 0, also for negative a.
std::int64_t floorDiv(std::int64_t a, std::int64_t b);

// The smallest power of two w >= minWidth with [start, end] inside `bins` bins of width w.
std::int64_t binWidthFor(std::int64_t start, std::int64_t end, int bins, std::int64_t minWidth = 1);

// One profile per GPU stream of the rank, over the rank's own span.
std::vector<StreamProfile> streamProfiles(const RankTrace& trace, int bins);

} // namespace ks::core
