#pragma once

#include "core/analysis/frame/hta_frame.h"

#include <optional>
#include <utility>

namespace ks::core {

// Keeps only the rows of every rank that start in [start, end) (absolute ns,
// the trace's clock), so that the analyses describe a window a person chose
// on the timeline. Ranks keep their order; rows their order; the event index
// is rebuilt.
void restrictFramesToWindow(FrameSet& frames, TimeNs start, TimeNs end);

// `frames`' mode, time base, device and iterations, without its ranks: what a
// frame set derived from it starts from.
FrameSet framesWithoutRanks(const FrameSet& frames);

// A copy of `frames` keeping only the rows of `iteration` (when set) that start
// in `window` (when set: absolute ns, [start, end)). For default-mode frames
// these are the frames buildFrames would give for that iteration and
// restrictFramesToWindow for that window, derived from frames already built
// instead of built again beside them (the app's Overview reads the analysis
// docks' frames this way). In HTA-compatible mode an iteration also changes how
// rows load (Q2): there the result is that iteration's rows of frames built for
// all of them, which is what rank_overview compares iterations on.
FrameSet narrowedFrames(const FrameSet& frames, std::optional<std::int64_t> iteration,
    std::optional<std::pair<TimeNs, TimeNs>> window);

} // namespace ks::core
