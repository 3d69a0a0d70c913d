#include "widgets/memory_snapshot/snapshot_event_model.h"

#include "core/analysis/memory_snapshot/snapshot_frames.h"
#include "widgets/common/format.h"
#include "widgets/memory_snapshot/snapshot_tooltips.h"

namespace ks::widgets {

SnapshotEventModel::SnapshotEventModel(QObject* parent)
    : QAbstractTableModel(parent)
{
}

void SnapshotEventModel::setSnapshot(SnapshotViewDataPtr snapshot, int device)
{
    beginResetModel();
    m_data = std::move(snapshot);
    m_device = device;
    m_firstTimeUs = m_data ? m_data->summaryOf(device).trace.firstTimeUs : core::kNoTime;
    endResetModel();
}

const core::ActiveMemoryTimeline* SnapshotEventModel::timeline() const
{
    return m_data ? &m_data->summaryOf(m_device).timeline : nullptr;
}

int SnapshotEventModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() || !timeline() ? 0 : int(timeline()->rows.size());
}

int SnapshotEventModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant SnapshotEventModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Event:
        return tr("Event");
    case Action:
        return tr("Action");
    case Address:
        return tr("Address");
    case Size:
        return tr("Size");
    case Stream:
        return tr("Stream");
    case Time:
        return tr("Time");
    case Active:
        return tr("Active");
    case Allocated:
        return tr("Allocated");
    case Reserved:
        return tr("Reserved");
    case Frame:
        return tr("User frame");
    default:
        return {};
    }
}

QVariant SnapshotEventModel::number(
    const core::TimelineRow& row, const core::TraceEntry& entry, int column) const
{
    switch (column) {
    case Event:
        return qlonglong(row.event.raw);
    case Address:
        return qulonglong(entry.addr);
    case Size:
        return qulonglong(entry.size);
    case Stream:
        return qlonglong(entry.stream);
    case Time:
        return entry.timeUs == core::kNoTime ? QVariant() : QVariant(qlonglong(entry.timeUs - m_firstTimeUs));
    case Active:
        return qulonglong(row.allocated);
    case Allocated:
        return qulonglong(row.stateAllocated);
    case Reserved:
        return qulonglong(row.stateReserved);
    default:
        return text(row, entry, column);
    }
}

QString SnapshotEventModel::text(
    const core::TimelineRow& row, const core::TraceEntry& entry, int column) const
{
    switch (column) {
    case Event:
        return QString::number(row.event.raw);
    case Action:
        return QString::fromLatin1(core::traceActionName(row.event.action));
    case Address:
        return entry.action == core::TraceAction::Oom
            ? QString()
            : QStringLiteral("0x") + QString::number(entry.addr, 16);
    case Size:
        return formatBytes(entry.size);
    case Stream:
        return QString::number(entry.stream);
    case Time:
        return entry.timeUs == core::kNoTime
            ? QString()
            : formatDurationReal(double(entry.timeUs - m_firstTimeUs) * 1000.0);
    case Active:
        return formatBytes(row.allocated);
    case Allocated:
        return formatBytes(row.stateAllocated);
    case Reserved:
        return formatBytes(row.stateReserved);
    case Frame:
        return toQString(core::userFrame(*m_data->snapshot, entry.stack).text);
    default:
        return {};
    }
}

QVariant SnapshotEventModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || !timeline() || std::size_t(index.row()) >= timeline()->rows.size())
        return {};
    const core::TimelineRow& row = timeline()->rows[std::size_t(index.row())];
    const core::TraceEntry& entry = m_data->snapshot->trace(timeline()->device)[row.event.raw];
    switch (role) {
    case Qt::DisplayRole:
        return text(row, entry, index.column());
    case Qt::UserRole:
        return number(row, entry, index.column());
    case Qt::TextAlignmentRole:
        return index.column() == Action || index.column() == Frame || index.column() == Address
            ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
            : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ToolTipRole: {
        if (index.column() != Frame)
            return {};
        const QStringList lines = keptFrames(*m_data->snapshot, entry.stack, -1);
        return lines.isEmpty() ? QVariant() : QVariant(lines.join(QLatin1Char('\n')));
    }
    default:
        return {};
    }
}

} // namespace ks::widgets
