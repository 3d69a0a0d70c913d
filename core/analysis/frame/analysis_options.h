#pragma once

#include "core/analysis/tables/analysis_mode.h"
#include "core/common/progress.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

struct IdleTimeOptions
{
    double consecutiveKernelDelayUs = 30.0; // HTA's default; HTA documents it as ns but applies µs (Q10)
    bool showIntervalStats = true;

    bool operator==(const IdleTimeOptions&) const = default;
};

struct KernelBreakdownOptions
{
    double durationRatio = 0.8;
    int numKernels = 10;
    bool includeMemoryKernels = true;
    // Default mode's est. SM efficiency and occupancy columns re-read every kernel's
    // args from the file; summaries, which do not store them, turn them off.
    bool occupancyColumns = true;

    bool operator==(const KernelBreakdownOptions&) const = default;
};

struct LaunchStatsOptions
{
    double runtimeCutoffUs = 50.0;
    double launchDelayCutoffUs = 100.0;
    bool includeMemoryEvents = true;

    bool operator==(const LaunchStatsOptions&) const = default;
};

// HTA's get_gpu_user_annotation_breakdown arguments (§16).
struct UserAnnotationOptions
{
    bool useGpuAnnotation = true; // gpu_user_annotation (GPU time); false: user_annotation (CPU time)
    double durationRatio = 0.8;
    int numKernels = 1000; // HTA's name for the number of annotations listed
    // Names matching any of these stay out of `others` (HTA's allowlist_patterns): regular
    // expressions in default mode, literal substrings in compat mode (HTA escapes them).
    std::vector<std::string> allowlist;

    bool operator==(const UserAnnotationOptions&) const = default;
};

// HTA's get_potential_stragglers arguments (§18).
struct PotentialStragglerOptions
{
    int numCandidates = 2;

    bool operator==(const PotentialStragglerOptions&) const = default;
};

// HTA's get_aten_op_kernels_and_delay arguments (§20).
enum class AtenOpSort : std::uint8_t
{
    OccurrenceCount, // HTA's default
    LaunchDelay, // avg_aten_op_launch_delay
    RuntimeDelay, // avg_runtime_delay
    Name, // aten_op_name, kernel_sequence
};

struct AtenOpOptions
{
    AtenOpSort sortBy = AtenOpSort::OccurrenceCount;

    bool operator==(const AtenOpOptions&) const = default;
};

struct QueueLengthOptions
{
    std::int64_t maxQueueLength = 1024;

    bool operator==(const QueueLengthOptions&) const = default;
};

// Everything an analysis call needs besides the trace: one struct, HTA's defaults.
struct AnalysisOptions
{
    AnalysisMode mode = AnalysisMode::Default;
    std::optional<std::vector<std::int64_t>> ranks; // all when empty
    std::optional<std::vector<std::int64_t>> iterations; // A9: ProfilerStep numbers; all when empty
    // HTA's TraceAnalysis(include_last_profiler_step=...). In HTA-compatible mode
    // its stale `end` column makes it keep every CPU row (Q11); default mode keeps
    // every event anyway.
    bool includeLastProfilerStep = false;
    // HTA's trace diff loads with parse_traces() only: no last-step filter (Q2).
    bool diffLoading = false;
    IdleTimeOptions idle;
    KernelBreakdownOptions kernels;
    LaunchStatsOptions launches;
    QueueLengthOptions queue;
    UserAnnotationOptions annotations;
    PotentialStragglerOptions stragglers;
    AtenOpOptions atenOps;
    // The caller's; null when the work cannot be cancelled. buildFrames polls it
    // for every rank and between its stages, and returns ErrorCode::Cancelled.
    const CancelToken* cancel = nullptr;

    bool htaCompat() const { return mode == AnalysisMode::HtaCompat; }

    bool cancelled() const { return cancel && cancel->isCancelled(); }

    // Whatever the cancel token: the same frames and the same calls' arguments.
    bool operator==(const AnalysisOptions& other) const
    {
        return mode == other.mode && ranks == other.ranks && iterations == other.iterations
            && includeLastProfilerStep == other.includeLastProfilerStep && diffLoading == other.diffLoading
            && idle == other.idle && kernels == other.kernels && launches == other.launches
            && queue == other.queue && annotations == other.annotations && stragglers == other.stragglers
            && atenOps == other.atenOps;
    }
};

} // namespace ks::core
