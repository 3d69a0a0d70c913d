#pragma once

// The straggler finding's fix as what-if edits: the straggler balanced, its work
// before each collective it arrived last at takes the median member's time. On
// the straggler's rank, the work since it left its previous collective (or since
// its first work) is shortened by its excess over the median member's segment,
// spread evenly over that stretch; the transfers stay. Re-timed on the job's
// path, the collective then waits for the next-latest member. The straggler rule
// takes the lower of this re-timing and the lead over the next-latest member: each
// bounds what the fix gives back (the re-timing the rest of the job's waits, the
// lead each collective's next arrival).

#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/cross_rank/stragglers.h"
#include "core/analysis/cross_rank/what_if.h"
#include "core/analysis/frame/hta_frame.h"

#include <vector>

namespace ks::core {

// The edits for the stragglers listed (all of one rank, from findStragglers on `job`,
// whose ranks are frames.ranks in order); empty when none is longer than its median.
WhatIfRankEdits balanceStraggler(
    const FrameSet& frames, const JobCriticalPath& job, const std::vector<const Straggler*>& stragglers);

} // namespace ks::core
