#pragma once

#include "core/analysis/hta_frame.h"
#include "core/analysis/hta_result.h"

namespace ks::core {

// A6 CUDA kernel launch statistics (§9): dict rank -> per launch cpu/gpu duration and launch delay.
// Both modes: options.mode selects HTA 0.6.1's quirks or Kinetoscope's fixes.
AnalysisOutput cudaKernelLaunchStats(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
