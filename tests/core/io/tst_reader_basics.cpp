// The reader on tiny inline traces: every event phase of product spec L3, the
// shapes a Kineto/Chrome document can take, tracks, levels, typed args and
// exact timestamps. Times in the JSON are µs; the store holds ns (x1000).

#include "core/io/store_builder/typed_args.h"
#include "tests/support/test_main.h"
#include "tests/support/test_trace_files.h"

#include <QTest>

using namespace ks::core;
using namespace ks::test;

class TestReaderBasics : public QObject
{
    Q_OBJECT

private slots:
    void completeEvents();
    void beginEndPairs();
    void instants();
    void memoryInstants();
    void counters();
    void metadataNamesAndSortOrder();
    void duplicateMetadataReported();
    void stringAndIntegerPidTid();
    void documentShapes_data();
    void documentShapes();
    void topLevelKeysAroundTraceEvents();
    void nestingLevels();
    void overlappingSlicesGetExtraLanes();
    void roundingOvershootNests();
    void gpuTracksFirst();
    void kinetoStreamNameIsTrimmed();
    void typedArgs();
    void typedArgsOfBeginEndSlices();
    void rawArgsKeepOriginalText();
    void timestampsExactAtEpochScale();
    void longDurationsKeptExactly();
};

// moc reads raw string literals as ordinary strings and trips on the JSON
// inside them: fixtures and slot bodies are kept out of its sight.
#ifndef Q_MOC_RUN

void TestReaderBasics::completeEvents()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 10, "tid": 11, "ts": 1000.5, "dur": 20.25},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 10, "tid": 11, "ts": 1030, "dur": 0})"));
    QCOMPARE(t.counts.events, 2ull);
    QCOMPARE(phaseCount(t, Phase::Complete), 2ull);
    QCOMPARE(ks::test::categoryCount(t, "cpu_op", Phase::Complete), 2ull);
    QCOMPARE(t.slices.size(), std::size_t(2));
    const std::uint32_t add = only(slicesNamed(t, "aten::add"));
    QVERIFY(add != kNoRow);
    QCOMPARE(t.slices.start[add], TimeNs(1000500));
    QCOMPARE(t.slices.duration(add), TimeNs(20250));
    QCOMPARE(ks::test::bytes(t.sliceCategory(add)), ks::test::bytes("cpu_op"));
    QCOMPARE(t.slices.eventIndex[add], 0u);
    QCOMPARE(t.slices.flags[add], std::uint8_t(0));
    QCOMPARE(t.tracks.size(), std::size_t(1));
    QCOMPARE(t.tracks[0].kind, TrackKind::CpuThread);
    QCOMPARE(ks::test::bytes(t.name(t.tracks[0].name)), ks::test::bytes("thread 11"));
    QCOMPARE(t.trackOf(add).value, 0u);
    QCOMPARE(t.startNs, TimeNs(1000500));
    QCOMPARE(t.endNs, TimeNs(1030000));
    QCOMPARE(t.diagnostics.total(), 0ull);
}

void TestReaderBasics::beginEndPairs()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "B", "name": "outer", "pid": 1, "tid": 1, "ts": 100, "args": {"k": 1}},
  {"ph": "B", "name": "inner", "pid": 1, "tid": 1, "ts": 110},
  {"ph": "E", "pid": 1, "tid": 1, "ts": 120},
  {"ph": "E", "pid": 1, "tid": 1, "ts": 150},
  {"ph": "B", "name": "never closed", "pid": 1, "tid": 2, "ts": 200},
  {"ph": "E", "pid": 1, "tid": 3, "ts": 250},
  {"ph": "X", "name": "last", "pid": 1, "tid": 4, "ts": 290, "dur": 10})"));
    QCOMPARE(phaseCount(t, Phase::Begin), 3ull);
    QCOMPARE(phaseCount(t, Phase::End), 3ull);
    QCOMPARE(t.slices.size(), std::size_t(4)); // outer, inner, never closed, last
    const std::uint32_t outer = only(slicesNamed(t, "outer"));
    const std::uint32_t inner = only(slicesNamed(t, "inner"));
    const std::uint32_t open = only(slicesNamed(t, "never closed"));
    QVERIFY(outer != kNoRow && inner != kNoRow && open != kNoRow);
    QCOMPARE(t.slices.start[outer], TimeNs(100000));
    QCOMPARE(t.slices.duration(outer), TimeNs(50000));
    QCOMPARE(t.slices.start[inner], TimeNs(110000));
    QCOMPARE(t.slices.duration(inner), TimeNs(10000));
    QCOMPARE(t.levelOf(outer), 0u);
    QCOMPARE(t.levelOf(inner), 1u);
    QVERIFY(t.slices.flags[outer] & kSliceFromBeginEnd);
    QVERIFY(!(t.slices.flags[outer] & kSliceUnclosed));
    QCOMPARE(ks::test::bytes(sliceArgs(t, outer).value()), ks::test::bytes(R"({"k": 1})"));
    // Unmatched B: kept, closed at the rank's last timestamp (300 µs), reported.
    QVERIFY(t.slices.flags[open] & kSliceUnclosed);
    QCOMPARE(t.slices.start[open] + t.slices.duration(open), TimeNs(300000));
    QCOMPARE(diag(t, DiagnosticKind::UnmatchedBegin), 1ull);
    QCOMPARE(t.diagnostics.entry(DiagnosticKind::UnmatchedBegin).exampleEventIndex, std::int64_t(4));
    // Unmatched E: reported, no slice.
    QCOMPARE(diag(t, DiagnosticKind::UnmatchedEnd), 1ull);
    QCOMPARE(t.diagnostics.entry(DiagnosticKind::UnmatchedEnd).exampleEventIndex, std::int64_t(5));
}

