// A memory snapshot aligned with the Kineto trace of the same run
// (core/analysis/snapshot_align/): a pickle and a trace the test builds with
// an offset it chose (two ProfilerSteps, a user annotation, allocations in
// each, numbers by hand), the header's baseTimeNanoseconds, several devices,
// what cannot be aligned, the rank of a loaded set chosen or named; and the shared silmont snapshot's
// annotations matched with a trace built to their times.

#include "core/analysis/memory_snapshot/snapshot_reader.h"
#include "core/analysis/snapshot_align/range_rows.h"
#include "core/analysis/snapshot_align/rank_alignment.h"
#include "core/analysis/snapshot_align/snapshot_alignment.h"
#include "core/io/pickle/pickle_reader.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/pickle_writer.h"
#include "tests/support/snapshot_pickles.h"
#include "tests/support/test_main.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace ks::core;
using ks::test::Py;

class TestSnapshotAlignment : public QObject
{
    Q_OBJECT

private slots:
    void handComputed();
    void baseTimeNanoseconds();
    void severalDevices();
    void cannotAlign();
    void sharedSilmont();
    void rangeRows();
    void chooseRank();
    void alignWithRankOfASet();
};

#ifndef Q_MOC_RUN

namespace {

// The snapshot's clock runs this far ahead of the trace's.
constexpr std::int64_t kOffsetUs = 5000;
constexpr std::int64_t kBase = ks::tests::kBaseUs; // trace times are kBase + t

MemorySnapshot fromPy(const Py& value)
{
    return ks::test::snapshotOfPy(value);
}

Py frame(const std::string& file, int line, const std::string& name)
{
    return ks::test::snapshotFrame(file, line, name);
}

// An entry at trace time t (the snapshot's clock: + kOffsetUs); time < 0: no time_us.
Py entry(
    const char* action, std::int64_t addr, std::int64_t size, std::int64_t t, std::vector<Py> frames = {})
{
    std::vector<std::pair<std::string, Py>> fields { { "action", Py::str(action) },
        { "addr", Py::integer(addr) }, { "size", Py::integer(size) }, { "stream", Py::integer(0) },
        { "frames", Py::list(std::move(frames)) } };
    if (t >= 0)
        fields.emplace_back("time_us", Py::integer(kBase + t + kOffsetUs));
    return Py::dict(std::move(fields));
}

Py annotation(const char* stage, const char* name, std::int64_t t, std::int64_t device = 0)
{
    return Py::dict({ { "stage", Py::str(stage) }, { "name", Py::str(name) },
        { "device", Py::integer(device) }, { "time_us", Py::integer(kBase + t + kOffsetUs) } });
}

std::vector<Py> annotations()
{
    // ProfilerStep#2's START is 1 us late: a spread of 1, the median stays 5000.
    return { annotation("START", "ProfilerStep#1", 100), annotation("START", "fwd", 120),
        annotation("END", "fwd", 180), annotation("END", "ProfilerStep#1", 300),
        annotation("START", "ProfilerStep#2", 301), annotation("END", "ProfilerStep#2", 500) };
}

// Device 0: A (100 B) before the steps; in step 1 B (1000 B, fwd) allocated and
// freed and C (300 B, bwd); in step 2 C freed and D (50 B) allocated.
std::vector<Py> device0(bool times = true)
{
    auto t = [&](std::int64_t v) { return times ? v : -1; };
    const Py fwd = frame("train.py", 10, "fwd");
    const Py bwd = frame("train.py", 20, "bwd");
    return { entry("alloc", 0x1000, 100, t(50)), entry("alloc", 0x2000, 1000, t(150), { fwd }),
        entry("free_requested", 0x2000, 1000, t(200)), entry("free_completed", 0x2000, 1000, t(200)),
        entry("alloc", 0x3000, 300, t(250), { bwd }), entry("free_requested", 0x3000, 300, t(400)),
        entry("free_completed", 0x3000, 300, t(400)), entry("alloc", 0x4000, 50, t(450)) };
}

Py snapshotOf(std::vector<Py> traces, std::vector<Py> notes)
{
    return Py::dict({ { "segments", Py::list({}) }, { "device_traces", Py::list(std::move(traces)) },
        { "external_annotations", Py::list(std::move(notes)) } });
}

// waitUs: ProfilerStep#1 that much longer and #2 after it (another rank of the job, which waited).
std::string traceEvents(const std::string& header, std::int64_t shiftUs, std::int64_t waitUs = 0)
{
    std::vector<std::string> events {
        ks::tests::completeEvent("cpu_op", "ProfilerStep#1", kBase + 100 - shiftUs, 200 + waitUs, 1, 1),
        ks::tests::completeEvent("user_annotation", "fwd", kBase + 120 - shiftUs, 60, 1, 1),
        ks::tests::completeEvent("cpu_op", "ProfilerStep#2", kBase + 300 + waitUs - shiftUs, 200, 1, 1),
        ks::tests::completeEvent("cpu_op", "aten::mm", kBase + 130 - shiftUs, 20, 1, 1),
    };
    std::string doc = "{" + header + R"("schemaVersion":1,"traceEvents":[)";
    for (std::size_t i = 0; i < events.size(); ++i)
        doc += (i ? "," : "") + events[i];
    return doc + "]}";
}

std::vector<TraceRange> rangesOf(const std::string& document)
{
    QTemporaryDir dir;
    const ks::core::TraceSet set = ks::tests::loadRanks(dir, { document });
    if (set.ranks.empty())
        qFatal("the test trace did not load");
    return traceRanges(*set.ranks.front());
}

const RangeMemory* rangeNamed(const SnapshotAlignment& a, const std::string& name, std::int64_t device = 0)
{
    for (const RangeMemory& r : a.ranges)
        if (r.name == name && r.device == device)
            return &r;
    return nullptr;
}

} // namespace

