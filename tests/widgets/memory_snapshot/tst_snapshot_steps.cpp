// The Memory Snapshot view aligned with the Kineto trace of the same run: a
// pickle and a trace the test writes (the snapshot's clock 5 ms ahead, two
// ProfilerSteps and a user annotation, an allocation or two in each, numbers
// by hand), opened in either order: the marks on the Active Memory Timeline
// (where, which lane, labels thinned out when steps are many), the Steps
// tab's rows, a row clicked (the range marked and zoomed, its trace times
// asked for), and the one line when the snapshot cannot be aligned.
#include "tests/support/analysis_test_support.h"
#include "tests/support/pickle_writer.h"
#include "tests/support/snapshot_pickles.h"
#include "tests/support/test_main.h"
#include "widgets/common/format.h"
#include "widgets/common/task_pools.h"
#include "widgets/memory_snapshot/active_memory_plot.h"
#include "widgets/memory_snapshot/snapshot_steps_page.h"
#include "widgets/memory_snapshot/snapshot_view.h"

#include <QComboBox>
#include <QFile>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using namespace ks;
using ks::test::Py;

namespace {

constexpr std::int64_t kOffsetUs = 5000; // the snapshot's clock runs this far ahead of the trace's
constexpr std::int64_t kBase = ks::tests::kBaseUs; // trace times are kBase + t

// An entry at trace time t (the snapshot's clock: + kOffsetUs).
Py entry(
    const char* action, std::int64_t addr, std::int64_t size, std::int64_t t, std::vector<Py> frames = {})
{
    return Py::dict({ { "action", Py::str(action) }, { "addr", Py::integer(addr) },
        { "size", Py::integer(size) }, { "stream", Py::integer(0) },
        { "frames", Py::list(std::move(frames)) }, { "time_us", Py::integer(kBase + t + kOffsetUs) } });
}

Py annotation(const char* stage, const std::string& name, std::int64_t t)
{
    return Py::dict({ { "stage", Py::str(stage) }, { "name", Py::str(name) }, { "device", Py::integer(0) },
        { "time_us", Py::integer(kBase + t + kOffsetUs) } });
}

// ProfilerStep#1 [100, 300] with fwd [120, 180] in it, ProfilerStep#2 [300, 500] (its START 1 us late).
std::vector<Py> annotations()
{
    return { annotation("START", "ProfilerStep#1", 100), annotation("START", "fwd", 120),
        annotation("END", "fwd", 180), annotation("END", "ProfilerStep#1", 300),
        annotation("START", "ProfilerStep#2", 301), annotation("END", "ProfilerStep#2", 500) };
}

// A (100 B) before the steps; in step 1 B (1000 B, fwd) allocated and freed and
// C (300 B, bwd); in step 2 C freed and D (50 B) allocated.
std::vector<Py> events()
{
    const Py fwd = ks::test::snapshotFrame("train.py", 10, "fwd");
    const Py bwd = ks::test::snapshotFrame("train.py", 20, "bwd");
    return { entry("alloc", 0x1000, 100, 50), entry("alloc", 0x2000, 1000, 150, { fwd }),
        entry("free_requested", 0x2000, 1000, 200), entry("free_completed", 0x2000, 1000, 200),
        entry("alloc", 0x3000, 300, 250, { bwd }), entry("free_requested", 0x3000, 300, 400),
        entry("free_completed", 0x3000, 300, 400), entry("alloc", 0x4000, 50, 450) };
}

QString writeSnapshot(
    const QTemporaryDir& dir, const QString& name, std::vector<Py> trace, std::vector<Py> notes)
{
    const Py value = Py::dict(
        { { "segments", Py::list({}) }, { "device_traces", Py::list({ Py::list(std::move(trace)) }) },
            { "external_annotations", Py::list(std::move(notes)) } });
    const QString path = dir.filePath(name);
    std::ofstream(path.toStdString(), std::ios::binary) << ks::test::pickleOf(value);
    return path;
}

std::string traceDocument(const std::vector<std::string>& extra = {}, std::int64_t rank = 0)
{
    std::vector<std::string> events {
        ks::tests::completeEvent("cpu_op", "ProfilerStep#1", kBase + 100, 200, 1, 1),
        ks::tests::completeEvent("user_annotation", "fwd", kBase + 120, 60, 1, 1),
        ks::tests::completeEvent("cpu_op", "ProfilerStep#2", kBase + 300, 200, 1, 1),
        ks::tests::completeEvent("cpu_op", "aten::mm", kBase + 130, 20, 1, 1),
    };
    events.insert(events.end(), extra.begin(), extra.end());
    return ks::tests::kinetoDocument(rank, events);
}

// Another rank of the same job: the same ranges, its steps 100 us longer (its waits).
std::string otherRankDocument(std::int64_t rank)
{
    return ks::tests::kinetoDocument(rank,
        { ks::tests::completeEvent("cpu_op", "ProfilerStep#1", kBase + 100, 300, 1, 1),
            ks::tests::completeEvent("user_annotation", "fwd", kBase + 120, 60, 1, 1),
            ks::tests::completeEvent("cpu_op", "ProfilerStep#2", kBase + 400, 300, 1, 1) });
}

struct Shown
{
    widgets::TaskPools pools;
    widgets::SnapshotView view { &pools };
    QTemporaryDir dir;
    std::shared_ptr<const core::TraceSet> set;

