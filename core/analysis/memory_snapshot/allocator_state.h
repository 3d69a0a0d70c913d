#pragma once

#include "core/analysis/memory_snapshot/memory_snapshot.h"
#include "core/analysis/memory_snapshot/memoryviz_events.h"

#include <cstdint>
#include <vector>

namespace ks::core {

struct StateSegment
{
    std::uint64_t addr = 0;
    std::uint64_t size = 0;
    std::int64_t stream = 0;
    SnapshotStackId stack;
};

struct StateBlock
{
    std::uint64_t addr = 0;
    std::uint64_t size = 0; // rounded
    std::uint64_t requestedSize = 0;
    bool pendingFree = false; // freed, waiting on another stream
    SnapshotStackId stack;
};

// The allocator as memory_viz's "Allocator State History" shows it at one
// event: the snapshot with every later event undone (a later alloc removes
// its block, a later free brings one back at the event's size, segment
// events grow or shrink the segments). Only active blocks are kept; the rest
// of a segment is free.
struct AllocatorState
{
    std::vector<StateSegment> segments; // by address
    std::vector<StateBlock> blocks; // by address
    std::uint64_t reserved = 0; // Σ segment sizes
    std::uint64_t allocated = 0; // Σ requested sizes of the blocks (the tab's header)
    std::uint64_t roundingLoss = 0; // Σ size - requested: "free space lost to rounding"
    std::uint64_t pendingFreeBytes = 0;
};

// mvIndex: an index into memoryVizEvents(trace) (its last = the snapshot
// itself); -1 = before the first event.
AllocatorState allocatorStateAt(const MemorySnapshot& snapshot, std::int64_t device, std::int64_t mvIndex);

struct StateTotals
{
    std::uint64_t allocated = 0;
    std::uint64_t reserved = 0;
};

struct StateHistory
{
    std::vector<StateTotals> atEvent; // per memory_viz event
    StateTotals beforeFirst;
};

// The header of every event at once (one backward pass).
StateHistory stateHistory(
    const MemorySnapshot& snapshot, std::int64_t device, const std::vector<MemoryVizEvent>& events);

} // namespace ks::core
