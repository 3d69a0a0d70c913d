#pragma once

#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/table.h"

#include <QString>

#include <initializer_list>
#include <optional>
#include <string_view>

namespace ks::widgets {

// Cell reads for the charts. Charts find their columns with Table::find and
// the ColumnIds the analyses declare (core/analysis/tables/column_id.h).

// The cell as a number; 0 for nulls and text (a chart draws nothing there).
double numberAt(const core::Table& table, std::size_t row, std::size_t column);

QString textAt(const core::Table& table, std::size_t row, std::size_t column);

// "mean (us)" -> "mean (µs)": units as a person reads them.
QString displayUnit(const std::string& unit);

} // namespace ks::widgets
