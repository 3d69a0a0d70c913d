// T8: aligning ranks on a chosen collective. The chosen instance of a kernel
// must start at the same x on every rank that has it; ranks without it keep
// their recorded times; the toolbar keeps the choice.
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/common/format.h"
#include "widgets/common/task_pools.h"
#include "widgets/timeline/model/collective_spans.h"
#include "widgets/timeline/model/rank_alignment.h"
#include "widgets/timeline/model/slice_queries.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_view.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QComboBox>
#include <QTemporaryDir>
#include <QTest>

using namespace ks;
using namespace ks::widgets;

namespace {

// One rank: a compute kernel and `instances` all-reduces on stream 7 at the
// given µs, and a CPU op.
QByteArray rankTrace(int rank, std::initializer_list<int> allReduceUs)
{
    QByteArray events = QByteArrayLiteral(
        R"({"ph":"X","cat":"cpu_op","name":"aten::add","pid":10,"tid":11,"ts":900,"dur":20},)"
        R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":950,"dur":30,"args":{"stream":7,"device":0}})");
    for (int us : allReduceUs)
        events +=
            QByteArrayLiteral(
                R"x(,{"ph":"X","cat":"kernel","name":"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)","pid":0,"tid":7,"ts":)x")
            + QByteArray::number(us) + QByteArrayLiteral(R"(,"dur":40,"args":{"stream":7,"device":0}})");
    return QByteArrayLiteral(R"({"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":)")
        + QByteArray::number(rank) + QByteArrayLiteral(R"(,"world_size":2},"traceEvents":[)") + events
        + QByteArrayLiteral("]}");
}

constexpr TimeNs kUs = 1000;

// A rank of a job with two tensor-parallel groups: two all-reduces of its
// group, Seq 0 and 1, at the given µs, with Kineto's process group args.
QByteArray groupRankTrace(int rank, const char* group, const char* members, int firstUs, int secondUs)
{
    QByteArray events;
    int seq = 0;
    for (int us : { firstUs, secondUs }) {
        events += (seq ? QByteArrayLiteral(",") : QByteArray())
            + QByteArrayLiteral(
                R"({"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","pid":0,"tid":7,"ts":)")
            + QByteArray::number(us)
            + QByteArrayLiteral(R"(,"dur":40,"args":{"stream":7,"Process Group Name":")") + group
            + QByteArrayLiteral(R"(","Collective name":"allreduce","Process Group Ranks":")") + members
            + QByteArrayLiteral(R"(","Seq":)") + QByteArray::number(seq) + QByteArrayLiteral("}}");
        ++seq;
    }
    return QByteArrayLiteral(R"({"schemaVersion":1,"distributedInfo":{"backend":"nccl","rank":)")
        + QByteArray::number(rank) + QByteArrayLiteral(R"(,"world_size":4},"traceEvents":[)") + events
        + QByteArrayLiteral("]}");
}

} // namespace

class TimelineCollectiveTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::shared_ptr<const TimelineData> m_data;

    std::uint32_t instance(int rank, int ordinal) const
    {
        const core::RankTrace& t = m_data->trace(rank);
        const auto all = gpuInstancesOfName(t, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)");
        return static_cast<std::size_t>(ordinal) < all.size() ? all[static_cast<std::size_t>(ordinal)]
                                                              : core::kNoRow;
    }

