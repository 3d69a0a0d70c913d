#pragma once

#include "core/analysis/memory_snapshot/memory_snapshot.h"

#include <array>
#include <cstdint>
#include <map>
#include <string>

namespace ks::core {

// What the snapshot's segments and blocks of one device add up to (memory_viz,
// torch's _memory_viz.py segsum, and the fragmentation measures).
struct SegmentStats
{
    std::uint64_t segments = 0;
    std::map<std::string, std::uint64_t> segmentsByType; // large / small
    std::uint64_t expandableSegments = 0;
    std::uint64_t reserved = 0; // Σ total_size
    std::uint64_t allocated = 0; // Σ size of active_allocated blocks
    std::uint64_t active = 0; // Σ size of active_allocated + active_pending_free
    std::uint64_t requestedActive = 0; // Σ requested_size of active blocks
    std::uint64_t requestedAllocated = 0; // Σ requested_size of active_allocated blocks
    std::uint64_t blocks = 0;
    std::array<std::uint64_t, 3> blocksByState {}; // indexed by BlockState
    std::array<std::uint64_t, 3> bytesByState {};
    std::uint64_t largestInactiveBlock = 0;
    std::uint64_t largestFreeGap = 0; // longest run of non-active blocks in one segment
    // _memory_viz.py segsum(): internal = rounding in active_allocated blocks;
    // external = every other block (inactive and pending free).
    std::uint64_t segsumAllocated = 0;
    std::uint64_t segsumFreeExternal = 0;
    std::uint64_t segsumFreeInternal = 0;
    double segsumInternalPct = 0; // one decimal, as segsum prints it
    // MemoryViz.js calculate_fragmentation: Σ (free gap)² / reserved²; 1 = one
    // free gap, smaller = free memory in more pieces.
    long double sumSquaredFree = 0;
    double fragmentation = 0;
    double freeNotInLargestGapFraction = 0; // 1 - largest gap / (reserved - active)
};

SegmentStats segmentStats(const MemorySnapshot& snapshot, std::int64_t device);

} // namespace ks::core
