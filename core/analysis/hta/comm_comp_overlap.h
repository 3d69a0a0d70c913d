#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

// The columns of commCompOverlap's table.
namespace comm_comp_overlap {
    inline constexpr ColumnId kRank { "rank", "" };
    inline constexpr ColumnId kOverlapPctg { "comp_comm_overlap_pctg", "%" };
} // namespace comm_comp_overlap

// A4 communication/computation overlap (§6): per rank overlap %.
// Both modes: options.mode selects HTA 0.6.1's quirks or Kinetoscope's fixes.
AnalysisOutput commCompOverlap(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
