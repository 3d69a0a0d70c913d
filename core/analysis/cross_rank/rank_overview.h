#pragma once

#include "core/analysis/frame/analysis_options.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

#include <array>

namespace ks::core {

// The columns of rankOverview's table.
namespace rank_overview {
    inline constexpr ColumnId kRank { "rank", "" };
    inline constexpr ColumnId kIteration { "iteration", "" };
    inline constexpr ColumnId kStepTime { "step_time_us", "us" };
    inline constexpr ColumnId kIdlePct { "idle_pct", "%" };
    inline constexpr ColumnId kComputePct { "compute_pct", "%" };
    inline constexpr ColumnId kNonComputePct { "non_compute_pct", "%" };
    inline constexpr ColumnId kOverlapPct { "overlap_pct", "%" };
    inline constexpr ColumnId kGpuBusy { "gpu_busy_us", "us" };
    inline constexpr ColumnId kStraggler { "straggler", "" }; // 1 or 0
    // The step's share in data loading spans (frame/data_loading.h; the TensorBoard
    // plugin's DataLoader share). It and the columns after it are not in a summary.
    inline constexpr ColumnId kDataLoadingPct { "dataloader_pct", "%" };
    // The share of the step's compute kernel time on Tensor Cores (the TensorBoard
    // plugin's overview figure; kernels/tensor_cores.h), empty without compute kernels.
    inline constexpr ColumnId kTensorCorePct { "tensor_core_pct", "%" };

    // Every column in table order; a table read back from a summary uses it too,
    // so the charts find the same columns whichever way the table was made.
    inline constexpr std::array<ColumnId, 11> kColumns = { kRank, kIteration, kStepTime, kIdlePct,
        kComputePct, kNonComputePct, kOverlapPct, kGpuBusy, kStraggler, kDataLoadingPct, kTensorCorePct };
} // namespace rank_overview

struct RankOverviewOptions
{
    // A rank is a straggler in an iteration when its GPU busy time (compute +
    // non-compute) exceeds the median over ranks by more than this fraction:
    // in synchronous training the others then wait for it in collectives.
    double stragglerMargin = 0.10;
};

// X1: one row per rank and iteration (ProfilerStep): step time, temporal
// breakdown percentages, communication/computation overlap, GPU busy time,
// whether the rank is a straggler there, the step's share in data loading and its compute
// kernels' share on Tensor Cores. Each iteration is measured as
// A9's iteration selection would measure it alone.
AnalysisOutput rankOverview(
    const FrameSet& frames, const AnalysisOptions& options, const RankOverviewOptions& overview = {});

} // namespace ks::core
