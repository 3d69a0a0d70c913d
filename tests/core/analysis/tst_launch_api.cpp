// The one rule for launch names (core/analysis/frame/launch_api.h): every CUDA runtime,
// CUDA driver and HIP launch API counts in default mode, graph launches included, and
// HTA 0.6.1's own lists hold in HTA-compatible mode; launch statistics and the queue
// length on tiny traces with each API, and a graph launch of several kernels on one
// correlation.

#include "core/analysis/frame/launch_api.h"
#include "core/analysis/hta/launch_stats.h"
#include "core/analysis/hta/queue_length.h"
#include "core/model/string_pool.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

#include <regex>

using namespace ks;
using core::AnalysisMode;
using core::HtaLaunchList;
using core::LaunchKind;

Q_DECLARE_METATYPE(core::LaunchKind)

namespace {

std::string launch(const std::string& name, std::int64_t ts, int correlation)
{
    return tests::completeEvent(
        "cuda_runtime", name, ts, 5, 100, 100, R"({"correlation":)" + std::to_string(correlation) + "}");
}

std::string kernel(std::int64_t ts, int correlation, int stream = 7)
{
    return tests::completeEvent("kernel", "k" + std::to_string(correlation) + "_" + std::to_string(ts), ts, 5,
        0, stream,
        R"({"stream":)" + std::to_string(stream) + R"(,"correlation":)" + std::to_string(correlation) + "}");
}

const core::Table& rankTable(const core::AnalysisOutput& out)
{
    if (!out.ok || out.result.entries.empty())
        qFatal("no table: %s", out.error.c_str());
    return out.result.entries.front().second.frame;
}

std::size_t launchRows(const core::TraceSet& set, AnalysisMode mode)
{
    core::AnalysisOptions options;
    options.mode = mode;
    return rankTable(core::cudaKernelLaunchStats(tests::frames(set, mode), options)).rows.size();
}

} // namespace

class TestLaunchApi : public QObject
{
    Q_OBJECT

private slots:
    void kindOfEachName_data();
    void kindOfEachName();
    void whatIfPatternMatchesTheRule();
    void launchStatsOfEachApi_data();
    void launchStatsOfEachApi();
    void graphLaunchOfSeveralKernels();
    void namesOfAPool();
};

void TestLaunchApi::kindOfEachName_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<LaunchKind>("kinetoscope");
    QTest::addColumn<LaunchKind>("htaStats");
    QTest::addColumn<LaunchKind>("htaStream");
    QTest::addColumn<LaunchKind>("htaAten");
    const auto K = LaunchKind::Kernel, G = LaunchKind::Graph, M = LaunchKind::Memory, N = LaunchKind::None;
    QTest::newRow("cudaLaunchKernel") << "cudaLaunchKernel" << K << K << K << K;
    QTest::newRow("cudaLaunchKernelExC") << "cudaLaunchKernelExC" << K << K << K << K;
    QTest::newRow("cudaLaunchKernel_ptsz") << "cudaLaunchKernel_ptsz" << K << N << N << K;
    QTest::newRow("cuLaunchKernel") << "cuLaunchKernel" << K << N << K << K;
    QTest::newRow("cuLaunchKernelEx") << "cuLaunchKernelEx" << K << N << K << K;
    QTest::newRow("cudaLaunchCooperativeKernel") << "cudaLaunchCooperativeKernel" << K << N << N << N;
    QTest::newRow("hipLaunchKernel") << "hipLaunchKernel" << K << N << K << N;
    QTest::newRow("hipExtModuleLaunchKernel") << "hipExtModuleLaunchKernel" << K << N << K << N;
    QTest::newRow("hipModuleLaunchKernel") << "hipModuleLaunchKernel" << K << N << N << N;
    QTest::newRow("hipExtLaunchKernel") << "hipExtLaunchKernel" << K << N << N << N;
    QTest::newRow("hipHccModuleLaunchKernel") << "hipHccModuleLaunchKernel" << K << N << N << N;
    QTest::newRow("MTIA") << "runFunction - job_prep_and_submit_for_execution" << K << K << K << K;
    QTest::newRow("cudaGraphLaunch") << "cudaGraphLaunch" << G << N << N << N;
    QTest::newRow("cuGraphLaunch") << "cuGraphLaunch" << G << N << N << N;
    QTest::newRow("hipGraphLaunch") << "hipGraphLaunch" << G << N << N << N;
    QTest::newRow("cudaMemcpyAsync") << "cudaMemcpyAsync" << M << M << M << N;
    QTest::newRow("cudaMemsetAsync") << "cudaMemsetAsync" << M << M << M << N;
    QTest::newRow("cudaMemcpy") << "cudaMemcpy" << M << N << N << N; // blocking: no stream launch
    QTest::newRow("hipMemcpyWithStream") << "hipMemcpyWithStream" << M << N << M << N;
    QTest::newRow("hipMemsetAsync") << "hipMemsetAsync" << M << N << M << N;
    QTest::newRow("cuMemcpyHtoDAsync") << "cuMemcpyHtoDAsync_v2" << M << N << N << N;
    QTest::newRow("cudaLaunchHostFunc") << "cudaLaunchHostFunc" << N << N << N << N;
    QTest::newRow("cudaStreamSynchronize") << "cudaStreamSynchronize" << N << N << N << N;
    QTest::newRow("aten::add") << "aten::add" << N << N << N << N;
}

