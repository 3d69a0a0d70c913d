#include "widgets/diff/diff_table_model.h"

#include "widgets/analysis/analysis_table_model.h"

#include <QColor>

namespace ks::widgets {

namespace {

    // Friendlier headers for compareTraces' columns; the core's names stay in the tooltip and CSV.
    QString headerFor(const std::string& column)
    {
        const QString c = QString::fromStdString(column);
        if (c == QStringLiteral("name"))
            return QStringLiteral("Name");
        if (c.endsWith(QStringLiteral("_counts")) && !c.startsWith(QStringLiteral("diff")))
            return c.chopped(7) + QStringLiteral(" count");
        if (c.endsWith(QStringLiteral("_total_duration")))
            return c.chopped(15) + QStringLiteral(" total (µs)");
        if (c == QStringLiteral("diff_counts"))
            return QStringLiteral("Δ count");
        if (c == QStringLiteral("diff_duration"))
            return QStringLiteral("Δ total (µs)");
        if (c == QStringLiteral("counts_change_categories"))
            return QStringLiteral("Count change");
        return c;
    }

} // namespace

DiffTableModel::DiffTableModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void DiffTableModel::setResult(std::shared_ptr<const core::AnalysisOutput> output, double tolerance)
{
    beginResetModel();
    m_output = std::move(output);
    m_table = m_output && m_output->ok && m_output->result.kind == core::HtaResult::Kind::DataFrame
        ? &m_output->result.frame
        : nullptr;
    m_classes = m_table ? DiffClassification::fromTable(*m_table, tolerance) : DiffClassification();
    endResetModel();
}

int DiffTableModel::statusColumn() const
{
    return m_table ? static_cast<int>(m_table->columns.size()) : 0;
}

int DiffTableModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : static_cast<int>(m_table->rows.size());
}

int DiffTableModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || !m_table ? 0 : statusColumn() + 1;
}

QVariant DiffTableModel::data(const QModelIndex& index, int role) const
{
    if (!m_table || !index.isValid())
        return {};
    const auto row = static_cast<std::size_t>(index.row());
    const DiffClass diff = m_classes.rowClass(row);
    if (role == ClassRole)
        return static_cast<int>(diff);
    if (role == NameRole)
        return QString::fromStdString(core::cellAsText(m_table->rows[row][0]));
    if (index.column() == statusColumn()) {
        switch (role) {
        case Qt::DisplayRole:
            return diff == DiffClass::Unchanged ? QStringLiteral("unchanged")
                                                : diffClassName(diff).section(u' ', 0, 0).toLower();
        case SortRole:
            return static_cast<int>(diff);
        case Qt::DecorationRole:
            return diff == DiffClass::Unchanged ? QVariant()
                                                : QVariant(m_palette.fill(diffColorKey(0, diff)));
        default:
            return {};
        }
    }
    const core::Cell cell = m_table->rows[row][static_cast<std::size_t>(index.column())];
    switch (role) {
    case Qt::DisplayRole:
        return AnalysisTableModel::formatCell(cell);
    case Qt::ToolTipRole:
        return index.column() == 0 ? QString::fromStdString(core::cellAsText(cell)) : QVariant();
    case SortRole:
        if (const auto v = core::cellAsDouble(cell); v && !std::holds_alternative<std::string>(cell))
            return *v;
        return QString::fromStdString(core::cellAsText(cell));
    case Qt::TextAlignmentRole:
        return std::holds_alternative<std::string>(cell) ? QVariant()
                                                         : QVariant(int(Qt::AlignRight | Qt::AlignVCenter));
    default:
        return {};
    }
}

QVariant DiffTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || !m_table)
        return QAbstractTableModel::headerData(section, orientation, role);
    const bool status = section == statusColumn();
    if (role == Qt::DisplayRole)
        return status ? QStringLiteral("Status")
                      : headerFor(m_table->columns[static_cast<std::size_t>(section)].name);
    if (role == Qt::ToolTipRole)
        return status
            ? QStringLiteral("Added: only in test · removed: only in control · slower/faster: total "
                             "duration changed beyond the tolerance")
            : QString::fromStdString(m_table->columns[static_cast<std::size_t>(section)].name);
    return {};
}

} // namespace ks::widgets
