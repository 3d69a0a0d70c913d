// Links between slices (ac2g launch -> kernel by flow or by correlation,
// fwdbwd), their diagnostics, and range queries checked against brute force on
// a randomized trace.

#include "tests/support/test_main.h"
#include "tests/support/test_trace_files.h"

#include <QRandomGenerator>
#include <QTest>

#include <algorithm>
#include <set>

using namespace ks::core;
using namespace ks::test;

class TestReaderLinks : public QObject
{
    Q_OBJECT

private slots:
    void launchByAc2gFlow();
    void launchByCorrelationOnly();
    void oneLaunchSeveralKernels();
    void launchFlowEndsOnItsCorrelation();
    void launchInsideLanedStep();
    void forwardBackwardFlow();
    void orphanFlows();
    void stringAndNumberIdsNeverPair();
    void kernelBeforeLaunch();
    void unlinkedGpuWork();
    void rangeQueryMatchesBruteForce();
    void levelsNeverOverlap();
};

// moc reads raw string literals as ordinary strings and trips on the JSON
// inside them: fixtures and slot bodies are kept out of its sight.
#ifndef Q_MOC_RUN

namespace {

// A CPU op launching one kernel. Kineto writes the flow start at the launch's
// ts and the flow end ("bp": "e") at the kernel's ts.
const QByteArray kLaunch = R"(
  {"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 10, "tid": 11, "ts": 1000, "dur": 20},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 1005, "dur": 4,
   "args": {"correlation": 7, "External id": 3}},
  {"ph": "X", "cat": "kernel", "name": "add_kernel", "pid": 0, "tid": 7, "ts": 1012, "dur": 3,
   "args": {"device": 0, "stream": 7, "correlation": 7, "External id": 3}})";

} // namespace

void TestReaderLinks::launchByAc2gFlow()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(kLaunch + R"(,
  {"ph": "s", "id": 7, "pid": 10, "tid": 11, "ts": 1005, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 1012, "cat": "ac2g", "name": "ac2g", "bp": "e"})"));
    const std::uint32_t launch = only(slicesNamed(t, "cudaLaunchKernel"));
    const std::uint32_t kernel = only(slicesNamed(t, "add_kernel"));
    QVERIFY(launch != kNoRow && kernel != kNoRow);
    QCOMPARE(t.links.size(), std::size_t(1)); // the flow; no second link by correlation
    QCOMPARE(t.links.kind[0], LinkKind::LaunchFlow);
    QCOMPARE(t.links.from[0], launch); // the deepest slice at the flow start, not aten::add
    QCOMPARE(t.links.to[0], kernel);
    QCOMPARE(t.linksFrom(launch), (std::vector<std::uint32_t> { 0 }));
    QCOMPARE(t.linksTo(kernel), (std::vector<std::uint32_t> { 0 }));
    QVERIFY(t.linksTo(launch).empty());
    QVERIFY(t.linksFrom(kernel).empty());
    QVERIFY(t.linksFrom(only(slicesNamed(t, "aten::add"))).empty());
    QCOMPARE(t.diagnostics.total(), 0ull);
    QCOMPARE(t.counts.byPhase[std::size_t(Phase::FlowStart)], 1ull);
    QCOMPARE(t.counts.byPhase[std::size_t(Phase::FlowEnd)], 1ull);
    QCOMPARE(ks::test::categoryCount(t, "ac2g", Phase::FlowEnd), 1ull);
}