void TestLaunchApi::kindOfEachName()
{
    QFETCH(QString, name);
    QFETCH(LaunchKind, kinetoscope);
    QFETCH(LaunchKind, htaStats);
    QFETCH(LaunchKind, htaStream);
    QFETCH(LaunchKind, htaAten);
    const std::string n = name.toStdString();
    QCOMPARE(core::launchKindOf(n), kinetoscope);
    QCOMPARE(core::htaLaunchKindOf(n, HtaLaunchList::LaunchStats), htaStats);
    QCOMPARE(core::htaLaunchKindOf(n, HtaLaunchList::StreamLaunches), htaStream);
    QCOMPARE(core::htaLaunchKindOf(n, HtaLaunchList::AtenOpKernels), htaAten);
    for (const HtaLaunchList list : { HtaLaunchList::LaunchStats, HtaLaunchList::AtenOpKernels })
        QCOMPARE(core::launchKindOf(n, AnalysisMode::Default, list), kinetoscope);
    // A blocking copy is a synchronisation to the stream launches' users, not a launch.
    QCOMPARE(core::launchKindOf(n, AnalysisMode::Default, HtaLaunchList::StreamLaunches),
        core::isBlockingMemoryCall(n) ? LaunchKind::None : kinetoscope);
    QCOMPARE(core::launchKindOf(n, AnalysisMode::HtaCompat, HtaLaunchList::StreamLaunches), htaStream);
}

// The insights' what-if removes the launch calls by a pattern: the same names as the rule.
void TestLaunchApi::whatIfPatternMatchesTheRule()
{
    const std::regex pattern(core::kernelLaunchNamePattern(), std::regex::ECMAScript);
    for (const char* name : { "cudaLaunchKernel", "cuLaunchKernelEx", "hipExtModuleLaunchKernel",
             "hipModuleLaunchKernel", "cudaGraphLaunch", "hipGraphLaunch", "cudaLaunchCooperativeKernel" }) {
        QVERIFY2(std::regex_search(name, pattern), name);
        const LaunchKind kind = core::launchKindOf(name);
        QVERIFY(kind == LaunchKind::Kernel || kind == LaunchKind::Graph);
    }
    for (const char* name :
        { "cudaLaunchHostFunc", "cudaMemcpyAsync", "aten::launch", "cudaStreamSynchronize" })
        QVERIFY2(!std::regex_search(name, pattern), name);
}