void TestReaderBasics::instants()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "name": "op", "pid": 1, "tid": 1, "ts": 10, "dur": 5},
  {"ph": "i", "cat": "cpu_instant_event", "name": "thread mark", "pid": 1, "tid": 1, "ts": 12, "s": "t"},
  {"ph": "i", "name": "default scope", "pid": 1, "tid": 7, "ts": 13},
  {"ph": "I", "name": "global mark", "pid": 1, "tid": 1, "ts": 14, "s": "g"},
  {"ph": "i", "name": "process mark", "pid": 1, "tid": 1, "ts": 15.5, "s": "p", "args": {"a": "b"}})"));
    QCOMPARE(phaseCount(t, Phase::Instant), 4ull);
    QCOMPARE(t.instants.size(), std::size_t(4));
    QCOMPARE(t.memory.size(), std::size_t(0));
    std::map<std::string, std::size_t> row;
    for (std::size_t i = 0; i < t.instants.size(); ++i)
        row[std::string(t.name(t.instants.name[i]))] = i;
    QCOMPARE(row.size(), std::size_t(4));
    const auto threadTrack = ks::test::trackNamed(t, "thread 1");
    const auto instantOnlyTrack = ks::test::trackNamed(t, "thread 7");
    QVERIFY(threadTrack && instantOnlyTrack); // a thread with only instants still gets a track
    QCOMPARE(t.instants.track[row["thread mark"]], *threadTrack);
    QCOMPARE(t.instants.track[row["default scope"]], *instantOnlyTrack);
    QCOMPARE(t.instants.track[row["global mark"]], kNoRow);
    QCOMPARE(t.instants.track[row["process mark"]], kNoRow);
    QCOMPARE(t.instants.ts[row["process mark"]], TimeNs(15500));
    QCOMPARE(ks::test::bytes(instantArgs(t, row["process mark"]).value()), ks::test::bytes(R"({"a": "b"})"));
    QCOMPARE(ks::test::bytes(instantArgs(t, row["global mark"]).value()), ks::test::bytes(""));
    QCOMPARE(t.instants.eventIndex[row["global mark"]], 3u);
}

void TestReaderBasics::memoryInstants()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 5, "tid": 5, "ts": 100,
   "args": {"Total Reserved": 2097152, "Total Allocated": 1536, "Bytes": 512, "Addr": 140230938066944,
        "Device Id": 0, "Device Type": 1}},
  {"ph": "i", "cat": "cpu_instant_event", "s": "t", "name": "[memory]", "pid": 5, "tid": 5, "ts": 101.25,
   "args": {"Device Type": 0, "Device Id": -1, "Addr": 94000000, "Bytes": -512, "Total Allocated": 1024,
        "Total Reserved": 2097152}},
  {"ph": "i", "name": "other", "pid": 5, "tid": 5, "ts": 102})"));
    QCOMPARE(phaseCount(t, Phase::Instant), 3ull);
    QCOMPARE(t.memory.size(), std::size_t(2));
    QCOMPARE(t.instants.size(), std::size_t(1)); // [memory] goes to its own table only
    QCOMPARE(t.memory.ts[0], TimeNs(100000));
    QCOMPARE(t.memory.bytes[0], std::int64_t(512));
    QCOMPARE(t.memory.totalAllocated[0], std::int64_t(1536));
    QCOMPARE(t.memory.deviceId[0], 0);
    QCOMPARE(t.memory.deviceType[0], 1);
    // Every arg the memory analysis reads is kept while parsing (no second read of the file).
    QCOMPARE(t.memory.totalReserved[0], std::int64_t(2097152));
    QCOMPARE(t.memory.addr[0], std::int64_t(140230938066944));
    QCOMPARE(
        t.memory.flags[0], std::uint8_t(kMemoryHasAddr | kMemoryHasCategory | kMemoryCpuInstantCategory));
    QCOMPARE(t.memory.evIdx[0], std::int64_t(-1));
    QCOMPARE(t.memory.threads.size(), std::size_t(1)); // both events are thread (5, 5)'s
    QCOMPARE(t.memory.threads[t.memory.thread[1]].tid, std::int64_t(5));
    QCOMPARE(t.memory.eventIndex[0], 0u);
    QCOMPARE(t.memory.ts[1], TimeNs(101250));
    QCOMPARE(t.memory.bytes[1], std::int64_t(-512));
    QCOMPARE(t.memory.totalAllocated[1], std::int64_t(1024));
    QCOMPARE(t.memory.deviceId[1], -1);
    QCOMPARE(t.memory.deviceType[1], 0);
    QCOMPARE(t.memory.addr[1], std::int64_t(94000000));
}