// The Qwen traces' pattern: ProfilerStep#6 opens inside record_function's
// Python call and outlives it, so it overlaps without nesting and lies on an
// extra lane, past every nesting level. A launch inside the step must still
// bind to its runtime call, the innermost slice at the flow start; a flow
// start that only the step and an outer call hold binds to the step, the
// later starting (inner) of the two.
void TestReaderLinks::launchInsideLanedStep()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "python_function", "name": "run", "pid": 10, "tid": 11, "ts": 0, "dur": 2000},
  {"ph": "X", "cat": "python_function", "name": "_record_function_enter_new", "pid": 10, "tid": 11,
   "ts": 100, "dur": 100},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#6", "pid": 10, "tid": 11, "ts": 150, "dur": 850},
  {"ph": "X", "cat": "python_function", "name": "forward", "pid": 10, "tid": 11, "ts": 300, "dur": 500},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 11, "ts": 400, "dur": 100},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 410, "dur": 10,
   "args": {"correlation": 5}},
  {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 600, "dur": 50,
   "args": {"stream": 7, "correlation": 5}},
  {"ph": "X", "cat": "kernel", "name": "late", "pid": 0, "tid": 7, "ts": 900, "dur": 50,
   "args": {"stream": 7}},
  {"ph": "s", "id": 5, "pid": 10, "tid": 11, "ts": 410, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 5, "pid": 0, "tid": 7, "ts": 600, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "s", "id": 9, "pid": 10, "tid": 11, "ts": 250, "cat": "custom", "name": "custom"},
  {"ph": "f", "id": 9, "pid": 0, "tid": 7, "ts": 900, "cat": "custom", "name": "custom", "bp": "e"})"));
    const std::uint32_t step = only(slicesNamed(t, "ProfilerStep#6"));
    const std::uint32_t launch = only(slicesNamed(t, "cudaLaunchKernel"));
    QVERIFY(step != kNoRow && launch != kNoRow);
    QVERIFY(t.slices.flags[step] & kSliceOverflowLane); // the pattern is reproduced
    const std::vector<std::uint32_t> in = t.linksTo(only(slicesNamed(t, "gemm")));
    QCOMPARE(in.size(), std::size_t(1));
    QCOMPARE(t.links.kind[in[0]], LinkKind::LaunchFlow);
    QCOMPARE(t.links.from[in[0]], launch);
    const std::vector<std::uint32_t> custom = t.linksTo(only(slicesNamed(t, "late")));
    QCOMPARE(custom.size(), std::size_t(1));
    QCOMPARE(t.links.from[custom[0]], step);
}

// Back-to-back work on one stream: kernel A holds a sync event that ends where
// kernel B starts. B's flow end lies inside that (deeper) sync too; it must
// still bind to B, the slice carrying its correlation id, and the sync keeps
// its own flow.
void TestReaderLinks::launchFlowEndsOnItsCorrelation()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 10, "tid": 11, "ts": 900, "dur": 200},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 905, "dur": 4,
   "args": {"correlation": 1}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaStreamWaitEvent", "pid": 10, "tid": 11, "ts": 915, "dur": 4,
   "args": {"correlation": 2}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 925, "dur": 4,
   "args": {"correlation": 3}},
  {"ph": "X", "cat": "kernel", "name": "kernel_a", "pid": 0, "tid": 7, "ts": 1000, "dur": 100,
   "args": {"stream": 7, "correlation": 1}},
  {"ph": "X", "cat": "cuda_sync", "name": "Stream Wait Event", "pid": 0, "tid": 7, "ts": 1090, "dur": 10,
   "args": {"stream": 7, "correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "kernel_b", "pid": 0, "tid": 7, "ts": 1100, "dur": 50,
   "args": {"stream": 7, "correlation": 3}},
  {"ph": "s", "id": 1, "pid": 10, "tid": 11, "ts": 905, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 1, "pid": 0, "tid": 7, "ts": 1000, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "s", "id": 2, "pid": 10, "tid": 11, "ts": 915, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 2, "pid": 0, "tid": 7, "ts": 1090, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "s", "id": 3, "pid": 10, "tid": 11, "ts": 925, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 3, "pid": 0, "tid": 7, "ts": 1100, "cat": "ac2g", "name": "ac2g", "bp": "e"})"));
    QCOMPARE(t.links.size(), std::size_t(3));
    for (std::size_t k = 0; k < t.links.size(); ++k) {
        QCOMPARE(t.links.kind[k], LinkKind::LaunchFlow);
        QCOMPARE(t.correlation(t.links.to[k]), t.correlation(t.links.from[k]));
    }
    QCOMPARE(t.linksTo(only(slicesNamed(t, "kernel_b"))).size(), std::size_t(1));
    QCOMPARE(t.diagnostics.total(), 0ull);
}

