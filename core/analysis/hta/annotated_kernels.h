#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

#include <cstdint>

namespace ks::core {

// The columns of gpuKernelsWithUserAnnotations. HTA's frame holds every column of its
// trace frame, with `cat`, `name` and `user_annotation` as symbol ids and their text in
// `s_cat`, `s_name`, `s_user_annotation`; these are the ones Kinetoscope writes (the ids
// are HTA's own numbering and are not reproduced).
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
    inline constexpr ColumnId kName { "s_name", "name", "" };
    inline constexpr ColumnId kCategory { "s_cat", "category", "" };
    inline constexpr ColumnId kUserAnnotation { "s_user_annotation", "user_annotation", "" };
} // namespace annotated_kernels

// HTA's get_gpu_kernels_with_user_annotations (§17): every GPU kernel with the innermost
// gpu_user_annotation on its stream that it overlaps. Compat: rank `rank` only, HTA's
// kernel filter, shortened names, None without annotations; default: every rank.
AnalysisOutput gpuKernelsWithUserAnnotations(
    const FrameSet& frames, const AnalysisOptions& options, std::int64_t rank);

} // namespace ks::core