void TestSnapshotAlignment::handComputed()
{
    const MemorySnapshot s = fromPy(snapshotOf({ Py::list(device0()) }, annotations()));
    const std::vector<TraceRange> ranges = rangesOf(traceEvents("", 0));
    // The trace's ranges: both steps and the annotation, not aten::mm.
    QCOMPARE(ranges.size(), std::size_t(3));
    QCOMPARE(ranges[0].name, std::string("ProfilerStep#1"));
    QCOMPARE(ranges[0].startUs, kBase + 100);
    QCOMPARE(ranges[0].endUs, kBase + 300);
    QCOMPARE(ranges[1].name, std::string("fwd"));

    const SnapshotAlignment a = alignSnapshot(s, summarizeSnapshot(s), ranges, 5);
    QVERIFY2(a.error.empty(), a.error.c_str());
    QCOMPARE(a.snapshotAnnotations, std::uint64_t(3));
    QCOMPARE(a.matches.size(), std::size_t(3));
    QCOMPARE(a.offsetUs, kOffsetUs); // median of 5000, 5000, 5001
    QCOMPARE(a.spreadUs, std::int64_t(1));
    QVERIFY(a.diagnostics.empty());
    QCOMPARE(a.ranges.size(), std::size_t(3));

    const RangeMemory* step1 = rangeNamed(a, "ProfilerStep#1");
    QVERIFY(step1);
    QCOMPARE(step1->startUs, kBase + 100);
    QCOMPARE(step1->requestedAtStart, std::uint64_t(100)); // A
    QCOMPARE(step1->requestedPeak, std::uint64_t(1100)); // A + B
    QCOMPARE(step1->requestedPeakTimeUs, kBase + 150); // on the trace's clock
    QCOMPARE(step1->requestedAtEnd, std::uint64_t(400)); // A + C
    QCOMPARE(step1->allocations, std::uint64_t(2));
    QCOMPARE(step1->allocatedBytes, std::uint64_t(1300));
    QCOMPARE(step1->topFrames.size(), std::size_t(2));
    QCOMPARE(step1->topFrames[0].frame, std::string("train.py:10:fwd"));
    QCOMPARE(step1->topFrames[0].bytes, std::uint64_t(1000));
    QCOMPARE(step1->topFrames[1].frame, std::string("train.py:20:bwd"));
    QCOMPARE(step1->topFrames[1].bytes, std::uint64_t(300));

    const RangeMemory* step2 = rangeNamed(a, "ProfilerStep#2");
    QVERIFY(step2);
    QCOMPARE(step2->requestedAtStart, std::uint64_t(400));
    QCOMPARE(step2->requestedPeak, std::uint64_t(400)); // at its start: C freed, then only D (50)
    QCOMPARE(step2->requestedPeakTimeUs, kBase + 300);
    QCOMPARE(step2->requestedAtEnd, std::uint64_t(150)); // A + D
    QCOMPARE(step2->allocations, std::uint64_t(1));
    QCOMPARE(step2->allocatedBytes, std::uint64_t(50));

    const RangeMemory* fwd = rangeNamed(a, "fwd");
    QVERIFY(fwd);
    QCOMPARE(fwd->requestedAtStart, std::uint64_t(100));
    QCOMPARE(fwd->requestedAtEnd, std::uint64_t(1100));
    QCOMPARE(fwd->allocations, std::uint64_t(1));

    // top = 1 keeps the largest frame only.
    const SnapshotAlignment one = alignSnapshot(s, summarizeSnapshot(s), ranges, 1);
    QCOMPARE(rangeNamed(one, "ProfilerStep#1")->topFrames.size(), std::size_t(1));
}

