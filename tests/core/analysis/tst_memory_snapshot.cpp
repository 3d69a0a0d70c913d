// PyTorch memory snapshots (core/analysis/memory_snapshot/): every number of
// ../shared/reference/snapshots/ (what memory_viz computes, re-computed and
// checked against its JavaScript) on the shared snapshots, and the shapes
// other versions write, built here as small pickles: no time_us, no
// device_traces, the bare segment list, 2.0 history blocks, expandable
// segments, several devices and streams, OOM entries.

#include "core/analysis/memory_snapshot/allocator_state.h"
#include "core/analysis/memory_snapshot/snapshot_compare.h"
#include "core/analysis/memory_snapshot/snapshot_reader.h"
#include "core/analysis/memory_snapshot/snapshot_summary.h"
#include "core/io/pickle/pickle_reader.h"
#include "tests/support/pickle_writer.h"
#include "tests/support/snapshot_pickles.h"
#include "tests/support/test_main.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <cmath>

using namespace ks::core;
using ks::test::Py;

class TestMemorySnapshot : public QObject
{
    Q_OBJECT

private slots:
    void reference_data();
    void reference();

    void timelineRows_data() { reference_data(); }

    void timelineRows();

    void byFrame_data() { reference_data(); }

    void byFrame();

    void stateAtEvents_data() { reference_data(); }

    void stateAtEvents();
    void bareSegmentListWithoutTimes();
    void historyBlocksWithoutTraces();
    void expandableSegments();
    void devicesStreamsAndOom();
    void freesAndPendingFrees();
    void notASnapshot_data();
    void notASnapshot();
    void comparison();
};

#ifndef Q_MOC_RUN

namespace {

QString referenceDir(const QString& name)
{
    return QStringLiteral(KS_SHARED_DIR "/reference/snapshots/") + name;
}

QString snapshotFile(const QString& name)
{
    const QDir dir(QStringLiteral(KS_SHARED_DIR "/snapshots/") + name);
    const QStringList files = dir.entryList({ QStringLiteral("*.pickle") }, QDir::Files);
    return files.isEmpty() ? QString() : dir.filePath(files.front());
}

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    return QJsonDocument::fromJson(f.readAll()).object();
}

// A CSV without quoted newlines: header names -> values per row.
QList<QMap<QString, QString>> readCsv(const QString& path)
{
    QFile f(path);
    QList<QMap<QString, QString>> rows;
    if (!f.open(QIODevice::ReadOnly))
        return rows;
    auto split = [](const QString& line) {
        QStringList cells;
        QString cell;
        bool quoted = false;
        for (const QChar c : line) {
            if (c == u'"')
                quoted = !quoted;
            else if (c == u',' && !quoted) {
                cells << cell;
                cell.clear();
            } else
                cell += c;
        }
        cells << cell;
        return cells;
    };
    const QStringList header = split(QString::fromUtf8(f.readLine()).trimmed());
    while (!f.atEnd()) {
        const QStringList cells = split(QString::fromUtf8(f.readLine()).trimmed());
        QMap<QString, QString> row;
        for (int i = 0; i < header.size() && i < cells.size(); ++i)
            row[header[i]] = cells[i];
        rows << row;
    }
    return rows;
}

std::uint64_t u64(const QJsonValue& v)
{
    return static_cast<std::uint64_t>(v.toInteger());
}

std::int64_t i64(const QJsonValue& v)
{
    return static_cast<std::int64_t>(v.toInteger());
}

std::int64_t orMinusOne(const QJsonValue& v)
{
    return v.isNull() ? -1 : i64(v);
}

struct Loaded
{
    MemorySnapshot snapshot;
    SnapshotSummary summary;
};

Loaded loadShared(const QString& name)
{
    auto s = readMemorySnapshot(snapshotFile(name).toStdString());
    if (!s)
        qFatal("%s", s.error().describe().c_str());
    Loaded l { std::move(s).value(), {} };
    l.summary = summarizeSnapshot(l.snapshot);
    return l;
}

const DeviceSnapshotSummary& device0(const Loaded& l)
{
    return l.summary.devices.front();
}

MemorySnapshot fromPy(const Py& value)
{
    return ks::test::snapshotOfPy(value);
}

Py frame(const std::string& file, int line, const std::string& name)
{
    return ks::test::snapshotFrame(file, line, name);
}

Py block(std::int64_t size, std::int64_t requested, const char* state, std::vector<Py> frames = {})
{
    return Py::dict({ { "size", Py::integer(size) }, { "requested_size", Py::integer(requested) },
        { "state", Py::str(state) }, { "frames", Py::list(std::move(frames)) } });
}

