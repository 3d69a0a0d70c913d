#pragma once

// One typed key per output a load's analyses give: every file of HTA's calls
// that `analyze` writes (named as in ../shared/reference) and Kinetoscope's own
// outputs beside them. The app's views, the CLI and TraceAnalyses' cache all
// name an output by its key, so a renamed output is a build error, never a view
// left empty because two strings stopped matching.

#include <cstdint>
#include <optional>
#include <string_view>

namespace ks::core {

enum class OutputKey : std::uint8_t
{
    // HTA's calls (the catalog, analysis_catalog.h), in the catalog's order.
    TemporalBreakdown,
    IdleTimeBreakdown,
    GpuKernelBreakdown,
    GpuKernelBreakdownTop5, // num_kernels=5
    CommCompOverlap,
    MemoryBwTimeSeries,
    MemoryBwSummary,
    QueueLengthTimeSeries,
    QueueLengthSummary,
    KernelLaunchStats,
    ProfilerSteps,
    UserAnnotationsGpu, // GPU time
    UserAnnotationsCpu, // CPU time (use_gpu_annotation=False)
    TimeBlockedOnFullQueue,
    TimeBlockedOnFullQueueMax8, // max_queue_length=8
    QueueLengthSummaryFromSeries,
    PotentialStragglers,
    PotentialStragglersTop1, // num_candidates=1
    AtenOpDelays,
    CuptiCounters,
    AnnotatedKernels,
    KernelSequences, // analyze --kernel-sequences OP
                     // Kinetoscope's own, beside HTA's calls.
    RankOverview, // X1
    KernelsByAnnotation, // the kernel views' "Group by: User annotation"
    OperatorStats, // key_averages' rules, over the traces rather than the frames
    Memory, // the memory analysis of the [memory] events (core/analysis/memory/), over the traces
    Count_
};

inline constexpr std::size_t kOutputKeyCount = static_cast<std::size_t>(OutputKey::Count_);

// The key's stable name: the output file's stem for HTA's calls
// ("get_gpu_user_annotation_breakdown__cpu"), a name of ours for the others.
std::string_view outputKeyName(OutputKey key);
std::optional<OutputKey> outputKeyFromName(std::string_view name);

// Computed from the frames (the catalog's calls, X1, kernels by annotation) or
// from the traces themselves (the operator statistics, the memory analysis).
bool readsFrames(OutputKey key);

} // namespace ks::core
