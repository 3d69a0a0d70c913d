// The Memory Snapshot view on the shared snapshots: what it shows (summary
// line, timeline bands and peak, event list with allocated/reserved after each,
// allocator state at a clicked event, peak by user frame, two compared) equals
// memory_viz's numbers in ../shared/reference/snapshots/; a file that is not
// a snapshot gets one line naming it.
#include "tests/support/snapshot_references.h"
#include "tests/support/test_main.h"
#include "widgets/charts/analysis_chart.h"
#include "widgets/common/format.h"
#include "widgets/common/task_pools.h"
#include "widgets/memory_snapshot/active_memory_plot.h"
#include "widgets/memory_snapshot/allocator_state_widget.h"
#include "widgets/memory_snapshot/snapshot_event_model.h"
#include "widgets/memory_snapshot/snapshot_view.h"

#include <QAbstractItemModelTester>
#include <QFileInfo>
#include <QJsonArray>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace ks;
using namespace ks::test;

namespace {

const char* const kCases[] = { "hpc_octree_snapshot_event", "silmont_fwd_fp32_annotations" };

std::uint64_t u64(const QJsonValue& v)
{
    return static_cast<std::uint64_t>(v.toInteger());
}

// A literal's bytes, NULs included.
template <std::size_t N>
QByteArray bytesOf(const char (&text)[N])
{
    return QByteArray(text, qsizetype(N - 1));
}

struct Shown
{
    widgets::TaskPools pools;
    widgets::SnapshotView view { &pools };

    Shown()
    {
        view.resize(1100, 600);
        view.show();
    }

    bool open(const QString& path)
    {
        QSignalSpy loaded(&view, &widgets::SnapshotView::loaded);
        QSignalSpy state(&view, &widgets::SnapshotView::stateShown);
        view.openSnapshot(path);
        return loaded.wait(60000) && (state.count() > 0 || state.wait(60000));
    }

    bool select(int row)
    {
        QSignalSpy state(&view, &widgets::SnapshotView::stateShown);
        view.selectRow(row);
        return state.wait(30000);
    }
};

} // namespace

class TestSnapshotView : public QObject
{
    Q_OBJECT

private slots:

    void initTestCase()
    {
        if (sharedSnapshotFile(QString::fromLatin1(kCases[0])).isEmpty())
            QSKIP("../shared/snapshots is absent: no snapshot to open");
        if (!QDir(snapshotReferenceDir(QString::fromLatin1(kCases[0]))).exists())
            QSKIP("../shared/reference/snapshots is absent: no expected numbers");
    }

    void numbersEqualReference_data()
    {
        QTest::addColumn<QString>("name");
        for (const char* name : kCases)
            QTest::newRow(name) << QString::fromLatin1(name);
    }

