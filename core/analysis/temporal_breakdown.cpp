#include "core/analysis/temporal_breakdown.h"

namespace ks::core {

AnalysisOutput temporalBreakdown(const FrameSet&, const AnalysisOptions&)
{
    return AnalysisOutput::notApplicable("not implemented yet");
}

} // namespace ks::core
