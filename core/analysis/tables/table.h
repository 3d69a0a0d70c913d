#pragma once

#include "core/analysis/tables/table_rows.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ks::core {

struct ColumnId; // column_id.h

struct Column
{
    std::string name; // as HTA names it in compat mode, unit-suffixed otherwise
    std::string unit; // "us", "ns", "%", "GB/s", "" ...
};

// An analysis result: named columns and rows of cells. The CLI, charts and
// tests all read these; no analysis formats anything itself.
struct Table
{
    std::string name;
    std::vector<Column> columns;
    TableRows rows;
    std::vector<std::string> indexColumns; // leading columns that were HTA's frame index
    std::optional<std::string> notApplicable; // why this analysis has no result

    // Where a declared column is (either mode's spelling); nullopt when the table lacks it.
    // Production code finds columns this way, never by a name literal.
    std::optional<std::size_t> find(const ColumnId& id) const;
    std::size_t columnIndex(const std::string& columnName) const; // npos when absent

    void addRow(const std::vector<Cell>& row) { rows.push_back(row); }
};

std::optional<double> cellAsDouble(const Cell& cell);
std::string cellAsText(const Cell& cell); // JSON cells: their JSON text
bool cellIsText(const Cell& cell); // text or pre-encoded JSON: shown as text, not as a number

} // namespace ks::core