Py segment(std::int64_t device, std::int64_t address, std::int64_t stream, std::vector<Py> blocks,
    bool expandable = false)
{
    std::int64_t total = 0;
    for (const Py& b : blocks)
        total += b.values[0].i;
    return Py::dict({ { "device", Py::integer(device) }, { "address", Py::integer(address) },
        { "total_size", Py::integer(total) }, { "stream", Py::integer(stream) },
        { "segment_type", Py::str("large") }, { "is_expandable", Py::boolean(expandable) },
        { "blocks", Py::list(std::move(blocks)) } });
}

Py traceEntry(const char* action, std::int64_t addr, std::int64_t size, std::vector<Py> frames = {},
    std::int64_t stream = 0)
{
    return Py::dict(
        { { "action", Py::str(action) }, { "addr", Py::integer(addr) }, { "size", Py::integer(size) },
            { "stream", Py::integer(stream) }, { "frames", Py::list(std::move(frames)) } });
}

Py snapshotDict(std::vector<Py> segments, std::vector<Py> traces)
{
    return Py::dict(
        { { "segments", Py::list(std::move(segments)) }, { "device_traces", Py::list(std::move(traces)) } });
}

} // namespace

#endif // Q_MOC_RUN

void TestMemorySnapshot::reference_data()
{
    QTest::addColumn<QString>("name");
    if (!QFile::exists(referenceDir({})))
        QSKIP("../shared/reference/snapshots is absent: no expected numbers");
    const QDir dir(referenceDir({}));
    const QStringList cases = dir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    QVERIFY(cases.size() >= 2);
    for (const QString& c : cases)
        QTest::newRow(qPrintable(c)) << c;
}

