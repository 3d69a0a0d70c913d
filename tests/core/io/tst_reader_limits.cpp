// Input at the limits: metadata repeated tens of thousands of times,
// times at and beyond the valid range (core/io/store_builder/time_range.h), step numbers too
// large for 64 bits. Each is counted or refused with a message; none wraps
// into a wrong number.

#include "core/analysis/frame/hta_frame.h"
#include "core/io/store_builder/time_range.h"
#include "tests/support/test_main.h"
#include "tests/support/test_trace_files.h"

#include <QTest>

#include <memory>

using namespace ks::core;
using ks::test::diag;

class TestReaderLimits : public QObject
{
    Q_OBJECT

private slots:
    void repeatedThreadNamesCountedOncePerThread();
    void timesBeyondTheRangeSkipped();
    void timesAtTheRangeKept();
    void stepNumberBeyondInt64Refused();
};

namespace {

QByteArray threadName(int pid, int tid, const QByteArray& name)
{
    return R"({"name": "thread_name", "ph": "M", "pid": )" + QByteArray::number(pid) + R"(, "tid": )"
        + QByteArray::number(tid) + R"(, "args": {"name": ")" + name + R"("}})";
}

} // namespace

// A real accelerator trace repeats thread_name ~62 k times on one thread: each
// must cost a lookup, not a scan of all earlier ones, and a thread named
// differently counts once, with its first conflict as the example.
void TestReaderLimits::repeatedThreadNamesCountedOncePerThread()
{
    QByteArray events = R"({"ph": "X", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 1},)"
                        R"({"ph": "X", "name": "b", "pid": 1, "tid": 2, "ts": 1, "dur": 1},)"
                        R"({"ph": "X", "name": "c", "pid": 2, "tid": 5, "ts": 1, "dur": 1})";
    constexpr int kRepeats = 80'000;
    // Thread 1/1 alternates two names (the first conflict is event 4); 1/2 repeats
    // one name (no conflict); 2/5 has one conflict at the end.
    for (int i = 0; i < kRepeats; ++i)
        events += ',' + threadName(1, 1, i % 2 ? "worker" : "main");
    for (int i = 0; i < 1000; ++i)
        events += ',' + threadName(1, 2, "loader");
    events += ',' + threadName(2, 5, "first") + ',' + threadName(2, 5, "second");
    auto r = ks::test::loadJson(ks::test::kinetoDoc(events));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    const RankTrace& t = r.value();
    QCOMPARE(t.counts.events, std::uint64_t(3 + kRepeats + 1000 + 2));
    QCOMPARE(diag(t, DiagnosticKind::DuplicateMetadata), 2ull);
    QCOMPARE(t.diagnostics.entry(DiagnosticKind::DuplicateMetadata).exampleEventIndex, std::int64_t(4));
    // The last name wins, as in Chrome's viewer.
    QVERIFY(ks::test::trackNamed(t, "thread 1 (worker)"));
    QVERIFY(ks::test::trackNamed(t, "thread 2 (loader)"));
    QVERIFY(ks::test::trackNamed(t, "thread 5 (second)"));
}

