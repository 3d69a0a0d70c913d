#pragma once

#include "core/analysis/tables/hta_result.h"
#include "widgets/common/format.h"

#include <QAbstractTableModel>

#include <memory>

namespace ks::widgets {

// One core::Table as a read-only Qt table. Cells are converted when asked for,
// not copied: launch statistics and time series have many thousands of rows.
// SortRole gives numbers as doubles so a QSortFilterProxyModel sorts 9 before 10.
// Cells and headers follow the number policy of format.h (columnFormat): the
// display is for people, kRawTextRole and the tooltip keep HTA's name and the
// full-precision value.
class AnalysisTableModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit AnalysisTableModel(QObject* parent = nullptr);

    // `owner` keeps the result holding `table` alive as long as the model shows it.
    void setTable(std::shared_ptr<const core::AnalysisOutput> owner, const core::Table* table);

    const core::Table* table() const { return m_table; }

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // A cell's raw value as text (tooltip, copy): integers whole, reals with up
    // to 10 significant digits and no exponent below 1e10.
    static QString formatCell(const core::Cell& cell);

private:
    std::shared_ptr<const core::AnalysisOutput> m_owner;
    const core::Table* m_table = nullptr;
    std::vector<ColumnFormat> m_formats; // one per column of m_table
};

} // namespace ks::widgets
