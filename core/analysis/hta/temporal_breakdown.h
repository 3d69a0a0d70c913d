#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

// The columns of temporalBreakdown's table (µs and % of kernel time per rank).
namespace temporal_breakdown {
    inline constexpr ColumnId kRank { "rank", "" };
    inline constexpr ColumnId kIdleTime { "idle_time(us)", "us" };
    inline constexpr ColumnId kComputeTime { "compute_time(us)", "us" };
    inline constexpr ColumnId kNonComputeTime { "non_compute_time(us)", "us" };
    inline constexpr ColumnId kKernelTime { "kernel_time(us)", "us" };
    inline constexpr ColumnId kIdlePctg { "idle_time_pctg", "%" };
    inline constexpr ColumnId kComputePctg { "compute_time_pctg", "%" };
    inline constexpr ColumnId kNonComputePctg { "non_compute_time_pctg", "%" };
} // namespace temporal_breakdown

// A1 temporal breakdown (§3): per rank idle, compute, non-compute time and %.
// Both modes: options.mode selects HTA 0.6.1's quirks or Kinetoscope's fixes.
AnalysisOutput temporalBreakdown(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