    Shown()
    {
        view.resize(1100, 600);
        view.show();
    }

    bool open(const QString& path)
    {
        QSignalSpy loaded(&view, &widgets::SnapshotView::loaded);
        QSignalSpy steps(&view, &widgets::SnapshotView::stepsShown);
        view.openSnapshot(path);
        return loaded.wait(30000) && (steps.count() > 0 || steps.wait(30000));
    }

    bool openAligned()
    {
        return open(writeSnapshot(dir, QStringLiteral("a.pickle"), events(), annotations()));
    }

    // A trace of one rank a document; with a snapshot shown, waits for the alignment.
    bool giveTrace(const std::vector<std::string>& documents)
    {
        QTemporaryDir traceDir;
        set = std::make_shared<const core::TraceSet>(ks::tests::loadRanks(traceDir, documents));
        QSignalSpy steps(&view, &widgets::SnapshotView::stepsShown);
        view.setTrace(set);
        return !view.data() || steps.count() > 0 || steps.wait(30000);
    }

    bool giveTrace(const std::string& document) { return giveTrace(std::vector { document }); }

    // A rank chosen in the Steps tab (an item of its chooser: 0 = the best fit); waits for the alignment.
    bool chooseRank(int item)
    {
        QSignalSpy steps(&view, &widgets::SnapshotView::stepsShown);
        QComboBox* chooser = view.stepsPage()->rankChooser();
        chooser->setCurrentIndex(item);
        emit chooser->activated(item);
        return steps.wait(30000);
    }

    widgets::ActiveMemoryPlot* plot() const { return view.plot(); }

    QTableWidget* table() const { return view.stepsPage()->table(); }

    QString line() const { return view.stepsPage()->lineText(); }

