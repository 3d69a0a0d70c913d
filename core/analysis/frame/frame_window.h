#pragma once

#include "core/analysis/frame/hta_frame.h"

namespace ks::core {

// Keeps only the rows of every rank that start in [start, end) (absolute ns,
// the trace's clock), so that the analyses describe a window a person chose
// on the timeline. Ranks keep their order; rows their order; the event index
// is rebuilt.
void restrictFramesToWindow(FrameSet& frames, TimeNs start, TimeNs end);

} // namespace ks::core
