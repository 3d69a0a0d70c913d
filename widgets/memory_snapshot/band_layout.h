#pragma once

#include "core/analysis/memory_snapshot/active_memory_timeline.h"

#include <cstdint>
#include <vector>

namespace ks::widgets {

// One drawn allocation of the Active Memory Timeline as memory_viz draws it:
// a band of constant height (its requested bytes) whose bottom edge follows
// the stack of the allocations below it. `points` are the bottom edge's
// corners, by step: flat between two corners of equal offset, a 3-step slide
// down where an allocation below was freed.
struct SnapshotBand
{
    std::uint32_t allocation = 0; // index into ActiveMemoryTimeline::allocations
    double size = 0; // requested bytes: the band's height
    std::int64_t startStep = 0;
    std::int64_t endStep = 0; // the timeline's length when never freed
    std::uint32_t firstPoint = 0; // into BandLayout::points
    std::uint32_t pointCount = 0;
};

struct BandPoint
{
    std::int64_t step = 0;
    double offset = 0; // bytes below the band
};

// The stack's top after each action: the drawn bands, and the allocations
// memory_viz leaves out of its 15,000 bands (drawn as one grey band on top).
struct TotalPoint
{
    std::int64_t step = 0;
    double drawn = 0;
    double total = 0;
};

// Every band's geometry, built once off the GUI thread. memory_viz replays the
// same stack; a free in its middle moves every band above, so the corners
// grow with (frees × live bands). Past kMaxBandPoints the bands are dropped
// (`truncated`) and only the total is drawn: a picture never costs more than
// a bounded amount of memory.
struct BandLayout
{
    std::vector<SnapshotBand> bands; // in the stack's order of first push
    std::vector<BandPoint> points;
    std::vector<TotalPoint> totals; // one per action, plus the initial state first
    std::int64_t steps = 1; // the x axis length (at least 1)
    double maxTotal = 0;
    bool truncated = false;

    // The band's bottom offset at `step` (inside its [startStep, endStep]).
    double offsetAt(const SnapshotBand& band, double step) const;
    // The band under (step, bytes), or -1: the topmost band covering it.
    std::int64_t bandAt(double step, double bytes) const;
};

inline constexpr std::size_t kMaxBandPoints = 4'000'000;

BandLayout buildBandLayout(
    const core::ActiveMemoryTimeline& timeline, std::size_t maxPoints = kMaxBandPoints);

} // namespace ks::widgets
