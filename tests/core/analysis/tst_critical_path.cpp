// A8 critical path: the graph, its longest path and the breakdown on tiny
// hand-computed traces in both modes; each synchronization kind
// (cudaStreamSynchronize, cudaDeviceSynchronize, cudaEventRecord +
// cudaEventSynchronize, cudaStreamWaitEvent across streams), with and without
// the cuda_sync records; validation reported, not asserted; the quirks that
// differ between modes (Q1, Q3); the overlaid trace; real traces.

#include "core/analysis/critical_path/critical_path.h"
#include "core/report/critical_path_json.h"
#include "core/report/critical_path_trace_writer.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>

using namespace ks;
using core::AnalysisMode;
using core::CpEdgeType;

namespace {

constexpr std::int64_t kBase = 1'000'000; // µs, added to every ts

std::string number(double v)
{
    if (v == std::floor(v))
        return std::to_string(static_cast<std::int64_t>(v));
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string traceEvent(const std::string& cat, const std::string& name, const std::string& pid,
    const std::string& tid, double ts, double dur, const std::string& args = "")
{
    return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)" + pid + R"(,"tid":)" + tid
        + R"(,"ts":)" + number(static_cast<double>(kBase) + ts) + R"(,"dur":)" + number(dur) + R"(,"args":{)"
        + args + "}}";
}

std::string cpuOp(const std::string& name, double ts, double dur, const std::string& args = "")
{
    return traceEvent("cpu_op", name, "1", "1", ts, dur, args);
}

std::string annotation(const std::string& name, double ts, double dur)
{
    return traceEvent("user_annotation", name, "1", "1", ts, dur);
}

std::string runtime(const std::string& name, double ts, double dur, int correlation)
{
    return traceEvent(
        "cuda_runtime", name, "1", "1", ts, dur, R"("correlation":)" + std::to_string(correlation));
}

std::string kernel(const std::string& name, int stream, double ts, double dur, int correlation)
{
    return traceEvent("kernel", name, "0", std::to_string(stream), ts, dur,
        R"("stream":)" + std::to_string(stream) + R"(,"correlation":)" + std::to_string(correlation));
}

// GPU work of a second GPU (pid 2): same stream numbers, its own timeline.
std::string kernelOnGpu(
    const std::string& pid, const std::string& name, int stream, double ts, double dur, int correlation)
{
    return traceEvent("kernel", name, pid, std::to_string(stream), ts, dur,
        R"("stream":)" + std::to_string(stream) + R"(,"correlation":)" + std::to_string(correlation));
}

// A 4-byte cudaMemsetAsync as the GPU records it.
std::string gpuMemset(int stream, double ts, double dur, int correlation)
{
    return traceEvent("gpu_memset", "Memset (Device)", "0", std::to_string(stream), ts, dur,
        R"("stream":)" + std::to_string(stream) + R"(,"correlation":)" + std::to_string(correlation)
            + R"(,"bytes":4)");
}

std::string syncRecord(const std::string& name, int stream, double ts, double dur, int correlation,
    int waitOnStream = -1, int recordCorrelation = -1)
{
    std::string args =
        R"("stream":)" + std::to_string(stream) + R"(,"correlation":)" + std::to_string(correlation);
    if (waitOnStream >= 0)
        args += R"(,"wait_on_stream":)" + std::to_string(waitOnStream)
            + R"(,"wait_on_cuda_event_record_corr_id":)" + std::to_string(recordCorrelation);
    return traceEvent("cuda_sync", name, "0", std::to_string(stream), ts, dur, args);
}

// A loaded trace and its graph; the graph refers to the frames, so they live together.
namespace {

    struct Run
    {
        QTemporaryDir dir;
        std::optional<core::TraceSet> set;
        std::optional<core::FrameSet> frames;
        std::optional<core::Result<core::CriticalPathGraph>> result;

        bool ok() const { return result->ok(); }

        const core::CriticalPathGraph& graph() const { return result->value(); }

        std::string error() const { return result->ok() ? std::string() : result->error().message; }
    };

} // namespace

std::unique_ptr<Run> run(const std::vector<std::string>& events, AnalysisMode mode,
    const std::string& annotationText = "", core::CriticalPathInstance instance = {})
{
    auto r = std::make_unique<Run>();
    // traceEvents[0] is metadata: HTA reads a partner at event index 0 as "no partner".
    std::vector<std::string> all {
        R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}})"
    };
    all.insert(all.end(), events.begin(), events.end());
    r->set = tests::loadRanks(r->dir, { tests::kinetoDocument(0, all) });
    r->frames = tests::frames(*r->set, mode);
    core::AnalysisOptions options;
    options.mode = mode;
    r->result = core::buildCriticalPath(*r->frames, 0, annotationText, instance, options);
    return r;
}

int count(const core::CriticalPathGraph& g, CpEdgeType type)
{
    return static_cast<int>(std::count_if(
        g.edges.begin(), g.edges.end(), [type](const core::CpEdge& e) { return e.type == type; }));
}

const core::CpEdge* findEdge(const core::CriticalPathGraph& g, std::int64_t srcEvent, bool srcStart,
    std::int64_t dstEvent, bool dstStart)
{
    for (const core::CpEdge& e : g.edges) {
        const core::CpNode& s = g.nodes[e.src];
        const core::CpNode& d = g.nodes[e.dst];
        if (s.eventIndex == srcEvent && s.isStart == srcStart && d.eventIndex == dstEvent
            && d.isStart == dstStart)
            return &e;
    }
    return nullptr;
}

// Sync edges as "src->dst" event pairs (ends unless noted), sorted.
QStringList syncEdges(const core::CriticalPathGraph& g)
{
    QStringList list;
    for (const std::uint32_t id : g.syncEdges()) {
        const core::CpEdge& e = g.edges[id];
        list << QStringLiteral("%1%2->%3%4")
                    .arg(g.nodes[e.src].eventIndex)
                    .arg(g.nodes[e.src].isStart ? "s" : "e")
                    .arg(g.nodes[e.dst].eventIndex)
                    .arg(g.nodes[e.dst].isStart ? "s" : "e");
    }
    list.sort();
    return list;
}

double pathUs(const core::CriticalPathGraph& g)
{
    return static_cast<double>(g.pathWeight) / 1000.0;
}

// edge_type_weight_sum of the result JSON (the object the conformance test compares with HTA's).
std::map<std::string, double> weightSums(const core::CriticalPathGraph& g)
{
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray::fromStdString(core::criticalPathResultJson(g)));
    std::map<std::string, double> sums;
    const QJsonObject object = doc.object().value(QStringLiteral("edge_type_weight_sum")).toObject();
    for (auto it = object.begin(); it != object.end(); ++it)
        sums[it.key().toStdString()] = it.value().toDouble();
    return sums;
}

// Σ of the breakdown's durations (µs), the base of summary_pct_by_bound_type.
double breakdownSumUs(const core::CriticalPathGraph& g)
{
    double sum = 0;
    const core::AnalysisOutput out = core::criticalPathTables(g);
    for (const auto& [name, item] : out.result.entries) {
        if (name != "breakdown")
            continue;
        const std::size_t column = item.frame.columnIndex("duration");
        for (const auto& row : item.frame.rows)
            sum += *core::cellAsDouble(row[column]);
    }
    return sum;
}