void TestSnapshotAlignment::baseTimeNanoseconds()
{
    // ts relative to the header's base: the same absolute times, the same offset.
    const MemorySnapshot s = fromPy(snapshotOf({ Py::list(device0()) }, annotations()));
    const std::vector<TraceRange> ranges =
        rangesOf(traceEvents(R"("baseTimeNanoseconds":400000000,)", 400000));
    QCOMPARE(ranges.front().startUs, kBase + 100);
    const SnapshotAlignment a = alignSnapshot(s, summarizeSnapshot(s), ranges);
    QVERIFY2(a.error.empty(), a.error.c_str());
    QCOMPARE(a.offsetUs, kOffsetUs);
    QCOMPARE(rangeNamed(a, "ProfilerStep#1")->requestedPeak, std::uint64_t(1100));
}

void TestSnapshotAlignment::severalDevices()
{
    // Device 1 allocates 7000 B in step 2; its own annotations are matched too.
    std::vector<Py> notes = annotations();
    notes.push_back(annotation("START", "ProfilerStep#2", 300, 1));
    notes.push_back(annotation("END", "ProfilerStep#2", 500, 1));
    const MemorySnapshot s =
        fromPy(snapshotOf({ Py::list(device0()), Py::list({ entry("alloc", 0x9000, 7000, 350) }) }, notes));
    const SnapshotAlignment a = alignSnapshot(s, summarizeSnapshot(s), rangesOf(traceEvents("", 0)));
    QVERIFY2(a.error.empty(), a.error.c_str());
    QCOMPARE(a.matches.size(), std::size_t(4));
    QCOMPARE(a.offsetUs, kOffsetUs); // 5000, 5000, 5001, 5000
    QCOMPARE(a.ranges.size(), std::size_t(6)); // three ranges on each device
    const RangeMemory* d1 = rangeNamed(a, "ProfilerStep#2", 1);
    QVERIFY(d1);
    QCOMPARE(d1->requestedAtStart, std::uint64_t(0));
    QCOMPARE(d1->requestedAtEnd, std::uint64_t(7000));
    QCOMPARE(d1->allocations, std::uint64_t(1));
    QCOMPARE(rangeNamed(a, "ProfilerStep#1", 1)->requestedPeak, std::uint64_t(0));
}

