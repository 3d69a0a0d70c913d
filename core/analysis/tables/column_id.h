#pragma once

// A column of an analysis result, declared once in the analysis' header (in a
// namespace named after the analysis) and used both to build its Table and to
// read it, so the compiler checks every reader: renaming a column renames it
// everywhere, and a column that does not exist is a build error, not a blank chart.

#include "core/analysis/tables/analysis_mode.h"
#include "core/analysis/tables/table.h"

#include <string>
#include <string_view>

namespace ks::core {

struct ColumnId
{
    std::string_view hta; // HTA's name: the column in HTA-compatible mode (--hta-compat output)
    std::string_view suffixed; // default mode's unit-suffixed name; hta where HTA's name says the unit
    std::string_view unit; // "us", "%", "GB/s", "" ...

    // A column both modes name alike.
    constexpr ColumnId(std::string_view name, std::string_view unitName)
        : hta(name)
        , suffixed(name)
        , unit(unitName)
    {
    }

    constexpr ColumnId(std::string_view htaName, std::string_view suffixedName, std::string_view unitName)
        : hta(htaName)
        , suffixed(suffixedName)
        , unit(unitName)
    {
    }

    constexpr std::string_view name(AnalysisMode mode) const
    {
        return mode == AnalysisMode::HtaCompat ? hta : suffixed;
    }

    // The Table column of this id in one mode.
    Column column(AnalysisMode mode) const { return { std::string(name(mode)), std::string(unit) }; }

    // The column in HTA-compatible mode's spelling (for columns both modes name alike).
    Column column() const { return column(AnalysisMode::HtaCompat); }
};

// The event-name column of any analysis that has one (kernel and collective
// names, copy kinds): what a double-click in a result table searches for.
inline constexpr ColumnId kEventNameColumn { "name", "" };

} // namespace ks::core