void TestMemorySnapshot::reference()
{
    QFETCH(QString, name);
    const QJsonObject stats = readJson(referenceDir(name) + QStringLiteral("/stats.json"));
    const Loaded l = loadShared(name);
    // How memory_viz opens the file.
    const QJsonObject mv = stats[QStringLiteral("memoryviz")].toObject();
    QCOMPARE(l.summary.devices.size(),
        static_cast<std::size_t>(mv[QStringLiteral("device_options")].toArray().size()));
    QCOMPARE(l.summary.defaultDevice, i64(mv[QStringLiteral("default_device")]));
    QCOMPARE(l.snapshot.annotations.size(),
        static_cast<std::size_t>(
            stats[QStringLiteral("format")][QStringLiteral("external_annotations")][QStringLiteral("count")]
                .toInt()));

    const QJsonObject dev = stats[QStringLiteral("devices")][QStringLiteral("0")].toObject();
    const DeviceSnapshotSummary& d = device0(l);
    const QJsonObject seg = dev[QStringLiteral("segments")].toObject();
    const SegmentStats& s = d.segments;
    QCOMPARE(s.segments, u64(seg[QStringLiteral("n_segments")]));
    QCOMPARE(s.reserved, u64(seg[QStringLiteral("reserved")]));
    QCOMPARE(s.allocated, u64(seg[QStringLiteral("allocated")]));
    QCOMPARE(s.active, u64(seg[QStringLiteral("active")]));
    QCOMPARE(s.requestedActive, u64(seg[QStringLiteral("requested_active")]));
    QCOMPARE(s.requestedAllocated, u64(seg[QStringLiteral("requested_allocated")]));
    QCOMPARE(s.blocks, u64(seg[QStringLiteral("n_blocks")]));
    QCOMPARE(s.expandableSegments, u64(seg[QStringLiteral("expandable_segments")]));
    for (const BlockState state :
        { BlockState::ActiveAllocated, BlockState::ActivePendingFree, BlockState::Inactive }) {
        const QString key = QString::fromLatin1(blockStateName(state));
        QCOMPARE(s.blocksByState[static_cast<std::size_t>(state)],
            u64(seg[QStringLiteral("n_blocks_by_state")][key]));
        QCOMPARE(
            s.bytesByState[static_cast<std::size_t>(state)], u64(seg[QStringLiteral("bytes_by_state")][key]));
    }
    const QJsonObject byType = seg[QStringLiteral("segments_by_type")].toObject();
    for (auto it = byType.begin(); it != byType.end(); ++it)
        QCOMPARE(s.segmentsByType.at(it.key().toStdString()), u64(it.value()));
    QCOMPARE(s.largestInactiveBlock, u64(seg[QStringLiteral("largest_inactive_block")]));
    QCOMPARE(s.largestFreeGap, u64(seg[QStringLiteral("largest_free_gap")]));
    QCOMPARE(s.segsumAllocated, u64(seg[QStringLiteral("segsum_total_allocated")]));
    QCOMPARE(s.segsumFreeExternal, u64(seg[QStringLiteral("segsum_free_external")]));
    QCOMPARE(s.segsumFreeInternal, u64(seg[QStringLiteral("segsum_free_internal")]));
    QCOMPARE(s.segsumInternalPct, seg[QStringLiteral("segsum_internal_pct")].toDouble());
    QVERIFY(std::abs(s.fragmentation - seg[QStringLiteral("fragmentation_memoryviz")].toDouble()) < 1e-15);
    const double ssq = seg[QStringLiteral("fragmentation_memoryviz_sum_squared_free")].toDouble();
    QVERIFY(std::abs(static_cast<double>(s.sumSquaredFree) - ssq) <= ssq * 1e-15);
    QVERIFY(std::abs(s.freeNotInLargestGapFraction
                - seg[QStringLiteral("free_not_in_largest_gap_fraction")].toDouble())
        < 1e-12);

    const QJsonObject trace = dev[QStringLiteral("trace")].toObject();
    QCOMPARE(d.trace.events, u64(trace[QStringLiteral("n_events")]));
    QCOMPARE(d.trace.memoryVizEvents, u64(trace[QStringLiteral("n_events_memoryviz")]));
    for (const char* group : { "actions", "actions_memoryviz" }) {
        const auto& mine = std::string(group) == "actions" ? d.trace.actions : d.trace.memoryVizActions;
        const QJsonObject theirs = trace[QString::fromLatin1(group)].toObject();
        QCOMPARE(mine.size(), static_cast<std::size_t>(theirs.size()));
        for (auto it = theirs.begin(); it != theirs.end(); ++it)
            QCOMPARE(mine.at(it.key().toStdString()), u64(it.value()));
    }
    QCOMPARE(d.trace.hasTime, trace[QStringLiteral("has_time_us")].toBool());
    QCOMPARE(d.trace.firstTimeUs, i64(trace[QStringLiteral("first_time_us")]));
    QCOMPARE(d.trace.lastTimeUs, i64(trace[QStringLiteral("last_time_us")]));
    QCOMPARE(d.trace.timeMonotonic, trace[QStringLiteral("time_us_monotonic")].toBool());
    QCOMPARE(
        d.trace.ooms.size(), static_cast<std::size_t>(trace[QStringLiteral("oom_events")].toArray().size()));
    const QJsonArray markers = trace[QStringLiteral("snapshot_events")].toArray();
    QCOMPARE(d.trace.snapshots.size(), static_cast<std::size_t>(markers.size()));
    for (qsizetype i = 0; i < markers.size(); ++i) {
        QCOMPARE(d.trace.snapshots[static_cast<std::size_t>(i)].eventIdx,
            i64(markers[i][QStringLiteral("event_idx")]));
        QCOMPARE(
            d.trace.snapshots[static_cast<std::size_t>(i)].size, u64(markers[i][QStringLiteral("size")]));
    }

    const QJsonObject amt = dev[QStringLiteral("active_memory_timeline")].toObject();
    const ActiveMemoryTimeline& t = d.timeline;
    QCOMPARE(t.allocations.size(), static_cast<std::size_t>(amt[QStringLiteral("elements")].toInt()));
    QCOMPARE(t.drawnElements, u64(amt[QStringLiteral("drawn_elements")]));
    QCOMPARE(t.initiallyAllocated, u64(amt[QStringLiteral("initially_allocated")]));
    QCOMPARE(t.initialFromSnapshot, u64(amt[QStringLiteral("initially_allocated_from_snapshot_blocks")]));
    QCOMPARE(t.actions, u64(amt[QStringLiteral("actions")]));
    QCOMPARE(t.syntheticAction, amt[QStringLiteral("synthetic_action")].toBool());
    QCOMPARE(t.initialAllocated, u64(amt[QStringLiteral("initial_allocated")]));
    QCOMPARE(t.finalAllocated, u64(amt[QStringLiteral("final_allocated")]));
    QCOMPARE(t.peakAllocated, u64(amt[QStringLiteral("peak_allocated")]));
    QCOMPARE(t.memoryVizMaxSize, u64(amt[QStringLiteral("memoryviz_max_size")]));
    QCOMPARE(t.timesteps, i64(amt[QStringLiteral("memoryviz_timesteps")]));
    QCOMPARE(t.peakAtInitial, amt[QStringLiteral("peak_at")].toString() != QStringLiteral("after action"));
    QCOMPARE(t.peakActionIndex, orMinusOne(amt[QStringLiteral("peak_action_index")]));
    QCOMPARE(t.peakEventIdx, orMinusOne(amt[QStringLiteral("peak_event_idx")]));
    QCOMPARE(t.peakMvIdx, orMinusOne(amt[QStringLiteral("peak_mv_idx")]));
    QCOMPARE(t.peakTimeUs, i64(amt[QStringLiteral("peak_time_us")]));
    QCOMPARE(t.peakTimestep, i64(amt[QStringLiteral("peak_timestep")]));
    QCOMPARE(
        t.liveAtPeak.size(), static_cast<std::size_t>(amt[QStringLiteral("peak_live_allocations")].toInt()));
    const QJsonArray top = amt[QStringLiteral("peak_top10")].toArray();
    for (qsizetype i = 0; i < top.size(); ++i) {
        const TimelineAllocation& a = t.allocations[t.liveAtPeak[static_cast<std::size_t>(i)]];
        const QJsonObject r = top[i].toObject();
        QCOMPARE(a.size, u64(r[QStringLiteral("size")]));
        QCOMPARE(a.addr, u64(r[QStringLiteral("addr")]));
        QCOMPARE(QString::fromLatin1(allocationOriginName(a.origin)), r[QStringLiteral("origin")].toString());
        QCOMPARE(a.eventIdx, orMinusOne(r[QStringLiteral("event_idx")]));
        const UserFrame user = userFrame(l.snapshot, a.stack);
        QCOMPARE(QString::fromStdString(user.text), r[QStringLiteral("user_frame")].toString());
        QCOMPARE(QString::fromLatin1(userFrameKindName(user.kind)),
            r[QStringLiteral("user_frame_kind")].toString());
        QCOMPARE(QString::fromStdString(memoryVizTopFrame(l.snapshot, a.stack)),
            r[QStringLiteral("mv_top_frame")].toString());
    }

    const QJsonObject acst = dev[QStringLiteral("active_cached_segment_timeline")].toObject();
    QCOMPARE(d.segmentTimeline.initialAllocated, u64(acst[QStringLiteral("initial_reserved")]));
    QCOMPARE(d.segmentTimeline.finalAllocated, u64(acst[QStringLiteral("final_reserved")]));
    QCOMPARE(d.segmentTimeline.peakAllocated, u64(acst[QStringLiteral("peak_reserved")]));
    QCOMPARE(d.segmentTimeline.memoryVizMaxSize, u64(acst[QStringLiteral("memoryviz_max_size")]));
    QCOMPARE(d.segmentTimeline.actions, u64(acst[QStringLiteral("actions")]));
    QCOMPARE(d.segmentTimeline.peakEventIdx, orMinusOne(acst[QStringLiteral("peak_event_idx")]));

    const QJsonObject ash = dev[QStringLiteral("allocator_state_history")].toObject();
    QCOMPARE(d.timeline.rows.back().stateReserved, u64(ash[QStringLiteral("end_reserved")]));
    QCOMPARE(d.timeline.rows.back().stateAllocated, u64(ash[QStringLiteral("end_allocated")]));
    QCOMPARE(d.stateMax.reserved, u64(ash[QStringLiteral("max_reserved")]));
    QCOMPARE(d.stateMax.allocated, u64(ash[QStringLiteral("max_allocated")]));
    QCOMPARE(d.stateBeforeFirst.reserved, u64(ash[QStringLiteral("before_first_event_reserved")]));
    QCOMPARE(d.stateBeforeFirst.allocated, u64(ash[QStringLiteral("before_first_event_allocated")]));

    // torch 1.13's _memory_viz.py stats() on the same segments.
    const QJsonObject t113 = stats[QStringLiteral("torch113")][QStringLiteral("stats")].toObject();
    QCOMPARE(s.segments, u64(t113[QStringLiteral("segments")]));
    QCOMPARE(s.reserved, u64(t113[QStringLiteral("total_size")]));
    QCOMPARE(s.bytesByState[0], u64(t113[QStringLiteral("active_allocated")]));
    QCOMPARE(s.bytesByState[2], u64(t113[QStringLiteral("inactive")]));
}