void TestSnapshotAlignment::cannotAlign()
{
    const std::vector<TraceRange> ranges = rangesOf(traceEvents("", 0));
    {
        const MemorySnapshot s = fromPy(snapshotOf({ Py::list(device0(false)) }, {}));
        const SnapshotAlignment a = alignSnapshot(s, summarizeSnapshot(s), ranges);
        QVERIFY(a.error.find("time_us") != std::string::npos);
        QVERIFY(a.ranges.empty());
    }
    {
        const MemorySnapshot s = fromPy(snapshotOf({ Py::list(device0()) }, {}));
        const SnapshotAlignment a = alignSnapshot(s, summarizeSnapshot(s), ranges);
        QVERIFY(a.error.find("no external_annotations") != std::string::npos);
    }
    {
        const MemorySnapshot s = fromPy(snapshotOf(
            { Py::list(device0()) }, { annotation("START", "other", 10), annotation("END", "other", 20) }));
        const SnapshotAlignment a = alignSnapshot(s, summarizeSnapshot(s), ranges);
        QVERIFY(a.error.find("none of the snapshot's 1 external_annotations (other)") != std::string::npos);
    }
    {
        // A large spread is aligned, with a diagnostic; an unmatched name is named.
        std::vector<Py> notes = annotations();
        notes[4] = annotation("START", "ProfilerStep#2", 300 + 4000);
        notes.push_back(annotation("START", "other", 10));
        const MemorySnapshot s = fromPy(snapshotOf({ Py::list(device0()) }, notes));
        const SnapshotAlignment a = alignSnapshot(s, summarizeSnapshot(s), ranges);
        QVERIFY2(a.error.empty(), a.error.c_str());
        QCOMPARE(a.offsetUs, kOffsetUs);
        QCOMPARE(a.spreadUs, std::int64_t(4000));
        QCOMPARE(a.diagnostics.size(), std::size_t(2));
        QVERIFY(a.diagnostics[0].find("4000 us") != std::string::npos);
        QVERIFY(a.diagnostics[1].find("\"other\"") != std::string::npos);
    }
}

void TestSnapshotAlignment::sharedSilmont()
{
    const QDir dir(QStringLiteral(KS_SHARED_DIR "/snapshots/silmont_fwd_fp32_annotations"));
    auto read =
        readMemorySnapshot(dir.filePath(QStringLiteral("memory_forward_fp32_128.pickle")).toStdString());
    if (!read)
        QFAIL(read.error().describe().c_str());
    const MemorySnapshot s = std::move(read).value();
    const std::string name = "Optimizer.zero_grad#AdamW.zero_grad";
    QCOMPARE(s.annotations.size(), std::size_t(2));
    QCOMPARE(s.annotations[0].name, name);
    const std::int64_t start = s.annotations[0].timeUs;
    const std::int64_t end = s.annotations[1].timeUs;
    QVERIFY(end > start);
    // A trace of the same run whose clock is 7 ms behind the snapshot's.
    constexpr std::int64_t kTraceBehindUs = 7000;
    const std::string doc = ks::tests::kinetoDocument(0,
        { ks::tests::completeEvent("user_annotation", name, start - kTraceBehindUs, end - start, 1, 1),
            ks::tests::completeEvent(
                "cpu_op", "ProfilerStep#0", start - kTraceBehindUs - 1000, end - start + 2000, 1, 1) });
    const SnapshotSummary summary = summarizeSnapshot(s);
    const SnapshotAlignment a = alignSnapshot(s, summary, rangesOf(doc));
    QVERIFY2(a.error.empty(), a.error.c_str());
    QCOMPARE(a.matches.size(), std::size_t(1));
    QCOMPARE(a.offsetUs, kTraceBehindUs);
    QCOMPARE(a.spreadUs, std::int64_t(0));
    QCOMPARE(a.ranges.size(), std::size_t(2)); // one device
    const RangeMemory* r = rangeNamed(a, name);
    QVERIFY(r);
    QCOMPARE(r->startUs, start - kTraceBehindUs);
    // The timeline's totals at the annotation's times, read off its rows here.
    const ActiveMemoryTimeline& t = summary.devices.front().timeline;
    const auto trace = s.trace(summary.devices.front().device);
    std::uint64_t atStart = t.initialAllocated;
    std::uint64_t atEnd = t.initialAllocated;
    std::uint64_t peak = 0;
    std::uint64_t allocs = 0;
    for (const TimelineRow& row : t.rows) {
        const std::int64_t time = trace[row.event.raw].timeUs;
        if (time <= start)
            atStart = row.allocated;
        if (time <= end)
            atEnd = row.allocated;
        if (time > start && time <= end)
            peak = std::max(peak, row.allocated);
        if (row.event.action == TraceAction::Alloc && time >= start && time <= end)
            ++allocs;
    }
    QCOMPARE(r->requestedAtStart, atStart);
    QCOMPARE(r->requestedAtEnd, atEnd);
    QCOMPARE(r->requestedPeak, std::max(atStart, peak));
    QCOMPARE(r->allocations, allocs);
    QVERIFY(r->requestedAtStart > 500'000'000); // 500 MB live before the trace (the README)
    // The step around it starts before it: no more memory at its start than ... the same timeline.
    const RangeMemory* step = rangeNamed(a, "ProfilerStep#0");
    QVERIFY(step);
    QVERIFY(step->requestedPeak >= r->requestedPeak);
}