void TestReaderLinks::launchByCorrelationOnly()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(kLaunch));
    const std::uint32_t launch = only(slicesNamed(t, "cudaLaunchKernel"));
    const std::uint32_t kernel = only(slicesNamed(t, "add_kernel"));
    QCOMPARE(t.links.size(), std::size_t(1));
    QCOMPARE(t.links.kind[0], LinkKind::LaunchCorrelation);
    QCOMPARE(t.links.from[0], launch);
    QCOMPARE(t.links.to[0], kernel);
    QCOMPARE(t.diagnostics.total(), 0ull);
}

void TestReaderLinks::oneLaunchSeveralKernels()
{
    // A graph launch: several kernels share the launch's correlation.
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaGraphLaunch", "pid": 10, "tid": 11, "ts": 100, "dur": 4,
   "args": {"correlation": 9}},
  {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 110, "dur": 3, "args": {"stream": 7, "correlation": 9}},
  {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 114, "dur": 3, "args": {"stream": 7, "correlation": 9}},
  {"ph": "X", "cat": "kernel", "name": "k3", "pid": 0, "tid": 8, "ts": 111, "dur": 3, "args": {"stream": 8, "correlation": 9}})"));
    const std::uint32_t launch = only(slicesNamed(t, "cudaGraphLaunch"));
    const auto rows = t.linksFrom(launch);
    QCOMPARE(rows.size(), std::size_t(3));
    std::set<std::string_view> targets;
    for (std::uint32_t r : rows) {
        QCOMPARE(t.links.kind[r], LinkKind::LaunchCorrelation);
        targets.insert(t.sliceName(t.links.to[r]));
        QCOMPARE(t.linksTo(t.links.to[r]), (std::vector<std::uint32_t> { r }));
    }
    QCOMPARE(targets, (std::set<std::string_view> { "k1", "k2", "k3" }));
}

void TestReaderLinks::forwardBackwardFlow()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 10, "tid": 11, "ts": 100, "dur": 10},
  {"ph": "X", "cat": "cpu_op", "name": "MulBackward0", "pid": 10, "tid": 12, "ts": 500, "dur": 10},
  {"ph": "s", "id": 42, "pid": 10, "tid": 11, "ts": 100, "cat": "fwdbwd", "name": "fwdbwd"},
  {"ph": "f", "id": 42, "pid": 10, "tid": 12, "ts": 500, "cat": "fwdbwd", "name": "fwdbwd", "bp": "e"},
  {"ph": "s", "id": "abc", "pid": 10, "tid": 11, "ts": 105, "cat": "custom", "name": "my flow"},
  {"ph": "t", "id": "abc", "pid": 10, "tid": 12, "ts": 502, "cat": "custom", "name": "my flow"},
  {"ph": "f", "id": "abc", "pid": 10, "tid": 12, "ts": 505, "cat": "custom", "name": "my flow", "bp": "e"})"));
    const std::uint32_t fwd = only(slicesNamed(t, "aten::mul"));
    const std::uint32_t bwd = only(slicesNamed(t, "MulBackward0"));
    QCOMPARE(t.links.size(), std::size_t(2));
    std::map<LinkKind, std::pair<std::uint32_t, std::uint32_t>> byKind;
    for (std::size_t k = 0; k < t.links.size(); ++k)
        byKind[t.links.kind[k]] = { t.links.from[k], t.links.to[k] };
    QVERIFY(byKind.count(LinkKind::ForwardBackward));
    QVERIFY(byKind.count(LinkKind::OtherFlow));
    QCOMPARE(byKind[LinkKind::ForwardBackward].first, fwd);
    QCOMPARE(byKind[LinkKind::ForwardBackward].second, bwd);
    QCOMPARE(byKind[LinkKind::OtherFlow].first, fwd);
    QCOMPARE(byKind[LinkKind::OtherFlow].second, bwd);
    QCOMPARE(t.counts.byPhase[std::size_t(Phase::FlowStep)], 1ull);
    QCOMPARE(diag(t, DiagnosticKind::OrphanFlowStart) + diag(t, DiagnosticKind::OrphanFlowEnd), 0ull);
}

