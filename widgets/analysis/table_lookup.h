#pragma once

#include "core/analysis/table.h"

#include <QString>

#include <initializer_list>
#include <optional>
#include <string_view>

namespace ks::widgets {

// Column lookups for the charts. HTA-compatible mode keeps HTA's column names
// ("idle_time") while default mode suffixes units ("idle_time_us"), so a chart
// names every spelling it accepts and takes the first present.
std::optional<std::size_t> findColumn(
    const core::Table& table, std::initializer_list<std::string_view> names);

// The cell as a number; 0 for nulls and text (a chart draws nothing there).
double numberAt(const core::Table& table, std::size_t row, std::size_t column);

QString textAt(const core::Table& table, std::size_t row, std::size_t column);

// "mean (us)" -> "mean (µs)": units as a person reads them.
QString displayUnit(const std::string& unit);

} // namespace ks::widgets
