#include "core/analysis/launch_stats.h"

namespace ks::core {

AnalysisOutput cudaKernelLaunchStats(const FrameSet&, const AnalysisOptions&)
{
    return AnalysisOutput::notApplicable("not implemented yet");
}

} // namespace ks::core
