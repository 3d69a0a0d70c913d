// Flows (T4): launch -> kernel links by ac2g flow and by correlation, jumps
// both ways, the arrow's endpoints on screen, and the details panel's data
// (T5): partners, call stack, args.
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "tests/support/test_main.h"
#include "widgets/timeline/model/slice_queries.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/model/track_layout.h"
#include "widgets/timeline/panels/slice_details_panel.h"
#include "widgets/timeline/render/timeline_renderer.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ks;
using namespace ks::widgets;

namespace {

// launch A (flow) -> kernel_a; launch B (correlation only) -> kernel_b.
const QByteArray kTrace = QByteArrayLiteral(R"({"schemaVersion": 1, "traceEvents": [
  {"ph":"X","cat":"cpu_op","name":"aten::linear","pid":10,"tid":11,"ts":1000,"dur":40},
  {"ph":"X","cat":"cpu_op","name":"aten::addmm","pid":10,"tid":11,"ts":1002,"dur":30},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":10,"tid":11,"ts":1005,"dur":4,"args":{"correlation":7,"External id":3}},
  {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":10,"tid":11,"ts":1020,"dur":4,"args":{"correlation":8}},
  {"ph":"X","cat":"kernel","name":"kernel_a","pid":0,"tid":7,"ts":1012,"dur":3,"args":{"stream":7,"correlation":7,"device":0,"grid":[1,2,3]}},
  {"ph":"X","cat":"kernel","name":"kernel_b","pid":0,"tid":7,"ts":1030,"dur":5,"args":{"stream":7,"correlation":8,"device":0}},
  {"ph":"s","cat":"ac2g","name":"ac2g","id":7,"pid":10,"tid":11,"ts":1005},
  {"ph":"f","cat":"ac2g","name":"ac2g","id":7,"pid":0,"tid":7,"ts":1012,"bp":"e"},
  {"ph":"M","name":"thread_name","pid":10,"tid":11,"args":{"name":"python"}}
]})");

} // namespace

class TimelineFlowsTest : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir; // the trace stays while the test runs: the Details panel re-reads args from it
    std::shared_ptr<const TimelineData> m_data;

    SliceRef find(const char* name, int nth = 0) const
    {
        const core::RankTrace& t = m_data->trace(0);
        for (std::uint32_t i = 0; i < t.slices.size(); ++i)
            if (t.sliceName(i) == name && nth-- == 0)
                return { 0, i };
        return {};
    }

    // Launches in start order (slice indices follow levels, not time).
    std::pair<SliceRef, SliceRef> launches() const
    {
        SliceRef a = find("cudaLaunchKernel", 0);
        SliceRef b = find("cudaLaunchKernel", 1);
        if (m_data->trace(0).slices.start[a.slice] > m_data->trace(0).slices.start[b.slice])
            std::swap(a, b);
        return { a, b };
    }

