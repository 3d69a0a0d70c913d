#pragma once

#include "core/common/background_work.h"
#include "core/io/store_builder/flow_points.h"
#include "core/io/store_builder/rank_layout.h"
#include "core/model/rank_trace.h"

namespace ks::core {

// Sorts each flow group's starts and ends by id and time and pairs them, the
// k-th start of an id with its k-th end; the rest are counted as orphans and
// dropped before the layout (half the points of some traces), so their memory
// is not part of the load's peak (B4). Runs before layoutTracks.
void pairFlows(RankTrace& trace, FlowPoints& flows, const std::vector<BackgroundWork*>& helpers);

// Binds paired flow points to slices (the innermost slice enclosing the point on
// its track, a lane slice overlapping without nesting included) and links
// each start to its end, by final positions. It runs between layoutTracks and
// permuteSlices, and frees the points as it goes, so that they are gone before
// the permutation's copies: the load's peak (B4 of performance.md). Large
// groups are bound on input.helpers too, with the one-thread result.
void resolveFlows(RankTrace& trace, FlowPoints& flows, const LayoutInput& input);

} // namespace ks::core
