// The timeline widget as a user drives it: background preparation, keys,
// wheel and drags, search, panels, and export.
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/common/task_pools.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_search.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/panels/range_aggregation_panel.h"
#include "widgets/timeline/panels/search_results_panel.h"
#include "widgets/timeline/panels/slice_details_panel.h"
#include "widgets/timeline/view/timeline_view.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QLineEdit>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>
#include <QWheelEvent>

using namespace ks;
using namespace ks::widgets;

class TimelineWidgetTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::shared_ptr<const core::TraceSet> m_set;
    TaskPools m_pools; // declared first: outlives the widgets that run jobs on it
    TimelineViewState* m_state = nullptr;
    std::unique_ptr<TimelineWidget> m_widget;

    TimelineView* view() const { return m_widget->view(); }

    QPoint trackPoint(double fraction) const
    {
        const TimelineGeometry g = view()->geometryNow();
        return { g.trackLeft() + static_cast<int>(fraction * g.trackWidth()), g.height / 2 };
    }

private slots:

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        for (int r = 0; r < 2; ++r)
            QVERIFY(ks::test::writeFile(
                m_dir.filePath(QStringLiteral("rank%1.json").arg(r)), ks::test::tinyTrace(r, 2)));
        auto loaded = core::loadTraceSet({ m_dir.path().toStdString() }, {}, nullptr, nullptr);
        QVERIFY(loaded);
        m_set = std::make_shared<const core::TraceSet>(std::move(loaded).value());
        QCOMPARE(m_set->ranks.size(), std::size_t(2));
    }

    void init()
    {
        m_state = new TimelineViewState;
        m_widget = std::make_unique<TimelineWidget>(m_state, &m_pools);
        m_state->setParent(m_widget.get());
        m_widget->resize(1200, 700);
        m_widget->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_widget.get()));
    }

    void cleanup() { m_widget.reset(); }

    void preparesInTheBackground()
    {
        QSignalSpy ready(m_widget.get(), &TimelineWidget::ready);
        m_widget->setTraceSet(m_set);
        // The tiny trace may be prepared (on worker threads) before setTraceSet
        // returns: Qt runs a continuation at once when its future has finished.
        QVERIFY(m_widget->isPreparing() || ready.count() == 1);
        QVERIFY(ready.count() == 1 || ready.wait(20000));
        QVERIFY(!m_widget->isPreparing());
        QVERIFY(m_widget->data());
        QCOMPARE(m_widget->data()->rankCount(), 2);
        QCOMPARE(m_state->visibleRange(),
            clampRange(m_widget->data()->displayBounds(Alignment::AsRecorded), m_state->bounds()));
        // The tiny trace has a C counter and a queue length (launch + kernel).
        QVERIFY(m_widget->data()->rankCounters(0).size() >= 2);
        QVERIFY(view()->contentHeight() > 0);
    }

    void keysNavigateAndHistoryReturns()
    {
        m_widget->setData(TimelineData::build(m_set));
        view()->setFocus();
        const TimeRange all = m_state->visibleRange();
        QTest::keyClick(view(), Qt::Key_W);
        QVERIFY(m_state->visibleRange().span() < all.span());
        const TimeRange zoomed = m_state->visibleRange();
        QTest::keyClick(view(), Qt::Key_D);
        QVERIFY(m_state->visibleRange().start > zoomed.start);
        QCOMPARE(m_state->visibleRange().span(), zoomed.span());
        QTest::keyClick(view(), Qt::Key_A);
        QCOMPARE(m_state->visibleRange(), zoomed);
        QTest::keyClick(view(), Qt::Key_S);
        QVERIFY(m_state->visibleRange().span() > zoomed.span());
        QTest::keyClick(view(), Qt::Key_W);
        QTest::keyClick(view(), Qt::Key_D);
        const TimeRange beforeFit = m_state->visibleRange();
        QVERIFY(beforeFit != all);
        QTest::keyClick(view(), Qt::Key_F);
        QCOMPARE(m_state->visibleRange(), all);
        QVERIFY(m_state->canGoBack());
        m_state->goBack();
        QCOMPARE(m_state->visibleRange(), beforeFit);
        QVERIFY(m_state->canGoForward());
        m_state->goForward();
        QCOMPARE(m_state->visibleRange(), all);
    }

    void wheelZoomsAtTheCursor()
    {
        m_widget->setData(TimelineData::build(m_set));
        const QPoint at = trackPoint(0.25);
        const TimeNs before = view()->timeAtX(at.x());
        const TimeNs span = m_state->visibleRange().span();
        QWheelEvent wheel(at, view()->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(view(), &wheel);
        QVERIFY(m_state->visibleRange().span() < span);
        QVERIFY(qAbs(view()->timeAtX(at.x()) - before) <= 2);
    }

    void dragPansAndShiftDragSelectsARange()
    {
        m_widget->setData(TimelineData::build(m_set));
        QTest::keyClick(view(), Qt::Key_W);
        QTest::keyClick(view(), Qt::Key_W);
        const TimeRange start = m_state->visibleRange();
        const QPoint a = trackPoint(0.5);
        const QPoint b = trackPoint(0.3);
        QTest::mousePress(view(), Qt::LeftButton, Qt::NoModifier, a);
        QTest::mouseMove(view(), b);
        QTest::mouseRelease(view(), Qt::LeftButton, Qt::NoModifier, b);
        QVERIFY(m_state->visibleRange().start > start.start); // dragged left: later times come in
        QVERIFY(!m_state->selectedRange());
        QTest::mousePress(view(), Qt::LeftButton, Qt::ShiftModifier, b);
        QTest::mouseMove(view(), a);
        QTest::mouseRelease(view(), Qt::LeftButton, Qt::ShiftModifier, a);
        QVERIFY(m_state->selectedRange());
        QVERIFY(qAbs(m_state->selectedRange()->start - view()->timeAtX(b.x())) <= 1);
        QVERIFY(qAbs(m_state->selectedRange()->end - view()->timeAtX(a.x())) <= 1);
        QTest::keyClick(view(), Qt::Key_Escape);
        QVERIFY(!m_state->selectedRange());
    }

    void searchSelectsAndPanelsFollow()
    {
        m_widget->setData(TimelineData::build(m_set));
        SliceDetailsPanel details(m_state);
        details.setData(m_widget->data());
        SearchResultsPanel results;
        m_widget->searchField()->setText(QStringLiteral("add_kernel"));
        m_widget->searchNow(true);
        QCOMPARE(m_widget->searchResults()->size(), std::size_t(2));
        results.setResults(m_widget->data(), m_widget->searchResults(), Alignment::AsRecorded);
        QCOMPARE(results.model()->rowCount(), 2);
        m_widget->stepSearch(true);
        const SliceRef selected = m_state->selectedSlice();
        QVERIFY(selected.valid());
        QCOMPARE(selected, m_widget->searchResults()->ordered.front());
        QVERIFY(details.plainText().contains(QStringLiteral("add_kernel")));
        QVERIFY(details.plainText().contains(QStringLiteral("Launched by")));
        QVERIFY(details.plainText().contains(QStringLiteral("cudaLaunchKernel")));
        // The selected slice is on screen: its rank expanded, its x inside the view.
        const core::RankTrace& t = m_widget->data()->trace(selected.rank);
        QVERIFY(m_state->visibleRange().start <= t.slices.start[selected.slice]);
        QVERIFY(m_state->visibleRange().end >= t.slices.end(selected.slice));
        m_widget->stepSearch(true);
        QCOMPARE(m_state->selectedSlice(), m_widget->searchResults()->ordered[1]);
        m_widget->stepSearch(true); // wraps
        QCOMPARE(m_state->selectedSlice(), m_widget->searchResults()->ordered[0]);
    }

    void rangePanelAggregates()
    {
        m_widget->setData(TimelineData::build(m_set));
        RangeAggregationPanel panel(m_state, &m_pools);
        panel.setData(m_widget->data());
        m_state->setSelectedRange(m_state->bounds());
        panel.recomputeNow();
        // aten::add, cudaLaunchKernel, add_kernel: merged over both ranks.
        QCOMPARE(panel.model()->rowCount(), 3);
        QCOMPARE(panel.model()->aggregate().slices, 6u);
        QCOMPARE(panel.model()->aggregate().ranks, 2);
    }

    void exportsPngAndSvg()
    {
        m_widget->setData(TimelineData::build(m_set));
        const QString png = m_dir.filePath(QStringLiteral("view.png"));
        const QString svg = m_dir.filePath(QStringLiteral("view.svg"));
        QVERIFY(m_widget->exportImage(png));
        QVERIFY(m_widget->exportSvg(svg));
        QImage image(png);
        QCOMPARE(image.size(), view()->size() * view()->devicePixelRatioF());
        QFile file(svg);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY(text.contains("<svg"));
        QVERIFY(text.contains("add_kernel") || text.contains("aten::add") || text.contains("Rank 0"));
    }

    void hideAndCollapseChangeTheRows()
    {
        m_widget->setData(TimelineData::build(m_set));
        const std::size_t rows = view()->layout().rows().size();
        m_state->setCollapsed(1, true);
        QVERIFY(view()->layout().rows().size() < rows);
        m_state->setRankHidden(0, true);
        QCOMPARE(view()->layout().rows().size(), std::size_t(1)); // rank 1's header
        view()->scrollToRank(0);
        QVERIFY(!m_state->isRankHidden(0));
    }

    void labelColumnResizesByDrag()
    {
        m_widget->setData(TimelineData::build(m_set));
        const int y = view()->height() / 2;
        const TimeNs atTrackLeft = view()->timeAtX(TimelineGeometry::kLabelWidth);
        QTest::mousePress(view(), Qt::LeftButton, {}, QPoint(TimelineGeometry::kLabelWidth + 1, y));
        QTest::mouseMove(view(), QPoint(320, y));
        QTest::mouseRelease(view(), Qt::LeftButton, {}, QPoint(320, y));
        QCOMPARE(view()->labelWidth(), 320);
        QCOMPARE(view()->geometryNow().trackLeft(), 320);
        // The time range is unchanged: the track area starts further right with the same start time.
        QCOMPARE(view()->timeAtX(320), atTrackLeft);
        QVERIFY(!m_state->selectedRange()); // not a range drag
        // Bounded: the tracks keep at least a third of the view.
        view()->setLabelWidth(5000);
        QVERIFY(view()->labelWidth() <= view()->width() * 2 / 3);
        view()->setLabelWidth(0);
        QCOMPARE(view()->labelWidth(), TimelineGeometry::kMinLabelWidth);
        // A double click on the edge restores the default.
        QTest::mouseDClick(view(), Qt::LeftButton, {}, QPoint(TimelineGeometry::kMinLabelWidth, y));
        QCOMPARE(view()->labelWidth(), int(TimelineGeometry::kLabelWidth));
    }
};

KS_TEST_MAIN(tst_timeline_widget, TimelineWidgetTest)
#include "tst_timeline_widget.moc"
