#include "core/analysis/idle_time_breakdown.h"

namespace ks::core {

AnalysisOutput idleTimeBreakdown(const FrameSet&, const AnalysisOptions&)
{
    return AnalysisOutput::notApplicable("not implemented yet");
}

} // namespace ks::core
