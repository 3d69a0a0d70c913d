#include "core/analysis/kernel_breakdown.h"

namespace ks::core {

AnalysisOutput gpuKernelBreakdown(const FrameSet&, const AnalysisOptions&)
{
    return AnalysisOutput::notApplicable("not implemented yet");
}

} // namespace ks::core
