#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/hta/name_stats_columns.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

// The columns of userAnnotationBreakdown: statistics per annotation name and rank.
namespace user_annotation_breakdown {
    using namespace name_stats_columns;
} // namespace user_annotation_breakdown

// HTA's get_gpu_user_annotation_breakdown (§16): per rank, the time of each user
// annotation (`record_function` range) on the GPU (`gpu_user_annotation`) or the CPU
// (`user_annotation`, options.annotations.useGpuAnnotation false), the tail folded into
// `others` as the kernel breakdown does.
AnalysisOutput userAnnotationBreakdown(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