void TestReaderLinks::orphanFlows()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(kLaunch + R"(,
  {"ph": "s", "id": 100, "pid": 10, "tid": 11, "ts": 1005, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 200, "pid": 0, "tid": 7, "ts": 1012, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "s", "id": 300, "pid": 10, "tid": 11, "ts": 5000, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 300, "pid": 0, "tid": 7, "ts": 1012, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "f", "pid": 0, "tid": 7, "ts": 1012, "cat": "ac2g", "name": "no id", "bp": "e"})"));
    // id 100: start without end; id 200: end without start; id 300: no slice at the
    // start; last: no id at all.
    QCOMPARE(diag(t, DiagnosticKind::OrphanFlowStart), 2ull);
    QCOMPARE(diag(t, DiagnosticKind::OrphanFlowEnd), 2ull);
    // The kernel still finds its launch by correlation.
    QCOMPARE(t.links.size(), std::size_t(1));
    QCOMPARE(t.links.kind[0], LinkKind::LaunchCorrelation);
}

// Flow ids are numbers or strings, and "7" is not 7: the two never pair, and
// the orphan's diagnostic names the string id itself.
void TestReaderLinks::stringAndNumberIdsNeverPair()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "cpu_op", "name": "a", "pid": 10, "tid": 11, "ts": 100, "dur": 10},
  {"ph": "X", "cat": "cpu_op", "name": "b", "pid": 10, "tid": 12, "ts": 500, "dur": 10},
  {"ph": "s", "id": "seven", "pid": 10, "tid": 11, "ts": 101, "cat": "custom", "name": "f"},
  {"ph": "f", "id": 7, "pid": 10, "tid": 12, "ts": 501, "cat": "custom", "name": "f", "bp": "e"},
  {"ph": "s", "id": "2", "pid": 10, "tid": 11, "ts": 102, "cat": "other", "name": "f"},
  {"ph": "t", "id": "2", "pid": 10, "tid": 12, "ts": 502, "cat": "other", "name": "f"},
  {"ph": "f", "id": "2", "pid": 10, "tid": 12, "ts": 503, "cat": "other", "name": "f", "bp": "e"})"));
    QCOMPARE(diag(t, DiagnosticKind::OrphanFlowStart), 1ull);
    QCOMPARE(diag(t, DiagnosticKind::OrphanFlowEnd), 1ull);
    const std::string& start = t.diagnostics.entry(DiagnosticKind::OrphanFlowStart).example;
    QVERIFY2(start.find("id=seven: no matching flow end") != std::string::npos, start.c_str());
    const std::string& end = t.diagnostics.entry(DiagnosticKind::OrphanFlowEnd).example;
    QVERIFY2(end.find("id=7: no matching flow start") != std::string::npos, end.c_str());
    QCOMPARE(t.links.size(), std::size_t(1)); // the string id "2", past its step
    QCOMPARE(t.links.from[0], only(slicesNamed(t, "a")));
    QCOMPARE(t.links.to[0], only(slicesNamed(t, "b")));
}

