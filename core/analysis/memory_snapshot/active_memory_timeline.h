#pragma once

#include "core/analysis/memory_snapshot/allocator_state.h"
#include "core/analysis/memory_snapshot/memory_snapshot.h"
#include "core/analysis/memory_snapshot/memoryviz_events.h"

#include <cstdint>
#include <vector>

namespace ks::core {

enum class AllocationOrigin : std::uint8_t
{
    Alloc, // an alloc (segment_alloc) event of the trace
    FreeWithoutAlloc, // freed in the trace, allocated before recording began
    SnapshotBlock, // live in the snapshot with no alloc in the trace
};

const char* allocationOriginName(AllocationOrigin origin); // "alloc", "free_without_alloc", "snapshot_block"

// One band of the timeline: an allocation (a segment, in the segment
// timeline) from its alloc to its free.
// The narrow fields last: 80 bytes, not 104 (one per alloc of the trace).
struct TimelineAllocation
{
    std::uint64_t addr = 0;
    std::uint64_t size = 0; // requested bytes (segment bytes in the segment timeline)
    std::int64_t eventIdx = -1; // raw trace index of the event that made it, -1 for a snapshot block
    std::int64_t timeUs = kNoTime;
    std::int64_t stream = 0;
    std::int64_t startAction = -1; // action index of its alloc, -1 = live from the start
    std::int64_t endAction = -1; // action index of its free, -1 = live at the end
    std::int64_t startStep = 0; // memory_viz's x of its start and end
    std::int64_t endStep = -1;
    SnapshotStackId stack;
    AllocationOrigin origin = AllocationOrigin::Alloc;
    bool drawn = true; // one of the largest maxEntries, else in memory_viz's summarized band
};

static_assert(sizeof(TimelineAllocation) == 80);

// memory_viz's event list with the timeline total and the Allocator State
// History header after each event.
struct TimelineRow
{
    MemoryVizEvent event;
    std::uint64_t allocated = 0; // Active Memory Timeline total after the event (requested bytes)
    std::int64_t timestep = 0; // memory_viz's x after the event
    std::uint64_t stateAllocated = 0; // "(allocated / reserved)" of the state history at this event
    std::uint64_t stateReserved = 0;
};

// memory_viz's Active Memory Timeline (or, for segments, its Active Cached
// Segment Timeline), replayed exactly: the same pairing by address, the same
// allocations counted from the start, the same x steps.
struct ActiveMemoryTimeline
{
    std::int64_t device = 0;
    std::vector<TimelineAllocation> allocations; // memory_viz's elements, in its order
    std::vector<TimelineRow> rows; // one per event of memory_viz's list (empty for segments)
    std::uint64_t actions = 0;
    bool syntheticAction = false; // no alloc/free at all: one initial allocation replayed as the action
    std::uint64_t initiallyAllocated = 0;
    std::uint64_t initialFromFrees = 0;
    std::uint64_t initialFromSnapshot = 0;
    std::uint64_t drawnElements = 0;
    std::uint64_t initialAllocated = 0;
    std::uint64_t finalAllocated = 0;
    std::uint64_t peakAllocated = 0; // over the initial state and after every action (first reached)
    std::uint64_t memoryVizMaxSize = 0; // memory_viz's y axis top (after actions only, drawn steps)
    std::int64_t timesteps = 0; // memory_viz's x axis length
    bool peakAtInitial = true;
    std::int64_t peakActionIndex = -1;
    std::int64_t peakEventIdx = -1; // raw trace index (a merged free: its free_requested), -1 = initial
    std::int64_t peakMvIdx = -1;
    std::int64_t peakTimeUs = kNoTime;
    std::int64_t peakTimestep = 0;
    std::vector<std::uint32_t> liveAtPeak; // allocation indices, largest first (then in element order)
    StateTotals stateBeforeFirst; // the state history with every event undone (blocks only)
};

enum class TimelineKind : std::uint8_t
{
    Blocks, // Active Memory Timeline: alloc / free_completed, active_allocated blocks
    Segments, // Active Cached Segment Timeline: segment_alloc / segment_free, segments
};

inline constexpr std::uint32_t kMemoryVizMaxEntries = 15000;

ActiveMemoryTimeline activeMemoryTimeline(const MemorySnapshot& snapshot, std::int64_t device,
    TimelineKind kind = TimelineKind::Blocks, std::uint32_t maxEntries = kMemoryVizMaxEntries);

} // namespace ks::core