    double cell(int row, int column) const
    {
        return table()->item(row, column)->data(Qt::UserRole).toDouble();
    }
};

// What the view shows of events() aligned with traceDocument(), by hand. The
// snapshot's rows and their memory_viz steps: A (step 1, 100 B live), B (2,
// 1100), B freed (3, 100), C (4, 400), C freed (5, 100), D (6, 150). A range
// spans from the step after the last event before it to the step after its
// own last event.
void checkAligned(const Shown& shown, std::int64_t rank = 0)
{
    const widgets::SnapshotView& view = shown.view;
    QVERIFY(view.steps());
    QVERIFY2(view.steps()->alignment.error.empty(), view.steps()->alignment.error.c_str());
    QCOMPARE(view.steps()->alignment.offsetUs, kOffsetUs);
    QCOMPARE(view.steps()->rank, rank);
    // One rank: nothing more to say of it. Several: which one, and why, before the matches.
    const QString aligned = QStringLiteral("Aligned with rank %1's trace").arg(rank);
    const QString matched = QStringLiteral(": 3 of the snapshot's 3 annotations matched");
    QVERIFY2(shown.set->ranks.size() == 1
            ? shown.line().startsWith(aligned + matched)
            : shown.line().startsWith(aligned) && shown.line().contains(matched),
        qPrintable(shown.line()));
    QVERIFY2(shown.line().contains(widgets::formatDuration(kOffsetUs * 1000) + QStringLiteral(" ahead")),
        qPrintable(shown.line()));

    // The marks: both steps in the first lane, fwd (a user annotation) in the second.
    const widgets::ActiveMemoryPlot* plot = shown.plot();
    const std::vector<widgets::StepMark>& marks = plot->marks();
    QCOMPARE(marks.size(), std::size_t(3));

    struct Expected
    {
        const char* name;
        double first;
        double end;
        int lane;
    };

    const Expected expected[] = { { "ProfilerStep#1", 1, 4, 0 }, { "fwd", 1, 2, 1 },
        { "ProfilerStep#2", 4, 6, 0 } };
    for (int i = 0; i < 3; ++i) {
        const widgets::StepMark& m = marks[std::size_t(i)];
        QCOMPARE(m.label, QString::fromLatin1(expected[i].name));
        QCOMPARE(m.firstStep, expected[i].first);
        QCOMPARE(m.endStep, expected[i].end);
        QCOMPARE(m.lane, expected[i].lane);
        // On the plot: from the x of its first step to that of its end, in its lane above the memory.
        const QRect band = plot->markRect(i);
        QCOMPARE(band.left(), int(std::lround(plot->xOfStep(expected[i].first))));
        QCOMPARE(band.right() + 1, int(std::lround(plot->xOfStep(expected[i].end))));
        QVERIFY(band.bottom() < plot->plotRect().top());
        QCOMPARE(plot->markAt(band.center()), i);
    }
    QVERIFY(plot->markRect(1).top() > plot->markRect(0).top()); // lane 1 under lane 0
    // ProfilerStep#2 begins where the timeline draws its last event before it (C allocated, row 3).
    QCOMPARE(plot->markRect(2).left(),
        int(std::lround(plot->xOfStep(double(view.data()->summaryOf(0).timeline.rows[3].timestep)))));
    // Wide enough at this size: every full name is shown.
    const auto labels = plot->markLabels();
    QCOMPARE(labels.size(), std::size_t(3));
    for (const auto& label : labels)
        QCOMPARE(label.text, marks[std::size_t(label.mark)].label);

    // The Steps tab: a row per range in trace order, times since the trace's first event (ProfilerStep#1).
    QTableWidget* table = shown.table();
    QVERIFY(table->isVisibleTo(shown.view.stepsPage()));
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(table->columnCount(), 11);

    struct Row
    {
        const char* name;
        double start, end; // ns since the trace's start
        double requestedStart, requestedEnd, requestedPeak, allocatedPeak, reservedEnd, allocations, bytes;
        const char* top;
    };

    // Allocated is the state history's (no segment: A, D never count), reserved 0 without segments.
    const Row rows[] = {
        { "ProfilerStep#1", 0, 200e3, 100, 400, 1100, 1000, 0, 2, 1300, "train.py:10:fwd" },
        { "fwd", 20e3, 80e3, 100, 1100, 1100, 1000, 0, 1, 1000, "train.py:10:fwd" },
        { "ProfilerStep#2", 200e3, 400e3, 400, 150, 400, 300, 0, 1, 50, "<no frames>" },
    };
    for (int r = 0; r < 3; ++r) {
        const Row& e = rows[r];
        QCOMPARE(table->item(r, 0)->text(), QString::fromLatin1(e.name));
        QCOMPARE(shown.cell(r, 1), e.start);
        QCOMPARE(shown.cell(r, 2), e.end);
        QCOMPARE(table->item(r, 2)->text(), widgets::formatDuration(std::int64_t(e.end)));
        QCOMPARE(shown.cell(r, 3), e.requestedPeak);
        QCOMPARE(shown.cell(r, 4), e.requestedStart);
        QCOMPARE(shown.cell(r, 5), e.requestedEnd);
        QCOMPARE(shown.cell(r, 6), e.allocatedPeak);
        QCOMPARE(shown.cell(r, 7), e.reservedEnd);
        QCOMPARE(shown.cell(r, 8), e.allocations);
        QCOMPARE(shown.cell(r, 9), e.bytes);
        QCOMPARE(table->item(r, 4)->text(), widgets::formatBytes(std::uint64_t(e.requestedStart)));
        QVERIFY2(table->item(r, 10)->text().startsWith(QString::fromLatin1(e.top)),
            qPrintable(table->item(r, 10)->text()));
    }
    // The top frame with the bytes it allocated in the range; D has none.
    QCOMPARE(
        table->item(0, 10)->text(), QStringLiteral("train.py:10:fwd (%1)").arg(widgets::formatBytes(1000)));
}

} // namespace