private slots:

    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // Rank 1's clock runs 1000 µs ahead and it reaches each collective a little later; it has a 4th one.
        QVERIFY(test::writeFile(
            m_dir.filePath(QStringLiteral("rank0.json")), rankTrace(0, { 1100, 1300, 1500 })));
        QVERIFY(test::writeFile(
            m_dir.filePath(QStringLiteral("rank1.json")), rankTrace(1, { 2150, 2380, 2520, 2700 })));
        auto set = test::loadSet(m_dir.path());
        QVERIFY(set && set->ranks.size() == 2);
        m_data = TimelineData::build(set);
        QCOMPARE(m_data->trace(0).rank, 0);
    }

    void instancesInTimeOrder()
    {
        const core::RankTrace& t = m_data->trace(1);
        QCOMPARE(gpuInstancesOfName(t, "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)").size(),
            std::size_t(4));
        QCOMPARE(t.slices.start[instance(1, 2)], 2520 * kUs);
        QVERIFY(gpuInstancesOfName(t, "no such kernel").empty());
    }

    void anchorShiftsEachRankOntoTheReference()
    {
        const auto anchor = collectiveAnchor(*m_data, { 0, instance(0, 1) });
        QVERIFY(anchor);
        QCOMPARE(anchor->ordinal, 1);
        QCOMPARE(anchor->referenceRank, 0);
        QCOMPARE(anchor->ranksFound, 2);
        QCOMPARE(anchor->offsets[0], TimeNs(0));
        QCOMPARE(anchor->offsets[1], (2380 - 1300) * kUs);
        const Alignment a = Alignment::onCollective(anchor);
        QCOMPARE(m_data->offset(1, a), (2380 - 1300) * kUs);
        // The other instances keep their own skew: only the chosen one lines up.
        QCOMPARE(m_data->trace(1).slices.start[instance(1, 0)] - m_data->offset(1, a), 1070 * kUs);
    }

    void rankWithoutTheInstanceKeepsRecordedTime()
    {
        const auto anchor = collectiveAnchor(*m_data, { 1, instance(1, 3) });
        QVERIFY(anchor);
        QCOMPARE(anchor->ordinal, 3);
        QCOMPARE(anchor->ranksFound, 1);
        QCOMPARE(anchor->offsets[0], TimeNs(0));
        QCOMPARE(anchor->offsets[1], TimeNs(0));
    }

    void onlyGpuWorkAnchors()
    {
        const core::RankTrace& t = m_data->trace(0);
        std::uint32_t cpuOp = core::kNoRow;
        for (std::uint32_t i = 0; i < t.slices.size(); ++i)
            if (t.sliceName(i) == "aten::add")
                cpuOp = i;
        QVERIFY(cpuOp != core::kNoRow);
        QVERIFY(!canAlignOn(*m_data, { 0, cpuOp }));
        QVERIFY(!collectiveAnchor(*m_data, { 0, cpuOp }));
        QVERIFY(!canAlignOn(*m_data, {}));

        TimelineViewState state;
        TimelineView view(&state);
        view.setData(m_data);
        QVERIFY(!view.alignOn({ 0, cpuOp }));
        QCOMPARE(state.alignment(), Alignment::AsRecorded);
    }

    void alignedInstancesStartAtTheSameX()
    {
        TimelineViewState state;
        TimelineView view(&state);
        view.resize(TimelineGeometry::kLabelWidth + 1000, 400);
        view.setData(m_data);
        state.reset(m_data->displayBounds(state.alignment()));
        const SliceRef ref0 { 0, instance(0, 2) };
        const SliceRef ref1 { 1, instance(1, 2) };
        const auto xOf = [&](SliceRef ref) { return view.renderer().sliceX(view.geometryNow(), state, ref); };
        // As recorded the ranks are 1000 µs apart: both instances are not on screen together at this zoom.
        state.setVisibleRange({ 1400 * kUs, 1700 * kUs }, TimelineViewState::History::None);
        QVERIFY(xOf(ref0));
        QVERIFY(!xOf(ref1));

        QVERIFY(view.alignOn(ref0));
        QCOMPARE(state.alignment().mode, Alignment::Mode::Collective);
        QCOMPARE(state.selectedSlice(), ref0);
        const auto x0 = xOf(ref0);
        const auto x1 = xOf(ref1);
        QVERIFY(x0 && x1);
        QCOMPARE(x1->first, x0->first);
        // The reference rank did not move.
        QCOMPARE(x0->first, view.xOfTime(1500 * kUs) - view.geometryNow().trackLeft());
        // Instances with another ordinal do not line up.
        QVERIFY(xOf({ 1, instance(1, 1) })->first != xOf({ 0, instance(0, 1) })->first);
        // The bounds follow the shifted ranks.
        QCOMPARE(state.bounds(), m_data->displayBounds(state.alignment()));
    }

    void toolbarKeepsTheChoice()
    {
        TimelineViewState* state = new TimelineViewState;
        TaskPools pools;
        TimelineWidget widget(state, &pools);
        state->setParent(&widget);
        widget.resize(1200, 600);
        widget.setData(m_data);
        auto* box = widget.findChild<QComboBox*>(QStringLiteral("timelineAlignment"));
        QVERIFY(box);
        QCOMPARE(box->count(), 3); // recorded, aligned starts, estimated clocks
        QVERIFY(widget.view()->alignOn({ 0, instance(0, 1) }));
        QCOMPARE(box->count(), 4);
        QVERIFY(box->currentText().startsWith(QStringLiteral("On ncclKernel_AllReduce")));
        QVERIFY(box->currentText().endsWith(QStringLiteral("#2")));
        const auto anchor = state->alignment().anchor;

        box->setCurrentIndex(0);
        emit box->activated(0);
        QCOMPARE(state->alignment(), Alignment::AsRecorded);
        QCOMPARE(box->count(), 4); // the collective stays offered
        box->setCurrentIndex(3);
        emit box->activated(3);
        QCOMPARE(state->alignment().mode, Alignment::Mode::Collective);
        QCOMPARE(state->alignment().anchor, anchor);

        // A new trace set drops the anchor: it names slices of the old one.
        widget.setData(TimelineData::build(m_data->set));
        QCOMPARE(state->alignment(), Alignment::AsRecorded);
        QCOMPARE(box->count(), 3);
        box->setCurrentIndex(2);
        emit box->activated(2);
        QCOMPARE(state->alignment(), Alignment::EstimatedClocks);
    }

    // X2: a collective's details list its instance on every rank and who was waited for.
    void detailsShowTheSameCollectiveOnEveryRank()
    {
        const std::uint32_t chosen = instance(0, 1); // 1300 µs on rank 0, 2380 µs on rank 1
        const SliceDetails d = describeSlice(*m_data, { 0, chosen }, Alignment {});
        QCOMPARE(d.collective.size(), qsizetype(2));
        QVERIFY(d.collective[0].ref == (SliceRef { 0, chosen }));
        QVERIFY(d.collective[1].ref == (SliceRef { 1, instance(1, 1) }));
        QVERIFY2(d.collective[1].role.startsWith(m_data->rank(1).label), qPrintable(d.collective[1].role));
        const TimeNs skew =
            m_data->trace(1).slices.start[instance(1, 1)] - m_data->trace(0).slices.start[chosen];
        QCOMPARE(skew, 1080 * kUs);
        QVERIFY2(d.collectiveSummary.contains(formatDuration(skew)), qPrintable(d.collectiveSummary));
        QVERIFY2(d.collectiveSummary.contains(m_data->rank(1).label), qPrintable(d.collectiveSummary));
        // A compute kernel, and an instance only one rank has, show no collective.
        const core::RankTrace& t0 = m_data->trace(0);
        for (std::uint32_t i = 0; i < t0.slices.size(); ++i)
            if (t0.sliceName(i) == "gemm")
                QVERIFY(describeSlice(*m_data, { 0, i }, Alignment {}).collective.isEmpty());
        QVERIFY(describeSlice(*m_data, { 1, instance(1, 3) }, Alignment {}).collective.isEmpty());
    }

    // Rank 1's clock is about 1000 µs ahead. The ends of the three
    // shared all-reduces differ by 1050, 1080 and 1020 µs: median 1050, spread 30.
    void estimatedClocksLineUpTheEnds()
    {
        const core::ClockOffsets& offsets = *m_data->clockOffsets;
        QCOMPARE(offsets.ranks[1].offset, -1050 * kUs);
        QCOMPARE(offsets.ranks[1].spread, 30 * kUs);
        QCOMPARE(m_data->offset(1, Alignment::EstimatedClocks), 1050 * kUs);
        QCOMPARE(m_data->offset(0, Alignment::EstimatedClocks), TimeNs(0));
        const TimeNs end1 =
            m_data->trace(1).slices.end(instance(1, 0)) - m_data->offset(1, Alignment::EstimatedClocks);
        QCOMPARE(end1, m_data->trace(0).slices.end(instance(0, 0)));
    }

    // Selecting one instance marks it on every member rank,
    // split into each rank's wait and transfer.
    void selectedCollectiveSplitsIntoWaitAndTransfer()
    {
        const SliceRef ref0 { 0, instance(0, 1) }; // rank 0 arrives at 1300 µs, leaves at 1340
        const SliceRef ref1 { 1, instance(1, 1) }; // rank 1 at 2380 - 1050 = 1330, leaves at 1370
        const auto spans = collectiveSpans(*m_data, ref1, Alignment::EstimatedClocks);
        QCOMPARE(spans.size(), std::size_t(2));
        QVERIFY(spans[0].ref == ref0 && spans[1].ref == ref1);
        QVERIFY(!spans[0].last && spans[1].last);
        QCOMPARE(spans[0].wait.start, 1300 * kUs);
        QCOMPARE(spans[0].wait.end, 1330 * kUs);
        QCOMPARE(spans[0].transfer.end, 1340 * kUs);
        QVERIFY(spans[1].wait.isEmpty());
        QCOMPARE(spans[1].transfer.start, 1330 * kUs);
        QCOMPARE(spans[1].transfer.end, 1370 * kUs);
        // As recorded the last arrival (2380) is after rank 0 left: its whole slice is wait.
        const auto recorded = collectiveSpans(*m_data, ref0, Alignment::AsRecorded);
        QCOMPARE(recorded[0].wait.end, 1340 * kUs);
        QVERIFY(recorded[0].transfer.isEmpty());
        // Only instances on two ranks have spans.
        QVERIFY(collectiveSpans(*m_data, { 1, instance(1, 3) }, Alignment::AsRecorded).empty());

        // On screen: both members change colour when one is selected.
        TimelineViewState state;
        TimelineView view(&state);
        view.resize(TimelineGeometry::kLabelWidth + 900, 400);
        view.setData(m_data);
        state.setAlignment(Alignment::EstimatedClocks);
        state.setVisibleRange({ 1290 * kUs, 1380 * kUs }, TimelineViewState::History::None);
        const auto pixelOf = [&](const QImage& image, SliceRef ref, TimeNs at) {
            const core::RankTrace& t = m_data->trace(ref.rank);
            const int rowIndex =
                view.layout().findRow({ ref.rank, RowKind::Slices, t.trackOf(ref.slice).value });
            const TimelineRow& row = view.layout().rows()[static_cast<std::size_t>(rowIndex)];
            const int y = view.geometryNow().rowTop(view.layout(), row)
                + TrackLayout::laneTop(t.levelOf(ref.slice)) + TrackLayout::kLaneHeight / 2;
            return image.pixelColor(static_cast<int>(view.xOfTime(at)), y).rgb();
        };
        const QImage before = view.grab().toImage();
        state.setSelectedSlice(ref1);
        const QImage after = view.grab().toImage();
        QVERIFY(pixelOf(before, ref0, 1315 * kUs) != pixelOf(after, ref0, 1315 * kUs)); // rank 0's wait
        QVERIFY(pixelOf(before, ref0, 1336 * kUs) != pixelOf(after, ref0, 1336 * kUs)); // rank 0's transfer
        QVERIFY(pixelOf(before, ref1, 1350 * kUs) != pixelOf(after, ref1, 1350 * kUs)); // rank 1's transfer
        QVERIFY(pixelOf(after, ref0, 1315 * kUs) != pixelOf(after, ref1, 1350 * kUs)); // wait is not transfer
    }

    // Two groups run the same kernel: a collective of group "tp1" ({2, 3})
    // aligns its members only, paired by Seq (name and order would pair rank
    // 2's first all-reduce with rank 0's first, across groups).
    void subGroupCollectiveAlignsItsMembersOnly()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(test::writeFile(
            dir.filePath(QStringLiteral("rank0.json")), groupRankTrace(0, "tp0", "[0, 1]", 100, 300)));
        QVERIFY(test::writeFile(
            dir.filePath(QStringLiteral("rank1.json")), groupRankTrace(1, "tp0", "[0, 1]", 150, 340)));
        QVERIFY(test::writeFile(
            dir.filePath(QStringLiteral("rank2.json")), groupRankTrace(2, "tp1", "[2, 3]", 5000, 5400)));
        QVERIFY(test::writeFile(
            dir.filePath(QStringLiteral("rank3.json")), groupRankTrace(3, "tp1", "[2, 3]", 7020, 7480)));
        auto set = test::loadSet(dir.path());
        QVERIFY(set && set->ranks.size() == 4);
        auto data = TimelineData::build(set);
        QVERIFY(data->collectives);
        const auto sliceAt = [&](int rank, TimeNs us) {
            const core::RankTrace& t = data->trace(rank);
            for (std::uint32_t i = 0; i < t.slices.size(); ++i)
                if (t.slices.start[i] == us * kUs)
                    return i;
            return core::kNoRow;
        };
        // Rank 2's second all-reduce (Seq 1): rank 3's Seq 1 moves onto it, ranks 0 and 1 stay.
        const auto anchor = collectiveAnchor(*data, { 2, sliceAt(2, 5400) });
        QVERIFY(anchor);
        QCOMPARE(anchor->ordinal, 1);
        QCOMPARE(anchor->ranksFound, 2);
        QVERIFY2(anchor->group.contains(QStringLiteral("tp1")), qPrintable(anchor->group));
        QCOMPARE(anchor->offsets[0], TimeNs(0));
        QCOMPARE(anchor->offsets[1], TimeNs(0));
        QCOMPARE(anchor->offsets[2], TimeNs(0));
        QCOMPARE(anchor->offsets[3], (7480 - 5400) * kUs);
        // Rank 1's first (Seq 0, group tp0): rank 0 moves onto it, ranks 2 and 3 stay.
        const auto other = collectiveAnchor(*data, { 1, sliceAt(1, 150) });
        QVERIFY(other);
        QCOMPARE(other->ordinal, 0);
        QCOMPARE(other->ranksFound, 2);
        QCOMPARE(other->offsets[0], (100 - 150) * kUs);
        QCOMPARE(other->offsets[2], TimeNs(0));
        QCOMPARE(other->offsets[3], TimeNs(0));
        // On screen: the two members' instances start at the same display time.
        const Alignment a = Alignment::onCollective(anchor);
        QCOMPARE(data->trace(3).slices.start[sliceAt(3, 7480)] - data->offset(3, a),
            data->trace(2).slices.start[sliceAt(2, 5400)] - data->offset(2, a));
    }

    void sharedTwoRankTraceLinesUpItsCollectives()
    {
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/two_ranks_sampled");
        if (!QDir(folder).exists())
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/two_ranks_sampled");
        auto set = test::loadSet(folder);
        QVERIFY(set && set->ranks.size() == 2);
        auto data = TimelineData::build(set);
        const core::RankTrace& t0 = data->trace(0);
        // The third NCCL kernel of rank 0, whatever its exact name.
        std::uint32_t chosen = core::kNoRow;
        std::vector<std::uint32_t> own;
        for (std::uint32_t i = 0; i < t0.slices.size() && chosen == core::kNoRow; ++i) {
            if (t0.sliceName(i).substr(0, 10) != "ncclKernel" || !canAlignOn(*data, { 0, i }))
                continue;
            own = gpuInstancesOfName(t0, t0.sliceName(i));
            if (own.size() >= 3)
                chosen = own[2];
        }
        QVERIFY(chosen != core::kNoRow);
        const auto other = gpuInstancesOfName(data->trace(1), t0.sliceName(chosen));
        QVERIFY(other.size() >= 3);

        TimelineViewState state;
        TimelineView view(&state);
        view.resize(1400, 600);
        view.setData(data);
        state.reset(data->displayBounds(state.alignment()));
        QVERIFY(view.alignOn({ 0, chosen }));
        const TimeNs start0 = t0.slices.start[chosen] - data->offset(0, state.alignment());
        const TimeNs start1 = data->trace(1).slices.start[other[2]] - data->offset(1, state.alignment());
        QCOMPARE(start1, start0);
        state.setVisibleRange({ start0 - 1000 * kUs, start0 + 1000 * kUs }, TimelineViewState::History::None);
        const auto x0 = view.renderer().sliceX(view.geometryNow(), state, { 0, chosen });
        const auto x1 = view.renderer().sliceX(view.geometryNow(), state, { 1, other[2] });
        QVERIFY(x0 && x1);
        QCOMPARE(x1->first, x0->first);
    }
};

KS_TEST_MAIN(tst_timeline_collective, TimelineCollectiveTest)
#include "tst_timeline_collective.moc"