// 2^62 ns = 4611686018427387.904 µs. Beyond it (or beyond int64 altogether)
// an event is skipped and counted; before the fix these wrapped into negative
// durations and a wrong span.
void TestReaderLimits::timesBeyondTheRangeSkipped()
{
    auto r = ks::test::loadJson(ks::test::kinetoDoc(R"(
  {"ph": "X", "name": "ts beyond", "pid": 1, "tid": 1, "ts": 4611686018427388, "dur": 1},
  {"ph": "X", "name": "dur beyond", "pid": 1, "tid": 1, "ts": 100, "dur": 4611686018427388},
  {"ph": "X", "name": "end beyond", "pid": 1, "tid": 1, "ts": 4611686018427000, "dur": 1000},
  {"ph": "X", "name": "beyond int64", "pid": 1, "tid": 1, "ts": 99999999999999999999, "dur": 1},
  {"ph": "i", "name": "instant before", "pid": 1, "tid": 1, "ts": -4611686018427388, "s": "t"},
  {"ph": "B", "name": "begin near int64 max", "pid": 1, "tid": 1, "ts": 9223372036854775},
  {"ph": "E", "pid": 1, "tid": 1, "ts": 1e300},
  {"ph": "C", "name": "counter", "pid": 1, "ts": -1e30, "args": {"v": 1}},
  {"ph": "X", "name": "fine", "pid": 1, "tid": 1, "ts": 10, "dur": 5})"));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    const RankTrace& t = r.value();
    QCOMPARE(t.counts.events, 9ull);
    QCOMPARE(diag(t, DiagnosticKind::TimestampOutOfRange), 8ull);
    const auto& entry = t.diagnostics.entry(DiagnosticKind::TimestampOutOfRange);
    QCOMPARE(entry.exampleEventIndex, std::int64_t(0));
    QVERIFY2(entry.example.find("ts beyond") != std::string::npos, entry.example.c_str());
    // A number too large for int64 is out of range, not a field of the wrong type.
    QCOMPARE(diag(t, DiagnosticKind::WrongFieldType), 0ull);
    QCOMPARE(diag(t, DiagnosticKind::UnmatchedEnd), 0ull); // the E was skipped, not left unmatched
    QCOMPARE(t.slices.size(), std::size_t(1));
    QCOMPARE(ks::test::bytes(t.sliceName(0)), ks::test::bytes("fine"));
    QCOMPARE(t.instants.size(), std::size_t(0));
    QCOMPARE(t.counters.size(), std::size_t(0));
    QCOMPARE(t.startNs, TimeNs(10'000));
    QCOMPARE(t.endNs, TimeNs(15'000));
}

// Just inside the range on both sides: kept exactly, and a B/E pair spanning
// nearly the whole range gets its duration without overflow (with no limit on
// durations: by default a slice over 7 days is skipped as corrupted).
void TestReaderLimits::timesAtTheRangeKept()
{
    LoadOptions noDurationLimit;
    noDurationLimit.maxEventDurationNs = 0;
    auto r = ks::test::loadJson(ks::test::kinetoDoc(R"(
  {"ph": "B", "name": "whole range", "pid": 1, "tid": 1, "ts": -4611686018427387},
  {"ph": "E", "pid": 1, "tid": 1, "ts": 4611686018427387},
  {"ph": "X", "name": "at the end", "pid": 1, "tid": 2, "ts": 4611686018427386, "dur": 1})"),
        noDurationLimit);
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    const RankTrace& t = r.value();
    QCOMPARE(diag(t, DiagnosticKind::TimestampOutOfRange), 0ull);
    const auto whole = ks::test::slicesNamed(t, "whole range");
    QCOMPARE(whole.size(), std::size_t(1));
    QCOMPARE(t.slices.start[whole[0]], TimeNs(-4611686018427387000));
    QCOMPARE(t.slices.duration(whole[0]), TimeNs(9223372036854774000));
    QCOMPARE(t.startNs, TimeNs(-4611686018427387000));
    QCOMPARE(t.endNs, TimeNs(4611686018427387000));
    QVERIFY(t.endNs < kTimeLimitNs && t.startNs > -kTimeLimitNs);
}

// HTA reads the step number with int(): Python has no overflow, int64 does.
// A number that does not fit refuses the analyses with a message naming it,
// instead of wrapping into a negative iteration.
void TestReaderLimits::stepNumberBeyondInt64Refused()
{
    auto r = ks::test::loadJson(ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#99999999999999999999", "pid": 1, "tid": 1, "ts": 10, "dur": 50},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 20, "dur": 5})"));
    QVERIFY2(r.ok(), r.ok() ? "" : r.error().describe().c_str());
    TraceSet set;
    set.ranks.push_back(std::make_shared<const RankTrace>(std::move(r).value()));
    for (AnalysisMode mode : { AnalysisMode::Default, AnalysisMode::HtaCompat }) {
        AnalysisOptions options;
        options.mode = mode;
        auto frames = buildFrames(set, options);
        QVERIFY(!frames.ok());
        QVERIFY2(frames.error().message.find("ProfilerStep#99999999999999999999") != std::string::npos,
            frames.error().message.c_str());
    }
    // The largest int64 step number is read exactly.
    auto largest = ks::test::loadJson(ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#9223372036854775807", "pid": 1, "tid": 1, "ts": 10, "dur": 50},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 20, "dur": 5})"));
    QVERIFY(largest.ok());
    TraceSet ok;
    ok.ranks.push_back(std::make_shared<const RankTrace>(std::move(largest).value()));
    auto frames = buildFrames(ok, AnalysisOptions {});
    QVERIFY2(frames.ok(), frames.ok() ? "" : frames.error().describe().c_str());
    QCOMPARE(frames.value().iterations, std::vector<std::int64_t> { 9223372036854775807 });
}

KS_TEST_MAIN(tst_reader_limits, TestReaderLimits)
#include "tst_reader_limits.moc"
