#pragma once

// The job's critical path across ranks over one iteration or a time range,
// optionally with what-if scaling: the driver over
// pathCollectives, condenseRank and joinCondensedRanks.

#include "core/analysis/cross_rank/cross_rank_condense.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"
#include "core/common/parallel_for.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

struct CollectiveMatch;
struct JobPathTiming;

struct JobPathOptions
{
    std::optional<std::int64_t> iteration; // ProfilerStep number; none: the whole trace
    std::optional<CriticalPathWindow> window; // frame time base (ns from the job's start)
    WhatIfScaling whatIf;
    // Name every condensed edge's pieces while condensing (the old way: memory
    // grows with collectives x lookahead x path length); for tests that check
    // the default gives the same answer.
    bool piecesForEveryEdge = false;
    const CancelToken* cancel = nullptr; // the caller's; null: cannot be cancelled
    // Called once each rank's event graph is dropped (after condensing, after
    // naming): the app and the CLI hand the freed pages back to the system, so
    // that a graph freed on one thread's heap does not stay resident while the
    // next is built on another's.
    std::function<void()> releaseFreedMemory;
    // Where set, every rank's timed graph is kept there for what-ifs
    // (retimedJobPath), and the path's pieces are named from those graphs
    // instead of building the event graphs a second time. It costs the timed
    // graphs of all ranks at once (tens of bytes an event) where the default
    // holds one event graph per thread.
    JobPathTiming* keepTiming = nullptr;
    // A match made over exactly the frames' traces in their order (matchCoversFrames):
    // used instead of matching the collectives again. Null: the path matches them.
    const CollectiveMatch* collectives = nullptr;
};

// What a job path kept to re-time itself under what-ifs (the
// insights' gains), filled by jobCriticalPath through keepTiming.
struct JobPathTiming
{
    PathCollectives collectives;
    std::vector<std::size_t> rankPos; // per condensed rank: its position in the frames
    std::vector<CriticalPathWindow> windows; // per condensed rank
    // Per condensed rank; none: the serial model. Shared: a rank's path alone re-times
    // the graph its job kept (rankAlonePath).
    std::vector<std::shared_ptr<const TimedGraph>> graphs;
    // Per condensed rank, the collectives its graph's arrivals and ends stand for
    // when they are not the graph's own (CondenseInput::relabelled); empty: the graph's.
    std::vector<std::vector<RankCollective>> relabelled;
    const CancelToken* cancel = nullptr;
};

// A condensed edge of one rank: ranks[rankPos].edges[edge].
struct RankEdge
{
    std::size_t rankPos = 0;
    std::uint32_t edge = 0;
};

struct JobCriticalPath
{
    std::vector<CondensedRank> ranks; // FrameSet rank order
    CrossRankPath path;
    std::vector<std::string> notes; // collectives, ranks, join
    TimeNs measuredTime = 0; // the longest rank window: the iteration's (or range's) measured length
};

// A job path computed once and kept (a session's): the path or why there is
// none, with the graphs that re-time it under what-ifs (filled through
// keepTiming). Readers that would compute the same path (the insights' job
// rules) read this one. The frames it was computed on must outlive it.
struct KeptJobPath
{
    std::optional<Result<JobCriticalPath>> path; // set once computed
    JobPathTiming timing;
};

// Condenses each rank (weights only, one rank's event graph alive per thread),
// joins them, then builds again only the ranks whose edges the path and the
// straggler explanations use, to name those edges' pieces.
// Errors: the iteration is on no rank, an empty window, no rank, cancelled.
Result<JobCriticalPath> jobCriticalPath(
    const FrameSet& frames, const JobPathOptions& options, const ParallelFor& parallelFor = runSequentially);

// What jobCriticalPath(rankFrames, options) gives, where rankFrames holds rank
// `rankPos` of the frames `job` was kept for (the same rows) and options are the
// job's: from the timed graph the job kept of that rank, with the rank-alone
// match's collectives, so that no event graph is built again (the insights' rank
// contexts). The graph is shared with options.keepTiming. Nullopt where the job
// kept no graph of the rank (the serial model), its window differs, or its
// collectives are not the same slices: then build the path.
std::optional<Result<JobCriticalPath>> rankAlonePath(
    const FrameSet& rankFrames, const JobPathTiming& job, std::size_t rankPos, const JobPathOptions& options);

// The path jobCriticalPath(frames, options with `whatIf`) joins (its length,
// steps and hops; no segments), from the timed graphs kept with the
// options' keepTiming: no event graph is built. `frames` are the ones it was built on.
CrossRankPath retimedJobPath(const FrameSet& frames, const JobPathTiming& timing, const WhatIfScaling& whatIf,
    const ParallelFor& parallelFor = runSequentially);

// About how many bytes jobCriticalPath(frames, options) needs at its peak on
// top of the frames, when `concurrentRanks` ranks are condensed at once. The
// app compares it with its memory budget before starting the job path on its
// own; the bench's measured peaks keep the constants honest.
std::uint64_t jobCriticalPathMemoryEstimate(
    const FrameSet& frames, const JobPathOptions& options, std::size_t concurrentRanks);

// The iteration (or range) time a what-if predicts: the measured time grows or
// shrinks by what the path does.
TimeNs whatIfMeasuredTime(const JobCriticalPath& before, const JobCriticalPath& after);

// The columns of the tables below (both modes name them alike).
namespace jobpath {
    inline constexpr ColumnId kRank { "rank", "" };
    inline constexpr ColumnId kBound { "bound", "" };
    inline constexpr ColumnId kName { "name", "" };
    inline constexpr ColumnId kStartUs { "start_us", "us" }; // on the rank's own clock, frame time base
    inline constexpr ColumnId kDurationMs { "duration_ms", "ms" };
    inline constexpr ColumnId kPathOffsetMs { "path_offset_ms", "ms" };
    inline constexpr ColumnId kEventIndex { "event_index", "" };
    inline constexpr ColumnId kTotalMs { "total_ms", "ms" };
    inline constexpr ColumnId kFromRank { "from_rank", "" };
    inline constexpr ColumnId kToRank { "to_rank", "" };
    inline constexpr ColumnId kCollective { "collective", "" };
    inline constexpr ColumnId kInstance { "instance", "" };
    inline constexpr ColumnId kLengthMs { "path_length_ms", "ms" };
    inline constexpr ColumnId kMeasuredMs { "measured_ms", "ms" };
    inline constexpr ColumnId kHops { "hops", "" };
    inline constexpr ColumnId kRanks { "ranks", "" };
    inline constexpr ColumnId kCollectives { "collectives_joined", "" };
    inline constexpr ColumnId kModel { "model", "" };
    inline constexpr ColumnId kQuantity { "quantity", "" };
    inline constexpr ColumnId kBeforeMs { "before_ms", "ms" };
    inline constexpr ColumnId kAfterMs { "after_ms", "ms" };
    inline constexpr ColumnId kChangePct { "change_pct", "%" };
} // namespace jobpath

// Tables: "summary" (length, measured time, hops), "by_rank" (per rank and bound
// type, ms), "hops", "segments" (every piece in path order).
AnalysisOutput jobCriticalPathTables(const JobCriticalPath& job);

// Before and after a what-if: "what_if" (path length and estimated iteration
// time, before and after, per rule) plus the scaled path's tables.
AnalysisOutput whatIfTables(const JobCriticalPath& before, const JobCriticalPath& after);

} // namespace ks::core
