// T10: colour by critical path membership. The marks must be the core's path
// (A8); a slice on the path gets the path colour in draw lists and on screen,
// one off it a faded kind colour; the widget computes the paths on demand and
// the legend follows.
#include "core/analysis/critical_path/critical_path.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/common/task_pools.h"
#include "widgets/timeline/model/critical_path_marks.h"
#include "widgets/timeline/model/draw_list.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/render/timeline_legend.h"
#include "widgets/timeline/view/timeline_view.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>

using namespace ks;
using namespace ks::widgets;

namespace {

// The item of a draw list drawing `slice`, or null.
const SliceDrawItem* itemOf(const std::vector<SliceDrawItem>& items, std::uint32_t slice)
{
    for (const SliceDrawItem& item : items)
        if (item.slice == slice && item.count == 1)
            return &item;
    return nullptr;
}

} // namespace

class TimelineCriticalPathTest : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const core::TraceSet> m_set;
    std::shared_ptr<const TimelineData> m_data; // with the critical paths
    SliceRef m_onPath; // the longest GPU slice on the path
    SliceRef m_offPath; // a GPU slice off the path

    std::vector<SliceDrawItem> drawSlice(const TimelineData& data, SliceRef ref, ColorMode mode) const
    {
        const core::RankTrace& t = data.trace(ref.rank);
        SliceDrawParams p;
        p.raw = { t.slices.start[ref.slice] - 10, t.slices.end(ref.slice) + 10 };
        p.width = 1000;
        p.mode = mode;
        p.criticalPath = data.criticalPath(ref.rank);
        return buildSliceDrawList(data.rank(ref.rank), t.trackOf(ref.slice).value, p);
    }