private slots:

    void initTestCase()
    {
        const QString path = m_dir.filePath(QStringLiteral("rank-0.json"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write(kTrace) == kTrace.size());
        f.close();
        auto r = core::loadTraceSet({ path.toStdString() }, {}, nullptr, nullptr);
        QVERIFY(r);
        m_data = TimelineData::build(std::make_shared<const core::TraceSet>(std::move(r).value()));
    }

    void jumpsBothWays()
    {
        const auto [launchA, launchB] = launches();
        const SliceRef kernelA = find("kernel_a");
        const SliceRef kernelB = find("kernel_b");
        QCOMPARE(linkedSlice(*m_data, launchA, true), kernelA);
        QCOMPARE(linkedSlice(*m_data, kernelA, false), launchA);
        QCOMPARE(linkedSlice(*m_data, launchB, true), kernelB); // by correlation alone
        QCOMPARE(linkedSlice(*m_data, kernelB, false), launchB);
        QVERIFY(!linkedSlice(*m_data, kernelA, true).valid());
        QVERIFY(!linkedSlice(*m_data, find("aten::linear"), true).valid());
        const auto links = flowLinksOf(*m_data, kernelA);
        QCOMPARE(links.size(), std::size_t(1));
        QCOMPARE(links.front().kind, core::LinkKind::LaunchFlow);
        QCOMPARE(flowLinksOf(*m_data, kernelB).front().kind, core::LinkKind::LaunchCorrelation);
    }

    void launchesOfKernelsInView()
    {
        const core::RankTrace& t = m_data->trace(0);
        auto links = launchLinksInRange(*m_data, 0, { t.startNs, t.endNs }, 100);
        QCOMPARE(links.size(), std::size_t(2));
        links = launchLinksInRange(*m_data, 0, { t.startNs, t.startNs + 20'000 }, 100); // kernel_a only
        QCOMPARE(links.size(), std::size_t(1));
        QCOMPARE(links.front().to, find("kernel_a"));
        QCOMPARE(launchLinksInRange(*m_data, 0, { t.startNs, t.endNs }, 1).size(), std::size_t(1));
    }

    void arrowEndpoints()
    {
        TimelineViewState state;
        state.reset(m_data->displayBounds(Alignment::AsRecorded)); // 1000 .. 1040 µs
        TrackLayout layout;
        layout.build(*m_data, state);
        TimelineRenderer renderer;
        renderer.setData(m_data);
        TimelineGeometry g;
        g.width = TimelineGeometry::kLabelWidth + 1000;
        g.height = 600;
        const auto [launchA, launchB] = launches();
        const SliceRef kernelA = find("kernel_a");
        const auto line =
            renderer.flowLine(g, state, layout, { launchA, kernelA, core::LinkKind::LaunchFlow });
        QVERIFY(line);
        const TimeAxis axis(state.visibleRange(), g.trackWidth());
        const core::RankTrace& t = m_data->trace(0);
        // From the launch's end, at its lane's middle ...
        QCOMPARE(line->x1(), g.trackLeft() + axis.x(t.slices.end(launchA.slice)));
        const TimelineRow& cpu = layout.rows()[static_cast<std::size_t>(
            layout.findRow({ 0, RowKind::Slices, t.trackOf(launchA.slice).value }))];
        QCOMPARE(
            line->y1(), g.rowTop(layout, cpu) + TrackLayout::laneTop(2) + TrackLayout::kLaneHeight / 2.0);
        // ... to the kernel's start on the GPU row.
        QCOMPARE(line->x2(), g.trackLeft() + axis.x(t.slices.start[kernelA.slice]));
        const TimelineRow& gpu = layout.rows()[static_cast<std::size_t>(
            layout.findRow({ 0, RowKind::Slices, t.trackOf(kernelA.slice).value }))];
        QCOMPARE(
            line->y2(), g.rowTop(layout, gpu) + TrackLayout::laneTop(0) + TrackLayout::kLaneHeight / 2.0);
        QVERIFY(gpu.y < cpu.y); // GPU streams above CPU threads
        // A collapsed rank: the arrow ends at the rank header.
        state.setCollapsed(0, true);
        layout.build(*m_data, state);
        const auto collapsed =
            renderer.flowLine(g, state, layout, { launchA, kernelA, core::LinkKind::LaunchFlow });
        QVERIFY(collapsed);
        QCOMPARE(collapsed->y2(), g.rowTop(layout, layout.rows().front()) + TrackLayout::kHeaderHeight / 2.0);
    }

    void detailsOfAKernelAndALaunch()
    {
        const SliceDetails kernel = describeSlice(*m_data, find("kernel_a"), Alignment::AsRecorded);
        QCOMPARE(kernel.name, QStringLiteral("kernel_a"));
        QCOMPARE(kernel.category, QStringLiteral("kernel"));
        QCOMPARE(kernel.kind, QStringLiteral("Compute"));
        QCOMPARE(kernel.track, QStringLiteral("stream 7"));
        QCOMPARE(kernel.start, 12'000);
        QCOMPARE(kernel.duration, 3'000);
        QCOMPARE(kernel.links.size(), 1);
        QCOMPARE(kernel.links.front().role, QStringLiteral("Launched by"));
        QCOMPARE(kernel.links.front().name, QStringLiteral("cudaLaunchKernel"));
        QVERIFY(kernel.parents.isEmpty());
        QStringList args;
        for (const auto& [k, v] : kernel.args)
            args.append(k + QChar(u'=') + v);
        QVERIFY2(args.contains(QStringLiteral("correlation=7")), qPrintable(args.join(QChar(u' '))));
        QVERIFY2(args.contains(QStringLiteral("grid=[1,2,3]")), qPrintable(args.join(QChar(u' '))));

        const SliceDetails launch = describeSlice(*m_data, launches().first, Alignment::AsRecorded);
        QCOMPARE(launch.links.front().role, QStringLiteral("GPU work"));
        QCOMPARE(launch.parents.size(), 2);
        QCOMPARE(launch.parents[0].name, QStringLiteral("aten::linear"));
        QCOMPARE(launch.parents[1].name, QStringLiteral("aten::addmm"));
        QVERIFY(launch.track.contains(QStringLiteral("python")));
        QCOMPARE(launch.level, 2u);
    }

    // Rewrites the trace (later slots read no args). Args are re-read from the file, so a file
    // changed since loading must show that instead of another event's args.
    void detailsSayTheFileChanged()
    {
        TimelineViewState state;
        SliceDetailsPanel panel(&state);
        panel.setData(m_data);
        state.setSelectedSlice(find("kernel_a"));
        QVERIFY2(panel.plainText().contains(QStringLiteral("grid")), qPrintable(panel.plainText()));

        QFile f(m_dir.filePath(QStringLiteral("rank-0.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        QByteArray edited = kTrace;
        edited.replace("\"grid\":[1,2,3]", "\"grid\":[4,5,6,7]");
        QVERIFY(f.write(edited) == edited.size());
        f.close();

        const SliceDetails kernel = describeSlice(*m_data, find("kernel_a"), Alignment::AsRecorded);
        QVERIFY(kernel.args.isEmpty());
        QVERIFY2(kernel.argsError.contains(QStringLiteral("the file changed since it was opened")),
            qPrintable(kernel.argsError));
        state.setSelectedSlice(find("kernel_b"));
        state.setSelectedSlice(find("kernel_a"));
        const QString text = panel.plainText();
        QVERIFY2(text.contains(QStringLiteral("the file changed since it was opened")), qPrintable(text));
        QVERIFY(!text.contains(QStringLiteral("[4,5,6,7]")));
        QVERIFY(text.contains(QStringLiteral("kernel_a"))); // the rest of the details stay
    }

    void exampleEventsMapToSlices()
    {
        const SliceRef ref = sliceOfEvent(*m_data, 0, 4); // traceEvents[4] is kernel_a
        QCOMPARE(ref, find("kernel_a"));
        QVERIFY(!sliceOfEvent(*m_data, 0, 6).valid()); // a flow event
        QVERIFY(!sliceOfEvent(*m_data, 3, 0).valid());
    }
};

KS_TEST_MAIN(tst_timeline_flows, TimelineFlowsTest)
#include "tst_timeline_flows.moc"