bool hasWarning(const core::CriticalPathGraph& g, const std::string& text)
{
    return std::any_of(g.warnings.begin(), g.warnings.end(),
        [&text](const std::string& w) { return w.find(text) != std::string::npos; });
}

// Bound type -> % of the path, from the result tables.
std::map<std::string, double> boundPercent(const core::CriticalPathGraph& g)
{
    std::map<std::string, double> pct;
    const core::AnalysisOutput out = core::criticalPathTables(g);
    for (const auto& [name, item] : out.result.entries) {
        if (name != "summary_pct_by_bound_type")
            continue;
        for (const auto& row : item.frame.rows)
            pct[std::get<std::string>(row[0])] = *core::cellAsDouble(row[1]);
    }
    return pct;
}

// The basic trace: an op launching a kernel, then a stream synchronization.
std::vector<std::string> launchAndStreamSync(bool withSyncRecord)
{
    std::vector<std::string> events = {
        annotation("ProfilerStep#1", 0, 200), // 1
        cpuOp("aten::add", 10, 50), // 2
        runtime("cudaLaunchKernel", 20, 10, 1), // 3
        kernel("add_kernel", 7, 40, 100, 1), // 4
        runtime("cudaStreamSynchronize", 70, 80, 2), // 5
    };
    if (withSyncRecord)
        events.push_back(syncRecord("Stream Sync", 7, 70, 80, 2)); // 6
    return events;
}

} // namespace

class TestCriticalPath : public QObject
{
    Q_OBJECT

private slots:
    void graphAndPath_data();
    void graphAndPath();
    void streamSynchronize_data();
    void streamSynchronize();
    void deviceSynchronize_data();
    void deviceSynchronize();
    void eventSynchronize_data();
    void eventSynchronize();
    void streamWaitEventAcrossStreams_data();
    void streamWaitEventAcrossStreams();
    void syncOnOneStreamIsInvalid();
    void negativeWeights();
    void memsetBetweenKernels_data();
    void launchEdgeOfEachApi_data();
    void launchEdgeOfEachApi();
    void graphLaunchOfSeveralKernels_data();
    void graphLaunchOfSeveralKernels();
    void memsetBetweenKernels();
    void negativeLaunchDelay_data();
    void negativeLaunchDelay();
    void negativeKernelKernelDelay();
    void cycleIsReported();
    void q1RoundedTimes();
    void q3StreamZeroOperator();
    void q14TopLevelGapsDoNotCount();
    void hipSyncsBlockByDefault_data();
    void hipSyncsBlockByDefault();
    void retimingGraphCountsGapsAndKeepsOrder();
    void notApplicable();
    void annotationWindow();
    void shortNames();
    void overlaidTrace();
    void recordedH100FindsSyncEdges();
    void sharedEventSyncTrace();
};

void TestCriticalPath::graphAndPath_data()
{
    tests::addModeRows();
}

