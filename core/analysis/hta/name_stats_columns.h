#pragma once

// The columns of a per-name statistics table (NameStats, name_stats.h): the GPU
// kernel breakdown's per-kernel table and the user-annotation breakdown read
// alike, so their column namespaces both bring these in.

#include "core/analysis/tables/column_id.h"

namespace ks::core::name_stats_columns {

inline constexpr ColumnId kName { "name", "" };
inline constexpr ColumnId kSum { "sum (us)", "us" };
inline constexpr ColumnId kMax { "max (us)", "us" };
inline constexpr ColumnId kMin { "min (us)", "us" };
inline constexpr ColumnId kStddev { "stddev", "stddev (us)", "us" };
inline constexpr ColumnId kMean { "mean (us)", "us" };
inline constexpr ColumnId kRank { "rank", "" };

} // namespace ks::core::name_stats_columns
