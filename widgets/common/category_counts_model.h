#pragma once

#include "core/model/rank_trace.h"

#include <QAbstractTableModel>
#include <QList>

#include <array>
#include <memory>
#include <vector>

namespace ks::widgets {

// Events per category and phase, summed over the ranks given (one rank, or all of
// them). These are the raw read counts, so a user can check them against the file
// with any JSON tool.
class CategoryCountsModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    // Column 0 is the category, column 1 the total, then one column per phase.
    enum Column
    {
        CategoryColumn,
        TotalColumn,
        FirstPhaseColumn
    };

    static constexpr int SortRole = Qt::UserRole + 1;

    explicit CategoryCountsModel(QObject* parent = nullptr);

    void setRanks(const std::vector<std::shared_ptr<const core::RankTrace>>& ranks);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    struct Row
    {
        QString category;
        quint64 total = 0;
        std::array<std::uint64_t, core::kPhaseCount> byPhase {};
    };

    quint64 value(const Row& row, int column) const;

    QList<Row> m_rows;
};

} // namespace ks::widgets
