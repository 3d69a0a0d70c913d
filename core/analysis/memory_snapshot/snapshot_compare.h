#pragma once

#include "core/analysis/memory_snapshot/snapshot_summary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

// The numbers `memory --snapshot` prints per device (and compares).
struct SnapshotDeviceTotals
{
    std::uint64_t reserved = 0;
    std::uint64_t allocated = 0;
    std::uint64_t active = 0;
    std::uint64_t requested = 0; // requested bytes of the active blocks
    std::uint64_t segments = 0;
    std::uint64_t blocks = 0;
    std::uint64_t peakAllocated = 0; // the Active Memory Timeline's peak (requested bytes)
    std::uint64_t peakReserved = 0; // the Active Cached Segment Timeline's peak
    std::uint64_t oomEvents = 0;
};

SnapshotDeviceTotals deviceTotals(const DeviceSnapshotSummary& device);

struct FrameDelta
{
    std::string frame;
    std::uint64_t before = 0; // bytes in the first snapshot
    std::uint64_t after = 0;
    std::uint64_t countBefore = 0;
    std::uint64_t countAfter = 0;

    std::int64_t delta() const
    {
        return static_cast<std::int64_t>(after) - static_cast<std::int64_t>(before);
    }
};

struct DeviceComparison
{
    std::int64_t device = 0;
    bool inBefore = false;
    bool inAfter = false;
    SnapshotDeviceTotals before;
    SnapshotDeviceTotals after;
    std::vector<FrameDelta> peakByFrame; // live at each one's peak, by user frame, largest change first
    std::vector<FrameDelta> endByFrame; // live at each snapshot's end
};

// Two snapshots of the same program (before and after a change), device by
// device: the totals side by side and where the difference comes from.
std::vector<DeviceComparison> compareSnapshots(const MemorySnapshot& beforeSnapshot,
    const SnapshotSummary& before, const MemorySnapshot& afterSnapshot, const SnapshotSummary& after);

} // namespace ks::core
