#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/hta/name_stats_columns.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

// The columns of gpuKernelBreakdown's two tables: time per kernel type, and per kernel name and rank.
namespace kernel_breakdown {
    inline constexpr ColumnId kKernelType { "kernel_type", "" };
    inline constexpr ColumnId kTypeSum { "sum", "sum (us)", "us" };
    inline constexpr ColumnId kPercentage { "percentage", "%" };
    // Default mode only (HTA has neither): the TensorBoard plugin's kernel view figures,
    // kernel-time-weighted over the name's kernels that carry the args, empty when none does.
    inline constexpr ColumnId kEstSmEfficiency { "est_sm_efficiency_pct", "%" };
    inline constexpr ColumnId kAchievedOccupancy { "achieved_occupancy_pct", "%" };
    // Default mode only: the share of the row's kernel time on Tensor Cores (100 or 0
    // for a name, the folded names' share for `others`; kernels/tensor_cores.h),
    // empty for the kernel types other than COMPUTATION.
    inline constexpr ColumnId kTensorCorePct { "tensor_core_pct", "%" };
    using namespace name_stats_columns; // the per-name table: kName, kSum, ... kRank
} // namespace kernel_breakdown

// A3 GPU kernel breakdown (§5): tuple (time per kernel type incl. overlap classes, per kernel name per rank).
// Both modes: options.mode selects HTA 0.6.1's quirks or Kinetoscope's fixes. Default mode adds
// est. SM efficiency, achieved occupancy (core/analysis/kernels/kernel_occupancy.h) and the
// Tensor Core share (core/analysis/kernels/tensor_cores.h) to the per-name table.
AnalysisOutput gpuKernelBreakdown(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
