#pragma once

#include "core/analysis/hta_frame.h"
#include "core/analysis/hta_result.h"

namespace ks::core {

// A2 idle time breakdown (§4): tuple (breakdown per rank/stream/category, interval statistics or None).
// Both modes: options.mode selects HTA 0.6.1's quirks or Kinetoscope's fixes.
AnalysisOutput idleTimeBreakdown(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
