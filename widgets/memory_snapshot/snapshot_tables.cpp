#include "widgets/memory_snapshot/snapshot_tables.h"

#include "widgets/common/format.h"

#include <QHeaderView>
#include <QTableWidget>

#include <algorithm>
#include <cstdlib>

namespace ks::widgets {

namespace {

    // A cell showing `text` that sorts by `value`.
    class NumberItem : public QTableWidgetItem
    {
    public:
        NumberItem(const QString& text, double value)
            : QTableWidgetItem(text)
        {
            setData(Qt::UserRole, value);
            setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        }

        bool operator<(const QTableWidgetItem& other) const override
        {
            return data(Qt::UserRole).toDouble() < other.data(Qt::UserRole).toDouble();
        }
    };

    void begin(QTableWidget& table, const QStringList& headers, int rows)
    {
        table.setSortingEnabled(false);
        table.clear();
        table.setColumnCount(int(headers.size()));
        table.setHorizontalHeaderLabels(headers);
        table.setRowCount(rows);
        table.setEditTriggers(QAbstractItemView::NoEditTriggers);
        table.setSelectionBehavior(QAbstractItemView::SelectRows);
        table.verticalHeader()->hide();
        table.verticalHeader()->setDefaultSectionSize(table.fontMetrics().height() + 6); // compact rows
        table.setWordWrap(false);
        table.setTextElideMode(Qt::ElideMiddle); // a frame's file and function both stay in view
    }

    void end(QTableWidget& table, bool sortable)
    {
        table.resizeColumnsToContents();
        table.horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
        table.setSortingEnabled(sortable);
    }