    void numbersEqualReference()
    {
        QFETCH(QString, name);
        Shown shown;
        QVERIFY(shown.open(sharedSnapshotFile(name)));
        widgets::SnapshotView& view = shown.view;
        QVERIFY(view.messageText().isEmpty());
        const QJsonObject stats = readJsonObject(snapshotReferenceDir(name) + QStringLiteral("/stats.json"));
        const int defaultDevice =
            stats[QStringLiteral("memoryviz")][QStringLiteral("default_device")].toInt();
        const QJsonObject device =
            stats[QStringLiteral("devices")][QString::number(defaultDevice)].toObject();
        const QJsonObject segments = device[QStringLiteral("segments")].toObject();
        const QJsonObject timeline = device[QStringLiteral("active_memory_timeline")].toObject();
        const QJsonObject history = device[QStringLiteral("allocator_state_history")].toObject();
        QCOMPARE(view.data()->summaryOf(view.deviceIndex()).device, std::int64_t(defaultDevice));

        // The summary line: reserved, allocated, active, segments, blocks, fragmentation, the peak.
        const QString summary = view.summaryText();
        auto bytes = [&](const QJsonObject& o, const char* key) {
            return widgets::formatBytes(u64(o[QLatin1String(key)]));
        };
        QVERIFY2(
            summary.contains(bytes(segments, "reserved") + QStringLiteral(" reserved")), qPrintable(summary));
        QVERIFY(summary.contains(bytes(segments, "allocated") + QStringLiteral(" allocated")));
        QVERIFY(summary.contains(bytes(segments, "active") + QStringLiteral(" active")));
        QVERIFY(summary.contains(QStringLiteral("%1 segments (%2 blocks)")
                                     .arg(segments[QStringLiteral("n_segments")].toInt())
                                     .arg(segments[QStringLiteral("n_blocks")].toInt())));
        QVERIFY(summary.contains(
            QStringLiteral("fragmentation %1")
                .arg(segments[QStringLiteral("fragmentation_memoryviz")].toDouble(), 0, 'f', 3)));
        QVERIFY(summary.contains(QStringLiteral("peak %1 allocated").arg(bytes(timeline, "peak_allocated"))));

        // The timeline: every allocation a band, on memory_viz's x axis, its top the peak.
        const widgets::BandLayout& bands = view.data()->devices[std::size_t(view.deviceIndex())].bands;
        QVERIFY(!bands.truncated);
        QCOMPARE(std::uint64_t(bands.bands.size()), u64(timeline[QStringLiteral("drawn_elements")]));
        QCOMPARE(std::uint64_t(bands.steps), u64(timeline[QStringLiteral("memoryviz_timesteps")]));
        QCOMPARE(std::uint64_t(bands.maxTotal), u64(timeline[QStringLiteral("peak_allocated")]));
        // Under the peak's step the largest allocation live there is hovered: its size in the tooltip.
        widgets::ActiveMemoryPlot* plot = view.plot();
        const auto& t = view.data()->summaryOf(view.deviceIndex()).timeline;
        const QJsonObject largest = timeline[QStringLiteral("peak_top10")].toArray().first().toObject();
        bool foundLargest = false;
        for (const widgets::SnapshotBand& b : bands.bands) {
            if (t.allocations[b.allocation].size != u64(largest[QStringLiteral("size")])
                || t.allocations[b.allocation].addr != u64(largest[QStringLiteral("addr")]))
                continue;
            const double step = double(t.peakTimestep) - 0.5;
            const double middle = bands.offsetAt(b, step) + b.size / 2;
            QCOMPARE(bands.bandAt(step, middle), std::int64_t(&b - bands.bands.data()));
            const QString tip = plot->bandText(std::int64_t(&b - bands.bands.data()));
            QVERIFY2(tip.startsWith(bytes(largest, "size")), qPrintable(tip));
            foundLargest = true;
        }
        QVERIFY(foundLargest);

        // The event list: memory_viz's, with its totals and the state history's header after each.
        widgets::SnapshotEventModel* model = view.eventModel();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QList<QMap<QString, QString>> rows;
        for (const auto& row :
            readReferenceCsv(snapshotReferenceDir(name) + QStringLiteral("/timeline.csv"))) {
            if (row[QStringLiteral("device")].toInt() == defaultDevice
                && row[QStringLiteral("event_idx")].toLongLong() >= 0)
                rows << row;
        }
        QCOMPARE(model->rowCount(), int(rows.size()));
        auto cell = [model](int row, int column) { return model->index(row, column).data(Qt::UserRole); };
        for (int r = 0; r < int(rows.size()); ++r) {
            const auto& ref = rows[r];
            QCOMPARE(cell(r, widgets::SnapshotEventModel::Event).toLongLong(),
                ref[QStringLiteral("event_idx")].toLongLong());
            QCOMPARE(model->index(r, widgets::SnapshotEventModel::Action).data().toString(),
                ref[QStringLiteral("action")]);
            QCOMPARE(cell(r, widgets::SnapshotEventModel::Active).toULongLong(),
                ref[QStringLiteral("allocated")].toULongLong());
            QCOMPARE(cell(r, widgets::SnapshotEventModel::Allocated).toULongLong(),
                ref[QStringLiteral("sh_allocated")].toULongLong());
            QCOMPARE(cell(r, widgets::SnapshotEventModel::Reserved).toULongLong(),
                ref[QStringLiteral("sh_reserved")].toULongLong());
        }

        // The allocator state opens on the last event (the snapshot itself), as memory_viz's tab does.
        QCOMPARE(view.selectedRow(), int(rows.size()) - 1);
        QCOMPARE(view.stateWidget()->state()->allocated, u64(history[QStringLiteral("end_allocated")]));
        QCOMPARE(view.stateWidget()->state()->reserved, u64(history[QStringLiteral("end_reserved")]));
        QCOMPARE(std::uint64_t(view.stateWidget()->state()->segments.size()),
            u64(segments[QStringLiteral("n_segments")]));
        QVERIFY(view.stateText().contains(bytes(history, "end_allocated") + QStringLiteral(" allocated / ")
            + bytes(history, "end_reserved") + QStringLiteral(" reserved")));
        // A click on the timeline picks the event at that step; the state there is the reference's row.
        const int x = plot->plotRect().left() + plot->plotRect().width() / 3;
        const int clicked = plot->rowAtX(x);
        QVERIFY(clicked >= 0 && clicked < int(rows.size()));
        QSignalSpy picked(plot, &widgets::ActiveMemoryPlot::eventPicked);
        QSignalSpy clickedState(&view, &widgets::SnapshotView::stateShown);
        QTest::mouseClick(plot, Qt::LeftButton, {}, QPoint(x, plot->plotRect().center().y()));
        QCOMPARE(picked.count(), 1);
        QCOMPARE(picked.first().first().toInt(), clicked);
        QVERIFY(clickedState.wait(30000));
        QCOMPARE(view.selectedRow(), clicked);
        QCOMPARE(view.stateWidget()->state()->allocated,
            rows[clicked][QStringLiteral("sh_allocated")].toULongLong());
        QCOMPARE(view.stateWidget()->state()->reserved,
            rows[clicked][QStringLiteral("sh_reserved")].toULongLong());
        // The peak's event: its step is where the plot's peak line is, its state the reference's.
        const int peakRow = timeline[QStringLiteral("peak_mv_idx")].toInt();
        QCOMPARE(t.rows[std::size_t(peakRow)].timestep, t.peakTimestep);
        QCOMPARE(std::uint64_t(t.rows[std::size_t(peakRow)].allocated),
            u64(timeline[QStringLiteral("peak_allocated")]));
        QVERIFY(shown.select(peakRow));
        QCOMPARE(view.stateWidget()->state()->allocated,
            rows[peakRow][QStringLiteral("sh_allocated")].toULongLong());
        QCOMPARE(view.stateWidget()->state()->reserved,
            rows[peakRow][QStringLiteral("sh_reserved")].toULongLong());
        // Every segment is a bar inside the widget's width.
        for (int seg = 0; seg < int(view.stateWidget()->state()->segments.size()); ++seg)
            QVERIFY(view.stateWidget()->barRect(seg).right() < view.stateWidget()->width());

        // The peak by user frame: by_frame.csv's `peak`/`user` rows, in its order.
        QList<QMap<QString, QString>> frames;
        for (const auto& row :
            readReferenceCsv(snapshotReferenceDir(name) + QStringLiteral("/by_frame.csv"))) {
            if (row[QStringLiteral("device")].toInt() == defaultDevice
                && row[QStringLiteral("when")] == QStringLiteral("peak")
                && row[QStringLiteral("rule")] == QStringLiteral("user"))
                frames << row;
        }
        QTableWidget* peak = view.peakTable();
        QCOMPARE(peak->rowCount(), int(frames.size()));
        for (int r = 0; r < int(frames.size()); ++r) {
            QCOMPARE(peak->item(r, 0)->text(), frames[r][QStringLiteral("frame")]);
            QCOMPARE(peak->item(r, 1)->data(Qt::UserRole).toULongLong(),
                frames[r][QStringLiteral("bytes")].toULongLong());
            QCOMPARE(peak->item(r, 2)->data(Qt::UserRole).toULongLong(),
                frames[r][QStringLiteral("count")].toULongLong());
        }
    }