// A failure inside checkAligned ends the test there, not only the helper.
#define CHECK_ALIGNED_ON(shown, rank)                                                                        \
    do {                                                                                                     \
        checkAligned(shown, rank);                                                                           \
        if (QTest::currentTestFailed())                                                                      \
            return;                                                                                          \
    } while (false)
#define CHECK_ALIGNED(shown) CHECK_ALIGNED_ON(shown, 0)

class TestSnapshotSteps : public QObject
{
    Q_OBJECT

private slots:

    void traceThenSnapshot()
    {
        Shown shown;
        QVERIFY(shown.giveTrace(traceDocument()));
        QVERIFY(shown.openAligned());
        CHECK_ALIGNED(shown);
    }

    void snapshotThenTrace()
    {
        Shown shown;
        QVERIFY(shown.openAligned());
        // No trace yet: one line saying what to open, no table, no marks.
        QVERIFY2(shown.line().startsWith(QStringLiteral("Open the Kineto trace")), qPrintable(shown.line()));
        QVERIFY(!shown.table()->isVisibleTo(shown.view.stepsPage()));
        QVERIFY(shown.plot()->marks().empty());
        QVERIFY(shown.view.showTab(QStringLiteral("steps")));
        QCOMPARE(shown.view.tabs()->currentWidget(), static_cast<QWidget*>(shown.view.stepsPage()));
        QVERIFY(shown.giveTrace(traceDocument()));
        CHECK_ALIGNED(shown);
    }

    void realignedWhenEitherChanges()
    {
        Shown shown;
        QVERIFY(shown.openAligned());
        QVERIFY(shown.giveTrace(traceDocument()));
        CHECK_ALIGNED(shown);
        // The trace closed: back to the line, the marks gone.
        shown.view.setTrace(nullptr);
        QVERIFY(!shown.view.steps());
        QVERIFY(shown.line().startsWith(QStringLiteral("Open the Kineto trace")));
        QVERIFY(shown.plot()->marks().empty());
        // A trace with no range to match: why, in one line.
        QVERIFY(shown.giveTrace(ks::tests::kinetoDocument(
            0, { ks::tests::completeEvent("cpu_op", "aten::mm", kBase + 130, 20, 1, 1) })));
        QVERIFY2(shown.line().contains(QStringLiteral("no ProfilerStep#N or user_annotation ranges")),
            qPrintable(shown.line()));
        QVERIFY(!shown.line().contains(QLatin1Char('\n')));
        QCOMPARE(shown.table()->rowCount(), 0);
        QVERIFY(shown.plot()->marks().empty());
        // The matching trace again, then another snapshot: aligned anew.
        QVERIFY(shown.giveTrace(traceDocument()));
        CHECK_ALIGNED(shown);
        QVERIFY(shown.open(writeSnapshot(shown.dir, QStringLiteral("b.pickle"), events(), annotations())));
        CHECK_ALIGNED(shown);
    }