void TestMemorySnapshot::timelineRows()
{
    QFETCH(QString, name);
    const Loaded l = loadShared(name);
    const ActiveMemoryTimeline& t = device0(l).timeline;
    QList<QMap<QString, QString>> rows = readCsv(referenceDir(name) + QStringLiteral("/timeline.csv"));
    QVERIFY(!rows.isEmpty());
    QCOMPARE(rows.front()[QStringLiteral("action")], QStringLiteral("initial"));
    QCOMPARE(rows.front()[QStringLiteral("allocated")].toULongLong(), t.initialAllocated);
    rows.removeFirst();
    QCOMPARE(static_cast<std::size_t>(rows.size()), t.rows.size());
    for (qsizetype i = 0; i < rows.size(); ++i) {
        const auto& r = rows[i];
        const TimelineRow& m = t.rows[static_cast<std::size_t>(i)];
        const TraceEntry& e = l.snapshot.trace(0)[m.event.raw];
        const QString where = name + QStringLiteral(" row ") + QString::number(i);
        QVERIFY2(r[QStringLiteral("event_idx")].toUInt() == m.event.raw, qPrintable(where));
        QVERIFY2(r[QStringLiteral("mv_idx")].toLongLong() == i, qPrintable(where));
        QVERIFY2(r[QStringLiteral("action")] == QString::fromLatin1(traceActionName(m.event.action)),
            qPrintable(where));
        QVERIFY2(
            (r[QStringLiteral("completed_idx")].isEmpty() ? -1 : r[QStringLiteral("completed_idx")].toInt())
                == m.event.completed,
            qPrintable(where));
        QVERIFY2(r[QStringLiteral("time_us")].toLongLong() == e.timeUs, qPrintable(where));
        QVERIFY2(r[QStringLiteral("addr")].toULongLong() == e.addr, qPrintable(where));
        QVERIFY2(r[QStringLiteral("size")].toULongLong() == e.size, qPrintable(where));
        QVERIFY2(r[QStringLiteral("allocated")].toULongLong() == m.allocated, qPrintable(where));
        QVERIFY2(r[QStringLiteral("timestep")].toLongLong() == m.timestep, qPrintable(where));
        QVERIFY2(r[QStringLiteral("sh_allocated")].toULongLong() == m.stateAllocated, qPrintable(where));
        QVERIFY2(r[QStringLiteral("sh_reserved")].toULongLong() == m.stateReserved, qPrintable(where));
    }
}

