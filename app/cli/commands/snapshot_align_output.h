#pragma once

#include "core/analysis/snapshot_align/snapshot_alignment.h"

#include <cstdint>
#include <iosfwd>
#include <optional>

namespace ks::cli {

// `memory --snapshot FILE --trace TRACE`: the clock offset, the matches and
// per trace range (ProfilerStep#N, user annotations) the snapshot's memory.
// json: {"snapshot", "trace", "offset_us", "spread_us", "matched",
// "snapshot_annotations", "diagnostics", "matches": [...], "ranges": [{name,
// device, start_us, end_us, requested_start_b, requested_end_b,
// requested_peak_b, requested_peak_time_us, allocated_start_b,
// allocated_end_b, allocated_peak_b, reserved_start_b, reserved_end_b,
// allocations, allocated_in_range_b, top_frames: [{frame, bytes_b, count}]}]}
// (docs/guide/memory.md). csv: one row per range with those names.
struct AlignmentReport
{
    std::string snapshotPath;
    std::string tracePath;
    const core::SnapshotAlignment* alignment = nullptr;
    std::optional<std::int64_t> device;
};

void printAlignmentTable(const AlignmentReport& report, std::ostream& out);
void printAlignmentCsv(const AlignmentReport& report, std::ostream& out);
void printAlignmentJson(const AlignmentReport& report, std::ostream& out);

} // namespace ks::cli
