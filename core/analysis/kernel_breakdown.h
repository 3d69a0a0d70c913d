#pragma once

#include "core/analysis/hta_frame.h"
#include "core/analysis/hta_result.h"

namespace ks::core {

// A3 GPU kernel breakdown (§5): tuple (time per kernel type incl. overlap classes, per kernel name per rank).
// Both modes: options.mode selects HTA 0.6.1's quirks or Kinetoscope's fixes.
AnalysisOutput gpuKernelBreakdown(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
