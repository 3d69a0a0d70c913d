// Hit-testing the timeline widget at extreme zooms: a nanosecond window and
// the whole trace, on a trace starting at epoch-scale timestamps.
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/timeline/model/slice_queries.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_view.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ks;
using namespace ks::widgets;

namespace {

// µs with 3 decimals at epoch scale: the kernel is 2 ns long.
const QByteArray kTrace = QByteArrayLiteral(R"({"schemaVersion": 1, "traceEvents": [
  {"ph":"X","cat":"cpu_op","name":"aten::add","pid":10,"tid":11,"ts":1712345678901000.000,"dur":20},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":10,"tid":11,"ts":1712345678901005.000,"dur":4,"args":{"correlation":7}},
  {"ph":"X","cat":"kernel","name":"tiny_kernel","pid":0,"tid":7,"ts":1712345678901012.345,"dur":0.002,"args":{"stream":7,"correlation":7,"device":0}},
  {"ph":"X","cat":"kernel","name":"late_kernel","pid":0,"tid":7,"ts":1712345678902000.000,"dur":50,"args":{"stream":7,"device":0}},
  {"ph":"X","cat":"cpu_op","name":"aten::mul","pid":10,"tid":11,"ts":1712345678902100.000,"dur":1}
]})");

} // namespace

class TimelineHitTest : public QObject
{
    Q_OBJECT

private:
    TimelineViewState m_state;
    std::unique_ptr<TimelineView> m_view;
    std::shared_ptr<const TimelineData> m_data;

    SliceRef find(const char* name) const
    {
        const core::RankTrace& t = m_data->trace(0);
        for (std::uint32_t i = 0; i < t.slices.size(); ++i)
            if (t.sliceName(i) == name)
                return { 0, i };
        return {};
    }

    // The widget y of the middle of a slice's lane.
    int laneY(SliceRef ref) const
    {
        const core::RankTrace& t = m_data->trace(0);
        const int row = m_view->layout().findRow({ 0, RowKind::Slices, t.trackOf(ref.slice).value });
        const TimelineRow& r = m_view->layout().rows()[static_cast<std::size_t>(row)];
        return m_view->geometryNow().rowTop(m_view->layout(), r) + TrackLayout::laneTop(t.levelOf(ref.slice))
            + TrackLayout::kLaneHeight / 2;
    }

    TimeNs startOf(SliceRef ref) const { return m_data->trace(0).slices.start[ref.slice]; }

private slots:

    void initTestCase()
    {
        auto set = test::loadDocument(kTrace);
        QVERIFY(set && set->ranks.size() == 1);
        m_data = TimelineData::build(set);
        m_view = std::make_unique<TimelineView>(&m_state);
        m_view->resize(TimelineGeometry::kLabelWidth + 1000, 400); // a 1000 px track area
        m_view->setData(m_data);
        m_state.reset(m_data->displayBounds(Alignment::AsRecorded));
        QCOMPARE(m_data->traceStart, 1712345678901000000LL);
        QVERIFY(find("tiny_kernel").valid());
    }

    void coordinatesAtEpochScale()
    {
        const TimeNs t0 = startOf(find("tiny_kernel"));
        QCOMPARE(t0, 1712345678901012345LL);
        m_state.setVisibleRange({ t0 - 100, t0 + 150 }, TimelineViewState::History::None);
        QCOMPARE(m_state.visibleRange().span(), 250);
        // 4 px per ns.
        QCOMPARE(m_view->xOfTime(t0), TimelineGeometry::kLabelWidth + 400.0);
        QCOMPARE(m_view->timeAtX(TimelineGeometry::kLabelWidth + 404.0), t0 + 1);
    }

