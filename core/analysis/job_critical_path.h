#pragma once

// The job's critical path across ranks over one iteration or a time range,
// optionally with what-if scaling (issue 11 items 4 and 6): the driver over
// pathCollectives, condenseRank and joinCondensedRanks.

#include "core/analysis/cross_rank_condense.h"
#include "core/analysis/hta_result.h"
#include "core/common/parallel_for.h"

#include <optional>
#include <string>
#include <vector>

namespace ks::core {

struct JobPathOptions
{
    std::optional<std::int64_t> iteration; // ProfilerStep number; none: the whole trace
    std::optional<CriticalPathWindow> window; // frame time base (ns from the job's start)
    WhatIfScaling whatIf;
};

struct JobCriticalPath
{
    std::vector<CondensedRank> ranks; // FrameSet rank order
    CrossRankPath path;
    std::vector<std::string> notes; // collectives, ranks, join
    TimeNs measuredTime = 0; // the longest rank window: the iteration's (or range's) measured length
};

// Errors: the iteration is on no rank, an empty window, no rank.
Result<JobCriticalPath> jobCriticalPath(
    const FrameSet& frames, const JobPathOptions& options, const ParallelFor& parallelFor = runSequentially);

// The iteration (or range) time a what-if predicts: the measured time grows or
// shrinks by what the path does.
TimeNs whatIfMeasuredTime(const JobCriticalPath& before, const JobCriticalPath& after);

// Column names of the tables below (look columns up by these).
namespace jobpath {
    constexpr const char* kRank = "rank";
    constexpr const char* kBound = "bound";
    constexpr const char* kName = "name";
    constexpr const char* kStartUs = "start_us"; // on the rank's own clock, frame time base
    constexpr const char* kDurationMs = "duration_ms";
    constexpr const char* kPathOffsetMs = "path_offset_ms";
    constexpr const char* kEventIndex = "event_index";
    constexpr const char* kTotalMs = "total_ms";
    constexpr const char* kFromRank = "from_rank";
    constexpr const char* kToRank = "to_rank";
    constexpr const char* kCollective = "collective";
    constexpr const char* kInstance = "instance";
    constexpr const char* kLengthMs = "path_length_ms";
    constexpr const char* kMeasuredMs = "measured_ms";
    constexpr const char* kHops = "hops";
    constexpr const char* kRanks = "ranks";
    constexpr const char* kCollectives = "collectives_joined";
    constexpr const char* kModel = "model";
    constexpr const char* kQuantity = "quantity";
    constexpr const char* kBeforeMs = "before_ms";
    constexpr const char* kAfterMs = "after_ms";
    constexpr const char* kChangePct = "change_pct";
} // namespace jobpath

// Tables: "summary" (length, measured time, hops), "by_rank" (per rank and bound
// type, ms), "hops", "segments" (every piece in path order).
AnalysisOutput jobCriticalPathTables(const JobCriticalPath& job);

// Before and after a what-if: "what_if" (path length and estimated iteration
// time, before and after, per rule) plus the scaled path's tables.
AnalysisOutput whatIfTables(const JobCriticalPath& before, const JobCriticalPath& after);

} // namespace ks::core