void TestReaderBasics::counters()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "C", "name": "Memory Bandwidth", "pid": 0, "ts": 10, "args": {"GB/s": 1.5, "label": "x"}},
  {"ph": "C", "name": "Memory Bandwidth", "pid": 0, "ts": 20, "args": {"GB/s": 2.5}},
  {"ph": "C", "name": "Memory Bandwidth", "pid": 1, "ts": 15, "args": {"GB/s": 7}},
  {"ph": "C", "name": "Queue", "pid": 0, "ts": 11, "args": {"len": 3, "waiting": 1}})"));
    QCOMPARE(phaseCount(t, Phase::Counter), 4ull);
    QCOMPARE(t.counters.size(), std::size_t(4)); // bw pid 0, bw pid 1, queue/len, queue/waiting
    QCOMPARE(t.counterPoints(), std::size_t(5));
    const CounterSeries* bw0 = nullptr;
    const CounterSeries* bw1 = nullptr;
    const CounterSeries* len = nullptr;
    for (const CounterSeries& s : t.counters) {
        if (t.name(s.name) == "Memory Bandwidth" && t.name(s.key) == "GB/s")
            (s.pid == 0 ? bw0 : bw1) = &s;
        if (t.name(s.name) == "Queue" && t.name(s.key) == "len")
            len = &s;
    }
    QVERIFY(bw0 && bw1 && len);
    QCOMPARE(bw0->ts, (std::vector<TimeNs> { 10000, 20000 }));
    QCOMPARE(bw0->value, (std::vector<double> { 1.5, 2.5 }));
    QCOMPARE(bw1->pid, std::int64_t(1));
    QCOMPARE(bw1->value, (std::vector<double> { 7.0 }));
    QCOMPARE(len->ts, (std::vector<TimeNs> { 11000 }));
    QCOMPARE(len->value, (std::vector<double> { 3.0 }));
}

void TestReaderBasics::metadataNamesAndSortOrder()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"j(
  {"ph": "X", "name": "a", "pid": 10, "tid": 11, "ts": 1, "dur": 1},
  {"ph": "X", "name": "b", "pid": 10, "tid": 12, "ts": 1, "dur": 1},
  {"ph": "X", "name": "c", "pid": 20, "tid": 21, "ts": 1, "dur": 1},
  {"name": "process_name", "ph": "M", "pid": 10, "tid": 0, "args": {"name": "python3"}},
  {"name": "process_sort_index", "ph": "M", "pid": 10, "tid": 0, "args": {"sort_index": 5}},
  {"name": "process_name", "ph": "M", "pid": 20, "tid": 0, "args": {"name": "worker"}},
  {"name": "process_sort_index", "ph": "M", "pid": 20, "tid": 0, "args": {"sort_index": 1}},
  {"name": "thread_name", "ph": "M", "pid": 10, "tid": 11, "args": {"name": "python"}},
  {"name": "thread_name", "ph": "M", "pid": 10, "tid": 12, "args": {"name": "thread 12 (pt_autograd_0)"}},
  {"name": "thread_sort_index", "ph": "M", "pid": 10, "tid": 11, "args": {"sort_index": 2}},
  {"name": "thread_sort_index", "ph": "M", "pid": 10, "tid": 12, "args": {"sort_index": 1}})j"));
    QCOMPARE(phaseCount(t, Phase::Metadata), 8ull);
    QCOMPARE(t.tracks.size(), std::size_t(3));
    // Process sort index 1 (pid 20) before 5 (pid 10); inside pid 10, thread sort 1 (tid 12) before 2.
    QCOMPARE(t.tracks[0].key.pid, std::int64_t(20));
    QCOMPARE(t.tracks[1].key.tid, std::int64_t(12));
    QCOMPARE(t.tracks[2].key.tid, std::int64_t(11));
    QCOMPARE(ks::test::bytes(t.name(t.tracks[0].processName)), ks::test::bytes("worker"));
    QCOMPARE(ks::test::bytes(t.name(t.tracks[1].processName)), ks::test::bytes("python3"));
    QCOMPARE(t.tracks[0].processSortIndex, std::int64_t(1));
    QCOMPARE(t.tracks[1].processSortIndex, std::int64_t(5));
    QCOMPARE(t.tracks[1].threadSortIndex, std::int64_t(1));
    QCOMPARE(t.tracks[2].threadSortIndex, std::int64_t(2));
    QCOMPARE(ks::test::bytes(t.name(t.tracks[0].name)), ks::test::bytes("thread 21"));
    QCOMPARE(ks::test::bytes(t.name(t.tracks[1].name)), ks::test::bytes("thread 12 (pt_autograd_0)"));
    QCOMPARE(ks::test::bytes(t.name(t.tracks[2].name)), ks::test::bytes("thread 11 (python)"));
    QCOMPARE(diag(t, DiagnosticKind::DuplicateMetadata), 0ull);
}

void TestReaderBasics::duplicateMetadataReported()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "name": "a", "pid": 10, "tid": 11, "ts": 1, "dur": 1},
  {"name": "process_name", "ph": "M", "pid": 10, "tid": 0, "args": {"name": "python3"}},
  {"name": "process_name", "ph": "M", "pid": 10, "tid": 0, "args": {"name": "python3"}},
  {"name": "process_name", "ph": "M", "pid": 10, "tid": 0, "args": {"name": "other"}})"));
    QCOMPARE(diag(t, DiagnosticKind::DuplicateMetadata), 1ull);
    QCOMPARE(t.diagnostics.entry(DiagnosticKind::DuplicateMetadata).exampleEventIndex, std::int64_t(3));
}

