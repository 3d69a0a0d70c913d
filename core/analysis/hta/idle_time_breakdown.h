#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/hta_result.h"

namespace ks::core {

// The columns of idleTimeBreakdown's first table (per rank, stream and idle category).
namespace idle_time_breakdown {
    inline constexpr ColumnId kRank { "rank", "" };
    inline constexpr ColumnId kStream { "stream", "" };
    inline constexpr ColumnId kIdleCategory { "idle_category", "" };
    inline constexpr ColumnId kIdleTime { "idle_time", "idle_time_us", "us" };
    inline constexpr ColumnId kIdleTimeRatio { "idle_time_ratio", "" };
} // namespace idle_time_breakdown

// A2 idle time breakdown (§4): tuple (breakdown per rank/stream/category, interval statistics or None).
// Both modes: options.mode selects HTA 0.6.1's quirks or Kinetoscope's fixes.
AnalysisOutput idleTimeBreakdown(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
