#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

// The columns of gpuKernelBreakdown's two tables: time per kernel type, and per kernel name and rank.
namespace kernel_breakdown {
    inline constexpr ColumnId kKernelType { "kernel_type", "" };
    inline constexpr ColumnId kTypeSum { "sum", "sum (us)", "us" };
    inline constexpr ColumnId kPercentage { "percentage", "%" };

    inline constexpr ColumnId kName { "name", "" };
    inline constexpr ColumnId kSum { "sum (us)", "us" };
    inline constexpr ColumnId kMax { "max (us)", "us" };
    inline constexpr ColumnId kMin { "min (us)", "us" };
    inline constexpr ColumnId kStddev { "stddev", "stddev (us)", "us" };
    inline constexpr ColumnId kMean { "mean (us)", "us" };
    inline constexpr ColumnId kRank { "rank", "" };
} // namespace kernel_breakdown

// A3 GPU kernel breakdown (§5): tuple (time per kernel type incl. overlap classes, per kernel name per rank).
// Both modes: options.mode selects HTA 0.6.1's quirks or Kinetoscope's fixes.
AnalysisOutput gpuKernelBreakdown(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