    void compareTwoSnapshots()
    {
        const QString before = QString::fromLatin1(kCases[0]);
        const QString after = QString::fromLatin1(kCases[1]);
        Shown shown;
        QVERIFY(shown.open(sharedSnapshotFile(before)));
        QSignalSpy compared(&shown.view, &widgets::SnapshotView::comparisonShown);
        shown.view.compareWith(sharedSnapshotFile(after));
        QVERIFY(compared.wait(60000));
        auto peakOf = [](const QString& name) {
            const QJsonObject stats =
                readJsonObject(snapshotReferenceDir(name) + QStringLiteral("/stats.json"));
            return u64(stats[QStringLiteral("devices")][QStringLiteral("0")]
                            [QStringLiteral("active_memory_timeline")][QStringLiteral("peak_allocated")]);
        };
        QTableWidget* totals = shown.view.comparisonTotals();
        QCOMPARE(totals->item(0, 0)->text(), QStringLiteral("Peak allocated"));
        QCOMPARE(totals->item(0, 1)->data(Qt::UserRole).toULongLong(), peakOf(before));
        QCOMPARE(totals->item(0, 2)->data(Qt::UserRole).toULongLong(), peakOf(after));
        QCOMPARE(totals->item(0, 3)->data(Qt::UserRole).toLongLong(),
            std::int64_t(peakOf(after)) - std::int64_t(peakOf(before)));
        QVERIFY(shown.view.comparisonText().contains(widgets::formatBytes(peakOf(before))));
        // The difference by frame: every frame live at either peak, the change after minus before.
        QTableWidget* frames = shown.view.comparisonFrames();
        QVERIFY(frames->rowCount() > 0);
        std::int64_t sum = 0;
        for (int r = 0; r < frames->rowCount(); ++r)
            sum += frames->item(r, 3)->data(Qt::UserRole).toLongLong();
        QCOMPARE(sum, std::int64_t(peakOf(after)) - std::int64_t(peakOf(before)));
        QCOMPARE(shown.view.tabs()->currentWidget()->findChild<QTableWidget*>(
                     QStringLiteral("snapshotCompareTotals")),
            totals);
        // Both active memory curves on one axis: each one's highest point is its peak
        // (down-sampling keeps it), and the axis says what x is. The two shared snapshots
        // annotate no range in common, so the view opens on memory_viz's steps; time is
        // one choice away.
        auto highest = [](const widgets::SnapshotOverlayItems& curves, const QCPGraph* g) {
            double top = 0;
            for (auto it = g->data()->constBegin(); it != g->data()->constEnd(); ++it)
                top = std::max(top, it->value);
            return std::uint64_t(std::llround(top * curves.bytesPerUnit));
        };
        QCOMPARE(shown.view.comparisonAxisChooser()->currentIndex(), 1);
        // The legend: a run a line, each name whole (these two fit) and inside the chart, as
        // narrow as the Comparison tab is at 1280x800.
        shown.view.resize(810, 370);
        widgets::AnalysisChart* chart = shown.view.comparisonChart();
        chart->replot();
        QCOMPARE(chart->legend->itemCount(), 2);
        QVERIFY(shown.view.comparisonCurves().before->name().endsWith(
            QFileInfo(sharedSnapshotFile(before)).fileName()));
        QVERIFY(shown.view.comparisonCurves().after->name().endsWith(
            QFileInfo(sharedSnapshotFile(after)).fileName()));
        const QRect first = chart->legend->item(0)->outerRect();
        const QRect second = chart->legend->item(1)->outerRect();
        QVERIFY(second.top() >= first.bottom()); // stacked, not side by side
        QVERIFY2(first.right() <= chart->width() && second.right() <= chart->width(),
            qPrintable(
                QStringLiteral("%1 %2 in %3").arg(first.right()).arg(second.right()).arg(chart->width())));
        for (const int axis : { 1, 0 }) {
            shown.view.comparisonAxisChooser()->setCurrentIndex(axis);
            const widgets::SnapshotOverlayItems& curves = shown.view.comparisonCurves();
            QVERIFY(curves.before && curves.after);
            QCOMPARE(highest(curves, curves.before), peakOf(before));
            QCOMPARE(highest(curves, curves.after), peakOf(after));
            QVERIFY(curves.before->data()->size() >= 2 && curves.before->data()->size() <= 4000);
            QCOMPARE(curves.before->data()->constBegin()->key, 0.0);
            const QString label = shown.view.comparisonChart()->xAxis->label();
            QVERIFY2(label.contains(axis == 0 ? QStringLiteral("ms since") : QStringLiteral("step")),
                qPrintable(label));
        }
    }