    void rowSelectsTheRange()
    {
        Shown shown;
        QVERIFY(shown.openAligned());
        QVERIFY(shown.giveTrace(traceDocument()));
        QSignalSpy activated(&shown.view, &widgets::SnapshotView::rangeActivated);
        QTableWidget* table = shown.table();
        const QRect cell = table->visualItemRect(table->item(2, 0));
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(activated.count(), 1);
        // The trace's store times of ProfilerStep#2 (what the window's timeline zooms to).
        QCOMPARE(activated.first().at(0).toLongLong(), (kBase + 300) * 1000);
        QCOMPARE(activated.first().at(1).toLongLong(), (kBase + 500) * 1000);
        QCOMPARE(shown.plot()->selectedMark(), 2);
        const auto [first, last] = shown.plot()->visibleSteps();
        QVERIFY(first <= 4 && last >= 6);
        // A click on fwd's band picks its row and shows the Steps tab.
        shown.view.showTab(QStringLiteral("events"));
        activated.clear();
        QTest::mouseClick(shown.plot(), Qt::LeftButton, {}, shown.plot()->markRect(1).center());
        QCOMPARE(activated.count(), 1);
        QCOMPARE(activated.first().at(0).toLongLong(), (kBase + 120) * 1000);
        QCOMPARE(shown.plot()->selectedMark(), 1);
        QCOMPARE(shown.view.tabs()->currentWidget(), static_cast<QWidget*>(shown.view.stepsPage()));
        QCOMPARE(table->selectionModel()->selectedRows().size(), 1);
        QCOMPARE(table->selectionModel()->selectedRows().first().row(), 1);
    }

    void withoutAnnotationsSaysWhy()
    {
        Shown shown;
        QVERIFY(shown.giveTrace(traceDocument()));
        QVERIFY(shown.open(writeSnapshot(shown.dir, QStringLiteral("plain.pickle"), events(), {})));
        QVERIFY(shown.view.steps());
        const QString line = shown.line();
        QVERIFY2(
            line.startsWith(QStringLiteral("Not aligned with rank 0's trace: plain.pickle: the snapshot has "
                                           "no external_annotations")),
            qPrintable(line));
        QVERIFY(!line.contains(QLatin1Char('\n')));
        QVERIFY(!shown.table()->isVisibleTo(shown.view.stepsPage()));
        QCOMPARE(shown.table()->rowCount(), 0);
        QVERIFY(shown.plot()->marks().empty());
    }

    void largeSpreadIsSaid()
    {
        // ProfilerStep#2 starts 3 ms late in the snapshot: aligned, with the spread said under the line.
        std::vector<Py> notes = annotations();
        notes[4] = annotation("START", "ProfilerStep#2", 3300);
        notes[5] = annotation("END", "ProfilerStep#2", 3500);
        Shown shown;
        QVERIFY(shown.giveTrace(traceDocument()));
        QVERIFY(shown.open(writeSnapshot(shown.dir, QStringLiteral("spread.pickle"), events(), notes)));
        QVERIFY2(
            shown.line().contains(QStringLiteral("the alignment is approximate")), qPrintable(shown.line()));
        QCOMPARE(shown.table()->rowCount(), 3);
    }