void TestMemorySnapshot::byFrame()
{
    QFETCH(QString, name);
    const Loaded l = loadShared(name);
    const DeviceSnapshotSummary& d = device0(l);
    const auto rows = readCsv(referenceDir(name) + QStringLiteral("/by_frame.csv"));
    QVERIFY(!rows.isEmpty());
    for (const QString& when : { QStringLiteral("end"), QStringLiteral("peak") }) {
        for (const QString& rule : { QStringLiteral("user"), QStringLiteral("memoryviz") }) {
            const FrameRule r = rule == QStringLiteral("user") ? FrameRule::User : FrameRule::MemoryViz;
            const std::vector<FrameGroup> mine = when == QStringLiteral("end")
                ? endByFrame(l.snapshot, 0, r)
                : peakByFrame(l.snapshot, d.timeline, r);
            QList<QMap<QString, QString>> expected;
            for (const auto& row : rows)
                if (row[QStringLiteral("when")] == when && row[QStringLiteral("rule")] == rule)
                    expected << row;
            QCOMPARE(static_cast<std::size_t>(expected.size()), mine.size());
            for (qsizetype i = 0; i < expected.size(); ++i) {
                const FrameGroup& g = mine[static_cast<std::size_t>(i)];
                QCOMPARE(QString::fromStdString(g.frame), expected[i][QStringLiteral("frame")]);
                QCOMPARE(g.bytes, expected[i][QStringLiteral("bytes")].toULongLong());
                QCOMPARE(g.count, expected[i][QStringLiteral("count")].toULongLong());
                if (when == QStringLiteral("end"))
                    QCOMPARE(g.blockBytes, expected[i][QStringLiteral("block_bytes")].toULongLong());
            }
        }
    }
}

void TestMemorySnapshot::stateAtEvents()
{
    // The full state at an event adds up to the header the reference lists for it.
    QFETCH(QString, name);
    const Loaded l = loadShared(name);
    const ActiveMemoryTimeline& t = device0(l).timeline;
    const auto n = static_cast<std::int64_t>(t.rows.size());
    for (const std::int64_t i : { std::int64_t(0), n / 3, n / 2, n - 2, n - 1 }) {
        const AllocatorState state = allocatorStateAt(l.snapshot, 0, i);
        QCOMPARE(state.allocated, t.rows[static_cast<std::size_t>(i)].stateAllocated);
        QCOMPARE(state.reserved, t.rows[static_cast<std::size_t>(i)].stateReserved);
        std::uint64_t sum = 0;
        for (const StateSegment& s : state.segments)
            sum += s.size;
        QCOMPARE(sum, state.reserved);
    }
    const AllocatorState end = allocatorStateAt(l.snapshot, 0, n - 1);
    QCOMPARE(end.segments.size(), device0(l).segments.segments);
    QCOMPARE(end.roundingLoss, device0(l).segments.active - device0(l).segments.requestedActive);
    const AllocatorState before = allocatorStateAt(l.snapshot, 0, -1);
    QCOMPARE(before.allocated, device0(l).stateBeforeFirst.allocated);
    QCOMPARE(before.reserved, device0(l).stateBeforeFirst.reserved);
}