void TestReaderBasics::stringAndIntegerPidTid()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"j(
  {"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 5, "dur": 100},
  {"ph": "X", "name": "int ids", "pid": 10, "tid": 11, "ts": 5, "dur": 1},
  {"ph": "X", "name": "string tid", "pid": 10, "tid": "11", "ts": 6, "dur": 1},
  {"ph": "X", "name": "same string thread", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 200, "dur": 1})j"));
    QCOMPARE(t.slices.size(), std::size_t(4));
    const std::uint32_t spans = only(slicesNamed(t, "PyTorch Profiler (0)"));
    const std::uint32_t later = only(slicesNamed(t, "same string thread"));
    QCOMPARE(t.trackOf(spans), t.trackOf(later));
    const Track& st = t.tracks[t.trackOf(spans).value];
    QVERIFY(st.key.pidIsName && st.key.tidIsName);
    QCOMPARE(
        ks::test::bytes(t.name(NameId { static_cast<std::uint32_t>(st.key.pid) })), ks::test::bytes("Spans"));
    QCOMPARE(ks::test::bytes(t.name(st.name)), ks::test::bytes("thread PyTorch Profiler"));
    const Track& it = t.tracks[t.trackOf(only(slicesNamed(t, "int ids"))).value];
    QVERIFY(!it.key.pidIsName && !it.key.tidIsName);
    QCOMPARE(it.key.pid, std::int64_t(10));
    QCOMPARE(it.key.tid, std::int64_t(11));
    QCOMPARE(diag(t, DiagnosticKind::WrongFieldType), 0ull);
}

// Key order, placement of traceEvents, whitespace and a bare array must not
// change what is read.
void TestReaderBasics::documentShapes_data()
{
    QTest::addColumn<QByteArray>("json");
    const QByteArray events =
        R"([{"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":2,"ts":10.5,"dur":3},)"
        R"({"ph":"B","name":"b","pid":1,"tid":2,"ts":20},{"ph":"E","pid":1,"tid":2,"ts":25},)"
        R"({"ph":"i","name":"m","pid":1,"tid":2,"ts":21,"s":"t"}])";
    QTest::newRow("minified") << QByteArray(R"({"schemaVersion":1,"traceEvents":)" + events + "}");
    QTest::newRow("traceEvents first")
        << QByteArray(R"({"traceEvents":)" + events + R"(,"schemaVersion":1})");
    QTest::newRow("traceEvents after other keys")
        << QByteArray(R"({"schemaVersion":1,"deviceProperties":[{"id":0,"name":"[x]{"}],"traceName":"t\"]",)"
                      R"("distributedInfo":{"rank":0},"traceEvents":)"
               + events + "}");
    QTest::newRow("bare array") << events;
    QTest::newRow("pretty") << QByteArray(R"(
{
  "schemaVersion": 1,
  "traceEvents": [
   {
  "args": {}, "dur": 3, "ts": 10.5, "tid": 2, "pid": 1, "name": "a", "cat": "cpu_op", "ph": "X"
   } ,
   { "ts" : 20 , "tid" : 2 , "pid" : 1 , "name" : "b" , "ph" : "B" } ,
   {"tid": 2, "ts": 25, "pid": 1, "ph": "E"},
   {
  "s": "t",
  "ts": 21,
  "tid": 2,
  "pid": 1,
  "name": "m",
  "ph": "i"
   }
  ]
}
)");
}

void TestReaderBasics::documentShapes()
{
    QFETCH(QByteArray, json);
    LOAD_OR_FAIL(t, json);
    QCOMPARE(t.counts.events, 4ull);
    QCOMPARE(phaseCount(t, Phase::Complete), 1ull);
    QCOMPARE(phaseCount(t, Phase::Begin), 1ull);
    QCOMPARE(phaseCount(t, Phase::End), 1ull);
    QCOMPARE(phaseCount(t, Phase::Instant), 1ull);
    QCOMPARE(t.slices.size(), std::size_t(2));
    const std::uint32_t a = only(slicesNamed(t, "a"));
    const std::uint32_t b = only(slicesNamed(t, "b"));
    QVERIFY(a != kNoRow && b != kNoRow);
    QCOMPARE(t.slices.start[a], TimeNs(10500));
    QCOMPARE(t.slices.duration(a), TimeNs(3000));
    QCOMPARE(ks::test::bytes(t.sliceCategory(a)), ks::test::bytes("cpu_op"));
    QCOMPARE(t.slices.start[b], TimeNs(20000));
    QCOMPARE(t.slices.duration(b), TimeNs(5000));
    QCOMPARE(t.instants.size(), std::size_t(1));
    QCOMPARE(t.tracks.size(), std::size_t(1));
    QCOMPARE(t.diagnostics.total(), 0ull);
}

