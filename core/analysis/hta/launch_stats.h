#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

// The columns of cudaKernelLaunchStats' per-rank tables.
namespace launch_stats {
    inline constexpr ColumnId kIndex { "index", "" };
    inline constexpr ColumnId kCorrelation { "correlation", "" };
    inline constexpr ColumnId kCpuDuration { "cpu_duration", "cpu_duration_us", "us" };
    inline constexpr ColumnId kGpuDuration { "gpu_duration", "gpu_duration_us", "us" };
    inline constexpr ColumnId kLaunchDelay { "launch_delay", "launch_delay_us", "us" };
} // namespace launch_stats

// A6 CUDA kernel launch statistics (§9): dict rank -> per launch cpu/gpu duration and launch delay.
// Both modes: options.mode selects HTA 0.6.1's quirks or Kinetoscope's fixes.
AnalysisOutput cudaKernelLaunchStats(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