void TestReaderLinks::kernelBeforeLaunch()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 1005, "dur": 4,
   "args": {"correlation": 7}},
  {"ph": "X", "cat": "kernel", "name": "early_kernel", "pid": 0, "tid": 7, "ts": 1003, "dur": 3,
   "args": {"stream": 7, "correlation": 7}},
  {"ph": "s", "id": 7, "pid": 10, "tid": 11, "ts": 1005, "cat": "ac2g", "name": "ac2g"},
  {"ph": "f", "id": 7, "pid": 0, "tid": 7, "ts": 1003, "cat": "ac2g", "name": "ac2g", "bp": "e"},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 10, "tid": 11, "ts": 2000, "dur": 4,
   "args": {"correlation": 8}},
  {"ph": "X", "cat": "kernel", "name": "fine_kernel", "pid": 0, "tid": 7, "ts": 2010, "dur": 3,
   "args": {"stream": 7, "correlation": 8}})"));
    QCOMPARE(t.links.size(), std::size_t(2)); // kept, and reported
    QCOMPARE(diag(t, DiagnosticKind::KernelBeforeLaunch), 1ull);
    QCOMPARE(t.diagnostics.entry(DiagnosticKind::KernelBeforeLaunch).exampleEventIndex, std::int64_t(1));
}

void TestReaderLinks::unlinkedGpuWork()
{
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(R"(
  {"ph": "X", "cat": "kernel", "name": "lonely", "pid": 0, "tid": 7, "ts": 10, "dur": 3, "args": {"stream": 7, "correlation": 99}},
  {"ph": "X", "cat": "kernel", "name": "no correlation", "pid": 0, "tid": 7, "ts": 20, "dur": 3, "args": {"stream": 7}})"));
    QCOMPARE(t.links.size(), std::size_t(0));
    QCOMPARE(diag(t, DiagnosticKind::UnlinkedGpuWork), 1ull);
    QCOMPARE(t.diagnostics.entry(DiagnosticKind::UnlinkedGpuWork).exampleEventIndex, std::int64_t(0));
}

// slicesInRange must return exactly the slices of the track intersecting the
// closed range [t0, t1], level by level in start order.
void TestReaderLinks::rangeQueryMatchesBruteForce()
{
    QRandomGenerator rng(20240403);
    QByteArray events;
    int count = 0;
    auto add = [&](int tid, qint64 startNs, qint64 durNs) {
        // Written as µs with 3 decimals, as Kineto does.
        const auto us = [](qint64 ns) -> QByteArray {
            return QByteArray::number(ns / 1000) + '.' + QByteArray::number(ns % 1000).rightJustified(3, '0');
        };
        if (count++)
            events += ",\n";
        events += R"({"ph": "X", "name": "s)" + QByteArray::number(count) + R"(", "pid": 1, "tid": )"
            + QByteArray::number(tid) + R"(, "ts": 1712195495)" + us(startNs).rightJustified(10, '0')
            + R"(, "dur": )" + us(durNs) + "}";
    };
    // tid 1: properly nested trees; tid 2: independent random intervals (many
    // overlap without nesting); tid 3: many zero-length and touching slices.
    std::function<void(qint64, qint64, int)> tree = [&](qint64 from, qint64 to, int depth) {
        qint64 at = from;
        while (at < to && depth < 6) {
            const qint64 len = std::min<qint64>(to - at, rng.bounded(1, 200000));
            add(1, at, len);
            if (len > 10)
                tree(at + 1, at + len - 1, depth + 1);
            at += len + rng.bounded(0, 50000);
        }
    };
    tree(0, 3'000'000, 0);
    for (int i = 0; i < 1500; ++i)
        add(2, rng.bounded(0, 3'000'000), rng.bounded(0, 100000));
    for (int i = 0; i < 500; ++i)
        add(3, 1000 * rng.bounded(0, 2000), i % 3 == 0 ? 0 : 1000 * rng.bounded(0, 5));
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(events));
    QCOMPARE(t.slices.size(), std::size_t(count));
    QVERIFY(diag(t, DiagnosticKind::OverlappingSlices) > 0);

    const TimeNs base = t.startNs;
    for (std::uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
        const Track& track = t.tracks[tr];
        for (int q = 0; q < 400; ++q) {
            TimeNs t0 = base + rng.bounded(-100000, 3'200'000);
            TimeNs t1 = q % 4 == 0 ? t0 : t0 + rng.bounded(0, 300000); // every 4th query is a point
            if (q % 50 == 0)
                t0 = t1 =
                    t.slices.start[track.sliceBegin + rng.bounded(track.sliceCount())]; // exactly at a start
            std::vector<std::uint32_t> expected;
            for (std::uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i)
                if (t.slices.start[i] <= t1 && t.slices.end(i) >= t0)
                    expected.push_back(i);
            std::vector<std::uint32_t> got = t.slicesInRange(TrackId { tr }, t0, t1);
            // Level by level, start order inside a level.
            for (std::size_t k = 1; k < got.size(); ++k) {
                const std::uint32_t la = t.levelOf(got[k - 1]);
                const std::uint32_t lb = t.levelOf(got[k]);
                QVERIFY(la < lb || (la == lb && t.slices.start[got[k - 1]] <= t.slices.start[got[k]]));
            }
            std::sort(got.begin(), got.end());
            if (got != expected)
                QFAIL(qPrintable(QStringLiteral("track %1 range [%2, %3]: %4 slices, brute force %5")
                                     .arg(tr)
                                     .arg(t0 - base)
                                     .arg(t1 - base)
                                     .arg(got.size())
                                     .arg(expected.size())));
        }
        // Ranges outside the track return nothing; one covering everything returns all.
        QVERIFY(t.slicesInRange(TrackId { tr }, base - 10, base - 1).empty());
        QCOMPARE(
            t.slicesInRange(TrackId { tr }, base - 10, t.endNs + 10).size(), std::size_t(track.sliceCount()));
    }
    QVERIFY(t.slicesInRange(TrackId {}, base, t.endNs).empty());
    QVERIFY(t.slicesInRange(TrackId { 99 }, base, t.endNs).empty());
}