void TestMemorySnapshot::bareSegmentListWithoutTimes()
{
    // torch.cuda.memory_snapshot(): the list alone, no trace, no time_us.
    const MemorySnapshot s = fromPy(Py::list({ segment(0, 4096, 0,
        { block(512, 500, "active_allocated", { frame("train.py", 3, "step") }),
            block(512, 0, "inactive") }) }));
    QVERIFY(s.bareSegmentList);
    QVERIFY(!s.hasDeviceTraces);
    QVERIFY(!s.hasTime());
    const SnapshotSummary sum = summarizeSnapshot(s);
    QCOMPARE(sum.devices.size(), std::size_t(1));
    const DeviceSnapshotSummary& d = sum.devices.front();
    QCOMPARE(d.segments.reserved, std::uint64_t(1024));
    QCOMPARE(d.segments.requestedActive, std::uint64_t(500));
    QCOMPARE(s.blocks[1].address, std::uint64_t(4096 + 512)); // from the segment address and sizes
    // No alloc or free: memory_viz replays the one live block as its only action.
    QVERIFY(d.timeline.syntheticAction);
    QCOMPARE(d.timeline.initialAllocated, std::uint64_t(0));
    QCOMPARE(d.timeline.peakAllocated, std::uint64_t(500));
    QCOMPARE(d.timeline.peakTimeUs, kNoTime);
    QCOMPARE(d.timeline.peakEventIdx, std::int64_t(-1));
    QVERIFY(d.timeline.rows.empty());
    QCOMPARE(d.segmentTimeline.peakAllocated, std::uint64_t(1024));
    QCOMPARE(endByFrame(s, 0, FrameRule::User).front().frame, std::string("train.py:3:step"));
}

void TestMemorySnapshot::historyBlocksWithoutTraces()
{
    // 2.0: blocks carry history (addr, real_size, frames), no address and no frames key.
    const Py history = Py::list({ Py::dict({ { "addr", Py::integer(8192) }, { "real_size", Py::integer(300) },
        { "frames", Py::list({ frame("/site-packages/torch/nn/modules/linear.py", 114, "forward") }) } }) });
    const Py b = Py::dict({ { "size", Py::integer(512) }, { "requested_size", Py::integer(0) },
        { "state", Py::str("active_allocated") }, { "history", history } });
    const Py seg = Py::dict({ { "device", Py::integer(0) }, { "address", Py::integer(8192) },
        { "total_size", Py::integer(512) }, { "stream", Py::integer(0) }, { "blocks", Py::list({ b }) } });
    const MemorySnapshot s = fromPy(Py::dict({ { "segments", Py::list({ seg }) } }));
    QVERIFY(s.historyBlocks);
    QVERIFY(!s.hasDeviceTraces);
    QCOMPARE(
        s.blocks[0].requestedSize, std::uint64_t(300)); // memory_viz: requested_size || history[0].real_size
    QCOMPARE(s.blocks[0].realSize, std::uint64_t(300));
    const SegmentStats st = segmentStats(s, 0);
    QCOMPARE(st.segsumAllocated, std::uint64_t(300));
    QCOMPARE(st.segsumFreeInternal, std::uint64_t(212));
    const UserFrame user = userFrame(s, s.blocks[0].stack);
    QCOMPARE(user.kind, UserFrameKind::Torch); // only torch's own frame was recorded
    QCOMPARE(user.text, std::string("/site-packages/torch/nn/modules/linear.py:114:forward"));
}

void TestMemorySnapshot::expandableSegments()
{
    // One expandable segment of 3 x 2 MiB at 0x100000: mapped in two steps,
    // then its last 2 MiB unmapped; one block lives in it.
    const std::int64_t mib2 = 2 << 20;
    const std::int64_t base = 0x100000;
    const Py seg =
        segment(0, base, 0, { block(mib2, mib2, "active_allocated"), block(mib2, 0, "inactive") }, true);
    const MemorySnapshot s = fromPy(snapshotDict({ seg },
        { Py::list(
            { traceEntry("segment_map", base, 2 * mib2), traceEntry("segment_map", base + 2 * mib2, mib2),
                traceEntry("alloc", base, mib2), traceEntry("segment_unmap", base + 2 * mib2, mib2) }) }));
    const SnapshotSummary sum = summarizeSnapshot(s);
    const DeviceSnapshotSummary& d = sum.devices.front();
    QCOMPARE(d.segments.expandableSegments, std::uint64_t(1));
    QCOMPARE(d.trace.actions.at("segment_map"), std::uint64_t(2));
    const auto& rows = d.timeline.rows;
    QCOMPARE(rows.size(), std::size_t(4));
    // Undone from the end: before the unmap the segment had 6 MiB; before the maps, nothing.
    QCOMPARE(rows[3].stateReserved, std::uint64_t(2 * mib2));
    QCOMPARE(rows[2].stateReserved, std::uint64_t(3 * mib2));
    QCOMPARE(rows[1].stateReserved, std::uint64_t(3 * mib2));
    QCOMPARE(rows[0].stateReserved, std::uint64_t(2 * mib2));
    QCOMPARE(d.stateBeforeFirst.reserved, std::uint64_t(0));
    QCOMPARE(rows[1].stateAllocated, std::uint64_t(0));
    QCOMPARE(rows[2].stateAllocated, std::uint64_t(mib2));
    // At the alloc the unmapped range is back and joined to its segment: one segment of 6 MiB.
    const AllocatorState atMap = allocatorStateAt(s, 0, 2);
    QCOMPARE(atMap.segments.size(), std::size_t(1));
    QCOMPARE(atMap.segments[0].size, std::uint64_t(3 * mib2));
    // The cached segment timeline ignores map/unmap, as memory_viz does.
    QCOMPARE(d.segmentTimeline.actions, std::uint64_t(1));
    QVERIFY(d.segmentTimeline.syntheticAction);
}