void TestReaderBasics::topLevelKeysAroundTraceEvents()
{
    LOAD_OR_FAIL(t, QByteArray(R"({"schemaVersion": 1,
 "deviceProperties": [{"id": 0, "name": "NVIDIA H100", "totalGlobalMem": 85000000000, "computeMajor": 9,
                   "computeMinor": 0, "numSms": 132}],
 "distributedInfo": {"backend": "nccl", "rank": 6, "world_size": 8, "pg_count": 1,
   "pg_config": [{"pg_name": "0", "pg_desc": "default_pg", "backend_config": "cuda:nccl", "pg_size": 8,
              "ranks": [0, 1, 2, 3, 4, 5, 6, 7]}]},
 "traceEvents": [{"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1}],
 "traceName": "job \"x\" [rank 6]",
 "displayTimeUnit": "ms",
 "baseTimeNanoseconds": 1712190000000000000})"));
    QCOMPARE(t.counts.events, 1ull);
    const RankMetadata& m = t.metadata;
    QCOMPARE(m.schemaVersion, std::optional<std::int64_t>(1));
    QVERIFY(m.hasDistributedInfo);
    QCOMPARE(m.distributedRank, std::optional<std::int64_t>(6));
    QCOMPARE(m.worldSize, std::optional<std::int64_t>(8));
    QCOMPARE(m.backend, std::optional<std::string>("nccl"));
    QCOMPARE(m.processGroups.size(), std::size_t(1));
    QCOMPARE(m.processGroups[0].ranks.size(), std::size_t(8));
    QCOMPARE(m.processGroups[0].description, std::string("default_pg"));
    QCOMPARE(m.devices.size(), std::size_t(1));
    QCOMPARE(m.devices[0].name, std::string("NVIDIA H100"));
    QCOMPARE(m.devices[0].numSms, std::int64_t(132));
    QCOMPARE(m.traceName, std::optional<std::string>("job \"x\" [rank 6]"));
    QCOMPARE(m.displayTimeUnit, std::optional<std::string>("ms"));
    QCOMPARE(m.baseTimeNanoseconds, std::optional<std::int64_t>(1712190000000000000));
    QCOMPARE(m.rawKeys.size(), std::size_t(6));
    QCOMPARE(m.rawKeys[0].first, std::string("schemaVersion"));
    QCOMPARE(m.rawKeys[3].first, std::string("traceName"));
    QCOMPARE(ks::test::bytes(m.rawKeys[3].second), ks::test::bytes(R"("job \"x\" [rank 6]")"));
    QCOMPARE(t.rank, std::int64_t(6));
    QCOMPARE(t.rankSource, RankSource::DistributedInfo);
}

void TestReaderBasics::nestingLevels()
{
    // A [0,100] > B [10,50] > C [20,30]; D [60,90] under A; E starts where A ends.
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "name": "E", "pid": 1, "tid": 1, "ts": 100, "dur": 10},
  {"ph": "X", "name": "C", "pid": 1, "tid": 1, "ts": 20, "dur": 10},
  {"ph": "X", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
  {"ph": "X", "name": "D", "pid": 1, "tid": 1, "ts": 60, "dur": 30},
  {"ph": "X", "name": "B", "pid": 1, "tid": 1, "ts": 10, "dur": 40},
  {"ph": "X", "name": "same span as C", "pid": 1, "tid": 1, "ts": 20, "dur": 10})"));
    QCOMPARE(t.tracks.size(), std::size_t(1));
    const Track& tr = t.tracks[0];
    QCOMPARE(tr.nestingLevels, 4u);
    QCOMPARE(tr.levelCount(), 4u);
    QCOMPARE(t.levelOf(only(slicesNamed(t, "A"))), 0u);
    QCOMPARE(t.levelOf(only(slicesNamed(t, "E"))), 0u);
    QCOMPARE(t.levelOf(only(slicesNamed(t, "B"))), 1u);
    QCOMPARE(t.levelOf(only(slicesNamed(t, "D"))), 1u);
    const std::uint32_t c = only(slicesNamed(t, "C"));
    const std::uint32_t c2 = only(slicesNamed(t, "same span as C"));
    QCOMPARE(t.levelOf(c) + t.levelOf(c2), 5u); // one at 2, the other nested inside it at 3
    QCOMPARE(diag(t, DiagnosticKind::OverlappingSlices), 0ull);
    // Level after level, each sorted by start.
    QCOMPARE(tr.levelBegin, (std::vector<std::uint32_t> { 0, 2, 4, 5, 6 }));
    for (std::uint32_t l = 0; l < tr.levelCount(); ++l)
        for (std::uint32_t i = tr.levelBegin[l] + 1; i < tr.levelBegin[l + 1]; ++i)
            QVERIFY(t.slices.end(i - 1) <= t.slices.start[i]);
}

void TestReaderBasics::roundingOvershootNests()
{
    // Integer-µs trace: a child 1 µs past its parent nests (a rounding note);
    // 2 µs past is a real overlap. The parent's next sibling stays at level 0.
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "name": "P", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
  {"ph": "X", "name": "late by 1", "pid": 1, "tid": 1, "ts": 5, "dur": 6},
  {"ph": "X", "name": "next", "pid": 1, "tid": 1, "ts": 10, "dur": 10},
  {"ph": "X", "name": "late by 2", "pid": 1, "tid": 1, "ts": 15, "dur": 7})"));
    const std::uint32_t late1 = only(slicesNamed(t, "late by 1"));
    const std::uint32_t late2 = only(slicesNamed(t, "late by 2"));
    QCOMPARE(t.levelOf(late1), 1u);
    QVERIFY(t.slices.flags[late1] & kSliceRoundedNesting);
    QCOMPARE(t.levelOf(only(slicesNamed(t, "next"))), 0u);
    QCOMPARE(diag(t, DiagnosticKind::RoundedNesting), 1ull);
    QCOMPARE(diag(t, DiagnosticKind::OverlappingSlices), 1ull);
    QVERIFY(t.slices.flags[late2] & kSliceOverflowLane);
    QCOMPARE(t.diagnostics.anomalies(), 1ull);
    QCOMPARE(t.slices.end(late1), TimeNs(11000)); // the duration is kept as written

    // ns-resolution trace: the same 1 µs is an overlap, 1 ns is rounding.
    LOAD_OR_FAIL(n, ks::test::kinetoDoc(R"(
  {"ph": "X", "name": "P", "pid": 1, "tid": 1, "ts": 0.5, "dur": 10},
  {"ph": "X", "name": "late by 1 ns", "pid": 1, "tid": 1, "ts": 5, "dur": 5.501},
  {"ph": "X", "name": "Q", "pid": 1, "tid": 1, "ts": 20, "dur": 10},
  {"ph": "X", "name": "late by 1 us", "pid": 1, "tid": 1, "ts": 25, "dur": 6})"));
    QVERIFY(n.slices.flags[only(slicesNamed(n, "late by 1 ns"))] & kSliceRoundedNesting);
    QVERIFY(n.slices.flags[only(slicesNamed(n, "late by 1 us"))] & kSliceOverflowLane);
    QCOMPARE(diag(n, DiagnosticKind::RoundedNesting), 1ull);
    QCOMPARE(diag(n, DiagnosticKind::OverlappingSlices), 1ull);
}

void TestReaderBasics::overlappingSlicesGetExtraLanes()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "name": "A", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
  {"ph": "X", "name": "A child", "pid": 1, "tid": 1, "ts": 10, "dur": 10},
  {"ph": "X", "name": "B", "pid": 1, "tid": 1, "ts": 50, "dur": 100},
  {"ph": "X", "name": "C", "pid": 1, "tid": 1, "ts": 60, "dur": 100},
  {"ph": "X", "name": "after", "pid": 1, "tid": 1, "ts": 200, "dur": 1})"));
    QCOMPARE(t.slices.size(), std::size_t(5)); // never lost
    const Track& tr = t.tracks[0];
    QCOMPARE(tr.nestingLevels, 2u);
    QCOMPARE(tr.levelCount(), 4u); // two extra lanes: B and C overlap A and each other
    const std::uint32_t b = only(slicesNamed(t, "B"));
    const std::uint32_t c = only(slicesNamed(t, "C"));
    QCOMPARE(t.levelOf(b), 2u);
    QCOMPARE(t.levelOf(c), 3u);
    QVERIFY(t.slices.flags[b] & kSliceOverflowLane);
    QVERIFY(t.slices.flags[c] & kSliceOverflowLane);
    QVERIFY(!(t.slices.flags[only(slicesNamed(t, "A"))] & kSliceOverflowLane));
    QCOMPARE(diag(t, DiagnosticKind::OverlappingSlices), 2ull);
    QCOMPARE(t.diagnostics.entry(DiagnosticKind::OverlappingSlices).exampleEventIndex, std::int64_t(2));
    // A range query over the overlap finds all of A, B and C.
    const auto hits = t.slicesInRange(TrackId { 0 }, 70000, 80000);
    QCOMPARE(hits.size(), std::size_t(3));
}

