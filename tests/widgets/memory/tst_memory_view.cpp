// The Memory view on a small trace with [memory] events: the curves per
// device, the peak marked with its op, the allocations (never freed ones said
// so) and the per-operator statistics; a range (given, or dragged on the
// chart) keeps the allocations live in it and the statistics of the records
// inside it; a trace without [memory] events gets one line, no chart.

#include "core/analysis/memory/memory_tables.h"
#include "tests/support/memory_traces.h"
#include "tests/support/test_main.h"
#include "widgets/analysis/analysis_table_model.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/common/task_tracker.h"
#include "widgets/memory/memory_view.h"

#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace ks;
using namespace ks::tests;

namespace {

constexpr std::int64_t kMiB = 1024 * 1024;

// GPU0: 1 MiB in aten::empty (never freed), 4 MiB in aten::add freed in
// aten::mul, 2 MiB in aten::relu (never freed); the peak is 5 MiB in aten::add.
MemoryTrace threeAllocations()
{
    MemoryTrace t;
    t.op("aten::empty", 0, 10).op("aten::add", 20, 10).op("aten::mul", 40, 10).op("aten::relu", 60, 10);
    t.mem(1, kMiB, 4096, kMiB, 2 * kMiB)
        .mem(21, 4 * kMiB, 8192, 5 * kMiB, 8 * kMiB)
        .mem(41, -4 * kMiB, 8192, kMiB, 8 * kMiB)
        .mem(61, 2 * kMiB, 12288, 3 * kMiB, 8 * kMiB);
    return t;
}

core::TimeNs absoluteNs(std::int64_t usAfterBase)
{
    return (kBaseUs + usAfterBase) * 1000;
}

// The column's texts, in the order the view shows them.
QStringList column(const widgets::AnalysisTableView& table, const core::ColumnId& id)
{
    QStringList out;
    const auto c = table.table()->find(id);
    if (!c)
        return out;
    for (int r = 0; r < table.proxy()->rowCount(); ++r)
        out << table.proxy()->index(r, int(*c)).data(widgets::kRawTextRole).toString();
    return out;
}

struct Shown
{
    QTemporaryDir dir;
    widgets::TaskPools pools;
    widgets::MemoryView view { &pools };
    std::shared_ptr<core::TraceAnalyses> analyses;

    explicit Shown(const MemoryTrace& trace)
    {
        analyses = std::make_shared<core::TraceAnalyses>(
            std::make_shared<const core::TraceSet>(loadRanks(dir, { trace.document() })));
        view.resize(1000, 700);
        view.show(); // the view computes when shown
    }

    bool compute(std::optional<core::MemoryRange> range = std::nullopt)
    {
        QSignalSpy computed(&view, &widgets::MemoryView::computed);
        if (range)
            view.setRange(range);
        else
            view.setAnalyses(analyses);
        return computed.wait(30000);
    }
};

} // namespace

class TestMemoryView : public QObject
{
    Q_OBJECT

private slots:

    void showsTheCurvesThePeakAndTheTables()
    {
        Shown s(threeAllocations());
        QVERIFY(s.compute());
        QVERIFY2(s.view.messageText().isEmpty(), qPrintable(s.view.messageText()));
        const core::RankMemory* rank = s.view.data().rank();
        QVERIFY(rank);
        QCOMPARE(rank->devices.size(), std::size_t { 1 });
        QCOMPARE(rank->devices[0].peakAllocated, 5 * kMiB);
        QCOMPARE(rank->devices[0].peakOp, std::string("aten::add"));

        // One allocated and one reserved step line, the peak labelled with its op.
        const widgets::MemoryChartItems& items = s.view.chartItems();
        QCOMPARE(items.allocated.size(), std::size_t { 1 });
        QCOMPARE(items.reserved.size(), std::size_t { 1 });
        QCOMPARE(items.allocated[0]->lineStyle(), QCPGraph::lsStepLeft);
        QCOMPARE(items.allocated[0]->dataCount(), 4);
        QCOMPARE(items.peakLabels.size(), std::size_t { 1 });
        QVERIFY2(items.peakLabels[0]->text().contains(QStringLiteral("aten::add")),
            qPrintable(items.peakLabels[0]->text()));
        QCOMPARE(items.peakLabels[0]->position->value() * items.bytesPerUnit, double(5 * kMiB));
        QVERIFY(s.view.summaryText().contains(QStringLiteral("aten::add")));

        // The allocations: the paired one and the two never freed, said so.
        namespace mc = core::memory_columns;
        const widgets::AnalysisTableView& allocations = *s.view.allocationsTable();
        QCOMPARE(allocations.proxy()->rowCount(), 3);
        QStringList ops = column(allocations, mc::kOperator);
        ops.sort();
        QCOMPARE(ops,
            QStringList({ QStringLiteral("aten::add"), QStringLiteral("aten::empty"),
                QStringLiteral("aten::relu") }));
        QCOMPARE(column(allocations, mc::kFreeOperator).count(QString::fromLatin1(widgets::kNeverFreed)), 2);
        QVERIFY(column(allocations, mc::kFreeOperator).contains(QStringLiteral("aten::mul")));
        // Times count from the timeline's 0: aten::add allocated at 21 µs of a trace starting at 0.
        const QStringList times = column(allocations, mc::kAllocationTime);
        QVERIFY2(times.contains(QStringLiteral("21")), qPrintable(times.join(u',')));
        // Sortable: by size, largest first.
        allocations.proxy()->sort(int(*allocations.table()->find(mc::kSize)), Qt::DescendingOrder);
        QCOMPARE(column(allocations, mc::kOperator).front(), QStringLiteral("aten::add"));

        // A click on aten::add's row (first when sorted by size) asks for its lifetime: 21 to 41 µs.
        QSignalSpy activated(&s.view, &widgets::MemoryView::allocationActivated);
        emit allocations.view()->clicked(allocations.proxy()->index(0, 0));
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.front().at(0).value<core::TimeNs>(), absoluteNs(21));
        QCOMPARE(activated.front().at(1).value<core::TimeNs>(), absoluteNs(41));

