#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

// HTA's get_potential_stragglers (§18): the ranks whose last long communication kernel
// starts latest, per iteration, on the (stream, kernel) whose duration varies most across
// ranks; a list of at most options.stragglers.numCandidates ranks. Not Kinetoscope's own
// straggler finder (cross_rank/stragglers.h, on the job's critical path).
AnalysisOutput potentialStragglers(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
