#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

// The columns of cuptiCounterData's per-rank tables. Default mode: index ... bottom_level_op,
// then one column per counter (the numeric args of the `cuda_profiler_range` events, sorted
// by name). Compat mode: every column of HTA's frame for the ranges, in its order: index, cat,
// name, pid, tid, ts, dur, end, stream, correlation, the parser arguments of frame_args.h,
// the counters (sorted: HTA's order is a Python set's), index_correlation, iteration, the 8
// call-graph columns (parent ... kernel_span), then index_runtime, op_stack (a JSON list),
// top_level_op, bottom_level_op.
namespace cupti_counters {
    inline constexpr ColumnId kIndex { "index", "" };
    inline constexpr ColumnId kTs { "ts", "ts_us", "us" };
    inline constexpr ColumnId kDur { "dur", "dur_us", "us" };
    inline constexpr ColumnId kEnd { "end", "end_us", "us" }; // compat: HTA's absolute end (Q18)
    inline constexpr ColumnId kName { "name", "" }; // the kernel
    inline constexpr ColumnId kCategory { "cat", "category", "" };
    inline constexpr ColumnId kIndexRuntime { "index_runtime", "" }; // the launch's event index
    inline constexpr ColumnId kOpStack { "op_stack",
        "" }; // CPU operators around the launch: a list in compat, " > "-joined otherwise
    inline constexpr ColumnId kPid { "pid", "" }; // compat only, as the next four
    inline constexpr ColumnId kTid { "tid", "" };
    inline constexpr ColumnId kStream { "stream", "" };
    inline constexpr ColumnId kCorrelation { "correlation", "" };
    inline constexpr ColumnId kIndexCorrelation { "index_correlation", "" };
    inline constexpr ColumnId kIteration { "iteration", "" };
    inline constexpr ColumnId kTopLevelOp { "top_level_op", "" };
    inline constexpr ColumnId kBottomLevelOp { "bottom_level_op", "" };
} // namespace cupti_counters

// HTA's get_cupti_counter_data_with_operators (§19): per rank a table of the CUPTI
// range-profiler counters per kernel with the operator stack of its launch. An empty list
// without `cuda_profiler_range` events.
AnalysisOutput cuptiCounterData(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