    QTableWidgetItem* nameItem(const QString& text)
    {
        auto* item = new QTableWidgetItem(text);
        item->setToolTip(text);
        return item;
    }

} // namespace

QString signedBytes(std::int64_t delta)
{
    const QString size = formatBytes(std::uint64_t(std::llabs(delta)));
    return delta > 0 ? QStringLiteral("+") + size : delta < 0 ? QStringLiteral("−") + size : size;
}

void fillPeakByFrame(QTableWidget& table, const std::vector<core::FrameGroup>& groups)
{
    begin(table, { QObject::tr("User frame"), QObject::tr("Bytes"), QObject::tr("Allocations") },
        int(groups.size()));
    for (int r = 0; r < int(groups.size()); ++r) {
        const core::FrameGroup& g = groups[std::size_t(r)];
        table.setItem(r, 0, nameItem(toQString(g.frame)));
        table.setItem(r, 1, new NumberItem(formatBytes(g.bytes), double(g.bytes)));
        table.setItem(r, 2, new NumberItem(QString::number(g.count), double(g.count)));
    }
    end(table, true);
}

void fillComparisonTotals(QTableWidget& table, const core::DeviceComparison& device)
{
    struct Row
    {
        QString name;
        std::uint64_t before;
        std::uint64_t after;
        bool bytes;
    };

    const core::SnapshotDeviceTotals& a = device.before;
    const core::SnapshotDeviceTotals& b = device.after;
    const Row rows[] = {
        { QObject::tr("Peak allocated"), a.peakAllocated, b.peakAllocated, true },
        { QObject::tr("Peak reserved"), a.peakReserved, b.peakReserved, true },
        { QObject::tr("Reserved"), a.reserved, b.reserved, true },
        { QObject::tr("Allocated"), a.allocated, b.allocated, true },
        { QObject::tr("Active"), a.active, b.active, true },
        { QObject::tr("Requested"), a.requested, b.requested, true },
        { QObject::tr("Segments"), a.segments, b.segments, false },
        { QObject::tr("Blocks"), a.blocks, b.blocks, false },
        { QObject::tr("Out-of-memory events"), a.oomEvents, b.oomEvents, false },
    };
    begin(table,
        { QObject::tr("Device %1").arg(device.device), QObject::tr("Before"), QObject::tr("After"),
            QObject::tr("Change") },
        int(std::size(rows)));
    for (int r = 0; r < int(std::size(rows)); ++r) {
        const Row& row = rows[r];
        const auto delta = std::int64_t(row.after) - std::int64_t(row.before);
        auto text = [&row](std::uint64_t v) { return row.bytes ? formatBytes(v) : QString::number(v); };
        table.setItem(r, 0, nameItem(row.name));
        table.setItem(
            r, 1, new NumberItem(device.inBefore ? text(row.before) : QString(), double(row.before)));
        table.setItem(r, 2, new NumberItem(device.inAfter ? text(row.after) : QString(), double(row.after)));
        table.setItem(r, 3,
            new NumberItem(row.bytes ? signedBytes(delta)
                                     : (delta > 0 ? QStringLiteral("+") : QString()) + QString::number(delta),
                double(delta)));
    }
    end(table, false);
}

void fillComparisonFrames(QTableWidget& table, const std::vector<core::FrameDelta>& frames)
{
    begin(table,
        { QObject::tr("User frame (at each peak)"), QObject::tr("Before"), QObject::tr("After"),
            QObject::tr("Change") },
        int(frames.size()));
    for (int r = 0; r < int(frames.size()); ++r) {
        const core::FrameDelta& f = frames[std::size_t(r)];
        table.setItem(r, 0, nameItem(toQString(f.frame)));
        table.setItem(r, 1, new NumberItem(formatBytes(f.before), double(f.before)));
        table.setItem(r, 2, new NumberItem(formatBytes(f.after), double(f.after)));
        table.setItem(r, 3, new NumberItem(signedBytes(f.delta()), double(f.delta())));
    }
    end(table, true);
}

void fillStepsTable(QTableWidget& table, const SnapshotSteps& steps, const std::vector<std::size_t>& ranges)
{
    begin(table,
        // Two-line headers: the numbers are narrow, and eleven columns share the tab's width.
        // The peak first among the numbers: in a narrow tab it is the one in view beside the times.
        { QObject::tr("Range"), QObject::tr("Start"), QObject::tr("End"), QObject::tr("Requested\npeak"),
            QObject::tr("Requested\nat start"), QObject::tr("Requested\nat end"),
            QObject::tr("Allocated\npeak"), QObject::tr("Reserved\nat end"), QObject::tr("Allocs"),
            QObject::tr("Allocated\nin range"), QObject::tr("Top frame") },
        int(ranges.size()));
    auto bytes = [](std::uint64_t v) { return new NumberItem(formatBytes(v), double(v)); };
    for (int r = 0; r < int(ranges.size()); ++r) {
        const core::RangeMemory& m = steps.alignment.ranges[ranges[std::size_t(r)]];
        QTableWidgetItem* name = nameItem(toQString(m.name));
        name->setData(kRangeIndexRole, qulonglong(ranges[std::size_t(r)]));
        table.setItem(r, 0, name);
        const std::int64_t start = steps.shownNs(m.startUs);
        const std::int64_t end = steps.shownNs(m.endUs);
        table.setItem(r, 1, new NumberItem(formatDuration(start), double(start)));
        table.setItem(r, 2, new NumberItem(formatDuration(end), double(end)));
        table.setItem(r, 3, bytes(m.requestedPeak));
        table.setItem(r, 4, bytes(m.requestedAtStart));
        table.setItem(r, 5, bytes(m.requestedAtEnd));
        table.setItem(r, 6, bytes(m.allocatedPeak));
        table.setItem(r, 7, bytes(m.reservedAtEnd));
        table.setItem(r, 8, new NumberItem(QString::number(m.allocations), double(m.allocations)));
        table.setItem(r, 9, bytes(m.allocatedBytes));
        const QString top = m.topFrames.empty()
            ? QString()
            : QObject::tr("%1 (%2)").arg(
                toQString(m.topFrames.front().frame), formatBytes(m.topFrames.front().bytes));
        table.setItem(r, 10, nameItem(top));
    }
    table.resizeColumnsToContents();
    // A long annotation's name elides (its tooltip holds it): the numbers stay in view beside it.
    table.setColumnWidth(0, std::min(table.columnWidth(0), 12 * table.fontMetrics().averageCharWidth() + 24));
    // The numbers are fixed: the top frame takes what is left.
    table.horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table.horizontalHeader()->setStretchLastSection(true);
    table.setSortingEnabled(true);
}

} // namespace ks::widgets
