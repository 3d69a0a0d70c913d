#pragma once

#include "widgets/timeline/model/timeline_types.h"

#include <string>
#include <vector>

namespace ks::core {
class RankTrace;
}

namespace ks::widgets {

class TimelineData;

// What the Details panel adds for one piece of GPU work: the user
// annotations it ran under and, for a CUPTI range (`cuda_profiler_range`, the kernel as
// the range profiler records it), the launch its counters belong to. Queried on a click,
// from the store.
struct KernelContext
{
    bool gpuWork = false; // a slice on a GPU stream (not an annotation) or a CUPTI range
    bool counterRange = false; // a cuda_profiler_range slice: its numeric args are counters
    // The innermost gpu_user_annotation on the work's own stream that it overlaps (the
    // shortest; the later-starting one among equals), as the annotated-kernels analysis
    // attributes it in default mode (hta-semantics §17).
    SliceRef gpuAnnotation;
    // Its launch: the launch flow's CPU end; for a CUPTI range the launch of the same
    // position in time order, as HTA pairs them (§19). Invalid when there is none.
    SliceRef launch;
    // The innermost user_annotation around the launch on its thread.
    SliceRef cpuAnnotation;
    // The cpu_op names around the launch, outermost first (a CUPTI range's op stack).
    std::vector<std::string> opStack;
};

KernelContext kernelContext(const TimelineData& data, SliceRef ref);

// True when the rank has user annotations of either kind (the Details panel says "none"
// only where there could be one).
bool hasUserAnnotations(const core::RankTrace& trace);

} // namespace ks::widgets
