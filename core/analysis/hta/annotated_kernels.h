#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/hta/name_stats_columns.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

#include <cstdint>
#include <string_view>

namespace ks::core {

// The columns of gpuKernelsWithUserAnnotations. HTA's frame holds every column of its
// trace frame, with `cat`, `name` and `user_annotation` as symbol ids and their text in
// `s_cat`, `s_name`, `s_user_annotation`. Compat mode writes every one but the ids (HTA's
// own numbering, not reproduced): after `correlation` the parser-argument columns of
// frame_args.h, after `index_correlation` the `iteration`. Default mode writes these below
// and the rank.
namespace annotated_kernels {
    inline constexpr ColumnId kRank { "rank", "" }; // default mode only: every selected rank
    inline constexpr ColumnId kIndex { "index", "" };
    inline constexpr ColumnId kPid { "pid", "" };
    inline constexpr ColumnId kTid { "tid", "" };
    inline constexpr ColumnId kTs { "ts", "ts_us", "us" };
    inline constexpr ColumnId kDur { "dur", "dur_us", "us" };
    inline constexpr ColumnId kEnd { "end", "end_us", "us" };
    inline constexpr ColumnId kStream { "stream", "" };
    inline constexpr ColumnId kCorrelation { "correlation", "" };
    inline constexpr ColumnId kIndexCorrelation { "index_correlation", "" };
    inline constexpr ColumnId kIteration { "iteration", "" }; // compat only: null for no iteration
    inline constexpr ColumnId kName { "s_name", "name", "" };
    inline constexpr ColumnId kCategory { "s_cat", "category", "" };
    inline constexpr ColumnId kUserAnnotation { "s_user_annotation", "user_annotation", "" };
} // namespace annotated_kernels

// HTA's get_gpu_kernels_with_user_annotations (§17): every GPU kernel with the innermost
// gpu_user_annotation on its stream that it overlaps. Compat: rank `rank` only, HTA's
// kernel filter, shortened names, None without annotations; default: every rank.
AnalysisOutput gpuKernelsWithUserAnnotations(
    const FrameSet& frames, const AnalysisOptions& options, std::int64_t rank);

// The columns of kernelTimeByAnnotation: the per-name statistics (name = the annotation)
// and the number of kernels behind them.
namespace kernels_by_annotation {
    using namespace name_stats_columns;
    inline constexpr ColumnId kKernels { "kernels", "" };
} // namespace kernels_by_annotation

// Kinetoscope's own (the app's "Group by annotation" of the kernel views): the
// kernels of each rank grouped by the gpu_user_annotation they ran under, attributed as
// gpuKernelsWithUserAnnotations does on every rank (HTA's last-shortest rule in compat
// mode); kernel durations summed, with min, max, mean and stddev per annotation, sorted by
// sum. Kernels outside every annotation are the row kNoAnnotation. Not applicable without
// gpu_user_annotation events.
inline constexpr std::string_view kNoAnnotation = "(no annotation)";
AnalysisOutput kernelTimeByAnnotation(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
