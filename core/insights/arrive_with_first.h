#pragma once

// collective_skew's fix as what-if edits: every member of the dominated
// collectives arrives with the first (all the late ranks fixed). On each late
// member its work since it left its previous collective (or since its first
// work) is shortened by how late it arrived, spread evenly over that stretch;
// the transfers stay. Re-timed on the job's path, the collectives no longer wait
// and the path gives back what the ranks' other dependencies let it.

#include "core/analysis/cross_rank/collective_match.h"
#include "core/analysis/cross_rank/what_if.h"
#include "core/analysis/frame/hta_frame.h"

#include <cstddef>
#include <vector>

namespace ks::core {

// skew / (skew + transfer) in % of one instance, on the recorded clocks (the
// collective skew table's wait_share_pct).
double waitSharePct(const CollectiveInstance& instance);

// The edits for the instances listed (indices into match.instances), whose
// rankIndex i is frames.ranks[i]. One WhatIfRankEdits per late rank.
std::vector<WhatIfRankEdits> arriveWithTheFirst(
    const FrameSet& frames, const CollectiveMatch& match, const std::vector<std::size_t>& instances);

} // namespace ks::core
