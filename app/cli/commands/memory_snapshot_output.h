#pragma once

#include "core/analysis/memory_snapshot/snapshot_compare.h"
#include "core/analysis/memory_snapshot/snapshot_overlay.h"
#include "core/analysis/memory_snapshot/snapshot_summary.h"

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ks::cli {

// One snapshot as `memory --snapshot` prints it.
struct SnapshotReport
{
    const core::MemorySnapshot* snapshot = nullptr;
    const core::SnapshotSummary* summary = nullptr;
    std::optional<std::int64_t> device; // --device: only this one
    std::size_t top = 10; // frames and allocations listed per table
};

// table: aligned text; csv: one row per device with the JSON's field names;
// json: {"path", "devices": [{device, reserved_b, allocated_b, active_b,
// requested_b, segments, blocks, peak_allocated_b, peak_reserved_b,
// oom_events, ...}]}. Field names scripts rely on (README, docs/guide/memory.md).
void printSnapshotTable(const SnapshotReport& report, std::ostream& out);
void printSnapshotCsv(const SnapshotReport& report, std::ostream& out);
void printSnapshotJson(const SnapshotReport& report, std::ostream& out);

// --compare: the two side by side and the difference by frame.
void printComparisonTable(const SnapshotReport& before, const SnapshotReport& after,
    const std::vector<core::DeviceComparison>& comparison, std::ostream& out);
void printComparisonCsv(
    const std::vector<core::DeviceComparison>& comparison, std::size_t top, std::ostream& out);
void printComparisonJson(const SnapshotReport& before, const SnapshotReport& after,
    const std::vector<core::DeviceComparison>& comparison, std::ostream& out);

} // namespace ks::cli
