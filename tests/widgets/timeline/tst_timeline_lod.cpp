// Level of detail (T3): sub-pixel slices are merged into blocks, and no slice
// is lost from the picture: every slice in view lies inside exactly one drawn
// rectangle of its lane, at every zoom. Also the summary pyramid against brute
// force, and counter columns.
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/timeline/model/counter_track.h"
#include "widgets/timeline/model/draw_list.h"
#include "widgets/timeline/model/time_axis.h"
#include "widgets/timeline/model/timeline_data.h"

#include <QTemporaryDir>
#include <QTest>

#include <random>

using namespace ks;
using namespace ks::widgets;

namespace {

constexpr std::int64_t kStartUs = 1'712'345'678'000'000LL; // epoch-scale µs

// One rank: a GPU stream of `kernels` kernels (0.001 to 40 µs, gaps 0 to 20 µs,
// some long ones) and a CPU thread with three nesting levels.
QByteArray lodTrace(int kernels)
{
    std::mt19937_64 rng(42);
    QByteArray json = QByteArrayLiteral(R"({"schemaVersion": 1, "traceEvents": [)");
    double t = 0;
    auto us = [](double v) -> QByteArray {
        return QByteArray::number(kStartUs + static_cast<std::int64_t>(v)) + '.'
            + QByteArray::number(static_cast<int>((v - std::floor(v)) * 1000)).rightJustified(3, '0');
    };
    for (int i = 0; i < kernels; ++i) {
        double dur = (i % 97 == 0) ? 300.0 + static_cast<double>(rng() % 3000)
                                   : static_cast<double>(rng() % 40000) / 1000.0 + 0.001;
        json += QByteArrayLiteral(R"({"ph":"X","cat":"kernel","name":"k)")
            + QByteArray::number(static_cast<int>(rng() % 7))
            + QByteArrayLiteral(R"(","pid":0,"tid":7,"ts":)") + us(t) + QByteArrayLiteral(R"(,"dur":)")
            + QByteArray::number(dur, 'f', 3) + QByteArrayLiteral(R"(,"args":{"stream":7,"device":0}},)");
        t += dur + static_cast<double>(rng() % 20000) / 1000.0;
    }
    // CPU: level 0 ops of 1 ms, each with ten 50 µs children, each with five 2 µs grandchildren.
    for (int op = 0; op * 1000.0 < t; ++op) {
        const double s0 = op * 1000.0;
        json += QByteArrayLiteral(R"({"ph":"X","cat":"cpu_op","name":"outer","pid":1,"tid":1,"ts":)") + us(s0)
            + QByteArrayLiteral(R"(,"dur":900},)");
        for (int c = 0; c < 10; ++c) {
            const double s1 = s0 + c * 80.0;
            json += QByteArrayLiteral(R"({"ph":"X","cat":"cpu_op","name":"mid","pid":1,"tid":1,"ts":)")
                + us(s1) + QByteArrayLiteral(R"(,"dur":50},)");
            for (int g = 0; g < 5; ++g)
                json += QByteArrayLiteral(R"({"ph":"X","cat":"cpu_op","name":"leaf","pid":1,"tid":1,"ts":)")
                    + us(s1 + g * 9.0) + QByteArrayLiteral(R"(,"dur":2},)");
        }
    }
    json += QByteArrayLiteral(R"({"ph":"M","name":"thread_name","pid":1,"tid":1,"args":{"name":"main"}}]})");
    return json;
}

} // namespace

class TimelineLodTest : public QObject
{
    Q_OBJECT

private:
    std::shared_ptr<const TimelineData> m_data;

    // Every slice of the track in view is inside exactly one item of its lane.
    void checkCoverage(std::uint32_t track, TimeRange view, double width)
    {
        const RankTimeline& rt = m_data->rank(0);
        const core::RankTrace& t = *rt.trace;
        SliceDrawParams params;
        params.raw = view;
        params.width = width;
        const std::vector<SliceDrawItem> items = buildSliceDrawList(rt, track, params);
        const TimeAxis axis(view, width);
        const core::Track& tr = t.tracks[track];
        for (std::uint32_t level = 0; level < tr.levelCount(); ++level) {
            std::vector<const SliceDrawItem*> lane;
            std::uint64_t drawnCount = 0;
            for (const SliceDrawItem& item : items) {
                if (item.lane == level) {
                    QVERIFY(item.x1 > item.x0);
                    QVERIFY(lane.empty() || item.x0 >= lane.back()->x0); // x order
                    lane.push_back(&item);
                    drawnCount += item.count;
                }
            }
            std::uint64_t inView = 0;
            for (std::uint32_t i = t.firstEndingAtOrAfter(tr, level, view.start);
                 i < tr.levelBegin[level + 1] && t.slices.start[i] <= view.end; ++i) {
                ++inView;
                const double x0 = std::clamp(axis.x(t.slices.start[i]), -2.0, width + 2.0);
                const double x1 = std::clamp(axis.x(t.slices.end(i)), -2.0, width + 2.0);
                const bool covered = std::any_of(lane.begin(), lane.end(),
                    [&](const SliceDrawItem* it) { return it->x0 <= x0 + 1e-3 && it->x1 >= x1 - 1e-3; });
                QVERIFY2(covered,
                    qPrintable(QStringLiteral("slice %1 [%2, %3] px on lane %4 not drawn")
                                   .arg(i)
                                   .arg(x0)
                                   .arg(x1)
                                   .arg(level)));
            }
            QCOMPARE(drawnCount, inView); // each slice counted once
            // O(pixels), not O(events): at most ~2 items per merge window.
            QVERIFY2(lane.size() <= static_cast<std::size_t>(2 * width / kMergePx + 4),
                qPrintable(QString::number(lane.size())));
        }
    }

private slots:

