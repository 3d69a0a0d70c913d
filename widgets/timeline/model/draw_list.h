#pragma once

#include "widgets/timeline/model/timeline_types.h"

#include <cstdint>
#include <vector>

namespace ks::widgets {

class RankTimeline;
struct CounterTrack;
struct RankMatches;
struct CriticalPathMarks;
struct RankPathMarks;

enum DrawFlag : std::uint8_t
{
    kDrawMerged = 1, // a block of several sub-pixel slices
    kDrawMatch = 2, // the slice, or a slice in the block, matches the search
};

// One rectangle of a slice row: a slice, or a block of merged sub-pixel slices
// (T3). x is in pixels from the left of the track area.
struct SliceDrawItem
{
    float x0 = 0;
    float x1 = 0;
    std::uint32_t slice = 0; // the slice; for a block its longest slice
    std::uint32_t count = 1; // slices drawn by this rectangle
    std::uint16_t lane = 0;
    std::uint8_t colorKey = 0;
    std::uint8_t shade = 3; // occupancy level of a block (0 pale .. 3 solid)
    std::uint8_t flags = 0;
};

// One column span of a counter row: the value's range over [x0, x1).
struct CounterDrawItem
{
    float x0 = 0;
    float x1 = 0;
    double lo = 0;
    double hi = 0;
};

struct SliceDrawParams
{
    TimeRange raw; // the view in the rank's raw time
    double width = 1; // pixels of the track area
    ColorMode mode = ColorMode::KernelType;
    const RankMatches* matches = nullptr; // search results of this rank, or null
    // Critical path mode: the rank's path; null (not computed yet) draws kind colours.
    const CriticalPathMarks* criticalPath = nullptr;
    // Job path mode: the job's path on this rank; null (not computed) draws kind colours.
    const RankPathMarks* jobPath = nullptr;
    // Diff mode: the DiffClass of each NameId of the rank; null draws every slice as unchanged.
    const std::vector<std::uint8_t>* nameClasses = nullptr;
};

// Slices narrower than this are merged with their neighbours into blocks.
constexpr double kMergePx = 2.0;

// Builds the rectangles of one slice track, lane by lane, each lane in x order.
// Per lane the cost is O(items * log n) and there are at most ~2 items per
// kMergePx pixels, whatever the number of slices: each sub-pixel run is
// skipped with one binary search and summarized with the level's pyramid.
// Every slice intersecting the view lies inside the x extent of exactly one
// item of its lane (tests check this).
std::vector<SliceDrawItem> buildSliceDrawList(
    const RankTimeline& rank, std::uint32_t track, const SliceDrawParams& params);

// The step chart of a counter: O(width * log n) items.
std::vector<CounterDrawItem> buildCounterDrawList(const CounterTrack& counter, TimeRange raw, double width);

} // namespace ks::widgets
