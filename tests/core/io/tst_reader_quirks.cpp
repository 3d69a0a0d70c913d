// What real producers write that is not quite what a trace should be (HTA PRs #324,
// #325, #342, PyTorch #130622): ids above 2^63, bytes that are not UTF-8, raw control
// characters in strings, negative and corrupted durations, NCCL kernels' Seq and
// Comms Id. Each trace loads, keeps every other event, and names what it met in the
// import diagnostics with a count and an example.

#include "app/common/thread_pool_parallel_for.h"
#include "core/io/json/args_reader.h"
#include "core/io/trace_set_loader.h"
#include "tests/support/test_main.h"
#include "tests/support/test_trace_files.h"

#include <QTest>

using namespace ks::core;
using ks::test::diag;
using ks::test::only;
using ks::test::slicesNamed;

class TestReaderQuirks : public QObject
{
    Q_OBJECT

private slots:
    void idsAboveInt64StillLink();
    void integersBeyond64BitsCountedNotRead();
    void invalidUtf8ReadAsQuestionMarks();
    void controlCharactersReadAsSpaces();
    void repairsCountedOnTheirEvents();
    void negativeSubMicrosecondDurationKept();
    void corruptedDurationsSkipped();
    void noDurationLimitKeepsThem();
    void ncclKernelSeqAndCommsId();
};

namespace {

// A launch and the NCCL kernel it launched, joined by a uint64 correlation id, with
// NCCL's Seq and its uint64 communicator hash on the kernel, and a flow whose id is a uint64.
const QByteArray kNcclLaunch = R"json(
  {"ph": "X", "cat": "cpu_op", "name": "record_param_comms", "pid": 10, "tid": 11, "ts": 1000, "dur": 20},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 1005, "dur": 4,
   "args": {"correlation": 18446744073709551000, "External id": 3}},
  {"ph": "X", "cat": "kernel", "name": "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
   "pid": 0, "tid": 7, "ts": 1012, "dur": 3,
   "args": {"device": 0, "stream": 7, "correlation": 18446744073709551000, "Seq": 41,
            "Comms Id": 18446744073709551615, "Collective name": "allreduce", "Group size": 2,
            "Process Group Name": "0"}},
  {"ph": "s", "id": 18446744073709551000, "pid": 10, "tid": 11, "ts": 1005, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 18446744073709551000, "pid": 0, "tid": 7, "ts": 1012, "cat": "ac2g", "name": "ac2g", "bp": "e"})json";

constexpr std::string_view kNcclKernel =
    "ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)";

} // namespace

// Python's json reads any integer; yajl and int64 readers fail on NCCL's Comms Id. The
// ids are read less 2^63: both ends of the launch still pair, and stay non-negative.
void TestReaderQuirks::idsAboveInt64StillLink()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(kNcclLaunch));
    QCOMPARE(t.slices.size(), std::size_t(3));
    const std::uint32_t launch = only(slicesNamed(t, "cudaLaunchKernel"));
    const std::uint32_t kernel = only(slicesNamed(t, kNcclKernel));
    QVERIFY(launch != kNoRow && kernel != kNoRow);
    QCOMPARE(t.correlation(launch), std::int64_t(18446744073709551000ull - (1ull << 63)));
    QCOMPARE(t.correlation(kernel), t.correlation(launch));
    QCOMPARE(t.links.size(), std::size_t(1)); // the flow, paired by its uint64 id
    QCOMPARE(t.links.from[0], launch);
    QCOMPARE(t.links.to[0], kernel);
    // Launch (correlation), kernel (correlation, Comms Id), flow start and end (id).
    QCOMPARE(diag(t, DiagnosticKind::LargeInteger), 4ull);
    QVERIFY(isNote(DiagnosticKind::LargeInteger));
    const auto& entry = t.diagnostics.entry(DiagnosticKind::LargeInteger);
    QCOMPARE(entry.exampleEventIndex, std::int64_t(1));
    QVERIFY2(entry.example.find("'correlation'") != std::string::npos, entry.example.c_str());
    QCOMPARE(t.diagnostics.anomalies(), 0ull);
}

void TestReaderQuirks::integersBeyond64BitsCountedNotRead()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 10, "dur": 3,
   "args": {"stream": 7, "correlation": 99999999999999999999999, "Comms Id": 123}},
  {"ph": "X", "cat": "cpu_op", "name": "op", "pid": 1, "tid": 1, "ts": 10, "dur": 3})"));
    QCOMPARE(t.slices.size(), std::size_t(2));
    const std::uint32_t k = only(slicesNamed(t, "k"));
    QVERIFY(k != kNoRow);
    QCOMPARE(t.correlation(k), std::int64_t(-1)); // not read: no id to link by
    QCOMPARE(t.stream(k), std::int64_t(7));
    QCOMPARE(diag(t, DiagnosticKind::LargeInteger), 1ull);
    QCOMPARE(t.diagnostics.entry(DiagnosticKind::LargeInteger).exampleEventIndex, std::int64_t(0));
}