void TestReaderBasics::gpuTracksFirst()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "cpu_op", "name": "op", "pid": 10, "tid": 11, "ts": 1, "dur": 50},
  {"ph": "X", "cat": "kernel", "name": "k1", "pid": 1, "tid": 7, "ts": 10, "dur": 5, "args": {"device": 1, "stream": 7}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": 20, "ts": 10, "dur": 5},
  {"ph": "X", "cat": "kernel", "name": "k0", "pid": 0, "tid": 7, "ts": 12, "dur": 5, "args": {"device": 0, "stream": 7}},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset", "pid": 0, "tid": 13, "ts": 20, "dur": 1},
  {"name": "thread_name", "ph": "M", "pid": 10, "tid": 11, "args": {"name": "python"}})"));
    QCOMPARE(t.tracks.size(), std::size_t(5));
    const std::vector<std::pair<std::int64_t, std::int64_t>> expected { { 0, 7 }, { 0, 13 }, { 0, 20 },
        { 1, 7 } };
    for (std::size_t i = 0; i < expected.size(); ++i) {
        const Track& tr = t.tracks[i];
        QCOMPARE(tr.kind, TrackKind::GpuStream);
        QCOMPARE(tr.device, expected[i].first);
        QCOMPARE(tr.stream, expected[i].second);
        QCOMPARE(ks::test::bytes(t.name(tr.name)),
            ks::test::bytes("stream " + std::to_string(expected[i].second)));
    }
    QCOMPARE(t.tracks[4].kind, TrackKind::CpuThread);
    QCOMPARE(ks::test::bytes(t.name(t.tracks[4].name)), ks::test::bytes("thread 11 (python)"));
}

