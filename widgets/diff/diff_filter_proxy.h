#pragma once

#include "widgets/timeline/render/timeline_palette.h"

#include <QSortFilterProxyModel>

#include <optional>

namespace ks::widgets {

// D1: the diff table's sorting (numbers as numbers) and its two filters: a
// name substring and one status class.
class DiffFilterProxy : public QSortFilterProxyModel
{
    Q_OBJECT

public:
    explicit DiffFilterProxy(QObject* parent = nullptr);

    void setNameFilter(const QString& text);
    // nullopt: every status.
    void setStatusFilter(std::optional<DiffClass> status);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_name;
    std::optional<DiffClass> m_status;
};

} // namespace ks::widgets