        // The plugin's statistics: one row per op that allocated, with its columns.
        const widgets::AnalysisTableView& stats = *s.view.statsTable();
        QVERIFY(stats.table()->find(mc::kSelfAllocationSize));
        QVERIFY(column(stats, mc::kOperator).contains(QStringLiteral("aten::add")));
        QVERIFY(column(stats, mc::kOperator).contains(QStringLiteral("aten::relu")));
    }

    // 45–70 µs: the 4 MiB freed at 41 is not live there; only aten::relu's record is inside.
    void aRangeKeepsWhatIsLiveInIt()
    {
        Shown s(threeAllocations());
        QVERIFY(s.compute());
        const int statsBefore = s.view.statsTable()->proxy()->rowCount();
        QVERIFY(s.compute(core::MemoryRange { absoluteNs(45), absoluteNs(70) }));
        namespace mc = core::memory_columns;
        QStringList ops = column(*s.view.allocationsTable(), mc::kOperator);
        ops.sort();
        QCOMPARE(ops, QStringList({ QStringLiteral("aten::empty"), QStringLiteral("aten::relu") }));
        const QStringList statOps = column(*s.view.statsTable(), mc::kOperator);
        QVERIFY2(statOps.contains(QStringLiteral("aten::relu")), qPrintable(statOps.join(u',')));
        QVERIFY(!statOps.contains(QStringLiteral("aten::add")));
        QVERIFY(s.view.statsTable()->proxy()->rowCount() < statsBefore);
        QVERIFY(s.view.chartItems().range && s.view.chartItems().range->visible());
        QVERIFY2(s.view.rangeText().contains(QStringLiteral("2 of 3")), qPrintable(s.view.rangeText()));
        // The whole trace again: every row back, the shade gone.
        QSignalSpy computed(&s.view, &widgets::MemoryView::computed);
        s.view.setRange(std::nullopt);
        QVERIFY(computed.wait(30000));
        QCOMPARE(s.view.allocationsTable()->proxy()->rowCount(), 3);
        QCOMPARE(s.view.statsTable()->proxy()->rowCount(), statsBefore);
        QVERIFY(!s.view.chartItems().range->visible());
    }

    // A drag on the chart from before 45 µs to after 70 µs selects that range and asks for it.
    void aDragOnTheChartSelectsARange()
    {
        Shown s(threeAllocations());
        QVERIFY(s.compute());
        widgets::AnalysisChart* chart = s.view.chart();
        chart->replot(); // laid out: pixels map to times
        const auto msOf = [&s](std::int64_t us) {
            return widgets::msSinceOrigin(s.view.data(), absoluteNs(us));
        };
        const int left = int(chart->xAxis->coordToPixel(msOf(45)));
        const int right = int(chart->xAxis->coordToPixel(msOf(70)));
        QVERIFY(right - left > 10);
        QSignalSpy selected(&s.view, &widgets::MemoryView::rangeSelected);
        QSignalSpy computed(&s.view, &widgets::MemoryView::computed);
        const int y = chart->axisRect()->center().y();
        emit chart->selectionRect()->accepted(QRect(QPoint(left, y - 10), QPoint(right, y + 10)), nullptr);
        QCOMPARE(selected.count(), 1);
        QVERIFY(computed.wait(30000));
        QCOMPARE(s.view.allocationsTable()->proxy()->rowCount(), 2);
        const auto range = s.view.data().range;
        QVERIFY(range);
        QVERIFY(std::llabs(range->start - absoluteNs(45)) < 2000); // within a pixel's time
    }

    void aTraceWithoutMemoryEventsSaysSo()
    {
        MemoryTrace t;
        t.op("aten::add", 0, 10);
        Shown s(t);
        QVERIFY(s.compute());
        QVERIFY2(s.view.messageText().startsWith(QStringLiteral("No [memory] events")),
            qPrintable(s.view.messageText()));
        QVERIFY(s.view.messageText().contains(QStringLiteral("profile_memory=True")));
        QVERIFY(!s.view.chart()->isVisible());
        QVERIFY(!s.view.allocationsTable()->isVisible());
    }
};

KS_TEST_MAIN(tst_memory_view, TestMemoryView)
#include "tst_memory_view.moc"