// Kineto names GPU tracks "stream 7 " (trailing space) in thread_name
// metadata; every shared trace does. The track should read "stream 7".
void TestReaderBasics::kinetoStreamNameIsTrimmed()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10, "dur": 5},
  {"name": "thread_name", "ph": "M", "ts": 0, "pid": 0, "tid": 7, "args": {"name": "stream 7 "}},
  {"name": "thread_sort_index", "ph": "M", "ts": 0, "pid": 0, "tid": 7, "args": {"sort_index": 7}})"));
    QCOMPARE(t.tracks.size(), std::size_t(1));
    QCOMPARE(ks::test::bytes(t.name(t.tracks[0].name)), ks::test::bytes("stream 7"));
}

void TestReaderBasics::typedArgs()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"j(
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 10, "dur": 5,
   "args": {"queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": 123456789012, "registers per thread": 32,
        "External id": 45, "grid": [1, 1, 1]}},
  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 8, "ts": 20, "dur": 2,
   "args": {"device": 0, "context": 1, "stream": 8, "correlation": 124, "bytes": 4096, "memory bandwidth (GB/s)": 12.5}},
  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
   "pid": 0, "tid": 40, "ts": 30, "dur": 9,
   "args": {"stream": 40, "correlation": 125, "Collective name": "allreduce", "In msg nelems": 1048576,
        "Out msg nelems": 1048576, "Group size": 8, "dtype": "Float", "Rank": 3, "Process Group Name": "0",
        "Process Group Description": "default_pg", "Seq": 17}},
  {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 8, "ts": 40, "dur": 0,
   "args": {"stream": 8, "correlation": 126, "wait_on_stream": 7, "wait_on_cuda_event_record_corr_id": 120}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 10, "ts": 5, "dur": 1, "args": {"Sequence number": 3}})j"));
    const std::uint32_t gemm = only(slicesNamed(t, "gemm"));
    QCOMPARE(t.stream(gemm), std::int64_t(7));
    QCOMPARE(t.correlation(gemm), std::int64_t(123456789012));
    QCOMPARE(rereadExternalId(t, gemm), std::int64_t(45));

    const std::uint32_t copy = only(slicesNamed(t, "Memcpy DtoH (Device -> Pinned)"));
    QVERIFY(t.extraRow(copy) != kNoRow);
    QCOMPARE(t.extra.bytes[t.extraRow(copy)], std::int64_t(4096));
    QCOMPARE(t.extra.memoryBandwidthGBps[t.extraRow(copy)], 12.5);
    QCOMPARE(t.extra.device[t.extraRow(copy)], 0);
    QCOMPARE(t.extra.waitOnStream[t.extraRow(copy)], -1);
    QCOMPARE(rereadExternalId(t, copy), std::int64_t(-1));

    const std::uint32_t nccl = [&] {
        for (std::uint32_t i = 0; i < t.slices.size(); ++i)
            if (t.sliceName(i).rfind("ncclDevKernel", 0) == 0)
                return i;
        return kNoRow;
    }();
    QVERIFY(nccl != kNoRow);
    const std::uint32_t x = t.extraRow(nccl);
    QVERIFY(x != kNoRow);
    QCOMPARE(ks::test::bytes(t.name(t.extra.collectiveName[x])), ks::test::bytes("allreduce"));
    QCOMPARE(t.extra.inMsgNelems[x], std::int64_t(1048576));
    QCOMPARE(t.extra.outMsgNelems[x], std::int64_t(1048576));
    QCOMPARE(t.extra.groupSize[x], std::int64_t(8));
    QCOMPARE(ks::test::bytes(t.name(t.extra.dtype[x])), ks::test::bytes("Float"));
    QCOMPARE(t.extra.processRank[x], std::int64_t(3));
    QCOMPARE(ks::test::bytes(t.name(t.extra.processGroupName[x])), ks::test::bytes("0"));
    QCOMPARE(t.extra.sequenceNumber[x], std::int64_t(17));

    const std::uint32_t wait = only(slicesNamed(t, "Stream Wait Event"));
    QVERIFY(t.extraRow(wait) != kNoRow);
    QCOMPARE(t.extra.waitOnStream[t.extraRow(wait)], 7);
    QCOMPARE(t.extra.waitOnEventRecordCorrelation[t.extraRow(wait)], std::int64_t(120));

    const std::uint32_t mm = only(slicesNamed(t, "aten::mm"));
    QCOMPARE(t.correlation(mm), std::int64_t(-1));
    QCOMPARE(t.stream(mm), std::int64_t(-1));
    QCOMPARE(t.extraRow(mm), kNoRow);
}

