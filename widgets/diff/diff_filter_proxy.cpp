#include "widgets/diff/diff_filter_proxy.h"

#include "widgets/diff/diff_table_model.h"

namespace ks::widgets {

DiffFilterProxy::DiffFilterProxy(QObject* parent)
    : QSortFilterProxyModel(parent)
{
    setSortRole(DiffTableModel::SortRole);
}

void DiffFilterProxy::setNameFilter(const QString& text)
{
    if (text == m_name)
        return;
    m_name = text;
    invalidateFilter();
}

void DiffFilterProxy::setStatusFilter(std::optional<DiffClass> status)
{
    if (status == m_status)
        return;
    m_status = status;
    invalidateFilter();
}

bool DiffFilterProxy::filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const
{
    const QModelIndex index = sourceModel()->index(sourceRow, 0, sourceParent);
    if (m_status && index.data(DiffTableModel::ClassRole).toInt() != static_cast<int>(*m_status))
        return false;
    return m_name.isEmpty()
        || index.data(DiffTableModel::NameRole).toString().contains(m_name, Qt::CaseInsensitive);
}

} // namespace ks::widgets
