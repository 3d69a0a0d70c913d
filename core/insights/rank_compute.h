#pragma once

// A rank's own compute, the time communication can hide behind: what
// exposed_communication weighs a collective against, on a folder (the path's
// collectives) and in a job summary (each collective slice's compute beside it,
// stored when the rank is summarised).

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/frame/intervals.h"

#include <vector>

namespace ks::core {

// The rank's compute, merged: its GPU compute kernels on a rank with GPU work; on
// a CPU-only rank (gloo) its CPU slices, less the collectives, the process group's
// calls (c10d::, waits) and the step and user annotations that span everything.
std::vector<Interval> rankCompute(const RankFrame& frame);

// Length of [from, to) that the merged intervals cover.
TimeNs coveredWithin(const std::vector<Interval>& merged, TimeNs from, TimeNs to);

} // namespace ks::core
