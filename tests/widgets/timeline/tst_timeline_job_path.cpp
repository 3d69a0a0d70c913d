// X3 on the timeline: the job's critical path across ranks in the job path
// colour mode. The marked slices must be exactly the path's segments on each
// rank (found independently here by their traceEvents index), each in its
// bound's colour; hops join the two ranks' collective slices; the widget finds
// the slices in the background and toggling the mode off draws kinds again.
#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/common/task_pools.h"
#include "widgets/timeline/model/draw_list.h"
#include "widgets/timeline/model/job_path_marks.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/render/timeline_legend.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QDir>
#include <QSignalSpy>
#include <QTest>

#include <map>
#include <set>

using namespace ks;
using namespace ks::widgets;

namespace {

// The slice holding traceEvents[event], by a plain scan (not the code under test's map).
std::uint32_t sliceOf(const core::RankTrace& t, std::int64_t event)
{
    for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
        if (t.slices.eventIndex[i] == static_cast<std::uint32_t>(event))
            return i;
    }
    return core::kNoRow;
}

// The colour keys the draw list gives `slice` when drawn alone.
std::uint8_t keyOf(const TimelineData& data, int rank, std::uint32_t slice, ColorMode mode)
{
    const core::RankTrace& t = data.trace(rank);
    SliceDrawParams p;
    p.raw = { t.slices.start[slice] - 10, t.slices.end(slice) + 10 };
    p.width = 1000;
    p.mode = mode;
    p.jobPath = data.jobPathMarks(rank);
    for (const SliceDrawItem& item : buildSliceDrawList(data.rank(rank), t.trackOf(slice).value, p)) {
        if (item.slice == slice && item.count == 1)
            return item.colorKey;
    }
    return 255;
}

} // namespace

class TimelineJobPathTest : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const core::TraceSet> m_set;
    std::shared_ptr<const core::JobCriticalPath> m_job;
    // Per rank position: slice -> the bounds the path's segments give it.
    std::vector<std::map<std::uint32_t, std::set<core::PathBound>>> m_expected;

