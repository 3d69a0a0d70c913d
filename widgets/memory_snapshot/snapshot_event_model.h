#pragma once

#include "widgets/memory_snapshot/snapshot_view_data.h"

#include <QAbstractTableModel>

namespace ks::widgets {

// memory_viz's event list of one device (a free_requested directly followed by
// its free_completed is one `free`), each row with what follows it: the Active
// Memory Timeline's total and the Allocator State History's "(allocated /
// reserved)". Texts are made on demand: a snapshot may hold a million events.
// Qt::UserRole gives each cell's number (bytes, indices) for sorting and tests.
class SnapshotEventModel : public QAbstractTableModel
{
    Q_OBJECT

public:
    enum Column
    {
        Event, // the raw index in device_traces[d]
        Action,
        Address,
        Size,
        Stream,
        Time, // since the device's first event
        Active, // the Active Memory Timeline's total after it (requested bytes)
        Allocated, // the Allocator State History's header
        Reserved,
        Frame, // the user frame of its stack
        ColumnCount
    };

    explicit SnapshotEventModel(QObject* parent = nullptr);

    void setSnapshot(SnapshotViewDataPtr snapshot, int device);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    const core::ActiveMemoryTimeline* timeline() const;
    QVariant number(const core::TimelineRow& row, const core::TraceEntry& entry, int column) const;
    QString text(const core::TimelineRow& row, const core::TraceEntry& entry, int column) const;

    SnapshotViewDataPtr m_data;
    int m_device = 0;
    std::int64_t m_firstTimeUs = core::kNoTime;
};

} // namespace ks::widgets
