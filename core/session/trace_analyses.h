#pragma once

// One load's analyses: every derived result the CLI and the app show, each
// computed once, on demand, and kept. The CLI's commands and the app's
// background work both ask it, so their numbers cannot drift and a result two
// readers need (the job path: its view, the stragglers, the insights; the
// collective match: the timeline and the job path) is computed once per load.
// Thread-safe: requests may come from several threads; one computes a result
// while the others asking for it wait (kept_results.h).

#include "core/analysis/cross_rank/collective_match.h"
#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/cross_rank/stragglers.h"
#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/memory/memory_report.h"
#include "core/analysis/tables/hta_result.h"
#include "core/common/parallel_for.h"
#include "core/common/progress.h"
#include "core/insights/finding.h"
#include "core/insights/insights.h"
#include "core/model/trace_set.h"
#include "core/session/frame_scope.h"
#include "core/session/kept_results.h"
#include "core/session/output_key.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <vector>

namespace ks::core {

// How one request runs: on the caller's threads, cancellable. A cancelled
// computation keeps nothing: the next request computes again.
struct SessionWork
{
    ParallelFor parallelFor = runSequentially;
    const CancelToken* cancel = nullptr;
    // Called as the job path frees each rank's graph (the caller hands the pages back).
    std::function<void()> releaseFreedMemory;
};

// The job's critical path of one scope, as the session keeps it.
struct SessionJobPath
{
    std::shared_ptr<const FrameSet> frames; // default mode: what the path was computed on
    std::optional<std::int64_t> iteration; // one ProfilerStep, or all of the frames
    // The path (or why there is none) and the graphs that re-time it under what-ifs.
    std::shared_ptr<const KeptJobPath> kept;
    std::vector<Straggler> stragglers; // findStragglers of the path; empty without one

    const JobCriticalPath* path() const
    {
        return kept->path && kept->path->ok() ? &kept->path->value() : nullptr;
    }
};

struct JobPathScope
{
    FrameScope frames; // taken in default mode, whatever its mode
    std::optional<std::int64_t> iteration;

    bool operator==(const JobPathScope& other) const
    {
        return frames.sameFrames(other.frames) && iteration == other.iteration;
    }
};

using OutputSet = std::map<OutputKey, std::shared_ptr<const AnalysisOutput>>;

// How many times each kind of result was computed (not read back from what was kept).
struct SessionComputations
{
    std::size_t frames = 0;
    std::size_t outputs = 0;
    std::size_t collectiveMatch = 0;
    std::size_t jobPath = 0;
    std::size_t efficiency = 0;
    std::size_t insights = 0;
    std::size_t memory = 0;
};

class TraceAnalyses
{
public:
    explicit TraceAnalyses(std::shared_ptr<const TraceSet> traces);
    ~TraceAnalyses();
    TraceAnalyses(const TraceAnalyses&) = delete;
    TraceAnalyses& operator=(const TraceAnalyses&) = delete;

    const TraceSet& traces() const { return *m_traces; }

    const std::shared_ptr<const TraceSet>& traceSet() const { return m_traces; }

    // buildFrames over the scope, restricted to its window. Kept while held.
    Result<std::shared_ptr<const FrameSet>> frames(const FrameScope& scope, const SessionWork& work);
    // The outputs named, those not kept yet computed side by side on work.parallelFor,
    // with the scope's calls' arguments (the catalog's calls, X1's rank overview, the
    // kernels by annotation, the operator statistics over the window).
    Result<OutputSet> outputs(
        const FrameScope& scope, const std::vector<OutputKey>& keys, const SessionWork& work);
    // Every collective of every rank, matched across ranks (the timeline's, and the
    // job path's when its frames are every rank in order).
    std::shared_ptr<const CollectiveMatch> collectiveMatch();
    // The job's critical path over the scope's default-mode frames, with its
    // timing (the insights' what-ifs) and stragglers. An error result (the
    // iteration is on no rank) is kept like a path.
    Result<std::shared_ptr<const SessionJobPath>> jobPath(const JobPathScope& scope, const SessionWork& work);
    // The efficiency report (the roofline view, the MFU).
    std::shared_ptr<const EfficiencyReport> efficiency(const EfficiencyOptions& options);
    // The memory analysis (the `memory` command, OutputKey::Memory, the Memory view,
    // the memory rules of the insights).
    Result<std::shared_ptr<const MemoryReport>> memory(const MemoryOptions& options, const SessionWork& work);
    // The insights over the scope's default-mode frames, their job rules on
    // jobPath() of the same scope (the single selected iteration, else all).
    // Kept when `options` are the defaults (isDefault), else computed each time.
    Result<std::shared_ptr<const InsightsReport>> insights(
        const FrameScope& scope, InsightsOptions options, const SessionWork& work);

    // The kept path of `scope`, or null: never computes.
    std::shared_ptr<const SessionJobPath> keptJobPath(const JobPathScope& scope) const;

    SessionComputations computations() const;
    // What the kept frames hold (the results themselves are far smaller).
    std::uint64_t keptFramesBytes() const;

private:
    struct OutputKeyOfScope
    {
        FrameScope scope;
        OutputKey key;

        bool operator==(const OutputKeyOfScope&) const = default;
    };

    struct FramesKey
    {
        FrameScope scope;

        bool operator==(const FramesKey& other) const { return scope.sameFrames(other.scope); }
    };

    // `frames`: the scope's, null for an output that reads the traces.
    std::shared_ptr<const AnalysisOutput> computeOutput(
        OutputKey key, const FrameScope& scope, const FrameSet* frames);

    std::shared_ptr<const TraceSet> m_traces;
    // How many of each are kept: the scopes a window asks for in turn (a mode,
    // the whole trace or a range, an iteration's path), not every range ever chosen.
    KeptResults<FramesKey, FrameSet> m_frames { KeepResult::WhileHeld, 8 };
    KeptResults<OutputKeyOfScope, AnalysisOutput> m_outputs { KeepResult::Always, 4 * kOutputKeyCount };
    KeptResults<int, CollectiveMatch> m_match { KeepResult::Always, 1 };
    // A path holds its frames and timed graphs: the whole trace's and one more.
    KeptResults<JobPathScope, SessionJobPath> m_jobPaths { KeepResult::Always, 2 };
    KeptResults<EfficiencyOptions, EfficiencyReport> m_efficiency { KeepResult::Always, 4 };
    KeptResults<FrameScope, InsightsReport> m_insights { KeepResult::Always, 4 };
    KeptResults<MemoryOptions, MemoryReport> m_memory { KeepResult::Always, 4 };
    std::vector<const RankTrace*> m_rankTraces; // the match's rank order
};

} // namespace ks::core