void TestMemorySnapshot::devicesStreamsAndOom()
{
    const Py seg0 = segment(0, 1 << 20, 0, { block(1024, 1000, "active_allocated") });
    const Py seg1 = segment(1, 1 << 21, 77, { block(4096, 4096, "inactive") });
    Py oom = Py::dict({ { "action", Py::str("oom") }, { "size", Py::integer(1 << 30) },
        { "device_free", Py::integer(1 << 20) }, { "stream", Py::integer(77) },
        { "time_us", Py::integer(99) } });
    const MemorySnapshot s = fromPy(snapshotDict({ seg0, seg1 },
        { Py::list({ traceEntry("alloc", 1 << 20, 1000) }),
            Py::list({ traceEntry("alloc", 1 << 21, 4096, {}, 77),
                traceEntry("free_requested", 1 << 21, 4096, {}, 77),
                traceEntry("free_completed", 1 << 21, 4096, {}, 77), oom }) }));
    QCOMPARE(s.devices(), (std::vector<std::int64_t> { 0, 1 }));
    QCOMPARE(s.defaultDevice(), std::int64_t(1)); // the longest trace
    const SnapshotSummary sum = summarizeSnapshot(s);
    QCOMPARE(sum.devices.size(), std::size_t(2));
    const DeviceSnapshotSummary& d1 = sum.devices[1];
    QCOMPARE(d1.device, std::int64_t(1));
    QCOMPARE(d1.trace.ooms.size(), std::size_t(1));
    QCOMPARE(d1.trace.ooms[0].size, std::uint64_t(1) << 30);
    QCOMPARE(d1.trace.ooms[0].deviceFree, std::uint64_t(1) << 20);
    QCOMPARE(d1.trace.ooms[0].timeUs, std::int64_t(99));
    QCOMPARE(d1.trace.streams.at(77), std::uint64_t(4));
    QCOMPARE(d1.trace.memoryVizActions.at("free"), std::uint64_t(1));
    QCOMPARE(d1.timeline.peakAllocated, std::uint64_t(4096));
    QCOMPARE(d1.timeline.finalAllocated, std::uint64_t(0));
    QCOMPARE(deviceTotals(d1).oomEvents, std::uint64_t(1));
    QCOMPARE(deviceTotals(sum.devices[0]).peakAllocated, std::uint64_t(1000));
    QCOMPARE(sum.devices[0].segments.reserved, std::uint64_t(1024));
}

void TestMemorySnapshot::freesAndPendingFrees()
{
    // A free with no alloc (allocated before recording), a free_requested left
    // pending (record_stream) and a free_completed after another event.
    const Py seg = segment(0, 0x1000, 0,
        { block(512, 512, "active_pending_free"), block(512, 256, "active_allocated"),
            block(1024, 0, "inactive") });
    const std::vector<Py> here { frame("model.py", 10, "forward") };
    const MemorySnapshot s = fromPy(snapshotDict({ seg },
        { Py::list({ traceEntry("free_requested", 0x9000, 128, here),
            traceEntry("free_completed", 0x9000, 128, here), traceEntry("alloc", 0x1000, 512),
            traceEntry("free_requested", 0x1000, 512), traceEntry("alloc", 0x1200, 256),
            traceEntry("free_completed", 0x7000, 64) }) }));
    const std::vector<MemoryVizEvent> events = memoryVizEvents(s.trace(0));
    QCOMPARE(events.size(), std::size_t(5));
    QCOMPARE(events[0].action, TraceAction::Free);
    QCOMPARE(events[0].completed, 1);
    QCOMPARE(events[2].action, TraceAction::FreeRequested); // pending: nothing follows it
    const ActiveMemoryTimeline t = activeMemoryTimeline(s, 0);
    QCOMPARE(t.initialFromFrees, std::uint64_t(2)); // 0x9000 and 0x7000
    QCOMPARE(t.initialAllocated, std::uint64_t(128 + 64));
    QCOMPARE(t.peakAllocated, std::uint64_t(64 + 512 + 256)); // after the second alloc
    QCOMPARE(t.finalAllocated, std::uint64_t(512 + 256));
    QCOMPARE(t.allocations[0].origin, AllocationOrigin::FreeWithoutAlloc);
    QCOMPARE(userFrame(s, t.allocations[0].stack).text, std::string("model.py:10:forward"));
    // The pending block counts as allocated in the state history, as memory_viz's header does.
    QCOMPARE(t.rows.back().stateAllocated, std::uint64_t(512 + 256));
    const AllocatorState end = allocatorStateAt(s, 0, 4);
    QCOMPARE(end.pendingFreeBytes, std::uint64_t(512));
    QCOMPARE(end.roundingLoss, std::uint64_t(256));
}

