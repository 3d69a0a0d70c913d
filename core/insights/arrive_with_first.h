#pragma once

// collective_skew's fix as what-if edits: every member of the dominated
// collectives arrives with the first (all the late ranks fixed). On each late
// member its work since it left its previous collective (or since its first
// work) is shortened by how late it arrived, spread evenly over that stretch;
// the transfers stay. Re-timed on the job's path, the collectives no longer wait
// and the path gives back what the ranks' other dependencies let it. The
// stretches become edits by shortenedBeforeArrivals, which the straggler's fix
// (balance_straggler.h) shares.

#include "core/analysis/cross_rank/collective_match.h"
#include "core/analysis/cross_rank/what_if.h"
#include "core/analysis/frame/hta_frame.h"

#include <cstddef>
#include <vector>

namespace ks::core {

// A rank's stretch before one of its arrivals at a collective (frame time) and how
// much of it a fix takes away.
struct ArrivalStretch
{
    TimeNs from = 0; // it left its previous collective (or began its work)
    TimeNs arrival = 0;
    TimeNs shortenBy = 0;
};

// The edits on `rank` that shorten each stretch by its amount, spread evenly over its
// work (every bound but the transfers); a stretch starting before the previous one's
// arrival starts there (windows never overlap). Empty when no stretch is left.
WhatIfRankEdits shortenedBeforeArrivals(std::int64_t rank, std::vector<ArrivalStretch> stretches);

// The start of the rank's first row (frame time), 0 when it has none.
TimeNs firstWork(const RankFrame& frame);

// skew / (skew + transfer) in % of one instance, on the recorded clocks (the
// collective skew table's wait_share_pct).
double waitSharePct(const CollectiveInstance& instance);

// The edits for the instances listed (indices into match.instances), whose
// rankIndex i is frames.ranks[i]. One WhatIfRankEdits per late rank.
std::vector<WhatIfRankEdits> arriveWithTheFirst(
    const FrameSet& frames, const CollectiveMatch& match, const std::vector<std::size_t>& instances);

} // namespace ks::core
