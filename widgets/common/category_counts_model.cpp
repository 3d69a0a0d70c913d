#include "widgets/common/category_counts_model.h"

#include "widgets/common/format.h"

#include <algorithm>
#include <map>
#include <string>

namespace ks::widgets {

CategoryCountsModel::CategoryCountsModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void CategoryCountsModel::setRanks(const std::vector<std::shared_ptr<const core::RankTrace>>& ranks)
{
    std::map<std::string, std::array<std::uint64_t, core::kPhaseCount>, std::less<>> sums;
    for (const auto& rank : ranks) {
        if (!rank)
            continue;
        for (const auto& [category, counts] : rank->counts.byCategory) {
            auto& sum = sums[category];
            for (std::size_t p = 0; p < core::kPhaseCount; ++p)
                sum[p] += counts[p];
        }
    }
    beginResetModel();
    m_rows.clear();
    for (const auto& [category, counts] : sums) {
        Row row;
        row.category = category.empty() ? tr("(no category)") : QString::fromStdString(category);
        row.byPhase = counts;
        for (std::uint64_t c : counts)
            row.total += c;
        if (row.total > 0)
            m_rows.append(row);
    }
    // Biggest first: the categories a user cares about come on top before any sorting.
    std::stable_sort(
        m_rows.begin(), m_rows.end(), [](const Row& a, const Row& b) { return a.total > b.total; });
    endResetModel();
}

int CategoryCountsModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int CategoryCountsModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : FirstPhaseColumn + static_cast<int>(core::kPhaseCount);
}

quint64 CategoryCountsModel::value(const Row& row, int column) const
{
    if (column == TotalColumn)
        return row.total;
    return row.byPhase[static_cast<std::size_t>(column - FirstPhaseColumn)];
}

QVariant CategoryCountsModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row& row = m_rows[index.row()];
    const bool isCategory = index.column() == CategoryColumn;
    switch (role) {
    case Qt::DisplayRole: {
        if (isCategory)
            return row.category;
        const quint64 v = value(row, index.column());
        // Blank zeros keep the table readable: most categories use one or two phases.
        return v == 0 && index.column() != TotalColumn ? QString() : formatCount(v);
    }
    case SortRole:
        return isCategory ? QVariant(row.category) : QVariant::fromValue(value(row, index.column()));
    case Qt::TextAlignmentRole:
        return QVariant::fromValue(
            Qt::Alignment((isCategory ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    default:
        return {};
    }
}

QVariant CategoryCountsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= columnCount())
        return QAbstractTableModel::headerData(section, orientation, role);
    if (role == Qt::TextAlignmentRole)
        return QVariant::fromValue(
            Qt::Alignment((section == CategoryColumn ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
    if (role == Qt::ToolTipRole && section >= FirstPhaseColumn)
        return tr("Events with ph \"%1\"")
            .arg(toQString(core::phaseName(static_cast<core::Phase>(section - FirstPhaseColumn))));
    if (role != Qt::DisplayRole)
        return {};
    if (section == CategoryColumn)
        return tr("Category");
    if (section == TotalColumn)
        return tr("Events");
    return toQString(core::phaseName(static_cast<core::Phase>(section - FirstPhaseColumn)));
}

} // namespace ks::widgets
