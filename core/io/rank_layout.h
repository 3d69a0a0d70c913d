#pragma once

#include "core/io/rank_builder.h"
#include "core/model/rank_trace.h"

#include <vector>

namespace ks::core {

// What the builder staged, handed to the layout steps of RankBuilder::finish().
struct LayoutInput
{
    std::vector<RankBuilder::StagingTrack>& tracks;
    std::vector<std::uint32_t>& sliceTrack; // staging track per slice, file order
    std::vector<std::uint32_t>& sliceActivity; // staged activity row per slice (kNoRow: none), permuted too
    const RankBuilder::ThreadNames& names;
    std::vector<std::uint32_t> stagingToTrack {}; // filled by layoutTracks; kNoRow for dropped tracks
};

// Orders tracks (GPU streams first), sorts each track's slices, assigns nesting
// levels and extra lanes, and permutes the slice columns into track/level/start order.
void layoutTracks(RankTrace& trace, LayoutInput& input);

// Binds flow points to slices (deepest slice enclosing the point) and links
// each start to its end.
void resolveFlows(RankTrace& trace, std::vector<RankBuilder::FlowPoint>& flows,
    const std::vector<std::uint32_t>& stagingToTrack);

// Links GPU work to its CPU launch by the correlation arg where no ac2g flow did.
void linkByCorrelation(RankTrace& trace);

// Sorts links by source and builds the by-destination index.
void finalizeLinks(RankTrace& trace);

} // namespace ks::core