    void picksTheRankTheSnapshotFits()
    {
        // Rank 1's steps are the snapshot's; rank 0's are as long plus its waits: rank 1, told apart.
        Shown shown;
        QVERIFY(shown.openAligned());
        QVERIFY(shown.giveTrace({ otherRankDocument(0), traceDocument({}, 1) }));
        QVERIFY(shown.view.steps());
        QCOMPARE(shown.view.steps()->rank, std::int64_t(1));
        QVERIFY(shown.view.steps()->choice.told);
        QVERIFY(!shown.view.steps()->chosen);
        QCOMPARE(shown.view.steps()->alignment.offsetUs, kOffsetUs);
        QVERIFY2(shown.line().startsWith(
                     QStringLiteral("Aligned with rank 1's trace, the one of its 2 ranks whose steps "
                                    "fit the snapshot's (next best: rank 0, spread ")),
            qPrintable(shown.line()));
        QCOMPARE(shown.table()->rowCount(), 3);
        // The chooser says it, with each rank's fit.
        QComboBox* chooser = shown.view.stepsPage()->rankChooser();
        QVERIFY(chooser->isVisibleTo(shown.view.stepsPage()));
        QCOMPARE(chooser->count(), 3);
        QCOMPARE(chooser->currentIndex(), 0);
        QCOMPARE(chooser->itemText(0), QStringLiteral("Best fit: rank 1"));
        QCOMPARE(chooser->itemText(2), QStringLiteral("Rank 1 (3 matched, spread 1 µs)"));
        // Rank 0 chosen: aligned with it, as chosen; the best fit again with the first item.
        QVERIFY(shown.chooseRank(1));
        QCOMPARE(shown.view.steps()->rank, std::int64_t(0));
        QVERIFY(shown.view.steps()->chosen);
        QVERIFY2(shown.line().startsWith(QStringLiteral("Aligned with rank 0's trace, as chosen above:")),
            qPrintable(shown.line()));
        QCOMPARE(chooser->currentIndex(), 1);
        QVERIFY(shown.chooseRank(0));
        QCOMPARE(shown.view.steps()->rank, std::int64_t(1));
        CHECK_ALIGNED_ON(shown, 1);
        // One rank: no chooser.
        QVERIFY(shown.giveTrace(traceDocument()));
        QVERIFY(!chooser->isVisibleTo(shown.view.stepsPage()));
    }

    void ranksAlikeAreTheUsersChoice()
    {
        // Two ranks with the same steps: nothing tells them apart. The first, said so; the user picks.
        Shown shown;
        QVERIFY(shown.giveTrace({ traceDocument({}, 0), traceDocument({}, 1) }));
        QVERIFY(shown.openAligned());
        QVERIFY(shown.view.steps());
        QCOMPARE(shown.view.steps()->rank, std::int64_t(0));
        QVERIFY(!shown.view.steps()->choice.told);
        QVERIFY2(shown.line().contains(QStringLiteral("rank 1 fits the snapshot about as well")),
            qPrintable(shown.line()));
        QVERIFY(shown.line().contains(QStringLiteral("choose it above")));
        QVERIFY(shown.chooseRank(2));
        QCOMPARE(shown.view.steps()->rank, std::int64_t(1));
        QCOMPARE(shown.table()->rowCount(), 3);
        // Another snapshot: the best fit again.
        QVERIFY(shown.open(writeSnapshot(shown.dir, QStringLiteral("b.pickle"), events(), annotations())));
        QCOMPARE(shown.view.steps()->rank, std::int64_t(0));
        QCOMPARE(shown.view.stepsPage()->rankChooser()->currentIndex(), 0);
    }

