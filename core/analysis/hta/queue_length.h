#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

// The columns of queueLengthTimeSeries' per-rank tables.
namespace queue_length {
    inline constexpr ColumnId kIndex { "index", "" }; // the row's event index
    inline constexpr ColumnId kTs { "ts", "us" };
    inline constexpr ColumnId kPid { "pid", "" };
    inline constexpr ColumnId kTid { "tid", "" };
    inline constexpr ColumnId kStream { "stream", "" };
    inline constexpr ColumnId kQueueLength { "queue_length", "" };
} // namespace queue_length

// Columns of queueLengthSummary's table (describe() per rank and stream; std, quartiles also).
namespace queue_length_summary {
    inline constexpr ColumnId kRank { "rank", "" };
    inline constexpr ColumnId kStream { "stream", "" };
    inline constexpr ColumnId kMean { "queue_length.mean", "" };
    inline constexpr ColumnId kMin { "queue_length.min", "" };
    inline constexpr ColumnId kMax { "queue_length.max", "" };
} // namespace queue_length_summary

// A5 queue length (§8): dict rank -> time series (index, ts, pid, tid, stream, queue_length).
AnalysisOutput queueLengthTimeSeries(const FrameSet& frames, const AnalysisOptions& options);
// One rank's series as (event index, queue length) per point, in the order of
// queueLengthTimeSeries' table for that rank (its index and queue_length
// columns), without building the table: the critical path's kernel edges read
// it for every rank. Errors as queueLengthTimeSeries' (HTA's checks).
Result<std::vector<std::pair<std::int64_t, std::int64_t>>> queueLengthPoints(
    const RankFrame& frame, AnalysisMode mode);
// describe() of queue_length per (rank, stream).
AnalysisOutput queueLengthSummary(const FrameSet& frames, const AnalysisOptions& options);
// Time each stream spent with a full queue (>= options.queue.maxQueueLength), absolute and relative.
AnalysisOutput timeBlockedOnFullQueue(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