void TestMemorySnapshot::notASnapshot_data()
{
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("expected");
    auto add = [](const char* tag, const Py& p, const char* expected) {
        const std::string bytes = ks::test::pickleOf(p);
        QTest::newRow(tag) << QByteArray(bytes.data(), static_cast<qsizetype>(bytes.size()))
                           << QString::fromLatin1(expected);
    };
    add("an int", Py::integer(3), "holds a value of type int, not a memory snapshot");
    add("other dict", Py::dict({ { "weights", Py::list({}) } }),
        "without 'segments', not a memory snapshot (its keys: weights)");
    add("segments not a list", Py::dict({ { "segments", Py::integer(1) } }),
        "segments is of type int, not list");
    add("size as text",
        Py::list({ Py::dict({ { "address", Py::integer(0) }, { "total_size", Py::str("big") },
            { "blocks", Py::list({}) } }) }),
        "segments[0].total_size is of type str, not int");
    add("no blocks",
        Py::list({ Py::dict({ { "address", Py::integer(0) }, { "total_size", Py::integer(0) } }) }),
        "segments[0] has no 'blocks'");
    add("bad state", Py::list({ segment(0, 0, 0, { block(1, 1, "busy") }) }),
        "segments[0].blocks[0].state is 'busy'");
    add("entry without action", snapshotDict({}, { Py::list({ Py::dict({ { "addr", Py::integer(1) } }) }) }),
        "device_traces[0][0] has no 'action' string");
    add("negative size", snapshotDict({}, { Py::list({ traceEntry("alloc", 1, -5) }) }),
        "device_traces[0][0].size is negative");
}

void TestMemorySnapshot::notASnapshot()
{
    QFETCH(QByteArray, bytes);
    QFETCH(QString, expected);
    auto doc = readPickle(std::span(reinterpret_cast<const std::uint8_t*>(bytes.constData()),
                              static_cast<std::size_t>(bytes.size())),
        "odd.pickle");
    QVERIFY(doc);
    auto s = snapshotFromPickle(doc.value(), "odd.pickle");
    QVERIFY(!s);
    const QString line = QString::fromStdString(s.error().describe());
    QVERIFY2(line.startsWith(QStringLiteral("odd.pickle: ")), qPrintable(line));
    QVERIFY2(line.contains(expected), qPrintable(line));
    QVERIFY(!line.contains(u'\n'));
}

void TestMemorySnapshot::comparison()
{
    const std::vector<Py> a { frame("a.py", 1, "f") };
    const std::vector<Py> b { frame("b.py", 2, "g") };
    const MemorySnapshot before =
        fromPy(snapshotDict({ segment(0, 0x1000, 0, { block(1024, 1000, "active_allocated", a) }) },
            { Py::list({ traceEntry("alloc", 0x1000, 1000, a) }) }));
    const MemorySnapshot after = fromPy(snapshotDict(
        { segment(0, 0x1000, 0,
            { block(1024, 1000, "active_allocated", a), block(4096, 4000, "active_allocated", b) }) },
        { Py::list({ traceEntry("alloc", 0x1000, 1000, a), traceEntry("alloc", 0x1400, 4000, b) }) }));
    const auto c = compareSnapshots(before, summarizeSnapshot(before), after, summarizeSnapshot(after));
    QCOMPARE(c.size(), std::size_t(1));
    QCOMPARE(c[0].before.peakAllocated, std::uint64_t(1000));
    QCOMPARE(c[0].after.peakAllocated, std::uint64_t(5000));
    QCOMPARE(c[0].after.reserved, std::uint64_t(5120));
    QCOMPARE(c[0].peakByFrame.size(), std::size_t(2));
    QCOMPARE(c[0].peakByFrame[0].frame, std::string("b.py:2:g")); // the largest change first
    QCOMPARE(c[0].peakByFrame[0].delta(), std::int64_t(4000));
    QCOMPARE(c[0].peakByFrame[1].delta(), std::int64_t(0));
    QCOMPARE(c[0].endByFrame[0].after, std::uint64_t(4000));
}

KS_TEST_MAIN(tst_memory_snapshot, TestMemorySnapshot)
#include "tst_memory_snapshot.moc"