    void columnsFitTheTab()
    {
        // At the width the view gets at 1280x800 (the bottom row beside Search Results and the
        // list) and at a wide one: every column shown whole, no sideways scrolling, the least read
        // folded away first where all do not fit, the whole row in the range's tooltip.
        Shown shown;
        QVERIFY(shown.openAligned());
        QVERIFY(shown.giveTrace(traceDocument()));
        QVERIFY(shown.view.showTab(QStringLiteral("steps")));
        QTableWidget* table = shown.table();
        for (const int width : { 800, 1100, 1800 }) {
            shown.view.resize(width, 400);
            QTest::qWait(20);
            QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
            int shownColumns = 0;
            for (int c = 0; c < table->columnCount(); ++c) {
                QVERIFY(!table->horizontalHeaderItem(c)->toolTip().isEmpty());
                if (table->isColumnHidden(c))
                    continue;
                ++shownColumns;
                const QString title = table->horizontalHeaderItem(c)->text();
                QVERIFY2(!title.contains(QLatin1Char('\n')), qPrintable(title)); // one-line headers
                QVERIFY2(table->columnWidth(c) >= table->fontMetrics().horizontalAdvance(title),
                    qPrintable(QStringLiteral("%1 px: %2").arg(width).arg(title)));
                if (c != 0 && c != 10) // a number: never cut
                    for (int r = 0; r < table->rowCount(); ++r)
                        QVERIFY(table->columnWidth(c)
                            >= table->fontMetrics().horizontalAdvance(table->item(r, c)->text()));
            }
            // The range, its start, the peak, the end's total and the top frame always.
            for (const int c : { 0, 1, 3, 5, 10 })
                QVERIFY2(
                    !table->isColumnHidden(c), qPrintable(QStringLiteral("%1 px: %2").arg(width).arg(c)));
            if (width == 1800)
                QCOMPARE(shownColumns, 11);
        }
        QVERIFY(table->item(0, 0)->toolTip().contains(QStringLiteral("reserved at end")));
    }

    void manyStepsThinOut()
    {
        // 300 steps of 10 us, an allocation freed in each: ~2 px a step at this width.
        constexpr int kSteps = 300;
        std::vector<Py> trace;
        std::vector<Py> notes;
        std::vector<std::string> ranges;
        for (int i = 0; i < kSteps; ++i) {
            const std::int64_t t = 1000 + i * 10;
            const std::string name = "ProfilerStep#" + std::to_string(i);
            trace.push_back(entry("alloc", 0x1000 + i * 0x100, 64, t + 2));
            trace.push_back(entry("free_requested", 0x1000 + i * 0x100, 64, t + 5));
            notes.push_back(annotation("START", name, t));
            notes.push_back(annotation("END", name, t + 10));
            ranges.push_back(ks::tests::completeEvent("cpu_op", name, kBase + t, 10, 1, 1));
        }
        Shown shown;
        QVERIFY(shown.giveTrace(ks::tests::kinetoDocument(0, ranges)));
        QVERIFY(shown.open(writeSnapshot(shown.dir, QStringLiteral("many.pickle"), trace, notes)));
        const widgets::ActiveMemoryPlot* plot = shown.plot();
        QCOMPARE(int(plot->marks().size()), kSteps);
        QCOMPARE(shown.table()->rowCount(), kSteps);
        const auto labels = plot->markLabels();
        // Some labels, far fewer than the steps, none over another, all inside the plot's x.
        QVERIFY(labels.size() >= 5);
        QVERIFY2(int(labels.size()) < kSteps / 4, qPrintable(QString::number(labels.size())));
        QCOMPARE(labels.front().mark, 0);
        QCOMPARE(labels.front().text, QStringLiteral("#0")); // too narrow for its full name
        for (std::size_t i = 0; i < labels.size(); ++i) {
            QVERIFY(labels[i].rect.left() >= plot->plotRect().left());
            QVERIFY(labels[i].rect.right() <= plot->plotRect().right());
            if (i > 0)
                QVERIFY(labels[i].rect.left() > labels[i - 1].rect.right());
        }
        // Zoomed in on a few steps (a row clicked), each one is labelled again.
        shown.view.selectRange(150);
        const auto near = plot->markLabels();
        QVERIFY(near.size() >= 5);
        QVERIFY(std::any_of(near.begin(), near.end(),
            [](const auto& l) { return l.mark == 150 && l.text == QStringLiteral("#150"); }));
        QVERIFY(std::all_of(near.begin(), near.end(), [&](const auto& l) {
            return std::abs(l.mark - 150) <= 5; // only the steps in view
        }));
    }
};

KS_TEST_MAIN(tst_snapshot_steps, TestSnapshotSteps)
#include "tst_snapshot_steps.moc"
