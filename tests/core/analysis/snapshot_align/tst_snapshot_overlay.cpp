// Two snapshots on one axis (core/analysis/memory_snapshot/snapshot_overlay.h):
// both Active Memory Timelines as µs since each one's first event, or since
// the first annotation both have, memory_viz's step without time_us, and the
// down-sampling that keeps the peaks. Kept beside the alignment's test (a
// small executable) although the overlay reads snapshots only.

#include "core/analysis/memory_snapshot/snapshot_overlay.h"
#include "core/analysis/memory_snapshot/snapshot_reader.h"
#include "core/io/pickle/pickle_reader.h"
#include "tests/support/pickle_writer.h"
#include "tests/support/test_main.h"

#include <QTest>

using namespace ks::core;
using ks::test::Py;

class TestSnapshotOverlay : public QObject
{
    Q_OBJECT

private slots:
    void firstEventOrigin();
    void autoAxisNeedsACommonAnnotation();
    void annotationOrigin();
    void withoutTime();
    void downsampling();
    void sharedSilmontAgainstItself();
};

#ifndef Q_MOC_RUN

namespace {

MemorySnapshot fromPy(const Py& value)
{
    const std::string bytes = ks::test::pickleOf(value);
    auto doc =
        readPickle(std::span(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size()), "t.pickle");
    if (!doc)
        qFatal("%s", doc.error().describe().c_str());
    auto s = snapshotFromPickle(doc.value(), "t.pickle");
    if (!s)
        qFatal("%s", s.error().describe().c_str());
    return std::move(s).value();
}

Py entry(const char* action, std::int64_t addr, std::int64_t size, std::int64_t t)
{
    std::vector<std::pair<std::string, Py>> fields { { "action", Py::str(action) },
        { "addr", Py::integer(addr) }, { "size", Py::integer(size) }, { "stream", Py::integer(0) },
        { "frames", Py::list({}) } };
    if (t >= 0)
        fields.emplace_back("time_us", Py::integer(t));
    return Py::dict(std::move(fields));
}

Py annotation(const char* stage, const char* name, std::int64_t t)
{
    return Py::dict({ { "stage", Py::str(stage) }, { "name", Py::str(name) }, { "device", Py::integer(0) },
        { "time_us", Py::integer(t) } });
}

// alloc 100 at t0, alloc 200 at t0+10, free the first at t0+30.
Py snapshotAt(std::int64_t t0, std::vector<Py> notes = {}, bool times = true)
{
    auto t = [&](std::int64_t d) { return times ? t0 + d : -1; };
    std::vector<Py> trace { entry("alloc", 0x1000, 100, t(0)), entry("alloc", 0x2000, 200, t(10)),
        entry("free_requested", 0x1000, 100, t(30)), entry("free_completed", 0x1000, 100, t(30)) };
    return Py::dict(
        { { "segments", Py::list({}) }, { "device_traces", Py::list({ Py::list(std::move(trace)) }) },
            { "external_annotations", Py::list(std::move(notes)) } });
}

std::vector<SnapshotOverlay> overlay(const MemorySnapshot& a, const MemorySnapshot& b,
    OverlayAxis axis = OverlayAxis::Auto, std::size_t n = 1000)
{
    return overlaySnapshots(a, summarizeSnapshot(a), b, summarizeSnapshot(b), n, axis);
}

using Points = std::vector<std::pair<std::int64_t, std::uint64_t>>;

Points pointsOf(const std::vector<OverlayPoint>& points)
{
    Points out;
    for (const OverlayPoint& p : points)
        out.emplace_back(p.x, p.bytes);
    return out;
}

} // namespace

void TestSnapshotOverlay::firstEventOrigin()
{
    const MemorySnapshot a = fromPy(snapshotAt(1'000'000));
    const MemorySnapshot b = fromPy(snapshotAt(9'000'000));
    const auto o = overlay(a, b, OverlayAxis::Time);
    QCOMPARE(o.size(), std::size_t(1));
    QVERIFY(o[0].byTime);
    QVERIFY(o[0].alignedBy.empty());
    QCOMPARE(o[0].beforeOriginUs, std::int64_t(1'000'000));
    QCOMPARE(o[0].afterOriginUs, std::int64_t(9'000'000));
    // The initial total, then the total after each event, x in µs since the first event.
    const Points want { { 0, 0 }, { 0, 100 }, { 10, 300 }, { 30, 200 } };
    QCOMPARE(pointsOf(o[0].before), want);
    QCOMPARE(pointsOf(o[0].after), want);
}