void TestLaunchApi::launchStatsOfEachApi_data()
{
    QTest::addColumn<QString>("api");
    QTest::addColumn<bool>("inHta"); // HTA 0.6.1's get_cuda_kernel_launch_stats knows it
    QTest::newRow("cudaLaunchKernelExC") << "cudaLaunchKernelExC" << true;
    QTest::newRow("cuLaunchKernel") << "cuLaunchKernel" << false;
    QTest::newRow("cuLaunchKernelEx") << "cuLaunchKernelEx" << false;
    QTest::newRow("cudaLaunchCooperativeKernel") << "cudaLaunchCooperativeKernel" << false;
    QTest::newRow("hipLaunchKernel") << "hipLaunchKernel" << false;
    QTest::newRow("hipExtModuleLaunchKernel") << "hipExtModuleLaunchKernel" << false;
    QTest::newRow("hipModuleLaunchKernel") << "hipModuleLaunchKernel" << false;
}

// One launch of the API and its kernel: a row of the launch statistics by default, in
// HTA-compatible mode only where HTA 0.6.1 knows the name (Q6).
void TestLaunchApi::launchStatsOfEachApi()
{
    QFETCH(QString, api);
    QFETCH(bool, inHta);
    QTemporaryDir dir;
    const auto set = tests::loadRanks(
        dir, { tests::spacedRankDocument(0, { launch(api.toStdString(), 10, 1), kernel(20, 1) }) });
    QCOMPARE(launchRows(set, AnalysisMode::Default), std::size_t(1));
    QCOMPARE(launchRows(set, AnalysisMode::HtaCompat), std::size_t(inHta ? 1 : 0));
}

// A graph launch's kernels share its correlation id: each is a launch row by default
// (HTA 0.6.1: none), and each is queued at the launch's start.
void TestLaunchApi::graphLaunchOfSeveralKernels()
{
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::spacedRankDocument(0,
            { launch("cudaLaunchKernel", 5, 1), kernel(12, 1), launch("cudaGraphLaunch", 20, 2),
                kernel(30, 2), kernel(36, 2), kernel(42, 2), kernel(48, 2, 9) }) });
    QCOMPARE(launchRows(set, AnalysisMode::Default), std::size_t(5));
    QCOMPARE(launchRows(set, AnalysisMode::HtaCompat), std::size_t(1));

    const core::FrameSet frames = tests::frames(set, AnalysisMode::Default);
    const auto points = core::queueLengthPoints(frames.ranks.front(), AnalysisMode::Default);
    QVERIFY2(points.ok(), points.ok() ? "" : points.error().message.c_str());
    std::int64_t peak = 0;
    for (const auto& [event, length] : points.value())
        peak = std::max(peak, length);
    QCOMPARE(peak, std::int64_t(3)); // stream 7 holds the graph's three kernels at its launch
    QCOMPARE(points.value().size(), std::size_t(2 + 2 * 4)); // +1 and -1 per kernel

    const core::FrameSet hta = tests::frames(set, AnalysisMode::HtaCompat);
    const auto htaPoints = core::queueLengthPoints(hta.ranks.front(), AnalysisMode::HtaCompat);
    QVERIFY(htaPoints.ok());
    QCOMPARE(htaPoints.value().size(), std::size_t(2)); // the cudaLaunchKernel only
}

// LaunchNames classifies a rank's pool once; ids it never saw are no launch.
void TestLaunchApi::namesOfAPool()
{
    core::StringPool pool;
    const core::NameId op = pool.intern("aten::mm");
    const core::NameId graph = pool.intern("hipGraphLaunch");
    const core::NameId driver = pool.intern("cuLaunchKernelEx");
    const core::LaunchNames byDefault(pool, AnalysisMode::Default, HtaLaunchList::StreamLaunches);
    QVERIFY(byDefault.any());
    QCOMPARE(byDefault.kindOf(op), LaunchKind::None);
    QCOMPARE(byDefault.kindOf(graph), LaunchKind::Graph);
    QCOMPARE(byDefault.kindOf(driver), LaunchKind::Kernel);
    QCOMPARE(byDefault.kindOf(core::NameId {}), LaunchKind::None);
    const core::LaunchNames stats(pool, AnalysisMode::HtaCompat, HtaLaunchList::LaunchStats);
    QVERIFY(!stats.any());
}

KS_TEST_MAIN(tst_launch_api, TestLaunchApi)
#include "tst_launch_api.moc"