// Every slice of a track sits in one level, and levels never hold overlapping
// slices (the invariant the range query's binary search relies on).
void TestReaderLinks::levelsNeverOverlap()
{
    QRandomGenerator rng(7);
    QByteArray events;
    for (int i = 0; i < 3000; ++i) {
        if (i)
            events += ',';
        events += R"({"ph":"X","name":"x","pid":1,"tid":)" + QByteArray::number(i % 2) + R"(,"ts":)"
            + QByteArray::number(rng.bounded(0, 100000)) + '.' + QByteArray::number(rng.bounded(0, 1000))
            + R"(,"dur":)" + QByteArray::number(rng.bounded(0, 3000)) + "}";
    }
    LOAD_OR_FAIL(t, ks::test::kinetoDoc(events));
    QCOMPARE(t.slices.size(), std::size_t(3000));
    std::uint32_t seen = 0;
    for (std::uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
        const Track& track = t.tracks[tr];
        QCOMPARE(track.levelBegin.front(), track.sliceBegin);
        QCOMPARE(track.levelBegin.back(), track.sliceEnd);
        for (std::uint32_t l = 0; l < track.levelCount(); ++l) {
            QVERIFY(track.levelBegin[l] < track.levelBegin[l + 1]); // no empty level
            for (std::uint32_t i = track.levelBegin[l] + 1; i < track.levelBegin[l + 1]; ++i)
                QVERIFY(t.slices.end(i - 1) <= t.slices.start[i]);
        }
        seen += track.sliceCount();
    }
    QCOMPARE(seen, 3000u);
    const std::uint64_t overflow = static_cast<std::uint64_t>(std::count_if(
        t.slices.flags.begin(), t.slices.flags.end(), [](std::uint8_t f) { return f & kSliceOverflowLane; }));
    QCOMPARE(diag(t, DiagnosticKind::OverlappingSlices), overflow);
}

#endif // Q_MOC_RUN

KS_TEST_MAIN(tst_reader_links, TestReaderLinks)
#include "tst_reader_links.moc"
