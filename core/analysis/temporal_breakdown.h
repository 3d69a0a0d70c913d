#pragma once

#include "core/analysis/hta_frame.h"
#include "core/analysis/hta_result.h"

namespace ks::core {

// A1 temporal breakdown (§3): per rank idle, compute, non-compute time and %.
// Both modes: options.mode selects HTA 0.6.1's quirks or Kinetoscope's fixes.
AnalysisOutput temporalBreakdown(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
