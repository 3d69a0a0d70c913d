#pragma once

#include "core/analysis/memory_snapshot/memory_snapshot.h"

#include <cstdint>
#include <span>
#include <vector>

namespace ks::core {

// One line of memory_viz's event list: a raw trace entry, except that a
// free_requested directly followed by the free_completed of the same address
// is one `free` (the completed entry is dropped from the list).
struct MemoryVizEvent
{
    std::uint32_t raw = 0; // index into the device's trace
    std::int32_t completed = -1; // raw index of the merged free_completed, -1 if none
    TraceAction action = TraceAction::Unknown; // Free for a merged pair
};

std::vector<MemoryVizEvent> memoryVizEvents(std::span<const TraceEntry> trace);

} // namespace ks::core
