#pragma once

#include "core/model/trace_set.h"

#include <QAbstractTableModel>

#include <memory>

namespace ks::widgets {

// One row per loaded rank (what was read and modelled) followed by one row per
// file that failed to load. A failure row has its one-line error in
// ErrorTextColumn (views span it over the number columns, which a failed file
// has none of) and "Failed" in StatusColumn. Display text is formatted; SortRole
// holds the raw number so a proxy sorts numerically.
class RankSummaryModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        RankColumn,
        SourceColumn,
        FileColumn,
        SizeColumn,
        EventsColumn,
        CompleteColumn,
        BeginEndColumn,
        InstantColumn,
        CounterColumn,
        FlowColumn,
        GpuStreamsColumn,
        CpuThreadsColumn,
        StartColumn,
        SpanColumn,
        DiagnosticsColumn,
        StatusColumn,
        ColumnCount,
        ErrorTextColumn = SizeColumn,
    };

    enum Role
    {
        SortRole = Qt::UserRole + 1, // raw value: number, or text for text columns
        FailedRole, // bool: the row is a file that failed to load
        PathRole, // full path of the row's file
    };

    explicit RankSummaryModel(QObject* parent = nullptr);

    void setTraceSet(std::shared_ptr<const core::TraceSet> set);

    const std::shared_ptr<const core::TraceSet>& traceSet() const { return m_set; }

    int rankRowCount() const;
    int failureRowCount() const;
    // The rank shown in a row, or nullptr for a failure row.
    const core::RankTrace* rankAt(int row) const;
    const core::Error* failureAt(int row) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant rankData(const core::RankTrace& rank, int column, int role) const;
    QVariant rankValue(const core::RankTrace& rank, int column) const;
    QVariant rankText(const core::RankTrace& rank, int column) const;
    QVariant failureData(const core::Error& error, int column, int role) const;

    std::shared_ptr<const core::TraceSet> m_set;
    core::TimeNs m_setStartNs = 0;
};

} // namespace ks::widgets
