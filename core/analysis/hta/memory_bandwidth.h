#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

// The columns of memoryBwTimeSeries' per-rank tables.
namespace memory_bandwidth {
    inline constexpr ColumnId kIndex { "index", "" };
    inline constexpr ColumnId kTs { "ts", "us" };
    inline constexpr ColumnId kPid { "pid", "" };
    inline constexpr ColumnId kName { "name", "" }; // the copy kind, e.g. "Memcpy HtoD"
    inline constexpr ColumnId kBandwidth { "memory_bw_gbps", "GB/s" };
} // namespace memory_bandwidth

// Columns of memoryBwSummary's table (describe() per rank and copy kind; std, quartiles also).
namespace memory_bw_summary {
    inline constexpr ColumnId kRank { "rank", "" };
    inline constexpr ColumnId kName { "name", "" };
    inline constexpr ColumnId kMean { "memory_bw_gbps.mean", "GB/s" };
    inline constexpr ColumnId kMin { "memory_bw_gbps.min", "GB/s" };
    inline constexpr ColumnId kMax { "memory_bw_gbps.max", "GB/s" };
} // namespace memory_bw_summary

// A5 memory bandwidth counters (§7): dict rank -> time series (ts, pid, name, memory_bw_gbps).
AnalysisOutput memoryBwTimeSeries(const FrameSet& frames, const AnalysisOptions& options);
// describe() of the positive series values per (rank, copy kind).
AnalysisOutput memoryBwSummary(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
