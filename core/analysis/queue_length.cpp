#include "core/analysis/queue_length.h"

namespace ks::core {

AnalysisOutput queueLengthTimeSeries(const FrameSet&, const AnalysisOptions&)
{
    return AnalysisOutput::notApplicable("not implemented yet");
}

AnalysisOutput queueLengthSummary(const FrameSet&, const AnalysisOptions&)
{
    return AnalysisOutput::notApplicable("not implemented yet");
}

AnalysisOutput timeBlockedOnFullQueue(const FrameSet&, const AnalysisOptions&)
{
    return AnalysisOutput::notApplicable("not implemented yet");
}

} // namespace ks::core
