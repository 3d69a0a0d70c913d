#include "core/analysis/comm_comp_overlap.h"

namespace ks::core {

AnalysisOutput commCompOverlap(const FrameSet&, const AnalysisOptions&)
{
    return AnalysisOutput::notApplicable("not implemented yet");
}

} // namespace ks::core