void TestSnapshotAlignment::rangeRows()
{
    // B's free_requested has no time: it takes B's alloc's (150), so the rows' times never go down.
    std::vector<Py> events = device0();
    events[2] = entry("free_requested", 0x2000, 1000, -1);
    const MemorySnapshot s = fromPy(snapshotOf({ Py::list(events) }, annotations()));
    const SnapshotSummary summary = summarizeSnapshot(s);
    const DeviceSnapshotSummary& d = summary.devices.front();
    const RangeRows rows(s, d);
    QCOMPARE(d.timeline.rows.size(), std::size_t(6)); // A, B, B freed, C, C freed, D
    const std::int64_t at150 = kBase + 150 + kOffsetUs;
    QCOMPARE(rows.timeOf(1), at150);
    QCOMPARE(rows.timeOf(2), at150); // B freed: untimed, B's time
    QCOMPARE(rows.timeOf(3), kBase + 250 + kOffsetUs);
    // A range's rows: those at or before its start are before it, the end's own included in it.
    auto span = [&](std::int64_t start, std::int64_t end) {
        const RowSpan r = rows.rowsIn(kBase + start + kOffsetUs, kBase + end + kOffsetUs);
        return std::pair(r.before, r.through);
    };
    QCOMPARE(span(100, 300), std::pair(std::size_t(1), std::size_t(4))); // B, B freed, C
    QCOMPARE(span(150, 250), std::pair(std::size_t(3), std::size_t(4))); // B and its free at the start
    QCOMPARE(span(0, 10), std::pair(std::size_t(0), std::size_t(0))); // before every event
    QCOMPARE(span(300, 200), std::pair(std::size_t(4), std::size_t(4))); // an end before the start: empty
    QCOMPARE(span(460, 900), std::pair(std::size_t(6), std::size_t(6))); // after every event

    // alignSnapshot measures every range over exactly these rows: its totals at the start and the
    // end are those after rowsIn's `before` and `through` rows.
    const SnapshotAlignment a = alignSnapshot(s, summary, rangesOf(traceEvents("", 0)));
    QVERIFY2(a.error.empty(), a.error.c_str());
    QCOMPARE(a.ranges.size(), std::size_t(3));
    for (const RangeMemory& r : a.ranges) {
        const RowSpan rs = rows.rowsIn(r.startUs + a.offsetUs, r.endUs + a.offsetUs);
        auto total = [&](std::size_t count) {
            return count == 0 ? d.timeline.initialAllocated : d.timeline.rows[count - 1].allocated;
        };
        QCOMPARE(r.requestedAtStart, total(rs.before));
        QCOMPARE(r.requestedAtEnd, total(rs.through));
        std::uint64_t peak = total(rs.before);
        for (std::size_t i = rs.before; i < rs.through; ++i)
            peak = std::max(peak, d.timeline.rows[i].allocated);
        QCOMPARE(r.requestedPeak, peak);
    }
}