    void nanosecondZoomHits()
    {
        const SliceRef kernel = find("tiny_kernel");
        const TimeNs t0 = startOf(kernel);
        m_state.setVisibleRange({ t0 - 100, t0 + 150 }, TimelineViewState::History::None);
        const int y = laneY(kernel);
        // The 2 ns kernel is 8 px wide at x 400..408.
        QCOMPARE(m_view->sliceAt(QPoint(TimelineGeometry::kLabelWidth + 404, y)), kernel);
        QCOMPARE(m_view->sliceAt(QPoint(TimelineGeometry::kLabelWidth + 400, y)), kernel);
        // 3 px tolerance is under 1 ns here: 5 ns away is a miss.
        QVERIFY(!m_view->sliceAt(QPoint(TimelineGeometry::kLabelWidth + 380, y)).valid());
        QVERIFY(!m_view->sliceAt(QPoint(TimelineGeometry::kLabelWidth + 430, y)).valid());
        // In the row's padding above the lane, or over the labels: nothing.
        QVERIFY(
            !m_view->sliceAt(
                       QPoint(TimelineGeometry::kLabelWidth + 404, y - TrackLayout::kLaneHeight / 2 - 2))
                 .valid());
        QVERIFY(!m_view->sliceAt(QPoint(100, y)).valid());
    }

    void wholeTraceHitsSubPixelSlices()
    {
        m_state.fitAll();
        const SliceRef kernel = find("tiny_kernel");
        const double x = m_view->xOfTime(startOf(kernel));
        const int y = laneY(kernel);
        // Far below a pixel wide, still clickable, with 3 px tolerance either side.
        QCOMPARE(m_view->sliceAt(QPoint(static_cast<int>(x), y)), kernel);
        QCOMPARE(m_view->sliceAt(QPoint(static_cast<int>(x) + 2, y)), kernel);
        QCOMPARE(m_view->sliceAt(QPoint(static_cast<int>(x) - 2, y)), kernel);
        // Well away: the nearest is too far.
        QVERIFY(!m_view->sliceAt(QPoint(static_cast<int>(x) + 100, y)).valid());
        // The launch on the CPU row, at the same zoom.
        const SliceRef launch = find("cudaLaunchKernel");
        QCOMPARE(
            m_view->sliceAt(QPoint(static_cast<int>(m_view->xOfTime(startOf(launch) + 2000)), laneY(launch))),
            launch);
        const SliceRef outer = find("aten::add");
        QCOMPARE(
            m_view->sliceAt(QPoint(static_cast<int>(m_view->xOfTime(startOf(outer) + 1000)), laneY(outer))),
            outer);
    }

    void rowsUnderTheMouse()
    {
        const auto& rows = m_view->layout().rows();
        QCOMPARE(rows.front().kind, RowKind::RankHeader);
        const TimelineGeometry g = m_view->geometryNow();
        for (std::size_t i = 0; i < rows.size(); ++i) {
            const int top = g.rowTop(m_view->layout(), rows[i]);
            QCOMPARE(m_view->rowAt(QPoint(500, top)), static_cast<int>(i));
            QCOMPARE(m_view->rowAt(QPoint(500, top + rows[i].height - 1)), static_cast<int>(i));
        }
        QCOMPARE(m_view->rowAt(QPoint(500, 5)), -1); // the ruler
    }

    void hitTestLevelPicksContainingThenNearest()
    {
        const core::RankTrace& t = m_data->trace(0);
        const SliceRef late = find("late_kernel");
        const std::uint32_t track = t.trackOf(late.slice).value;
        const TimeNs s = startOf(late);
        QCOMPARE(*hitTestLevel(t, track, 0, s + 10, 0), late.slice);
        QCOMPARE(*hitTestLevel(t, track, 0, s - 5, 5), late.slice);
        QVERIFY(!hitTestLevel(t, track, 0, s - 6, 5));
        QVERIFY(!hitTestLevel(t, track, 7, s, 5)); // no such level
    }
};

KS_TEST_MAIN(tst_timeline_hit_test, TimelineHitTest)
#include "tst_timeline_hit_test.moc"
