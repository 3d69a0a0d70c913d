#include "widgets/analysis/analysis_table_model.h"

#include "widgets/common/table_lookup.h"

#include <cmath>

namespace ks::widgets {

AnalysisTableModel::AnalysisTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void AnalysisTableModel::setTable(std::shared_ptr<const core::AnalysisOutput> owner, const core::Table* table)
{
    beginResetModel();
    m_owner = std::move(owner);
    m_table = table;
    m_formats.clear();
    if (table) {
        for (std::size_t c = 0; c < table->columns.size(); ++c) {
            ColumnFormat format = columnFormat(table->columns[c].name, table->columns[c].unit);
            // A column of text (names, categories) is text whatever its name says.
            for (const auto& row : table->rows) {
                if (core::cellAsDouble(row[c]) || core::cellIsText(row[c])) {
                    if (core::cellIsText(row[c]))
                        format.kind = NumberKind::Text;
                    break;
                }
            }
            m_formats.push_back(std::move(format));
        }
    }
    endResetModel();
}

int AnalysisTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : static_cast<int>(m_table->rows.size());
}

int AnalysisTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : static_cast<int>(m_table->columns.size());
}

QString AnalysisTableModel::formatCell(const core::Cell& cell)
{
    if (const auto* real = std::get_if<double>(&cell)) {
        if (std::isnan(*real))
            return {};
        if (std::abs(*real) >= 1e10)
            return QString::number(*real, 'f', 0);
        return QString::number(*real, 'g', 10);
    }
    return QString::fromStdString(core::cellAsText(cell));
}

QVariant AnalysisTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_table || !index.isValid())
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const auto column = static_cast<std::size_t>(index.column());
    if (row >= m_table->rows.size() || column >= m_table->columns.size())
        return {};
    const core::Cell cell = m_table->rows[row][column];
    const bool isText = core::cellIsText(cell);
    switch (role) {
    case Qt::DisplayRole: {
        if (isText)
            return formatCell(cell);
        const auto number = core::cellAsDouble(cell);
        return number ? formatValue(*number, m_formats[column]) : QString();
    }
    case Qt::ToolTipRole:
        if (isText)
            return formatCell(cell);
        return QStringLiteral("%1 = %2").arg(
            QString::fromStdString(m_table->columns[column].name), formatCell(cell));
    case kRawTextRole:
        return formatCell(cell);
    case SortRole:
        if (core::cellIsText(cell))
            return QString::fromStdString(core::cellAsText(cell));
        if (const auto number = core::cellAsDouble(cell); number && !std::isnan(*number))
            return *number;
        return {};
    case Qt::TextAlignmentRole:
        return isText ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                      : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    default:
        return {};
    }
}

QVariant AnalysisTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (!m_table || orientation != Qt::Horizontal || section < 0
        || static_cast<std::size_t>(section) >= m_table->columns.size())
        return QAbstractTableModel::headerData(section, orientation, role);
    const core::Column& column = m_table->columns[static_cast<std::size_t>(section)];
    const ColumnFormat& format = m_formats[static_cast<std::size_t>(section)];
    switch (role) {
    case Qt::DisplayRole:
        return format.title;
    case kRawTextRole:
        return QString::fromStdString(column.name);
    case kNumberKindRole:
        return static_cast<int>(format.kind);
    case Qt::TextAlignmentRole:
        return format.kind == NumberKind::Text ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole:
        if (column.unit.empty())
            return QString::fromStdString(column.name);
        return tr("%1, in %2").arg(QString::fromStdString(column.name), displayUnit(column.unit));
    default:
        return {};
    }
}

} // namespace ks::widgets
