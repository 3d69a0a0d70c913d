#pragma once

// The memory report as tables (the session's OutputKey::Memory, the app's
// Memory view, `memory --format csv`): one per device summary, the plugin's
// Memory Statistics and Memory Events, the steps and the failed requests.
// Times are µs since the rank's time base (RankMemory::timeBase).

#include "core/analysis/memory/memory_report.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

namespace memory_columns {
    inline constexpr ColumnId kRank { "rank", "" };
    inline constexpr ColumnId kDevice { "device", "" };
    inline constexpr ColumnId kOperator { "operator", "" };
    inline constexpr ColumnId kCalls { "calls", "" };
    inline constexpr ColumnId kSizeIncrease { "size_increase_b", "B" };
    inline constexpr ColumnId kSelfSizeIncrease { "self_size_increase_b", "B" };
    inline constexpr ColumnId kAllocationCount { "allocation_count", "" };
    inline constexpr ColumnId kSelfAllocationCount { "self_allocation_count", "" };
    inline constexpr ColumnId kAllocationSize { "allocation_size_b", "B" };
    inline constexpr ColumnId kSelfAllocationSize { "self_allocation_size_b", "B" };
    inline constexpr ColumnId kSize { "size_b", "B" };
    inline constexpr ColumnId kAllocationTime { "allocation_time_us", "us" };
    inline constexpr ColumnId kReleaseTime { "release_time_us", "us" };
    inline constexpr ColumnId kDuration { "duration_us", "us" };
    inline constexpr ColumnId kFreeOperator { "free_operator", "" };
    inline constexpr ColumnId kPeakAllocated { "peak_allocated_b", "B" };
    inline constexpr ColumnId kPeakReserved { "peak_reserved_b", "B" };
    inline constexpr ColumnId kPeakTime { "peak_time_us", "us" };
    inline constexpr ColumnId kPeakOperator { "peak_operator", "" };
    inline constexpr ColumnId kCapacity { "capacity_b", "B" };
    inline constexpr ColumnId kPeakPercent { "peak_pct_of_capacity", "%" };
    inline constexpr ColumnId kBeforeTrace { "allocated_before_trace_b", "B" };
    inline constexpr ColumnId kAtEnd { "allocated_at_end_b", "B" };
    inline constexpr ColumnId kLiveAtEnd { "live_at_end_b", "B" };
    inline constexpr ColumnId kLiveAtEndCount { "live_at_end_count", "" };
    inline constexpr ColumnId kFreedBeforeTrace { "freed_before_trace_b", "B" };
    inline constexpr ColumnId kMaxCacheOverhead { "max_cache_overhead_b", "B" };
    inline constexpr ColumnId kMeanCacheOverhead { "mean_cache_overhead_b", "B" };
    inline constexpr ColumnId kAllocations { "allocations", "" };
    inline constexpr ColumnId kStep { "step", "" };
    inline constexpr ColumnId kStart { "start_us", "us" };
    inline constexpr ColumnId kAtStart { "allocated_at_start_b", "B" };
    inline constexpr ColumnId kGrowth { "growth_b", "B" };
    inline constexpr ColumnId kStepPeak { "step_peak_allocated_b", "B" };
    inline constexpr ColumnId kTime { "time_us", "us" };
    inline constexpr ColumnId kRequested { "requested_b", "B" };
    inline constexpr ColumnId kTotalAllocated { "total_allocated_b", "B" };
    inline constexpr ColumnId kTotalReserved { "total_reserved_b", "B" };
    inline constexpr ColumnId kDeviceId { "device_id", "" };
    inline constexpr ColumnId kIndex { "index", "" };
    inline constexpr ColumnId kEvIdx { "ev_idx", "" };
    inline constexpr ColumnId kTs { "ts", "us" };
    inline constexpr ColumnId kPid { "pid", "" };
    inline constexpr ColumnId kTid { "tid", "" };
    inline constexpr ColumnId kAddr { "addr", "" };
    inline constexpr ColumnId kBytesDelta { "bytes_delta", "B" };
    inline constexpr ColumnId kHtaTotalAllocated { "total_allocated", "B" };
    inline constexpr ColumnId kHtaTotalReserved { "total_reserved", "B" };
    inline constexpr ColumnId kAllocOrDeallocId { "alloc_or_dealloc_id", "" };
    inline constexpr ColumnId kStackType { "stack_type", "" };
    inline constexpr ColumnId kStackIds { "stack_ids", "" };
    inline constexpr ColumnId kStackNameId { "stack_name_id", "" };
    inline constexpr ColumnId kStackName { "stack_name", "" };
    inline constexpr ColumnId kI { "i", "" };
    inline constexpr ColumnId kCategory { "category", "" };
    inline constexpr ColumnId kPlottingOnly { "is_plotting_event_only", "" };
    inline constexpr ColumnId kCategoryTotal { "category_total", "B" };
} // namespace memory_columns

// µs since the rank's time base.
double memoryTimeUs(const RankMemory& rank, TimeNs ts);

Table memoryDevicesTable(const MemoryReport& report);
Table memoryStatsTable(const MemoryReport& report);
Table memoryEventsTable(const MemoryReport& report);
Table memoryStepsTable(const MemoryReport& report);
Table memoryOutOfMemoryTable(const MemoryReport& report);
// HTA #223's get_memory_timeline_per_category (spec HTA.6): its events frame, its
// per-category timelines in long form, and the stack names they index.
Table memoryClassifiedTable(const MemoryReport& report);
Table memoryCategoriesTable(const MemoryReport& report);
Table memoryStackNamesTable(const MemoryReport& report);

// The tables above as one output (a Tuple); not applicable when no rank has [memory] events.
AnalysisOutput memoryOutput(const MemoryReport& report);

// Which time base HTA #223's `ts` count from: each rank's own first event (the
// default) or the earliest of all loaded ranks (htaTimeBase, HTA's min_ts).
std::string htaTimeBaseNote(const MemoryReport& report);

// The one line a trace without [memory] events gets.
std::string noMemoryEventsLine(const MemoryReport& report);

} // namespace ks::core