// Names cut inside a multi-byte character: simdjson rejects the whole piece, so the
// reader rewrites each invalid byte to '?' (one byte for one: offsets hold) and reads on.
void TestReaderQuirks::invalidUtf8ReadAsQuestionMarks()
{
    LOAD_OR_FAIL(t,
        ks::test::kinetoDoc(
            "{\"ph\": \"X\", \"name\": \"before\", \"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 1},"
            "{\"ph\": \"X\", \"name\": \"cut\xe2\x82 caf\xc3\xa9 \xff\", \"pid\": 1, \"tid\": 1, "
            "\"ts\": 2, \"dur\": 1},"
            "{\"ph\": \"X\", \"name\": \"after\", \"pid\": 1, \"tid\": 1, \"ts\": 3, \"dur\": 1}"));
    QCOMPARE(t.slices.size(), std::size_t(3));
    QCOMPARE(slicesNamed(t, "cut?? caf\xc3\xa9 ?").size(), std::size_t(1)); // valid UTF-8 kept as it is
    QCOMPARE(slicesNamed(t, "before").size(), std::size_t(1));
    QCOMPARE(slicesNamed(t, "after").size(), std::size_t(1));
    QCOMPARE(diag(t, DiagnosticKind::InvalidUtf8), 1ull);
    const auto& entry = t.diagnostics.entry(DiagnosticKind::InvalidUtf8);
    QCOMPARE(entry.exampleEventIndex, std::int64_t(1));
    QVERIFY2(entry.example.find("3 byte(s)") != std::string::npos, entry.example.c_str());
    QCOMPARE(diag(t, DiagnosticKind::WrongFieldType), 0ull);
}

// torch._dynamo's traces hold raw newlines and tabs inside names (PyTorch #130622).
void TestReaderQuirks::controlCharactersReadAsSpaces()
{
    LOAD_OR_FAIL(t,
        ks::test::kinetoDoc("{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": "
                            "\"torch/_dynamo/eval_frame.py(12): f\n\tg\", \"pid\": 1, \"tid\": 1, "
                            "\"ts\": 1, \"dur\": 4,\n \"args\": {\"note\": \"a\rb\"}},"
                            "{\"ph\": \"X\", \"name\": \"escaped \\n stays\", \"pid\": 1, \"tid\": 1, "
                            "\"ts\": 2, \"dur\": 1}"));
    QCOMPARE(t.slices.size(), std::size_t(2));
    QCOMPARE(slicesNamed(t, "torch/_dynamo/eval_frame.py(12): f  g").size(), std::size_t(1));
    QCOMPARE(slicesNamed(t, "escaped \n stays").size(), std::size_t(1));
    QCOMPARE(diag(t, DiagnosticKind::ControlCharacter), 1ull); // one event
    const auto& entry = t.diagnostics.entry(DiagnosticKind::ControlCharacter);
    QCOMPARE(entry.exampleEventIndex, std::int64_t(0));
    // The name's newline and tab and the arg's carriage return; the newline between members is JSON.
    QVERIFY2(entry.example.find("3 unescaped") != std::string::npos, entry.example.c_str());
}

// Several pieces (small chunks), the repairs in later ones: each counted on its own event,
// on the threaded reads as on one thread.
void TestReaderQuirks::repairsCountedOnTheirEvents()
{
    QByteArray events;
    for (int i = 0; i < 400; ++i) {
        if (!events.isEmpty())
            events += ',';
        const QByteArray name = i % 100 == 50 ? "bad\xff" : i % 100 == 70 ? "raw\ttab" : "ok";
        events += "{\"ph\": \"X\", \"name\": \"" + name
            + "\", \"pid\": 1, \"tid\": 1, \"ts\": " + QByteArray::number(10 * i) + ", \"dur\": 5}";
    }
    for (const std::size_t workers : { std::size_t(0), std::size_t(2) }) {
        LoadOptions options;
        options.chunkBytes = 2048;
        options.parseWorkers = workers;
        if (workers > 0)
            options.background = [] { return ks::app::makeThreadBackgroundWork(); };
        auto r = ks::test::loadJson(ks::test::kinetoDoc(events), options);
        QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
        const RankTrace& t = r.value();
        QCOMPARE(t.slices.size(), std::size_t(400));
        QCOMPARE(diag(t, DiagnosticKind::InvalidUtf8), 4ull);
        QCOMPARE(diag(t, DiagnosticKind::ControlCharacter), 4ull);
        QCOMPARE(t.diagnostics.entry(DiagnosticKind::InvalidUtf8).exampleEventIndex, std::int64_t(50));
        QCOMPARE(t.diagnostics.entry(DiagnosticKind::ControlCharacter).exampleEventIndex, std::int64_t(70));
        QCOMPARE(slicesNamed(t, "bad?").size(), std::size_t(4));
        QCOMPARE(slicesNamed(t, "raw tab").size(), std::size_t(4));
    }
}