    void badInputNamesTheFile_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::newRow("not a pickle") << QByteArray("{\"traceEvents\": []}");
        QTest::newRow("empty") << QByteArray();
        // A pickle that calls a function (GLOBAL os.system + REDUCE): refused, never run.
        QTest::newRow("hostile") << bytesOf("\x80\x02"
                                            "cos\nsystem\n"
                                            "X\x04\x00\x00\x00true"
                                            "\x85R.");
        QTest::newRow("a list of ints") << bytesOf("\x80\x02]q\x00(K\x01K\x02"
                                                   "e.");
    }

    void badInputNamesTheFile()
    {
        QFETCH(QByteArray, bytes);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("broken_snapshot.pickle"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(bytes);
        file.close();
        Shown shown;
        QSignalSpy failed(&shown.view, &widgets::SnapshotView::failed);
        shown.view.openSnapshot(path);
        QVERIFY(failed.wait(30000));
        const QString message = failed.first().first().toString();
        QVERIFY2(message.contains(QStringLiteral("broken_snapshot.pickle")), qPrintable(message));
        QVERIFY(!message.contains(QLatin1Char('\n')));
        QCOMPARE(shown.view.messageText(), message);
        QVERIFY(!shown.view.data());
    }

    void truncatedSnapshot()
    {
        QFile real(sharedSnapshotFile(QString::fromLatin1(kCases[0])));
        QVERIFY(real.open(QIODevice::ReadOnly));
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cut.pickle"));
        QFile cut(path);
        QVERIFY(cut.open(QIODevice::WriteOnly));
        cut.write(real.read(real.size() / 2));
        cut.close();
        Shown shown;
        QSignalSpy failed(&shown.view, &widgets::SnapshotView::failed);
        shown.view.openSnapshot(path);
        QVERIFY(failed.wait(30000));
        QVERIFY(failed.first().first().toString().contains(QStringLiteral("cut.pickle")));
    }
};

KS_TEST_MAIN(tst_snapshot_view, TestSnapshotView)
#include "tst_snapshot_view.moc"
