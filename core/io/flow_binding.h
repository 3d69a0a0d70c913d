#pragma once

#include "core/io/flow_points.h"
#include "core/io/rank_layout.h"
#include "core/model/rank_trace.h"

namespace ks::core {

// Binds flow points to slices (deepest slice enclosing the point) and links
// each start to its end, by final positions. It runs between layoutTracks and
// permuteSlices, and frees the points as it goes, so that they are gone before
// the permutation's copies: the load's peak (B4 of performance.md). Large
// groups are bound on input.helpers too, with the one-thread result.
void resolveFlows(RankTrace& trace, FlowPoints& flows, const LayoutInput& input);

} // namespace ks::core
