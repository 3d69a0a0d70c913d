#include "widgets/common/table_lookup.h"

namespace ks::widgets {

double numberAt(const core::Table& table, std::size_t row, std::size_t column)
{
    return core::cellAsDouble(table.rows[row][column]).value_or(0.0);
}

QString textAt(const core::Table& table, std::size_t row, std::size_t column)
{
    return QString::fromStdString(core::cellAsText(table.rows[row][column]));
}

QString displayUnit(const std::string& unit)
{
    if (unit == "us")
        return QStringLiteral("µs");
    return QString::fromStdString(unit);
}

} // namespace ks::widgets