private slots:

    void initTestCase()
    {
        m_set = test::loadSharedTraces("ddp_gloo_2ranks");
        if (!m_set)
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/ddp_gloo_2ranks");
        QCOMPARE(m_set->ranks.size(), std::size_t(2));
        auto frames = core::buildFrames(*m_set, core::AnalysisOptions {});
        QVERIFY(frames);
        auto job = core::jobCriticalPath(frames.value(), {});
        QVERIFY(job);
        QVERIFY(job.value().path.ok);
        m_job = std::make_shared<const core::JobCriticalPath>(std::move(job).value());
        m_expected.resize(m_set->ranks.size());
        for (const core::PathSegment& s : m_job->path.segments) {
            if (s.piece.eventIndex < 0 || s.piece.duration <= 0)
                continue;
            const auto pos = static_cast<std::size_t>(s.rank == m_set->ranks[0]->rank ? 0 : 1);
            QCOMPARE(m_set->ranks[pos]->rank, s.rank);
            const std::uint32_t slice = sliceOf(*m_set->ranks[pos], s.piece.eventIndex);
            QVERIFY(slice != core::kNoRow);
            m_expected[pos][slice].insert(s.piece.bound);
        }
        // The gloo job's path runs through both ranks (rank 1 holds rank 0 back).
        QVERIFY(!m_expected[0].empty());
        QVERIFY(!m_expected[1].empty());
        QVERIFY(!m_job->path.hops.empty());
    }

    void marksAreThePathSegments()
    {
        const JobPathMarks marks = computeJobPathMarks(*m_set, *m_job);
        QCOMPARE(marks.length, m_job->path.length);
        QCOMPARE(marks.ranks.size(), std::size_t(2));
        for (std::size_t r = 0; r < 2; ++r) {
            const RankPathMarks& rank = marks.ranks[r];
            std::vector<std::uint32_t> expected;
            for (const auto& [slice, bounds] : m_expected[r])
                expected.push_back(slice);
            QCOMPARE(rank.slices, expected);
            QCOMPARE(rank.bounds.size(), rank.slices.size());
            for (std::size_t i = 0; i < rank.slices.size(); ++i)
                QVERIFY(m_expected[r][rank.slices[i]].count(rank.bounds[i]) == 1);
        }
        // Each hop joins the two ranks' slices of the collective it hops at.
        QCOMPARE(marks.hops.size(), m_job->path.hops.size());
        for (std::size_t h = 0; h < marks.hops.size(); ++h) {
            const core::PathHop& hop = m_job->path.hops[h];
            const PathHopMark& mark = marks.hops[h];
            QCOMPARE(m_set->ranks[static_cast<std::size_t>(mark.from.rank)]->rank, hop.fromRank);
            QCOMPARE(m_set->ranks[static_cast<std::size_t>(mark.to.rank)]->rank, hop.toRank);
            QCOMPARE(mark.collective, QString::fromStdString(hop.collective));
            const core::RankTrace& from = *m_set->ranks[static_cast<std::size_t>(mark.from.rank)];
            QCOMPARE(from.sliceName(mark.from.slice), std::string_view(hop.collective));
        }
    }

    void widgetShowsAndClearsThePath()
    {
        auto* state = new TimelineViewState;
        TaskPools pools;
        TimelineWidget widget(state, &pools);
        state->setParent(&widget);
        widget.resize(1200, 600);
        widget.setData(TimelineData::build(m_set));
        QVERIFY(!widget.data()->jobPath);

        QSignalSpy ready(&widget, &TimelineWidget::jobPathReady);
        widget.setJobPath(m_job);
        QVERIFY(ready.count() == 1 || ready.wait(30000));
        QVERIFY(widget.data()->jobPath);
        state->setColorMode(ColorMode::JobPath);
        QCOMPARE(widget.legend()->entries().front().text, pathBoundLabel(core::PathBound::Cpu));
        QVERIFY2(
            widget.legend()->note().contains(QStringLiteral("hop")), qPrintable(widget.legend()->note()));

        const TimelineData& data = *widget.data();
        for (int r = 0; r < 2; ++r) {
            const RankTimeline& rank = data.rank(r);
            const RankPathMarks* marks = data.jobPathMarks(r);
            QVERIFY(marks);
            QCOMPARE(marks->slices.size(), m_expected[static_cast<std::size_t>(r)].size());
            // Every path slice in its bound's colour; in kind mode, its kind again.
            for (std::size_t i = 0; i < marks->slices.size(); ++i) {
                const std::uint32_t slice = marks->slices[i];
                QCOMPARE(keyOf(data, r, slice, ColorMode::JobPath),
                    jobPathKey(rank.sliceKind[slice], marks->bounds[i]));
                QCOMPARE(keyOf(data, r, slice, ColorMode::KernelType), rank.sliceKind[slice]);
            }
            // A slice off the path is faded.
            for (std::uint32_t s = 0; s < data.trace(r).slices.size(); ++s) {
                if (!marks->contains(s)) {
                    QCOMPARE(
                        keyOf(data, r, s, ColorMode::JobPath), jobPathKey(rank.sliceKind[s], std::nullopt));
                    break;
                }
            }
        }

        // Off: no job path keys are drawn anywhere.
        state->setColorMode(ColorMode::KernelType);
        QVERIFY(widget.legend()->note().isEmpty());
        for (int r = 0; r < 2; ++r) {
            for (const std::uint32_t slice : data.jobPathMarks(r)->slices)
                QVERIFY(keyOf(*widget.data(), r, slice, state->colorMode()) < kJobPathKeyBase);
        }
        // A null path clears the marks from the data.
        widget.setJobPath(nullptr);
        QVERIFY(!widget.data()->jobPath);
    }
};

KS_TEST_MAIN(tst_timeline_job_path, TimelineJobPathTest)
#include "tst_timeline_job_path.moc"
