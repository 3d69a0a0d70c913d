#include "core/analysis/tables/table.h"

#include "core/analysis/tables/column_id.h"

#include <charconv>

namespace ks::core {

std::size_t Table::columnIndex(const std::string& columnName) const
{
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (columns[i].name == columnName)
            return i;
    return static_cast<std::size_t>(-1);
}

std::optional<std::size_t> Table::find(const ColumnId& id) const
{
    for (std::size_t i = 0; i < columns.size(); ++i)
        if (columns[i].name == id.hta || columns[i].name == id.suffixed)
            return i;
    return std::nullopt;
}

std::optional<double> cellAsDouble(const Cell& cell)
{
    if (const auto* i = std::get_if<std::int64_t>(&cell))
        return static_cast<double>(*i);
    if (const auto* d = std::get_if<double>(&cell))
        return *d;
    return std::nullopt;
}

std::string cellAsText(const Cell& cell)
{
    if (std::holds_alternative<std::monostate>(cell))
        return {};
    if (const auto* i = std::get_if<std::int64_t>(&cell))
        return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&cell)) {
        // The shortest text that reads back as the same double: 55.21, not 55.210000000000001.
        char buf[32];
        const auto end = std::to_chars(buf, buf + sizeof buf, *d).ptr;
        return std::string(buf, end);
    }
    if (const auto* json = std::get_if<JsonText>(&cell))
        return json->json;
    return std::get<std::string>(cell);
}

bool cellIsText(const Cell& cell)
{
    return std::holds_alternative<std::string>(cell) || std::holds_alternative<JsonText>(cell);
}

} // namespace ks::core
