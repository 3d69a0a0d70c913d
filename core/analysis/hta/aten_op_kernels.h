#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

// The columns of atenOpKernelsAndDelay's per-rank tables.
namespace aten_op_kernels {
    inline constexpr ColumnId kIndex { "index", "" }; // position in (op, sequence) order
    inline constexpr ColumnId kOpName { "aten_op_name", "" };
    inline constexpr ColumnId kKernelSequence { "kernel_sequence", "" }; // kernel names joined by " -> "
    inline constexpr ColumnId kOccurrences { "occurrence_count", "" };
    inline constexpr ColumnId kLaunchDelay { "avg_aten_op_launch_delay", "avg_aten_op_launch_delay_us",
        "us" };
    inline constexpr ColumnId kRuntimeDelay { "avg_runtime_delay", "avg_runtime_delay_us", "us" };
} // namespace aten_op_kernels

// HTA's get_aten_op_kernels_and_delay (§20): per rank, per aten op and the sequence of
// kernels one call of it launches, how often, the mean delay from the op's start to its
// first launch and from that launch to its kernel. A dict rank -> table.
AnalysisOutput atenOpKernelsAndDelay(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
