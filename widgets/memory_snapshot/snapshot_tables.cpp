#include "widgets/memory_snapshot/snapshot_tables.h"

#include "widgets/common/format.h"

#include <QHeaderView>
#include <QScrollBar>
#include <QTableWidget>

#include <algorithm>
#include <cstdlib>
#include <vector>

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
    // Short one-line headers, each with a tooltip saying it whole: eleven columns share a third of
    // a laptop's width. The peak first among the numbers, beside the times.
    struct Column
    {
        QString title;
        QString tip;
    };

    const Column columns[] = {
        { QObject::tr("Range"), QObject::tr("The trace's ProfilerStep#N or user annotation") },
        { QObject::tr("Start"), QObject::tr("Its start, since the trace's start (as the timeline's ruler)") },
        { QObject::tr("End"), QObject::tr("Its end, since the trace's start") },
        { QObject::tr("Peak"),
            QObject::tr("Requested peak: the Active Memory Timeline's largest total inside the range") },
        { QObject::tr("At start"),
            QObject::tr("Requested at start: the timeline's total when the range begins") },
        { QObject::tr("At end"), QObject::tr("Requested at end: the timeline's total when the range ends") },
        { QObject::tr("Alloc peak"),
            QObject::tr("Allocated peak: the Allocator State History's largest allocated bytes (rounded "
                        "blocks) inside the range") },
        { QObject::tr("Rsv end"),
            QObject::tr("Reserved at end: what the caching allocator holds from CUDA") },
        { QObject::tr("Allocs"), QObject::tr("Allocations made inside the range") },
        { QObject::tr("In range"),
            QObject::tr("Allocated in range: the requested bytes of those allocations") },
        { QObject::tr("Top frame"),
            QObject::tr("The program's own frame that allocated most inside the range, with its bytes") },
    };
    QStringList titles;
    for (const Column& c : columns)
        titles << c.title;
    begin(table, titles, int(ranges.size()));
    for (int c = 0; c < int(std::size(columns)); ++c)
        table.horizontalHeaderItem(c)->setToolTip(columns[c].tip);
    auto bytes = [](std::uint64_t v) { return new NumberItem(formatBytes(v), double(v)); };
    for (int r = 0; r < int(ranges.size()); ++r) {
        const core::RangeMemory& m = steps.alignment.ranges[ranges[std::size_t(r)]];
        QTableWidgetItem* name = nameItem(toQString(m.name));
        name->setData(kRangeIndexRole, qulonglong(ranges[std::size_t(r)]));
        // The whole row in one tooltip: the columns a narrow tab leaves out are there too.
        name->setToolTip(
            QObject::tr("%1: %2 – %3\nrequested: peak %4, at start %5, at end %6\nallocated peak %7, "
                        "reserved at end %8\n%9 allocations in it, %10")
                .arg(toQString(m.name), formatDuration(steps.shownNs(m.startUs)),
                    formatDuration(steps.shownNs(m.endUs)), formatBytes(m.requestedPeak),
                    formatBytes(m.requestedAtStart), formatBytes(m.requestedAtEnd),
                    formatBytes(m.allocatedPeak), formatBytes(m.reservedAtEnd))
                .arg(m.allocations)
                .arg(formatBytes(m.allocatedBytes)));
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
        table.setItem(r, kStepsFrameColumn, nameItem(top));
    }
    // The numbers as wide as they need, never cut; the two names share what is left and elide
    // (their tooltips hold them). Which columns fit is SnapshotStepsPage's (fitStepsColumns).
    QHeaderView* header = table.horizontalHeader();
    header->setStretchLastSection(false);
    for (int c = 0; c < int(std::size(columns)); ++c)
        header->setSectionResizeMode(c,
            c == kStepsNameColumn || c == kStepsFrameColumn ? QHeaderView::Stretch
                                                            : QHeaderView::ResizeToContents);
    table.setSortingEnabled(true);
}

void fitStepsColumns(QTableWidget& table)
{
    // Least read first: the state history's numbers, the count, the start's total, the end.
    constexpr int kFoldOrder[] = { 7, 6, 8, 4, 2, 9 };
    const int columns = table.columnCount();
    if (columns != kStepsColumns)
        return;
    const QFontMetrics metrics = table.fontMetrics();
    // The names keep room for "ProfilerStep#12" and a short frame; the numbers their widest cell.
    const int nameWidth = metrics.horizontalAdvance(QStringLiteral("ProfilerStep#12")) + 12;
    std::vector<int> need(std::size_t(columns), 0);
    for (int c = 0; c < columns; ++c) {
        table.setColumnHidden(c, false);
        need[std::size_t(c)] = c == kStepsNameColumn || c == kStepsFrameColumn
            ? nameWidth
            : std::max(table.horizontalHeader()->sectionSizeHint(c),
                static_cast<const QAbstractItemView&>(table).sizeHintForColumn(c));
    }
    // The vertical scroll bar counted whether shown or not: it comes and goes with the rows.
    const int available =
        table.width() - 2 * table.frameWidth() - table.verticalScrollBar()->sizeHint().width();
    int total = 0;
    for (const int w : need)
        total += w;
    for (const int c : kFoldOrder) {
        if (total <= available)
            break;
        table.setColumnHidden(c, true);
        total -= need[std::size_t(c)];
    }
}

} // namespace ks::widgets