void TestCriticalPath::graphAndPath()
{
    QFETCH(AnalysisMode, mode);
    const auto r = run(launchAndStreamSync(true), mode, "ProfilerStep", { 0, 0 });
    QVERIFY2(r->ok(), r->error().c_str());
    const auto& g = r->graph();
    QVERIFY(g.success);
    QCOMPARE(g.clippedRows, std::size_t { 6 });
    QCOMPARE(g.nodes.size(),
        std::size_t { 8 }); // add, launch, kernel, sync call; not the annotation or the record
    QCOMPARE(g.edges.size(), std::size_t { 8 });
    QCOMPARE(count(g, CpEdgeType::Operator), 5);
    QCOMPARE(count(g, CpEdgeType::Dependency), 1);
    QCOMPARE(count(g, CpEdgeType::KernelLaunchDelay), 1);
    QCOMPARE(count(g, CpEdgeType::SyncDependency), 1);
    // The launch edge starts at the launch call's start and weighs 40 - 20.
    QCOMPARE(findEdge(g, 3, true, 4, true)->weight, std::int64_t { 20'000 });
    // A blocking call's span weighs nothing.
    QCOMPARE(findEdge(g, 5, true, 5, false)->weight, std::int64_t { 0 });
    // Path: add start -> launch start (10) -> kernel start (20) -> kernel end (100); the zero-weight
    // sync edge after it is not taken: networkx ends at the first node of maximal distance.
    QCOMPARE(pathUs(g), 130.0);
    QCOMPARE(g.pathEdges.size(), std::size_t { 3 });
    QCOMPARE(g.nodes[g.pathNodes.front()].eventIndex, std::int64_t { 2 });
    QCOMPARE(g.nodes[g.pathNodes.back()].eventIndex, std::int64_t { 4 });
    QVERIFY(!g.nodes[g.pathNodes.back()].isStart);
    const auto pct = boundPercent(g);
    QCOMPARE(pct.at("cpu_bound"), 10.0 / 130.0 * 100.0);
    QCOMPARE(pct.at("gpu_kernel_launch_overhead"), 20.0 / 130.0 * 100.0);
    QCOMPARE(pct.at("gpu_compute_bound"), 100.0 / 130.0 * 100.0);
    QCOMPARE(pct.size(), std::size_t { 3 });
}

void TestCriticalPath::streamSynchronize_data()
{
    graphAndPath_data();
}

// cudaStreamSynchronize: the last kernel of the stream -> the end of the call.
void TestCriticalPath::streamSynchronize()
{
    QFETCH(AnalysisMode, mode);
    const auto withRecord = run(launchAndStreamSync(true), mode);
    QVERIFY2(withRecord->ok(), withRecord->error().c_str());
    QCOMPARE(syncEdges(withRecord->graph()), QStringList { QStringLiteral("4e->5e") });
    QVERIFY(!withRecord->graph().edges[withRecord->graph().syncEdges().front()].inferred);

    // Without CUDA sync events in the trace HTA finds nothing; default mode infers the same edge.
    const auto without = run(launchAndStreamSync(false), mode);
    QVERIFY2(without->ok(), without->error().c_str());
    if (mode == AnalysisMode::HtaCompat) {
        QVERIFY(syncEdges(without->graph()).isEmpty());
    } else {
        QCOMPARE(syncEdges(without->graph()), QStringList { QStringLiteral("4e->5e") });
        QVERIFY(without->graph().edges[without->graph().syncEdges().front()].inferred);
    }
}

void TestCriticalPath::deviceSynchronize_data()
{
    graphAndPath_data();
}

// cudaDeviceSynchronize (Context Sync): the last kernel of every stream -> the end of the call.
void TestCriticalPath::deviceSynchronize()
{
    QFETCH(AnalysisMode, mode);
    std::vector<std::string> events = {
        runtime("cudaLaunchKernel", 0, 5, 1), // 1
        kernel("a", 7, 10, 50, 1), // 2
        runtime("cudaLaunchKernel", 6, 5, 2), // 3
        kernel("b", 20, 15, 100, 2), // 4
        runtime("cudaDeviceSynchronize", 12, 110, 3), // 5
        syncRecord("Context Sync", -1, 12, 110, 3), // 6
    };
    const QStringList expected { QStringLiteral("2e->5e"), QStringLiteral("4e->5e") };
    const auto r = run(events, mode);
    QVERIFY2(r->ok(), r->error().c_str());
    QCOMPARE(syncEdges(r->graph()), expected);
    // first launch (5), chained to the second launch, its delay to b (15 - 6), b (100).
    QCOMPARE(pathUs(r->graph()), 114.0);

    events.pop_back();
    const auto without = run(events, mode);
    QVERIFY2(without->ok(), without->error().c_str());
    QCOMPARE(syncEdges(without->graph()), mode == AnalysisMode::HtaCompat ? QStringList {} : expected);
}

void TestCriticalPath::eventSynchronize_data()
{
    graphAndPath_data();
}

// cudaEventRecord then cudaEventSynchronize (Event Sync): the work launched before
// the record on the recorded stream -> the end of the synchronize call; not later work.
void TestCriticalPath::eventSynchronize()
{
    QFETCH(AnalysisMode, mode);
    std::vector<std::string> events = {
        runtime("cudaLaunchKernel", 0, 5, 1), // 1
        kernel("a", 7, 10, 50, 1), // 2
        runtime("cudaEventRecord", 8, 2, 2), // 3
        runtime("cudaLaunchKernel", 12, 3, 3), // 4
        kernel("b", 7, 61, 100, 3), // 5
        runtime("cudaEventSynchronize", 20, 45, 4), // 6
        syncRecord("Event Sync", -1, 20, 45, 4, 7, 2), // 7
    };
    const auto r = run(events, mode);
    QVERIFY2(r->ok(), r->error().c_str());
    QCOMPARE(syncEdges(r->graph()), QStringList { QStringLiteral("2e->6e") });

    events.pop_back();
    const auto without = run(events, mode);
    QVERIFY2(without->ok(), without->error().c_str());
    QCOMPARE(syncEdges(without->graph()),
        mode == AnalysisMode::HtaCompat ? QStringList {} : QStringList { QStringLiteral("2e->6e") });
}

void TestCriticalPath::streamWaitEventAcrossStreams_data()
{
    graphAndPath_data();
}

// cudaStreamWaitEvent (Stream Wait Event on stream 20 for an event recorded on
// stream 7): the next kernel launched onto stream 20 waits for the kernel of stream 7.
void TestCriticalPath::streamWaitEventAcrossStreams()
{
    QFETCH(AnalysisMode, mode);
    const std::vector<std::string> events = {
        runtime("cudaLaunchKernel", 0, 5, 1), // 1
        kernel("a", 7, 10, 50, 1), // 2
        runtime("cudaEventRecord", 6, 2, 2), // 3
        runtime("cudaStreamWaitEvent", 9, 2, 3), // 4
        syncRecord("Stream Wait Event", 20, 11, 1, 3, 7, 2), // 5
        runtime("cudaLaunchKernel", 12, 3, 4), // 6
        kernel("b", 20, 61, 10, 4), // 7
    };
    const auto r = run(events, mode);
    QVERIFY2(r->ok(), r->error().c_str());
    const auto& g = r->graph();
    QVERIFY(g.success);
    QCOMPARE(syncEdges(g), QStringList { QStringLiteral("2e->7s") });
    // b was launched long before a finished: no launch edge, the wait is what it waited for.
    QCOMPARE(count(g, CpEdgeType::KernelLaunchDelay), 1);
    QVERIFY(!findEdge(g, 6, true, 7, true));
    QCOMPARE(pathUs(g), 10.0 + 50.0 + 10.0);
}

void TestCriticalPath::syncOnOneStreamIsInvalid()
{
    const std::vector<std::string> events = {
        runtime("cudaLaunchKernel", 0, 5, 1),
        kernel("a", 7, 10, 50, 1),
        runtime("cudaEventRecord", 6, 2, 2),
        runtime("cudaStreamWaitEvent", 9, 2, 3),
        syncRecord("Stream Wait Event", 7, 11, 1, 3, 7, 2),
        runtime("cudaLaunchKernel", 12, 3, 4),
        kernel("b", 7, 61, 10, 4),
    };
    for (const AnalysisMode mode : { AnalysisMode::HtaCompat, AnalysisMode::Default }) {
        const auto r = run(events, mode);
        QVERIFY2(r->ok(), r->error().c_str());
        QVERIFY(!r->graph().success);
        QVERIFY(r->graph().pathEdges.empty());
        QCOMPARE(r->graph().problems.size(), std::size_t { 1 });
        QVERIFY(r->graph().problems.front().find("same stream 7") != std::string::npos);
    }
}

// A child ending after its parent makes a negative end->end edge. HTA
// (without CRITICAL_PATH_STRICT_NEGATIVE_WEIGHT_CHECKS) sets every weight of
// -1 µs or less to 0 in the graph, the edge object keeping its value. Default
// mode takes -1 µs for the trace's µs rounding (0, with a note) and more for a
// broken nesting that invalidates the graph.
void TestCriticalPath::negativeWeights()
{
    for (const AnalysisMode mode : { AnalysisMode::HtaCompat, AnalysisMode::Default }) {
        for (const double parentDur : { 29.0, 25.0 }) {
            const std::vector<std::string> events = {
                cpuOp("parent", 0, parentDur),
                cpuOp("child", 10, 20),
                runtime("cudaLaunchKernel", 40, 5, 1),
                kernel("k", 7, 50, 10, 1),
            };
            const auto r = run(events, mode);
            QVERIFY2(r->ok(), r->error().c_str());
            const auto& g = r->graph();
            const core::CpEdge* e = findEdge(g, 2, false, 1, false);
            QVERIFY(e);
            QCOMPARE(e->weight, static_cast<std::int64_t>((parentDur - 30.0) * 1000.0));
            if (parentDur == 29.0 || mode == AnalysisMode::HtaCompat) {
                QVERIFY(g.success);
                QVERIFY(g.problems.empty());
                QCOMPARE(e->graphWeight, std::int64_t { 0 });
                QVERIFY(hasWarning(g, "1 edge"));
                // parent start -> child start (10), child (20), -> parent end (0), launch chain (0),
                // launch start -> kernel (10), kernel (10).
                QCOMPARE(pathUs(g), 50.0);
            } else {
                QVERIFY(!g.success);
                QCOMPARE(g.problems.size(), std::size_t { 1 });
                QVERIFY(g.problems.front().find("negative weight (-5000 ns)") != std::string::npos);
            }
        }
    }
}

void TestCriticalPath::memsetBetweenKernels_data()
{
    graphAndPath_data();
}

// A 4-byte memset (cudaMemsetAsync) between two GEMMs on one stream is GPU work
// like a kernel: its own nodes, kernel-kernel delays in and out. HTA rounds it
// to ts 63, end 62 (dur -1): its end node comes before its start node, and its
// span of -1 µs weighs 0 in the graph; default mode keeps its 0.4 µs.
void TestCriticalPath::memsetBetweenKernels()
{
    QFETCH(AnalysisMode, mode);
    const bool compat = mode == AnalysisMode::HtaCompat;
    const std::vector<std::string> events = {
        runtime("cudaLaunchKernel", 0, 4, 1), // 1
        kernel("gemm1", 7, 10, 50, 1), // 2: 10..60
        runtime("cudaMemsetAsync", 20, 3, 2), // 3
        gpuMemset(7, 62.5, 0.4, 2), // 4: 62.5..62.9, HTA 63..62
        runtime("cudaLaunchKernel", 25, 4, 3), // 5
        kernel("gemm2", 7, 65, 50, 3), // 6: 65..115
    };
    const auto r = run(events, mode);
    QVERIFY2(r->ok(), r->error().c_str());
    const auto& g = r->graph();
    QVERIFY(g.success);
    QCOMPARE(g.nodes.size(), std::size_t { 12 });
    // Spans of the six events, launch chain (launch -> memset call -> launch), one launch edge
    // (gemm1: queue 1 at its launch, 0 at its start), two kernel-kernel delays through the memset.
    QCOMPARE(g.edges.size(), std::size_t { 11 });
    QCOMPARE(count(g, CpEdgeType::Operator), 6);
    QCOMPARE(count(g, CpEdgeType::Dependency), 2);
    QCOMPARE(count(g, CpEdgeType::KernelLaunchDelay), 1);
    QCOMPARE(count(g, CpEdgeType::KernelKernelDelay), 2);
    QVERIFY(!findEdge(g, 2, false, 6, true)); // gemm2 follows the memset, not gemm1

    const core::CpEdge* span = findEdge(g, 4, true, 4, false);
    const core::CpEdge* in = findEdge(g, 2, false, 4, true);
    const core::CpEdge* out = findEdge(g, 4, false, 6, true);
    QVERIFY(span && in && out);
    QCOMPARE(in->type, CpEdgeType::KernelKernelDelay);
    QCOMPARE(out->type, CpEdgeType::KernelKernelDelay);
    if (compat) {
        QVERIFY(g.nodes[span->dst].ts < g.nodes[span->src].ts);
        QCOMPARE(span->weight, std::int64_t { -1'000 });
        QCOMPARE(span->graphWeight, std::int64_t { 0 });
        QCOMPARE(in->weight, std::int64_t { 3'000 }); // 63 - 60
        QCOMPARE(out->weight, std::int64_t { 3'000 }); // 65 - 62
        QVERIFY(hasWarning(g, "1 edge of -1 us or less"));
        // launch 10, gemm1 50, in 3, memset 0, out 3, gemm2 50.
        QCOMPARE(pathUs(g), 116.0);
        QCOMPARE(weightSums(g),
            (std::map<std::string, double> { { "critical_path_operator", 111.0 },
                { "critical_path_dependency", 0.0 }, { "critical_path_kernel_launch_delay", 10.0 },
                { "critical_path_kernel_kernel_delay", 6.0 } }));
        QCOMPARE(breakdownSumUs(g), 115.0); // HTA's breakdown takes the edge objects: the memset's -1 µs
    } else {
        QCOMPARE(span->weight, std::int64_t { 400 });
        QCOMPARE(span->graphWeight, std::int64_t { 400 });
        QCOMPARE(in->weight, std::int64_t { 2'500 });
        QCOMPARE(out->weight, std::int64_t { 2'100 });
        QVERIFY(g.warnings.empty());
        QCOMPARE(pathUs(g), 115.0);
        QCOMPARE(weightSums(g),
            (std::map<std::string, double> { { "critical_path_operator", 111.4 },
                { "critical_path_dependency", 0.0 }, { "critical_path_kernel_launch_delay", 10.0 },
                { "critical_path_kernel_kernel_delay", 4.6 } }));
        QCOMPARE(breakdownSumUs(g), 115.0);
    }
    QCOMPARE(g.pathEdges.size(), std::size_t { 6 });
    QVERIFY(std::any_of(g.pathEdges.begin(), g.pathEdges.end(),
        [&g, span](std::uint32_t id) { return &g.edges[id] == span; }));
}

void TestCriticalPath::negativeLaunchDelay_data()
{
    QTest::addColumn<AnalysisMode>("mode");
    QTest::addColumn<double>("kernelTs");
    QTest::addColumn<double>("launchDelayUs");
    QTest::addColumn<double>("pathLength");
    // kernel 1 starts before its launch (10): HTA rounds 8.5 up to 9 (-1 µs), 7 stays (-3 µs).
    QTest::newRow("hta-compat -1 us") << AnalysisMode::HtaCompat << 8.5 << -1.0 << 35.0;
    QTest::newRow("hta-compat -3 us") << AnalysisMode::HtaCompat << 7.0 << -3.0 << 37.0;
    QTest::newRow("default -1.5 us") << AnalysisMode::Default << 8.5 << -1.5 << 35.5;
    QTest::newRow("default -3 us") << AnalysisMode::Default << 7.0 << -3.0 << 37.0;
}

// A launch edge with a negative delay: on a rank with two GPUs, HTA's queue
// length is per stream number, so stream 7 of the second GPU keeps the queue at
// 1 when the first GPU's kernel, whose clock runs ahead of the CPU's, starts
// before its launch. HTA still finds the path: the edge weighs 0 in the graph.
void TestCriticalPath::negativeLaunchDelay()
{
    QFETCH(AnalysisMode, mode);
    QFETCH(double, kernelTs);
    QFETCH(double, launchDelayUs);
    QFETCH(double, pathLength);
    const std::vector<std::string> events = {
        runtime("cudaLaunchKernel", 0, 4, 1), // 1
        kernelOnGpu("2", "k0", 7, 30, 10, 1), // 2: GPU 2, stream 7
        runtime("cudaLaunchKernel", 10, 4, 2), // 3
        kernel("k1", 7, kernelTs, 19.0 - kernelTs, 2), // 4: GPU 0, stream 7, ends at 19
    };
    const auto r = run(events, mode);
    QVERIFY2(r->ok(), r->error().c_str());
    const auto& g = r->graph();
    QVERIFY(g.success);
    QVERIFY(g.problems.empty());
    const core::CpEdge* launch = findEdge(g, 3, true, 4, true);
    QVERIFY(launch);
    QCOMPARE(launch->type, CpEdgeType::KernelLaunchDelay);
    QCOMPARE(launch->weight, static_cast<std::int64_t>(launchDelayUs * 1000.0));
    QCOMPARE(launch->graphWeight, std::int64_t { 0 });
    const bool compat = mode == AnalysisMode::HtaCompat;
    // HTA's edge_type_weight_sum adds the weights in the graph.
    QCOMPARE(weightSums(g).at("critical_path_kernel_launch_delay"), 0.0);
    QVERIFY(hasWarning(g, compat ? "1 edge of -1 us or less" : "1 negative kernel-kernel or launch delay"));
    // k0 follows k1 on "stream 7" (HTA does not tell the GPUs apart): 30 - 19.
    QCOMPARE(findEdge(g, 4, false, 2, true)->weight, std::int64_t { 11'000 });
    // Launch 1 (4), chained to launch 2 (0), the delay (0), k1, the gap (11), k0 (10).
    QCOMPARE(pathUs(g), pathLength);
    QVERIFY(g.onPath(static_cast<std::uint32_t>(launch - g.edges.data())));
    // HTA's breakdown keeps the edge object's negative delay; default mode counts the 0 of the graph.
    QCOMPARE(breakdownSumUs(g), compat ? pathLength + launchDelayUs : pathLength);
    const auto pct = boundPercent(g);
    if (compat)
        QCOMPARE(pct.at("gpu_kernel_launch_overhead"), launchDelayUs / (pathLength + launchDelayUs) * 100.0);
    else
        QCOMPARE(pct.at("gpu_kernel_launch_overhead"), 0.0);
}

// Two kernels on one stream overlapping by 1.5 µs (programmatic dependent
// launch, or the rounding of the trace's times): HTA rounds the gap to -1 µs.
// Both modes count it as 0 and say so.
void TestCriticalPath::negativeKernelKernelDelay()
{
    const std::vector<std::string> events = {
        runtime("cudaLaunchKernel", 0, 4, 1), // 1
        kernel("a", 7, 10, 11, 1), // 2: 10..21
        runtime("cudaLaunchKernel", 12, 4, 2), // 3
        kernel("b", 7, 19.5, 10.5, 2), // 4: 19.5..30, HTA 20..30
    };
    for (const AnalysisMode mode : { AnalysisMode::HtaCompat, AnalysisMode::Default }) {
        const auto r = run(events, mode);
        QVERIFY2(r->ok(), r->error().c_str());
        const auto& g = r->graph();
        QVERIFY(g.success);
        const core::CpEdge* gap = findEdge(g, 2, false, 4, true);
        QVERIFY(gap);
        QCOMPARE(gap->type, CpEdgeType::KernelKernelDelay);
        QCOMPARE(gap->weight, std::int64_t { mode == AnalysisMode::HtaCompat ? -1'000 : -1'500 });
        QCOMPARE(gap->graphWeight, std::int64_t { 0 });
        QVERIFY(hasWarning(g,
            mode == AnalysisMode::HtaCompat ? "1 edge of -1 us or less"
                                            : "1 negative kernel-kernel or launch delay"));
        // launch 1 -> a (10), a (11), gap (0), b (10 or 10.5).
        QCOMPARE(pathUs(g), mode == AnalysisMode::HtaCompat ? 31.0 : 31.5);
        QCOMPARE(weightSums(g).at("critical_path_kernel_kernel_delay"), 0.0);
    }
}

// An event synchronize that refers to work launched after it closes a cycle.
void TestCriticalPath::cycleIsReported()
{
    const std::vector<std::string> events = {
        runtime("cudaEventSynchronize", 10, 10, 1), // 0
        syncRecord("Event Sync", -1, 12, 8, 1, 7, 3), // 1
        runtime("cudaLaunchKernel", 30, 5, 2), // 2
        kernel("k", 7, 40, 10, 2), // 3
        runtime("cudaEventRecord", 36, 2, 3), // 4
    };
    for (const AnalysisMode mode : { AnalysisMode::HtaCompat, AnalysisMode::Default }) {
        const auto r = run(events, mode);
        QVERIFY2(r->ok(), r->error().c_str());
        QVERIFY(!r->graph().success);
        QCOMPARE(r->graph().problems, std::vector<std::string> { "the graph has a cycle" });
    }
}

// Q1: HTA rounds sub-µs times (ts up, end down); default mode keeps exact ns.
void TestCriticalPath::q1RoundedTimes()
{
    const std::vector<std::string> events = {
        cpuOp("aten::x", 10.2, 5.5), // 1: HTA 11..15, exact 10.2..15.7
        runtime("cudaLaunchKernel", 20, 2, 1), // 2
        kernel("k", 7, 25, 3, 1), // 3
    };
    const auto compat = run(events, AnalysisMode::HtaCompat);
    const auto exact = run(events, AnalysisMode::Default);
    QVERIFY(compat->ok() && exact->ok());
    QCOMPARE(findEdge(compat->graph(), 1, true, 1, false)->weight, std::int64_t { 4'000 });
    QCOMPARE(findEdge(exact->graph(), 1, true, 1, false)->weight, std::int64_t { 5'500 });
    // op, zero-weight chaining to the launch, launch delay 5, kernel 3.
    QCOMPARE(pathUs(compat->graph()), 12.0);
    QCOMPARE(pathUs(exact->graph()), 13.5);
}

// Q3: HTA takes any row with a stream for GPU work, so a Triton launcher
// cpu_op with stream 0 leaves the CPU side; default mode keeps it on its thread.
void TestCriticalPath::q3StreamZeroOperator()
{
    const std::vector<std::string> events = {
        cpuOp("aten::foo", 0, 30), // 1
        runtime("cudaLaunchKernel", 5, 5, 1), // 2
        kernel("k", 7, 15, 10, 1), // 3
        cpuOp("triton_launcher", 40, 10, R"("stream":0)"), // 4
    };
    const auto compat = run(events, AnalysisMode::HtaCompat);
    const auto fixed = run(events, AnalysisMode::Default);
    QVERIFY(compat->ok() && fixed->ok());
    QCOMPARE(compat->graph().nodes.size(), std::size_t { 6 });
    QCOMPARE(fixed->graph().nodes.size(), std::size_t { 8 });
    QVERIFY(!findEdge(compat->graph(), 1, false, 4, true));
    QCOMPARE(findEdge(fixed->graph(), 1, false, 4, true)->type, CpEdgeType::Dependency);
    QCOMPARE(findEdge(fixed->graph(), 4, true, 4, false)->weight, std::int64_t { 10'000 });
}

// Q14 (kept in both modes): consecutive top-level operators are chained with
// zero-weight dependencies, so CPU gaps between them never count.
void TestCriticalPath::q14TopLevelGapsDoNotCount()
{
    const std::vector<std::string> events = {
        cpuOp("first", 0, 10),
        cpuOp("second", 100, 10),
        runtime("cudaLaunchKernel", 200, 5, 1),
        kernel("k", 7, 210, 1, 1),
    };
    for (const AnalysisMode mode : { AnalysisMode::HtaCompat, AnalysisMode::Default }) {
        const auto r = run(events, mode);
        QVERIFY(r->ok());
        const core::CpEdge* gap = findEdge(r->graph(), 1, false, 2, true);
        QVERIFY(gap);
        QCOMPARE(gap->type, CpEdgeType::Dependency);
        QCOMPARE(gap->weight, std::int64_t { 0 });
        QCOMPARE(pathUs(r->graph()), 10.0 + 10.0 + 10.0 + 1.0);
    }
}

void TestCriticalPath::hipSyncsBlockByDefault_data()
{
    QTest::addColumn<QString>("call");
    for (const char* call : { "hipDeviceSynchronize", "hipStreamSynchronize", "hipEventSynchronize" })
        QTest::newRow(call) << QString::fromLatin1(call);
}

// HIP's syncs (sync_api.h) are CUDA's by default: their span is the host waiting
// (no weight) and, without sync records, the edge from the work they waited for is
// inferred. HTA 0.6.1 knows only CUDA's names: the 100 us wait counts as CPU time
// and no edge joins it to the GPU (the old mi300_qwen05b path: 13 ms of
// hipDeviceSynchronize as CPU time).
void TestCriticalPath::hipSyncsBlockByDefault()
{
    QFETCH(QString, call);
    const std::vector<std::string> events = {
        runtime("hipLaunchKernel", 0, 5, 1), // 1
        kernel("a", 7, 10, 100, 1), // 2
        runtime(call.toStdString(), 12, 100, 2), // 3: returns when `a` is done
    };
    const auto byDefault = run(events, AnalysisMode::Default);
    QVERIFY2(byDefault->ok(), byDefault->error().c_str());
    const core::CpEdge* wait = findEdge(byDefault->graph(), 3, true, 3, false);
    QVERIFY(wait);
    QCOMPARE(wait->weight, std::int64_t { 0 });
    QCOMPARE(syncEdges(byDefault->graph()), QStringList { QStringLiteral("2e->3e") });
    // The launch's delay to `a` (10) and `a` (100): the path is the GPU's.
    QCOMPARE(pathUs(byDefault->graph()), 110.0);

    const auto compat = run(events, AnalysisMode::HtaCompat);
    QVERIFY2(compat->ok(), compat->error().c_str());
    const core::CpEdge* counted = findEdge(compat->graph(), 3, true, 3, false);
    QVERIFY(counted);
    QCOMPARE(counted->weight, std::int64_t { 100'000 });
    QVERIFY(syncEdges(compat->graph()).isEmpty());
}

// The job path's graph (GraphPurpose::Retiming) keeps what a re-timed timeline must:
// a thread's time between top-level ops counts (the 90 us between `first` and
// `second`, free in HTA's graph, Q14), a kernel queued behind another keeps a
// zero-weight edge from its launch, and one launched onto an idle stream a
// zero-weight edge from the stream's previous kernel.
void TestCriticalPath::retimingGraphCountsGapsAndKeepsOrder()
{
    const std::vector<std::string> events = {
        cpuOp("first", 0, 10), // 1
        cpuOp("second", 100, 10), // 2
        runtime("cudaLaunchKernel", 200, 5, 1), // 3
        kernel("long", 7, 210, 100, 1), // 4
        runtime("cudaLaunchKernel", 210, 5, 2), // 5
        kernel("queued", 7, 310, 10, 2), // 6: waits for `long`
        runtime("cudaLaunchKernel", 400, 5, 3), // 7
        kernel("idle_launch", 7, 410, 10, 3), // 8: the stream idle since 320
    };
    QTemporaryDir dir;
    std::vector<std::string> all {
        R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}})"
    };
    all.insert(all.end(), events.begin(), events.end());
    const core::TraceSet set = tests::loadRanks(dir, { tests::kinetoDocument(0, all) });
    const core::FrameSet frames = tests::frames(set, AnalysisMode::Default);
    const core::CriticalPathWindow window { std::numeric_limits<std::int64_t>::min() / 2,
        std::numeric_limits<std::int64_t>::max() / 2 };
    const auto build = [&](core::GraphPurpose purpose) {
        auto g = core::buildCriticalPath(
            frames, 0, window, core::AnalysisOptions {}, core::CriticalPathParts::GraphOnly, purpose);
        if (!g || !g.value().success)
            qFatal("the graph does not build");
        return std::move(g).value();
    };
    const core::CriticalPathGraph hta = build(core::GraphPurpose::Analysis);
    const core::CriticalPathGraph retimed = build(core::GraphPurpose::Retiming);

    const core::CpEdge* freeGap = findEdge(hta, 1, false, 2, true);
    QVERIFY(freeGap);
    QCOMPARE(freeGap->type, CpEdgeType::Dependency);
    const core::CpEdge* gap = findEdge(retimed, 1, false, 2, true);
    QVERIFY(gap);
    QCOMPARE(gap->type, CpEdgeType::Operator);
    QCOMPARE(gap->weight, std::int64_t { 90'000 });

    // `queued`: HTA's graph has its kernel-kernel edge only; re-timed, its launch too.
    QVERIFY(!findEdge(hta, 5, true, 6, true));
    const core::CpEdge* launch = findEdge(retimed, 5, true, 6, true);
    QVERIFY(launch);
    QCOMPARE(launch->type, CpEdgeType::KernelLaunchDelay);
    QCOMPARE(launch->weight, std::int64_t { 0 });
    QCOMPARE(findEdge(retimed, 4, false, 6, true)->type, CpEdgeType::KernelKernelDelay);
    // `idle_launch`: its launch edge weighs its delay; re-timed, the stream's order is kept.
    QCOMPARE(findEdge(retimed, 7, true, 8, true)->weight, std::int64_t { 10'000 });
    QVERIFY(!findEdge(hta, 6, false, 8, true));
    const core::CpEdge* order = findEdge(retimed, 6, false, 8, true);
    QVERIFY(order);
    QCOMPARE(order->type, CpEdgeType::KernelKernelDelay);
    QCOMPARE(order->weight, std::int64_t { 0 });
}

void TestCriticalPath::notApplicable()
{
    for (const AnalysisMode mode : { AnalysisMode::HtaCompat, AnalysisMode::Default }) {
        const auto cpuOnly = run({ cpuOp("a", 0, 10), cpuOp("b", 20, 10) }, mode);
        QVERIFY(!cpuOnly->ok());
        QVERIFY(cpuOnly->error().find("Queue length time series is required") != std::string::npos);

        const auto noAnnotation = run(launchAndStreamSync(true), mode, "Nope");
        QVERIFY(!noAnnotation->ok());
        QVERIFY(noAnnotation->error().find("annotation 'Nope' not found") != std::string::npos);

        const auto noInstance = run(launchAndStreamSync(true), mode, "ProfilerStep", { 3, 3 });
        QVERIFY(!noInstance->ok());
        QVERIFY(noInstance->error().find("it has 1 instances") != std::string::npos);
    }
    // MTIA: HTA fails ("Could not find runtime index"); default mode says why it does not apply.
    const auto mtia = run(
        { cpuOp("op", 0, 50), runtime("runFunction - job_prep_and_submit_for_execution", 5, 5, 1),
            traceEvent("mtia_ccp_events", "pe_exe", "0", "101", 20, 10, R"("stream":101,"correlation":1)") },
        AnalysisMode::Default);
    QVERIFY(!mtia->ok());
    QVERIFY(mtia->error().find("MTIA") != std::string::npos);

    core::FrameSet empty;
    QVERIFY(!core::buildCriticalPath(empty, 5, "", {}, {}).ok());
    QVERIFY(!core::criticalPath(empty, 5, "", {}, {}).ok);
}

// The window: CPU events starting in the annotation instance, GPU work launched from them.
void TestCriticalPath::annotationWindow()
{
    const std::vector<std::string> events = {
        annotation("ProfilerStep#1", 0, 50), // 1
        annotation("ProfilerStep#2", 50, 50), // 2 (HTA drops the last step at load)
        annotation("ProfilerStep#3", 100, 50), // 3
        cpuOp("early", 10, 10), // 4
        runtime("cudaLaunchKernel", 60, 5, 1), // 5
        kernel("k", 7, 120, 5, 1), // 6: runs in step 3, launched in step 2
        cpuOp("late", 110, 10), // 7
    };
    for (const AnalysisMode mode : { AnalysisMode::HtaCompat, AnalysisMode::Default }) {
        const auto r = run(events, mode, "ProfilerStep", { 1, 1 });
        QVERIFY2(r->ok(), r->error().c_str());
        const auto& g = r->graph();
        QCOMPARE(g.windowStart, std::int64_t { 50'000 });
        QCOMPARE(g.windowEnd, std::int64_t { 100'000 });
        QCOMPARE(g.nodes.size(), std::size_t { 4 }); // the launch and its kernel
        QVERIFY(findEdge(g, 5, true, 6, true));
    }
}

void TestCriticalPath::shortNames()
{
    QCOMPARE(core::shortenNameHta(
                 "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float> >(int)"),
        std::string("at::native::vectorized_elementwise_kernel"));
    QCOMPARE(core::shortenNameHta("autograd::engine::evaluate_function: torch::autograd::CppNode<Foo>"),
        std::string("torch::autograd::CppNode"));
    QCOMPARE(core::shortenNameHta("autograd::engine::evaluate_function: ClampBackward1"),
        std::string("autograd::engine::evaluate_function: ClampBackward1"));
    QCOMPARE(core::shortenNameHta("Memcpy DtoH (Device -> Pageable)"),
        std::string("Memcpy DtoH (Device -> Pageable)"));
    QCOMPARE(core::shortenNameHta("## forward ##"), std::string("## forward ##"));
}

void TestCriticalPath::overlaidTrace()
{
    const auto r = run(launchAndStreamSync(true), AnalysisMode::Default);
    QVERIFY(r->ok());
    const auto& g = r->graph();
    const std::string input = g.frame->trace->path;
    QFile in(QString::fromStdString(input));
    QVERIFY(in.open(QIODevice::ReadOnly));
    const QByteArray before = in.readAll();
    in.close();

    QVERIFY(!core::writeCriticalPathTrace(g, input).ok()); // never the input

    const std::string plain = r->dir.path().toStdString() + "/out/overlay.json";
    QVERIFY(QDir().mkpath(r->dir.path() + "/out"));
    auto written = core::writeCriticalPathTrace(g, plain);
    QVERIFY2(written.ok(), written.ok() ? "" : written.error().describe().c_str());
    QCOMPARE(written.value().events, std::uint64_t { 7 });
    QCOMPARE(written.value().markedEvents, std::uint64_t { 3 }); // add, its launch, the kernel
    QCOMPARE(written.value().flowEvents, std::uint64_t { 2 }); // the launch edge
    QFile out(QString::fromStdString(plain));
    QVERIFY(out.open(QIODevice::ReadOnly));
    const QJsonDocument doc = QJsonDocument::fromJson(out.readAll());
    QVERIFY(doc.isObject());
    QCOMPARE(doc.object().value(QStringLiteral("schemaVersion")).toInt(), 1);
    const QJsonArray traceEvents = doc.object().value(QStringLiteral("traceEvents")).toArray();
    QCOMPARE(traceEvents.size(), 9);
    int critical = 0;
    int flowStarts = 0;
    for (const auto& v : traceEvents) {
        const QJsonObject e = v.toObject();
        critical += e.value(QStringLiteral("args")).toObject().value(QStringLiteral("critical")).toInt();
        flowStarts += e.value(QStringLiteral("ph")).toString() == QStringLiteral("s");
    }
    QCOMPARE(critical, 3);
    QCOMPARE(flowStarts, 1);
    QVERIFY(!traceEvents[0]
                 .toObject()
                 .value(QStringLiteral("args"))
                 .toObject()
                 .contains(QStringLiteral("critical")));

    const std::string gz = r->dir.path().toStdString() + "/out/overlay.json.gz";
    QVERIFY(core::writeCriticalPathTrace(g, gz).ok());
    QFile gzFile(QString::fromStdString(gz));
    QVERIFY(gzFile.open(QIODevice::ReadOnly));
    QCOMPARE(gzFile.read(2), QByteArray("\x1f\x8b", 2));
    auto reread = core::loadTraceSet({ gz }, {}, nullptr, nullptr);
    QVERIFY(reread.ok());
    QCOMPARE(reread.value().ranks.front()->counts.events, std::uint64_t { 9 });

    QVERIFY(in.open(QIODevice::ReadOnly));
    QCOMPARE(in.readAll(), before);
}

// Recorded with torch.profiler's defaults, so without CUDA sync events: HTA's
// graph has no sync dependency; default mode infers them from the blocking calls.
void TestCriticalPath::recordedH100FindsSyncEdges()
{
    const std::string dir = std::string(KS_TEST_DATA_DIR "/recorded_h100");
    if (!std::filesystem::exists(dir))
        QSKIP("tests/data/recorded_h100 is absent");
    auto set = core::loadTraceSet({ dir }, {}, nullptr, nullptr);
    QVERIFY(set.ok());
    for (const AnalysisMode mode : { AnalysisMode::HtaCompat, AnalysisMode::Default }) {
        const core::FrameSet frames = tests::frames(set.value(), mode);
        for (const std::int64_t rank : { 0, 1 }) {
            auto g = core::buildCriticalPath(frames, rank, "", {}, {});
            QVERIFY2(g.ok(), g.ok() ? "" : g.error().message.c_str());
            QVERIFY(g.value().success);
            QVERIFY(g.value().pathWeight > 0);
            const auto syncs = g.value().syncEdges();
            if (mode == AnalysisMode::HtaCompat) {
                QVERIFY(syncs.empty());
                continue;
            }
            std::set<std::string> callers;
            bool anyOnPath = false;
            for (const std::uint32_t id : syncs) {
                const core::CpEdge& e = g.value().edges[id];
                QVERIFY(e.inferred);
                QVERIFY(g.value().nodes[e.src].ts <= g.value().nodes[e.dst].ts);
                callers.insert(std::string(frames.ranks[static_cast<std::size_t>(rank)].name(
                    frames.ranks[static_cast<std::size_t>(rank)].rows[g.value().nodes[e.dst].row])));
                anyOnPath = anyOnPath || g.value().onPath(id);
            }
            QCOMPARE(callers,
                (std::set<std::string> {
                    "cudaDeviceSynchronize", "cudaEventSynchronize", "cudaStreamSynchronize" }));
            QVERIFY(anyOnPath);
        }
    }
}

// HTA's own numbers on the shared cuda_event_sync trace (the full comparison is
// tests/conformance/compare_critical_path.py).
void TestCriticalPath::sharedEventSyncTrace()
{
    const std::string dir = std::string(KS_SHARED_DIR) + "/traces/cuda_event_sync";
    if (!std::filesystem::exists(dir))
        QSKIP("../shared/traces is absent");
    auto set = core::loadTraceSet({ dir }, {}, nullptr, nullptr);
    QVERIFY(set.ok());
    const core::FrameSet frames = tests::frames(set.value(), AnalysisMode::HtaCompat);
    auto g = core::buildCriticalPath(frames, 0, "ProfilerStep", { 0, 0 }, {});
    QVERIFY(g.ok());
    QCOMPARE(g.value().nodes.size(), std::size_t { 54 });
    QCOMPARE(g.value().edges.size(), std::size_t { 57 });
    QCOMPARE(pathUs(g.value()), 2411.0);
    QCOMPARE(syncEdges(g.value()),
        (QStringList { QStringLiteral("23e->29e"), QStringLiteral("33e->41e"), QStringLiteral("33e->45e"),
            QStringLiteral("33e->51e") }));
}

void TestCriticalPath::launchEdgeOfEachApi_data()
{
    QTest::addColumn<QString>("api");
    QTest::addColumn<bool>("inHta"); // HTA 0.6.1's get_runtime_launch_events_mask names it
    QTest::newRow("cudaLaunchKernelExC") << "cudaLaunchKernelExC" << true;
    QTest::newRow("cuLaunchKernel") << "cuLaunchKernel" << true;
    QTest::newRow("cuLaunchKernelEx") << "cuLaunchKernelEx" << true;
    QTest::newRow("hipLaunchKernel") << "hipLaunchKernel" << true;
    QTest::newRow("hipExtModuleLaunchKernel") << "hipExtModuleLaunchKernel" << true;
    QTest::newRow("hipModuleLaunchKernel") << "hipModuleLaunchKernel" << false;
    QTest::newRow("hipExtLaunchKernel") << "hipExtLaunchKernel" << false;
    QTest::newRow("cudaLaunchCooperativeKernel") << "cudaLaunchCooperativeKernel" << false;
}

// A kernel launched onto an idle stream waits for its launch: a launch edge from the
// call's start, whatever the API (HTA PR #271: without it the kernel hangs off the one
// before it on the stream, a long kernel-kernel delay). HTA-compatible mode keeps HTA
// 0.6.1's list: a name it lacks leaves the kernel without a launch edge.
void TestCriticalPath::launchEdgeOfEachApi()
{
    QFETCH(QString, api);
    QFETCH(bool, inHta);
    const std::vector<std::string> events = {
        annotation("ProfilerStep#1", 0, 300), // 1
        runtime("cudaLaunchKernel", 10, 5, 1), // 2
        kernel("first", 7, 20, 10, 1), // 3: 20..30
        runtime(api.toStdString(), 100, 10, 2), // 4
        kernel("second", 7, 120, 50, 2), // 5: 120..170
    };
    for (const AnalysisMode mode : { AnalysisMode::Default, AnalysisMode::HtaCompat }) {
        const auto r = run(events, mode);
        QVERIFY2(r->ok(), r->error().c_str());
        const auto& g = r->graph();
        const bool expected = mode == AnalysisMode::Default || inHta;
        const core::CpEdge* launchEdge = findEdge(g, 4, true, 5, true);
        QCOMPARE(launchEdge != nullptr, expected);
        if (launchEdge) {
            QCOMPARE(launchEdge->type, CpEdgeType::KernelLaunchDelay);
            QCOMPARE(launchEdge->weight, std::int64_t { 20'000 }); // 120 - 100, the call's time included
        }
        // Without it the second kernel follows the first after a 90 µs gap.
        QCOMPARE(findEdge(g, 3, false, 5, true) != nullptr, !expected);
    }
}

void TestCriticalPath::graphLaunchOfSeveralKernels_data()
{
    tests::addModeRows();
}

// A graph launch queues all its kernels at once, each with the launch's correlation id
// (HTA #290, PR #291). Default mode: its first kernel on each stream waits for the
// launch, the next ones for the kernel before them; the path runs through them.
// HTA 0.6.1 knows no graph launch: no launch edge, the graph's first kernel hangs free.
void TestCriticalPath::graphLaunchOfSeveralKernels()
{
    QFETCH(AnalysisMode, mode);
    const bool compat = mode == AnalysisMode::HtaCompat;
    const std::vector<std::string> events = {
        runtime("cudaLaunchKernel", 5, 5, 1), // 1
        kernel("before", 7, 12, 5, 1), // 2: 12..17
        runtime("cudaGraphLaunch", 20, 10, 5), // 3
        kernel("g1", 7, 40, 20, 5), // 4: 40..60
        kernel("g2", 7, 62, 20, 5), // 5: 62..82
        kernel("g3", 9, 45, 30, 5), // 6: 45..75, a second stream of the graph
        kernel("g4", 7, 84, 100, 5), // 7: 84..184
    };
    const auto r = run(events, mode);
    QVERIFY2(r->ok(), r->error().c_str());
    const auto& g = r->graph();
    const core::CpEdge* toFirst = findEdge(g, 3, true, 4, true);
    const core::CpEdge* toOtherStream = findEdge(g, 3, true, 6, true);
    if (compat) {
        QVERIFY(!toFirst && !toOtherStream);
        QCOMPARE(count(g, CpEdgeType::KernelLaunchDelay), 1); // "before" only
        return;
    }
    QVERIFY(toFirst && toOtherStream);
    QCOMPARE(toFirst->type, CpEdgeType::KernelLaunchDelay);
    QCOMPARE(toFirst->weight, std::int64_t { 20'000 }); // 40 - 20
    QCOMPARE(toOtherStream->type, CpEdgeType::KernelLaunchDelay);
    QCOMPARE(count(g, CpEdgeType::KernelLaunchDelay), 3); // "before", g1, g3
    QVERIFY(!findEdge(g, 3, true, 5, true) && !findEdge(g, 3, true, 7, true));
    for (const auto& [from, to] : { std::pair { 4, 5 }, std::pair { 5, 7 } }) {
        const core::CpEdge* e = findEdge(g, from, false, to, true);
        QVERIFY2(e, qPrintable(QStringLiteral("%1 -> %2").arg(from).arg(to)));
        QCOMPARE(e->type, CpEdgeType::KernelKernelDelay);
    }
    // The longest path ends with the graph's kernels on stream 7: g1, g2, g4.
    std::set<std::int64_t> onPath;
    for (const std::uint32_t e : g.pathEdges)
        onPath.insert(g.nodes[g.edges[e].dst].eventIndex);
    for (const std::int64_t kernelEvent : { 4, 5, 7 })
        QVERIFY2(onPath.count(kernelEvent), qPrintable(QString::number(kernelEvent)));
}

KS_TEST_MAIN(tst_critical_path, TestCriticalPath)
#include "tst_critical_path.moc"