private slots:

    void initTestCase()
    {
        m_set = test::loadSharedTraces("critical_path_simple_add");
        if (!m_set)
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/critical_path_simple_add");
        QCOMPARE(m_set->ranks.size(), std::size_t(1));
    }

    void marksAreTheCorePath()
    {
        const CriticalPathMarks marks = computeCriticalPathMarks(*m_set, 0);
        QVERIFY2(marks.problem.isEmpty(), qPrintable(marks.problem));
        QVERIFY(!marks.slices.empty());
        QVERIFY(std::is_sorted(marks.slices.begin(), marks.slices.end()));
        QVERIFY(marks.pathWeight > 0);

        core::AnalysisOptions options;
        auto frames = core::buildFrames(*m_set, options);
        QVERIFY(frames);
        auto graph =
            core::buildCriticalPath(frames.value(), frames.value().ranks.front().rank, {}, {}, options);
        QVERIFY(graph && graph.value().success);
        QCOMPARE(marks.pathWeight, graph.value().pathWeight);
        std::vector<std::uint32_t> expected;
        for (const std::uint32_t node : graph.value().pathNodes)
            expected.push_back(graph.value().frame->rows[graph.value().nodes[node].row].slice);
        std::sort(expected.begin(), expected.end());
        expected.erase(std::unique(expected.begin(), expected.end()), expected.end());
        QCOMPARE(marks.slices, expected);
        QVERIFY(marks.contains(expected.front()));
        QVERIFY(marks.anyIn(expected.front(), expected.front() + 1));
        QVERIFY(!marks.anyIn(expected.front(), expected.front()));

        std::vector<CriticalPathMarks> perRank;
        perRank.push_back(marks);
        auto base = TimelineData::build(m_set);
        QVERIFY(!base->hasCriticalPaths());
        QVERIFY(!base->criticalPath(0));
        m_data = base->withCriticalPaths(std::move(perRank));
        QVERIFY(m_data->version != base->version);
        QVERIFY(m_data->criticalPath(0));

        // A GPU slice on the path (the longest) and one off it.
        const core::RankTrace& t = m_data->trace(0);
        for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
            if (t.tracks[t.trackOf(i).value].kind != core::TrackKind::GpuStream)
                continue;
            if (marks.contains(i)) {
                if (!m_onPath.valid() || t.slices.duration(i) > t.slices.duration(m_onPath.slice))
                    m_onPath = { 0, i };
            } else if (!m_offPath.valid()) {
                m_offPath = { 0, i };
            }
        }
        QVERIFY(m_onPath.valid());
        QVERIFY(m_offPath.valid());
    }

    void drawListsColourThePath()
    {
        QVERIFY(m_data);
        const RankTimeline& rank = m_data->rank(0);
        const SliceDrawItem* on =
            itemOf(drawSlice(*m_data, m_onPath, ColorMode::CriticalPath), m_onPath.slice);
        QVERIFY(on);
        QCOMPARE(on->colorKey, std::uint8_t(SliceKind::CriticalPath));
        const SliceDrawItem* off =
            itemOf(drawSlice(*m_data, m_offPath, ColorMode::CriticalPath), m_offPath.slice);
        QVERIFY(off);
        QCOMPARE(off->colorKey, criticalPathKey(rank.sliceKind[m_offPath.slice], false));
        QVERIFY(off->colorKey != std::uint8_t(SliceKind::CriticalPath));
        // The same slice in kind mode: its kind, not the path.
        QCOMPARE(itemOf(drawSlice(*m_data, m_onPath, ColorMode::KernelType), m_onPath.slice)->colorKey,
            rank.sliceKind[m_onPath.slice]);
        // Before the paths are computed, critical path mode draws kind colours.
        auto plain = TimelineData::build(m_set);
        QCOMPARE(itemOf(drawSlice(*plain, m_onPath, ColorMode::CriticalPath), m_onPath.slice)->colorKey,
            rank.sliceKind[m_onPath.slice]);
    }

    void mergedBlockWithAPathSliceShowsThePath()
    {
        QVERIFY(m_data);
        // The whole trace in 20 px: every GPU block holding a path slice is drawn in the path colour.
        const core::RankTrace& t = m_data->trace(0);
        const std::uint32_t track = t.trackOf(m_onPath.slice).value;
        SliceDrawParams p;
        p.raw = { t.startNs, t.endNs };
        p.width = 20;
        p.mode = ColorMode::CriticalPath;
        p.criticalPath = m_data->criticalPath(0);
        bool found = false;
        for (const SliceDrawItem& item : buildSliceDrawList(m_data->rank(0), track, p)) {
            const double x = (static_cast<double>(t.slices.start[m_onPath.slice] - t.startNs) * 20.0)
                / static_cast<double>(t.endNs - t.startNs);
            if (item.lane == t.levelOf(m_onPath.slice) && item.x0 <= x && x <= item.x1) {
                QCOMPARE(item.colorKey, std::uint8_t(SliceKind::CriticalPath));
                found = true;
            }
        }
        QVERIFY(found);
    }

    void widgetComputesOnDemandAndLegendFollows()
    {
        QVERIFY(m_data);
        auto* state = new TimelineViewState;
        TaskPools pools;
        TimelineWidget widget(state, &pools);
        state->setParent(&widget);
        widget.resize(1400, 700);
        widget.show();
        QVERIFY(QTest::qWaitForWindowExposed(&widget));
        widget.setData(TimelineData::build(m_set));
        QVERIFY(!widget.data()->hasCriticalPaths());
        QCOMPARE(widget.legend()->entries().front().text, sliceKindName(SliceKind::Compute));

        QSignalSpy ready(&widget, &TimelineWidget::criticalPathsReady);
        state->setColorMode(ColorMode::CriticalPath);
        QVERIFY(ready.count() == 1 || ready.wait(30000));
        QVERIFY(widget.data()->hasCriticalPaths());
        QCOMPARE(widget.data()->criticalPath(0)->slices, m_data->criticalPath(0)->slices);
        QCOMPARE(widget.legend()->entries().size(), std::size_t(2));
        QCOMPARE(widget.legend()->entries().front().text, sliceKindName(SliceKind::CriticalPath));
        QVERIFY2(
            widget.legend()->note().contains(QStringLiteral("path")), qPrintable(widget.legend()->note()));

        // On screen: zoom to the path slice; its pixels have the path colour.
        TimelineView* view = widget.view();
        const core::RankTrace& t = widget.data()->trace(0);
        const TimeNs s = t.slices.start[m_onPath.slice];
        const TimeNs e = t.slices.end(m_onPath.slice);
        state->setVisibleRange({ s - (e - s), e + (e - s) }, TimelineViewState::History::None);
        const int rowIndex = view->layout().findRow({ 0, RowKind::Slices, t.trackOf(m_onPath.slice).value });
        QVERIFY(rowIndex >= 0);
        const TimelineRow& row = view->layout().rows()[static_cast<std::size_t>(rowIndex)];
        const int y = view->geometryNow().rowTop(view->layout(), row)
            + TrackLayout::laneTop(t.levelOf(m_onPath.slice)) + 3;
        const int x = static_cast<int>(view->xOfTime(s)) + 4;
        QVERIFY(y > 0 && y < view->height());
        const QImage image = view->grab().toImage();
        const QColor pathColour = view->renderer().palette().fill(std::uint8_t(SliceKind::CriticalPath));
        QCOMPARE(image.pixelColor(x, y).rgb(), pathColour.rgb());
        // Kind mode again: the same pixel is the kind's colour.
        state->setColorMode(ColorMode::KernelType);
        const QImage kindImage = view->grab().toImage();
        QCOMPARE(kindImage.pixelColor(x, y).rgb(),
            view->renderer().palette().fill(widget.data()->rank(0).sliceKind[m_onPath.slice]).rgb());
        QVERIFY(widget.legend()->entries().front().text != sliceKindName(SliceKind::CriticalPath));
    }

    void rankWithoutPathSaysWhy()
    {
        auto set = test::loadSharedTraces("cpu_only");
        if (!set)
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/cpu_only");
        auto* state = new TimelineViewState;
        TaskPools pools;
        TimelineWidget widget(state, &pools);
        state->setParent(&widget);
        state->setColorMode(ColorMode::CriticalPath);
        QSignalSpy ready(&widget, &TimelineWidget::criticalPathsReady);
        widget.setData(TimelineData::build(set)); // the mode is already on: computing starts with the data
        QVERIFY(ready.count() == 1 || ready.wait(30000));
        const CriticalPathMarks* marks = widget.data()->criticalPath(0);
        QVERIFY(marks);
        QVERIFY(marks->slices.empty());
        QVERIFY(!marks->problem.isEmpty());
        QVERIFY2(widget.legend()->note().contains(widget.data()->rank(0).label),
            qPrintable(widget.legend()->note()));
        QVERIFY(widget.legend()->note().contains(marks->problem));
    }
};

KS_TEST_MAIN(tst_timeline_critical_path, TimelineCriticalPathTest)
#include "tst_timeline_critical_path.moc"