void TestSnapshotOverlay::autoAxisNeedsACommonAnnotation()
{
    // No annotation in common: Auto counts memory_viz's steps, as Steps does; with one, time.
    const MemorySnapshot a = fromPy(snapshotAt(1'000'000, { annotation("START", "only_a", 1'000'001) }));
    const MemorySnapshot b = fromPy(snapshotAt(9'000'000));
    for (const OverlayAxis axis : { OverlayAxis::Auto, OverlayAxis::Steps }) {
        const auto o = overlay(a, b, axis);
        QVERIFY(!o[0].byTime);
        QVERIFY(o[0].alignedBy.empty());
        QCOMPARE(o[0].beforeOriginUs, kNoTime);
        QCOMPARE(pointsOf(o[0].before), pointsOf(o[0].after)); // the same events, the same steps
        QCOMPARE(o[0].before.front().x, std::int64_t(0));
        QCOMPARE(o[0].before.back().bytes, std::uint64_t(200));
    }
    const MemorySnapshot c = fromPy(snapshotAt(5000, { annotation("START", "only_a", 5010) }));
    const auto timed = overlay(a, c);
    QVERIFY(timed[0].byTime);
    QCOMPARE(timed[0].alignedBy, std::string("only_a"));
    // Steps is asked for: steps even with the annotation in common.
    QVERIFY(!overlay(a, c, OverlayAxis::Steps)[0].byTime);
}

void TestSnapshotOverlay::annotationOrigin()
{
    // Both have "step" (at +5 and +20): x counts from it; "only_a" is not common.
    const MemorySnapshot a = fromPy(snapshotAt(1000,
        { annotation("START", "only_a", 1001), annotation("START", "step", 1005),
            annotation("END", "step", 1040) }));
    const MemorySnapshot b = fromPy(snapshotAt(5000, { annotation("START", "step", 5020) }));
    const auto o = overlay(a, b);
    QCOMPARE(o[0].alignedBy, std::string("step"));
    QCOMPARE(o[0].beforeOriginUs, std::int64_t(1005));
    QCOMPARE(o[0].afterOriginUs, std::int64_t(5020));
    QCOMPARE(pointsOf(o[0].before), (Points { { -5, 0 }, { -5, 100 }, { 5, 300 }, { 25, 200 } }));
    QCOMPARE(pointsOf(o[0].after), (Points { { -20, 0 }, { -20, 100 }, { -10, 300 }, { 10, 200 } }));
}

void TestSnapshotOverlay::withoutTime()
{
    const MemorySnapshot a = fromPy(snapshotAt(0, {}, false));
    const MemorySnapshot b = fromPy(snapshotAt(1000));
    const auto o = overlay(a, b);
    QVERIFY(!o[0].byTime);
    QCOMPARE(o[0].beforeOriginUs, kNoTime);
    QCOMPARE(o[0].before.size(), o[0].after.size()); // the same steps for the same events
    QCOMPARE(o[0].before.back().bytes, std::uint64_t(200));
    QVERIFY(o[0].before.back().x > 0);
}

void TestSnapshotOverlay::downsampling()
{
    std::vector<OverlayPoint> points;
    for (std::int64_t i = 0; i < 1000; ++i)
        points.push_back(OverlayPoint { i, static_cast<std::uint64_t>(i % 7) });
    points[613].bytes = 99; // the peak
    const auto kept = downsampleKeepingPeaks(points, 50);
    QVERIFY(kept.size() <= 50);
    QCOMPARE(kept.front().x, std::int64_t(0));
    QCOMPARE(kept.back().x, std::int64_t(999));
    bool peak = false;
    for (std::size_t i = 0; i < kept.size(); ++i) {
        peak = peak || (kept[i].x == 613 && kept[i].bytes == 99);
        if (i)
            QVERIFY(kept[i].x > kept[i - 1].x);
    }
    QVERIFY(peak);
    QCOMPARE(downsampleKeepingPeaks(points, 5000).size(), points.size());
}

void TestSnapshotOverlay::sharedSilmontAgainstItself()
{
    auto read = readMemorySnapshot(
        KS_SHARED_DIR "/snapshots/silmont_fwd_fp32_annotations/memory_forward_fp32_128.pickle");
    if (!read)
        QFAIL(read.error().describe().c_str());
    const MemorySnapshot s = std::move(read).value();
    const SnapshotSummary summary = summarizeSnapshot(s);
    const auto o = overlaySnapshots(s, summary, s, summary, 200);
    QCOMPARE(o.size(), std::size_t(1));
    QCOMPARE(o[0].alignedBy, std::string("Optimizer.zero_grad#AdamW.zero_grad"));
    QCOMPARE(o[0].beforeOriginUs, s.annotations[0].timeUs);
    QVERIFY(o[0].before.size() <= 200);
    QCOMPARE(pointsOf(o[0].before), pointsOf(o[0].after));
    std::uint64_t top = 0;
    for (const OverlayPoint& p : o[0].before)
        top = std::max(top, p.bytes);
    QCOMPARE(top, summary.devices.front().timeline.peakAllocated); // the peak survives the down-sampling
}

#endif // Q_MOC_RUN

KS_TEST_MAIN(tst_snapshot_overlay, TestSnapshotOverlay)
#include "tst_snapshot_overlay.moc"