// A sub-µs kernel whose producer rounded its start up and its end down (HTA PR #342):
// kept, with duration 0, and counted with its duration.
void TestReaderQuirks::negativeSubMicrosecondDurationKept()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "kernel", "name": "tiny", "pid": 0, "tid": 7, "ts": 101, "dur": -1, "args": {"stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "tiny_ns", "pid": 0, "tid": 7, "ts": 200.5, "dur": -0.001, "args": {"stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "fine", "pid": 0, "tid": 7, "ts": 300, "dur": 2, "args": {"stream": 7}})"));
    QCOMPARE(t.slices.size(), std::size_t(3));
    const std::uint32_t tiny = only(slicesNamed(t, "tiny"));
    QVERIFY(tiny != kNoRow);
    QCOMPARE(t.slices.duration(tiny), std::int64_t(0));
    QCOMPARE(diag(t, DiagnosticKind::NegativeDuration), 2ull);
    const auto& entry = t.diagnostics.entry(DiagnosticKind::NegativeDuration);
    QCOMPARE(entry.exampleEventIndex, std::int64_t(0));
    QVERIFY2(entry.example.find("dur=-1000ns") != std::string::npos, entry.example.c_str());
    QCOMPARE(t.slices.duration(only(slicesNamed(t, "fine"))), std::int64_t(2000));
}

namespace {

// A kernel of 10 days (corrupted CUPTI timestamps), a B/E pair of 8 days and work around them.
const QByteArray kCorrupted = R"(
  {"ph": "X", "cat": "kernel", "name": "before", "pid": 0, "tid": 7, "ts": 1000, "dur": 5, "args": {"stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "corrupted", "pid": 0, "tid": 7, "ts": 1010, "dur": 864000000000, "args": {"stream": 7}},
  {"ph": "B", "name": "long_range", "pid": 1, "tid": 1, "ts": 1000},
  {"ph": "E", "name": "long_range", "pid": 1, "tid": 1, "ts": 691200001000},
  {"ph": "X", "cat": "kernel", "name": "after", "pid": 0, "tid": 7, "ts": 1020, "dur": 5, "args": {"stream": 7}})";

} // namespace

// HTA drops events longer than max_event_duration_us (7 days, PR #325): they would
// stretch the trace to years. Here they are skipped and counted; the rest stays.
void TestReaderQuirks::corruptedDurationsSkipped()
{
    QCOMPARE(LoadOptions {}.maxEventDurationNs, 7LL * 24 * 3600 * 1'000'000'000LL);
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(kCorrupted));
    QCOMPARE(t.slices.size(), std::size_t(2));
    QCOMPARE(slicesNamed(t, "before").size(), std::size_t(1));
    QCOMPARE(slicesNamed(t, "after").size(), std::size_t(1));
    QVERIFY(slicesNamed(t, "corrupted").empty());
    QCOMPARE(diag(t, DiagnosticKind::CorruptDuration), 2ull);
    const auto& entry = t.diagnostics.entry(DiagnosticKind::CorruptDuration);
    QCOMPARE(entry.exampleEventIndex, std::int64_t(1));
    QVERIFY2(entry.example.find("864000000000 us") != std::string::npos, entry.example.c_str());
    QVERIFY(!isNote(DiagnosticKind::CorruptDuration));
}

void TestReaderQuirks::noDurationLimitKeepsThem()
{
    LoadOptions options;
    options.maxEventDurationNs = 0;
    auto all = ks::test::loadJson(ks::test::kinetoDoc(kCorrupted), options);
    QVERIFY(all.ok());
    QCOMPARE(all.value().slices.size(), std::size_t(4));
    QCOMPARE(diag(all.value(), DiagnosticKind::CorruptDuration), 0ull);
    options.maxEventDurationNs = 4000; // 4 µs: the 5 µs kernels go too
    auto few = ks::test::loadJson(ks::test::kinetoDoc(kCorrupted), options);
    QVERIFY(few.ok());
    QCOMPARE(few.value().slices.size(), std::size_t(0));
    QCOMPARE(diag(few.value(), DiagnosticKind::CorruptDuration), 4ull);
}

// Recent PyTorch writes Seq and Comms Id on NCCL kernels too: Seq is the collective's
// sequence number, Comms Id is read for the diagnostics only.
void TestReaderQuirks::ncclKernelSeqAndCommsId()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(kNcclLaunch));
    const std::uint32_t kernel = only(slicesNamed(t, kNcclKernel));
    QVERIFY(kernel != kNoRow);
    const std::uint32_t row = t.extraRow(kernel);
    QVERIFY(row != kNoRow);
    QCOMPARE(t.extra.sequenceNumber[row], std::int64_t(41));
    QCOMPARE(t.extra.groupSize[row], std::int64_t(2));
    QCOMPARE(t.name(t.extra.collectiveName[row]), std::string_view("allreduce"));
    QCOMPARE(t.stream(kernel), std::int64_t(7));
    // The details panel reads the args again from the file: the uint64 stays as written.
    const auto text = sliceArgs(t, kernel);
    QVERIFY2(text.ok(), text.ok() ? "" : text.error().describe().c_str());
    QVERIFY(text.value().find("\"Comms Id\": 18446744073709551615") != std::string::npos);
    QCOMPARE(extractTypedArgs(text.value()).sequenceNumber, std::optional<std::int64_t>(41));
}

KS_TEST_MAIN(tst_reader_quirks, TestReaderQuirks)
#include "tst_reader_quirks.moc"
