#include "core/analysis/memory_bandwidth.h"

namespace ks::core {

AnalysisOutput memoryBwTimeSeries(const FrameSet&, const AnalysisOptions&)
{
    return AnalysisOutput::notApplicable("not implemented yet");
}

AnalysisOutput memoryBwSummary(const FrameSet&, const AnalysisOptions&)
{
    return AnalysisOutput::notApplicable("not implemented yet");
}

} // namespace ks::core