// A B's typed args wait with it for its E, while X slices with their own args
// complete inside it, and an unclosed B keeps its args too: each slice must end
// up with its own correlation, stream and extra row.
void TestReaderBasics::typedArgsOfBeginEndSlices()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"j(
  {"ph": "B", "cat": "cuda_runtime", "name": "outer", "pid": 1, "tid": 2, "ts": 10,
   "args": {"correlation": 70, "stream": 3}},
  {"ph": "X", "cat": "cuda_runtime", "name": "inner", "pid": 1, "tid": 2, "ts": 11, "dur": 2,
   "args": {"correlation": 80}},
  {"ph": "B", "cat": "cpu_op", "name": "plain", "pid": 1, "tid": 2, "ts": 14},
  {"ph": "X", "cat": "gpu_memcpy", "name": "copy", "pid": 0, "tid": 7, "ts": 15, "dur": 1,
   "args": {"stream": 7, "correlation": 90, "bytes": 64}},
  {"ph": "E", "pid": 1, "tid": 2, "ts": 16},
  {"ph": "E", "pid": 1, "tid": 2, "ts": 20},
  {"ph": "B", "cat": "gpu_memset", "name": "unclosed", "pid": 0, "tid": 7, "ts": 30,
   "args": {"stream": 7, "correlation": 100, "bytes": 128}})j"));
    const std::uint32_t outer = only(slicesNamed(t, "outer"));
    QCOMPARE(t.correlation(outer), std::int64_t(70));
    QCOMPARE(t.stream(outer), std::int64_t(3));
    QCOMPARE(t.slices.duration(outer), std::int64_t(10'000));
    const std::uint32_t inner = only(slicesNamed(t, "inner"));
    QCOMPARE(t.correlation(inner), std::int64_t(80));
    QCOMPARE(t.stream(inner), std::int64_t(-1));
    const std::uint32_t plain = only(slicesNamed(t, "plain"));
    QCOMPARE(t.correlation(plain), std::int64_t(-1));
    QCOMPARE(t.extraRow(plain), kNoRow);
    const std::uint32_t copy = only(slicesNamed(t, "copy"));
    QCOMPARE(t.correlation(copy), std::int64_t(90));
    QVERIFY(t.extraRow(copy) != kNoRow);
    QCOMPARE(t.extra.bytes[t.extraRow(copy)], std::int64_t(64));
    const std::uint32_t unclosed = only(slicesNamed(t, "unclosed"));
    QCOMPARE(t.correlation(unclosed), std::int64_t(100));
    QVERIFY(t.extraRow(unclosed) != kNoRow);
    QCOMPARE(t.extra.bytes[t.extraRow(unclosed)], std::int64_t(128));
}

void TestReaderBasics::rawArgsKeepOriginalText()
{
    const QByteArray args = R"({ "stream":7,  "note" : "a \"quoted\" ]}[ \u00e9",
  "nested": {"x": [1, 2.50, -0.0]}, "big": 12345678901234567890 })";
    LOAD_OR_FAIL(t,
        ks::test::kinetoDoc(R"({"ph": "X", "name": "k", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": )"
            + args + R"(}, {"ph": "X", "name": "no args", "pid": 1, "tid": 1, "ts": 3, "dur": 1})"));
    const std::uint32_t k = only(slicesNamed(t, "k"));
    QVERIFY(t.slices.flags[k] & kSliceHasArgs);
    QCOMPARE(QByteArray::fromStdString(sliceArgs(t, k).value()), args);
    QCOMPARE(t.stream(k), std::int64_t(7));
    const std::uint32_t noArgs = only(slicesNamed(t, "no args"));
    QVERIFY(!(t.slices.flags[noArgs] & kSliceHasArgs));
    QCOMPARE(sliceArgs(t, noArgs).value(), std::string());
}

void TestReaderBasics::timestampsExactAtEpochScale()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1712195495505543.2, "dur": 0.001},
  {"ph": "X", "name": "b", "pid": 1, "tid": 1, "ts": 1712195495519689.047, "dur": 63.813},
  {"ph": "X", "name": "c", "pid": 1, "tid": 1, "ts": 1712195495505543, "dur": 1},
  {"ph": "i", "name": "i", "pid": 1, "tid": 1, "ts": 1712195495519700.999, "s": "t"})"));
    const std::uint32_t a = only(slicesNamed(t, "a"));
    const std::uint32_t b = only(slicesNamed(t, "b"));
    const std::uint32_t c = only(slicesNamed(t, "c"));
    QCOMPARE(t.slices.start[a], TimeNs(1712195495505543200));
    QCOMPARE(t.slices.duration(a), TimeNs(1));
    QCOMPARE(t.slices.start[b], TimeNs(1712195495519689047));
    QCOMPARE(t.slices.duration(b), TimeNs(63813));
    QCOMPARE(t.slices.start[c], TimeNs(1712195495505543000));
    QCOMPARE(t.instants.ts[0], TimeNs(1712195495519700999));
    QCOMPARE(t.startNs, TimeNs(1712195495505543000));
    QCOMPARE(t.endNs, TimeNs(1712195495519752860));
}

void TestReaderBasics::longDurationsKeptExactly()
{
    // 5 s and 3000 s do not fit the 32-bit ns column: kept in the overflow table.
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "name": "long", "pid": 1, "tid": 1, "ts": 1000, "dur": 5000000.001},
  {"ph": "X", "name": "longer", "pid": 1, "tid": 2, "ts": 1000, "dur": 3000000000},
  {"ph": "X", "name": "limit", "pid": 1, "tid": 3, "ts": 1000, "dur": 4294967.294})"));
    QCOMPARE(t.slices.duration(only(slicesNamed(t, "long"))), TimeNs(5000000001));
    QCOMPARE(t.slices.duration(only(slicesNamed(t, "longer"))), TimeNs(3000000000000));
    QCOMPARE(t.slices.duration(only(slicesNamed(t, "limit"))), TimeNs(4294967294));
    QCOMPARE(diag(t, DiagnosticKind::DurationOverflow), 2ull);
}

#endif // Q_MOC_RUN

KS_TEST_MAIN(tst_reader_basics, TestReaderBasics)
#include "tst_reader_basics.moc"