    void initTestCase()
    {
        auto set = test::loadDocument(lodTrace(40'000));
        QVERIFY(set && set->ranks.size() == 1);
        m_data = TimelineData::build(set);
        QCOMPARE(m_data->rank(0).trace->tracks.size(), std::size_t(2));
    }

    void everySliceIsDrawn_data()
    {
        QTest::addColumn<double>("fromFraction");
        QTest::addColumn<double>("spanFraction");
        QTest::addColumn<double>("width");
        QTest::newRow("whole trace") << 0.0 << 1.0 << 1500.0;
        QTest::newRow("whole trace, narrow") << 0.0 << 1.0 << 97.0;
        QTest::newRow("1 percent") << 0.42 << 0.01 << 1500.0;
        QTest::newRow("10 us window") << 0.6 << 1e-5 << 1500.0;
        QTest::newRow("past the end") << 0.9 << 0.5 << 800.0;
        QTest::newRow("before the start") << -0.2 << 0.3 << 800.0;
    }

    void everySliceIsDrawn()
    {
        QFETCH(double, fromFraction);
        QFETCH(double, spanFraction);
        QFETCH(double, width);
        const core::RankTrace& t = *m_data->rank(0).trace;
        const double span = static_cast<double>(t.endNs - t.startNs);
        const TimeNs s = t.startNs + static_cast<TimeNs>(fromFraction * span);
        const TimeRange view { s, s + std::max<TimeNs>(250, static_cast<TimeNs>(spanFraction * span)) };
        for (std::uint32_t track = 0; track < t.tracks.size(); ++track)
            checkCoverage(track, view, width);
    }

    void zoomedOutMergesIntoBlocks()
    {
        const RankTimeline& rt = m_data->rank(0);
        const core::RankTrace& t = *rt.trace;
        SliceDrawParams params;
        params.raw = { t.startNs, t.endNs };
        params.width = 1000;
        const auto items = buildSliceDrawList(rt, 0, params); // the GPU stream
        const auto merged = std::count_if(
            items.begin(), items.end(), [](const SliceDrawItem& i) { return i.flags & kDrawMerged; });
        QVERIFY(merged > 0);
        QVERIFY(items.size() < t.tracks[0].sliceCount() / 10);
        // A block's colour is its longest slice's, and that slice lies inside the block.
        const TimeAxis axis(params.raw, params.width);
        for (const SliceDrawItem& item : items) {
            QCOMPARE(item.colorKey, rt.colorKey(item.slice, ColorMode::KernelType));
            QVERIFY(axis.x(t.slices.start[item.slice]) >= item.x0 - 1e-3);
        }
        // Zoomed in on a 10 µs window nothing needs merging.
        const TimeNs mid = t.startNs + (t.endNs - t.startNs) / 2;
        params.raw = { mid, mid + 10'000 };
        for (const SliceDrawItem& item : buildSliceDrawList(rt, 0, params))
            QVERIFY(!(item.flags & kDrawMerged) || item.x1 - item.x0 < 2 * kMergePx + 1);
    }

    void summaryMatchesBruteForce()
    {
        const RankTimeline& rt = m_data->rank(0);
        const core::RankTrace& t = *rt.trace;
        const core::Track& tr = t.tracks[0];
        const std::uint32_t begin = tr.levelBegin[0];
        const std::uint32_t end = tr.levelBegin[1];
        std::mt19937 rng(7);
        for (int q = 0; q < 300; ++q) {
            std::uint32_t a = begin + rng() % (end - begin);
            std::uint32_t b = begin + rng() % (end - begin);
            if (a > b)
                std::swap(a, b);
            ++b;
            SliceSummaryNode node;
            rt.summarize(0, 0, a, b, node);
            TimeNs busy = 0;
            TimeNs longest = -1;
            for (std::uint32_t i = a; i < b; ++i) {
                busy += t.slices.duration(i);
                longest = std::max(longest, t.slices.duration(i));
            }
            QCOMPARE(node.busy, busy);
            QCOMPARE(t.slices.duration(node.longest), longest);
            QVERIFY(node.longest >= a && node.longest < b);
        }
    }

    void counterColumnsCoverEveryPoint()
    {
        CounterTrack c;
        std::mt19937 rng(3);
        TimeNs ts = 1'000'000'000'000'000LL;
        for (int i = 0; i < 20'000; ++i) {
            ts += 1 + rng() % 5000;
            c.ts.push_back(ts);
            c.value.push_back(static_cast<double>(rng() % 1000));
        }
        c.finish();
        QCOMPARE(c.maxValue, *std::max_element(c.value.begin(), c.value.end()));
        const TimeRange view { c.ts[100], c.ts[15'000] };
        const double width = 700;
        const auto items = buildCounterDrawList(c, view, width);
        QVERIFY(items.size() <= 4 * static_cast<std::size_t>(width));
        const TimeAxis axis(view, width);
        for (std::size_t i = 100; i <= 15'000; ++i) {
            const double x = axis.x(c.ts[i]);
            const bool shown = std::any_of(items.begin(), items.end(), [&](const CounterDrawItem& it) {
                return it.x0 <= x + 1e-6 && x <= it.x1 + 1e-6 && it.lo <= c.value[i] && c.value[i] <= it.hi;
            });
            QVERIFY2(shown, qPrintable(QString::number(i)));
        }
    }
};

KS_TEST_MAIN(tst_timeline_lod, TimelineLodTest)
#include "tst_timeline_lod.moc"
