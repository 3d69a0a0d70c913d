#include "widgets/analysis/analysis_table_model.h"

#include "widgets/analysis/table_lookup.h"

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
    switch (role) {
    case Qt::DisplayRole:
    case Qt::ToolTipRole:
        return formatCell(cell);
    case SortRole:
        if (const auto* text = std::get_if<std::string>(&cell))
            return QString::fromStdString(*text);
        if (const auto number = core::cellAsDouble(cell); number && !std::isnan(*number))
            return *number;
        return {};
    case Qt::TextAlignmentRole:
        return std::holds_alternative<std::string>(cell) ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
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
    if (role == Qt::DisplayRole)
        return QString::fromStdString(column.name);
    if (role == Qt::ToolTipRole && !column.unit.empty())
        return tr("%1, in %2").arg(QString::fromStdString(column.name), displayUnit(column.unit));
    return {};
}

} // namespace ks::widgets
