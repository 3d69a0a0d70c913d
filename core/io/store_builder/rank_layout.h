#pragma once

#include "core/common/background_work.h"
#include "core/io/store_builder/rank_builder.h"
#include "core/model/rank_trace.h"

#include <vector>

namespace ks::core {

// What the builder staged, handed to the layout steps of RankBuilder::finish().
struct LayoutInput
{
    std::vector<RankBuilder::StagingTrack>& tracks;
    std::vector<std::uint32_t>& sliceTrack; // staging track per slice, file order
    const RankBuilder::ThreadNames& names;
    std::vector<std::uint32_t> stagingToTrack {}; // filled by layoutTracks; kNoRow for dropped tracks
    // Filled by layoutTracks: the staged (file-order) slice at each final position.
    std::vector<std::uint32_t> order {};
    // Threads besides the calling one for binding large flow groups (may be
    // none): the store is the same with any number (tst_pipelined_read).
    std::vector<BackgroundWork*> helpers {};
};

// Orders tracks (GPU streams first), sorts each track's slices and assigns
// nesting levels and extra lanes: the tracks' ranges and input.order give each
// slice its final position; the columns stay in staging order until permuteSlices.
void layoutTracks(RankTrace& trace, LayoutInput& input);

// Permutes the slice columns into track/level/start order; frees input.order.
void permuteSlices(RankTrace& trace, LayoutInput& input);

// Links GPU work to its CPU launch by the correlation arg where no ac2g flow did.
void linkByCorrelation(RankTrace& trace);

// Sorts links by source and builds the by-destination index.
void finalizeLinks(RankTrace& trace);

} // namespace ks::core