void TestSnapshotAlignment::chooseRank()
{
    const MemorySnapshot s = fromPy(snapshotOf({ Py::list(device0()) }, annotations()));
    const std::vector<TraceRange> own = rangesOf(traceEvents("", 0));
    // Another rank of the job: the same ranges, ProfilerStep#1 80 us longer (a wait), #2 after it.
    std::vector<TraceRange> other = own;
    other[0].endUs += 80;
    other[2].startUs += 80;
    other[2].endUs += 80;
    // Its own rank second: it fits (spread 1 us), the other spreads 80 us: told apart.
    RankChoice c = chooseSnapshotRank(s, { other, own });
    QCOMPARE(c.fits.size(), std::size_t(2));
    QCOMPARE(c.best, std::size_t(1));
    QVERIFY(c.told);
    QCOMPARE(c.fits[1].matched, std::uint64_t(3));
    QCOMPARE(c.fits[1].spreadUs, std::int64_t(1));
    QVERIFY(c.fits[0].spreadUs >= 79);
    // Identical ranges on both ranks: the first, not told.
    c = chooseSnapshotRank(s, { own, own });
    QCOMPARE(c.best, std::size_t(0));
    QVERIFY(!c.told);
    // A spread within twice the best's plus kRankMarginUs does not tell them apart either.
    std::vector<TraceRange> close = own;
    close[0].endUs += kRankMarginUs / 2;
    QVERIFY(!chooseSnapshotRank(s, { close, own }).told);
    // A rank lacking a range the snapshot has matches fewer: told by the count.
    std::vector<TraceRange> fewer = own;
    fewer.pop_back();
    c = chooseSnapshotRank(s, { fewer, own });
    QCOMPARE(c.best, std::size_t(1));
    QVERIFY(c.told);
    QCOMPARE(c.fits[0].matched, std::uint64_t(2));
    // A rank with nothing to match, and no rank at all.
    c = chooseSnapshotRank(s, { {}, own });
    QCOMPARE(c.best, std::size_t(1));
    QVERIFY(!c.fits[0].aligned);
    QVERIFY(c.told);
    c = chooseSnapshotRank(s, { {} });
    QVERIFY(!c.told);
    QVERIFY(!c.fits[0].aligned);
    QVERIFY(chooseSnapshotRank(s, {}).fits.empty());
}

void TestSnapshotAlignment::alignWithRankOfASet()
{
    const MemorySnapshot s = fromPy(snapshotOf({ Py::list(device0()) }, annotations()));
    const SnapshotSummary summary = summarizeSnapshot(s);
    QTemporaryDir dir;
    // Rank index 0 waited 80 us in step 1; index 1 is the snapshot's own.
    const TraceSet set = ks::tests::loadRanks(dir, { traceEvents("", 0, 80), traceEvents("", 0) });
    QCOMPARE(set.ranks.size(), std::size_t(2));

    // No rank named: the one whose steps fit, told apart, aligned at the snapshot's offset.
    RankAlignment a = alignWithRank(s, summary, set, std::nullopt);
    QCOMPARE(a.rankIndex, std::size_t(1));
    QVERIFY(!a.named);
    QVERIFY(a.choice.told);
    QCOMPARE(a.choice.fits.size(), std::size_t(2));
    QVERIFY2(a.alignment.error.empty(), a.alignment.error.c_str());
    QCOMPARE(a.alignment.offsetUs, kOffsetUs);
    QCOMPARE(a.alignment.spreadUs, std::int64_t(1));
    QVERIFY(rangeNamed(a.alignment, "ProfilerStep#2"));

    // A named rank is the one aligned, though it fits worse; the choice is still given.
    a = alignWithRank(s, summary, set, std::size_t(0));
    QCOMPARE(a.rankIndex, std::size_t(0));
    QVERIFY(a.named);
    QCOMPARE(a.choice.best, std::size_t(1));
    QVERIFY(a.alignment.spreadUs >= 79);

    // A rank outside the set is not a choice: the best fit again.
    a = alignWithRank(s, summary, set, std::size_t(7));
    QCOMPARE(a.rankIndex, std::size_t(1));
    QVERIFY(!a.named);

    // One rank: aligned with it, no choice computed.
    QTemporaryDir single;
    a = alignWithRank(s, summary, ks::tests::loadRanks(single, { traceEvents("", 0) }), std::nullopt);
    QCOMPARE(a.rankIndex, std::size_t(0));
    QVERIFY(a.choice.fits.empty());
    QVERIFY(a.alignment.error.empty());

    // No rank loaded: why, not a crash.
    a = alignWithRank(s, summary, TraceSet {}, std::nullopt);
    QVERIFY(!a.alignment.error.empty());
}

#endif // Q_MOC_RUN

KS_TEST_MAIN(tst_snapshot_alignment, TestSnapshotAlignment)
#include "tst_snapshot_alignment.moc"
