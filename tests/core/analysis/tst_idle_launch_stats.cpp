// A2 idle time breakdown and A6 kernel launch statistics on tiny traces written
// here: hand-computed numbers, and HTA's quirks Q4, Q6, Q10 in both modes.

#include "core/analysis/hta/idle_time_breakdown.h"
#include "core/analysis/hta/launch_outliers.h"
#include "core/analysis/hta/launch_stats.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <string>

using namespace ks;
using core::AnalysisMode;

namespace {

// A complete event; times in µs as Kineto writes them.
std::string slice(const std::string& cat, const std::string& name, std::int64_t ts, std::int64_t dur, int tid,
    const std::string& args = "{}")
{
    const int pid = cat == "kernel" || cat == "gpu_memcpy" || cat == "gpu_memset" ? 0 : 100;
    return tests::completeEvent(cat, name, ts, dur, pid, tid, args);
}

std::string launch(const std::string& name, std::int64_t ts, std::int64_t dur, int correlation)
{
    return slice(
        "cuda_runtime", name, ts, dur, 100, R"({"correlation":)" + std::to_string(correlation) + "}");
}

std::string kernel(
    std::int64_t ts, std::int64_t dur, int stream, int correlation, const std::string& cat = "kernel")
{
    std::string name = "k";
    name += std::to_string(correlation); // "k" + to_string trips GCC 12's -Wrestrict false positive
    return slice(cat, name, ts, dur, stream,
        R"({"stream":)" + std::to_string(stream) + R"(,"correlation":)" + std::to_string(correlation) + "}");
}

using tests::spacedRankDocument;

namespace {

    struct Run
    {
        core::FrameSet frames;
        core::AnalysisOptions options;
    };

} // namespace

Run prepare(const core::TraceSet& set, AnalysisMode mode)
{
    Run r { tests::frames(set, mode), {} };
    r.options.mode = mode;
    return r;
}

core::AnalysisOutput idle(const core::TraceSet& set, AnalysisMode mode, double delayUs = 30.0)
{
    Run r = prepare(set, mode);
    r.options.idle.consecutiveKernelDelayUs = delayUs;
    return core::idleTimeBreakdown(r.frames, r.options);
}

const core::Table& breakdownOf(const core::AnalysisOutput& out)
{
    if (!out.ok || out.result.items.size() != 2)
        qFatal("no idle breakdown: %s", out.error.c_str());
    return out.result.items[0].frame;
}

const core::Table& statsOf(const core::AnalysisOutput& out)
{
    breakdownOf(out);
    return out.result.items[1].frame;
}

// The value of `column` in the row of (stream, category); NaN when the row or the value is missing.
double valueAt(
    const core::Table& t, std::int64_t stream, const std::string& category, const std::string& column)
{
    const std::size_t s = t.columnIndex("stream"), c = t.columnIndex("idle_category"),
                      v = t.columnIndex(column);
    for (const auto& row : t.rows)
        if (std::get<std::int64_t>(row[s]) == stream && std::get<std::string>(row[c]) == category)
            return core::cellAsDouble(row[v]).value_or(std::nan(""));
    return std::nan("");
}

std::vector<std::string> categoriesOf(const core::Table& t)
{
    std::vector<std::string> out;
    for (const auto& row : t.rows)
        out.push_back(std::get<std::string>(row[t.columnIndex("idle_category")]));
    return out;
}

const core::Table& launchesOf(const core::AnalysisOutput& out, const std::string& rank)
{
    for (const auto& [key, value] : out.result.entries)
        if (key == rank)
            return value.frame;
    qFatal("no launch frame for rank %s", rank.c_str());
}

const char* idleColumn(AnalysisMode mode)
{
    return mode == AnalysisMode::HtaCompat ? "idle_time" : "idle_time_us";
}

} // namespace

class TestIdleLaunchStats : public QObject
{
    Q_OBJECT

private slots:
    void idleBreakdownNumbers_data();
    void idleBreakdownNumbers();
    void overlapGapsQ4_data();
    void overlapGapsQ4();
    void partnerlessKernelJoinsEventZero();
    void thresholdIsMicrosecondsQ10_data();
    void thresholdIsMicrosecondsQ10();
    void severalRanksAndRanksWithoutKernels();
    void launchStatsNumbers();
    void launchApisQ6();
    void launchOutlierSets();
};

// One stream, each gap of one kind: 5 µs kernel wait, 65 µs host wait, 80 µs other.
static core::TraceSet idleTrace(const QTemporaryDir& dir)
{
    return tests::loadRanks(dir,
        { tests::kinetoDocument(0,
            { slice("cpu_op", "aten::step", 1000, 1000, 100), launch("cudaLaunchKernel", 1010, 5, 1),
                kernel(1020, 10, 7, 1), launch("cudaLaunchKernel", 1015, 5, 2), kernel(1035, 10, 7, 2),
                launch("cudaLaunchKernel", 1100, 5, 3), kernel(1110, 10, 7, 3),
                launch("cudaLaunchKernel", 1050, 5, 4), kernel(1200, 10, 7, 4) }) });
}

void TestIdleLaunchStats::idleBreakdownNumbers_data()
{
    tests::addModeRows();
}

void TestIdleLaunchStats::idleBreakdownNumbers()
{
    QFETCH(AnalysisMode, mode);
    QTemporaryDir dir;
    const auto out = idle(idleTrace(dir), mode);
    const core::Table& t = breakdownOf(out);
    QCOMPARE(t.indexColumns.size(), std::size_t(0)); // one rank: pandas' default index, no column
    QCOMPARE(categoriesOf(t), (std::vector<std::string> { "host_wait", "kernel_wait", "other" }));
    QCOMPARE(valueAt(t, 7, "host_wait", idleColumn(mode)), 65.0);
    QCOMPARE(valueAt(t, 7, "kernel_wait", idleColumn(mode)), 5.0);
    QCOMPARE(valueAt(t, 7, "other", idleColumn(mode)), 80.0);
    QCOMPARE(valueAt(t, 7, "host_wait", "idle_time_ratio"), 0.43); // 65/150 rounded to 2 decimals
    QCOMPARE(valueAt(t, 7, "kernel_wait", "idle_time_ratio"), 0.03);
    QCOMPARE(valueAt(t, 7, "other", "idle_time_ratio"), 0.53);

    const core::Table& s = statsOf(out);
    QCOMPARE(s.indexColumns, std::vector<std::string> { "idle_category" });
    QCOMPARE(valueAt(s, 7, "other", "count"), 1.0); // the first kernel's missing gap is not counted
    QVERIFY(std::isnan(valueAt(s, 7, "host_wait", mode == AnalysisMode::HtaCompat ? "std" : "std_us")));
    QCOMPARE(valueAt(s, 7, "other", mode == AnalysisMode::HtaCompat ? "max" : "max_us"), 80.0);
}

// K1 [10,110), K2 [60,70) inside it, K3 [80,90), K4 [135,145): all launched early.
static core::TraceSet overlapTrace(const QTemporaryDir& dir)
{
    return tests::loadRanks(dir,
        { tests::kinetoDocument(0,
            { launch("cudaLaunchKernel", 1, 1, 1), launch("cudaLaunchKernel", 2, 1, 2),
                launch("cudaLaunchKernel", 3, 1, 3), launch("cudaLaunchKernel", 4, 1, 4),
                kernel(10, 100, 7, 1), kernel(60, 10, 7, 2), kernel(80, 10, 7, 3),
                kernel(135, 10, 7, 4) }) });
}

void TestIdleLaunchStats::overlapGapsQ4_data()
{
    QTest::addColumn<AnalysisMode>("mode");
    QTest::addColumn<double>("kernelWait");
    QTest::addColumn<double>("other");
    QTest::addColumn<double>("kernelWaitRatio");
    QTest::addColumn<double>("kernelWaitMin");
    // HTA: gaps from the previous kernel's end: -50 and +10 (kernel wait), +45 (other); ratios over a total
    // of 5.
    QTest::newRow("hta") << AnalysisMode::HtaCompat << -40.0 << 45.0 << -8.0 << -50.0;
    // Kinetoscope: from the latest end so far (110): 0, 0, then 25 (under 30 µs: kernel wait).
    QTest::newRow("default") << AnalysisMode::Default << 25.0 << 0.0 << 1.0 << 0.0;
}

void TestIdleLaunchStats::overlapGapsQ4()
{
    QFETCH(AnalysisMode, mode);
    QFETCH(double, kernelWait);
    QFETCH(double, other);
    QFETCH(double, kernelWaitRatio);
    QFETCH(double, kernelWaitMin);
    QTemporaryDir dir;
    const auto out = idle(overlapTrace(dir), mode);
    const core::Table& t = breakdownOf(out);
    QCOMPARE(valueAt(t, 7, "kernel_wait", idleColumn(mode)), kernelWait);
    QCOMPARE(valueAt(t, 7, "other", idleColumn(mode)), other);
    QCOMPARE(valueAt(t, 7, "kernel_wait", "idle_time_ratio"), kernelWaitRatio);
    const char* minColumn = mode == AnalysisMode::HtaCompat ? "min" : "min_us";
    QCOMPARE(valueAt(statsOf(out), 7, "kernel_wait", minColumn), kernelWaitMin);
}

// Part of Q4 (§14.8): a kernel whose launch is missing has index_correlation 0, which HTA
// joins to event 0 — here an op at 500 µs, later than the previous kernel's end, so "host wait".
void TestIdleLaunchStats::partnerlessKernelJoinsEventZero()
{
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::kinetoDocument(0,
            { slice("cpu_op", "late_op", 500, 10, 100), launch("cudaLaunchKernel", 5, 1, 1),
                kernel(10, 10, 7, 1), kernel(100, 10, 7, 99) }) });
    const auto hta = idle(set, AnalysisMode::HtaCompat);
    QCOMPARE(valueAt(breakdownOf(hta), 7, "host_wait", "idle_time"), 80.0);
    QCOMPARE(valueAt(breakdownOf(hta), 7, "other", "idle_time"), 0.0); // only the first kernel's missing gap
    const auto fixed = idle(set, AnalysisMode::Default);
    QCOMPARE(categoriesOf(breakdownOf(fixed)), std::vector<std::string> { "other" });
    QCOMPARE(valueAt(breakdownOf(fixed), 7, "other", "idle_time_us"), 80.0);
}

void TestIdleLaunchStats::thresholdIsMicrosecondsQ10_data()
{
    tests::addModeRows();
}

// HTA documents consecutive_kernel_delay=30 as ns but compares it with µs gaps; both modes use µs.
void TestIdleLaunchStats::thresholdIsMicrosecondsQ10()
{
    QFETCH(AnalysisMode, mode);
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::kinetoDocument(0,
            { launch("cudaLaunchKernel", 1, 1, 1), launch("cudaLaunchKernel", 2, 1, 2),
                launch("cudaLaunchKernel", 3, 1, 3), kernel(10, 10, 7, 1), kernel(49, 10, 7, 2),
                kernel(90, 10, 7, 3) }) });
    // Gaps of 29 µs and 31 µs: with a 30 ns threshold both would be "other".
    const auto out = idle(set, mode);
    const core::Table& t = breakdownOf(out);
    QCOMPARE(valueAt(t, 7, "kernel_wait", idleColumn(mode)), 29.0);
    QCOMPARE(valueAt(t, 7, "other", idleColumn(mode)), 31.0);
    const auto lowerOut = idle(set, mode, 20.0);
    const core::Table& lower = breakdownOf(lowerOut);
    QCOMPARE(categoriesOf(lower), std::vector<std::string> { "other" });
    QCOMPARE(valueAt(lower, 7, "other", idleColumn(mode)), 60.0);
}

void TestIdleLaunchStats::severalRanksAndRanksWithoutKernels()
{
    QTemporaryDir dir;
    const auto withKernels = [](std::int64_t rank) {
        return spacedRankDocument(rank,
            { launch("cudaLaunchKernel", 1, 1, 1), launch("cudaLaunchKernel", 2, 1, 2), kernel(10, 10, 7, 1),
                kernel(25, 10, 7, 2), kernel(40, 10, 9, 3) });
    };
    const auto set = tests::loadRanks(dir,
        { withKernels(0), withKernels(1),
            spacedRankDocument(2, { slice("cpu_op", "aten::add", 0, 5, 100) }) });
    // HTA raises for the whole call when one rank has no kernels.
    const auto hta = idle(set, AnalysisMode::HtaCompat);
    QVERIFY(!hta.ok);
    QVERIFY(hta.error.find("rank 2") != std::string::npos);

    const auto out = idle(set, AnalysisMode::Default);
    const core::Table& t = breakdownOf(out);
    // Stream 7: kernel wait + other; stream 9: other (one kernel, ratio 0/0) — per rank, index restarts at 0.
    QCOMPARE(t.indexColumns, std::vector<std::string> { "index" });
    QCOMPARE(t.rows.size(), std::size_t(6));
    QCOMPARE(std::get<std::int64_t>(t.rows[3][0]), std::int64_t(0));
    QCOMPARE(std::get<std::int64_t>(t.rows[5][0]), std::int64_t(2));
    QCOMPARE(std::get<std::int64_t>(t.rows[5][t.columnIndex("rank")]), std::int64_t(1));
    QVERIFY(std::holds_alternative<std::monostate>(t.rows[2][t.columnIndex("idle_time_ratio")]));
}

// cudaLaunchKernel 5 µs -> kernel 7 µs, 5 µs later; cudaMemcpyAsync 4 µs -> copy starting
// before the call returns (delay clipped to 0); a 60 µs launch whose kernel starts 150 µs after it.
static core::TraceSet launchTrace(const QTemporaryDir& dir)
{
    return tests::loadRanks(dir,
        { tests::kinetoDocument(0,
            { launch("cudaLaunchKernel", 10, 5, 1), kernel(20, 7, 7, 1), launch("cudaMemcpyAsync", 30, 4, 2),
                kernel(32, 3, 7, 2, "gpu_memcpy"), launch("cudaLaunchKernel", 40, 60, 3),
                kernel(250, 10, 7, 3) }) });
}

void TestIdleLaunchStats::launchStatsNumbers()
{
    QTemporaryDir dir;
    const auto set = launchTrace(dir);
    Run hta = prepare(set, AnalysisMode::HtaCompat);
    const auto out = core::cudaKernelLaunchStats(hta.frames, hta.options);
    QVERIFY(out.ok);
    const core::Table& t = launchesOf(out, "0");
    QCOMPARE(t.indexColumns, std::vector<std::string> { "index" });
    QCOMPARE(t.rows.size(), std::size_t(3));
    // Integer µs columns stay integers in HTA's frame.
    const std::vector<core::Cell> first { std::int64_t(0), std::int64_t(1), std::int64_t(5), std::int64_t(7),
        std::int64_t(5) };
    QVERIFY(t.rows[0] == first);
    QCOMPARE(std::get<std::int64_t>(t.rows[1][4]), std::int64_t(0));
    QCOMPARE(std::get<std::int64_t>(t.rows[2][4]), std::int64_t(150));

    hta.options.launches.includeMemoryEvents = false;
    QCOMPARE(
        launchesOf(core::cudaKernelLaunchStats(hta.frames, hta.options), "0").rows.size(), std::size_t(2));

    Run fixed = prepare(set, AnalysisMode::Default);
    const auto fixedOut = core::cudaKernelLaunchStats(fixed.frames, fixed.options);
    const core::Table& d = launchesOf(fixedOut, "0");
    QCOMPARE(d.columns[4].name, std::string("launch_delay_us"));
    QCOMPARE(std::get<double>(d.rows[2][4]), 150.0);
}

// Q6: HTA only knows cudaLaunchKernel(ExC), the MTIA call and two memory calls.
void TestIdleLaunchStats::launchApisQ6()
{
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::kinetoDocument(0,
            { launch("cudaLaunchKernel", 10, 5, 1), kernel(20, 5, 7, 1), launch("cuLaunchKernel", 30, 5, 2),
                kernel(40, 5, 7, 2), launch("cudaGraphLaunch", 50, 5, 3), kernel(60, 5, 7, 3),
                kernel(70, 5, 7, 3), launch("hipLaunchKernel", 80, 5, 4), kernel(90, 5, 7, 4) }) });
    Run hta = prepare(set, AnalysisMode::HtaCompat);
    const auto htaOut = core::cudaKernelLaunchStats(hta.frames, hta.options);
    const core::Table& h = launchesOf(htaOut, "0");
    QCOMPARE(h.rows.size(), std::size_t(1));

    Run fixed = prepare(set, AnalysisMode::Default);
    const auto fixedOut = core::cudaKernelLaunchStats(fixed.frames, fixed.options);
    const core::Table& d = launchesOf(fixedOut, "0");
    QCOMPARE(d.rows.size(), std::size_t(5)); // the graph launch joins to both of its kernels
    std::vector<std::int64_t> correlations;
    for (const auto& row : d.rows)
        correlations.push_back(std::get<std::int64_t>(row[1]));
    QCOMPARE(correlations, (std::vector<std::int64_t> { 1, 2, 3, 3, 4 }));
}

void TestIdleLaunchStats::launchOutlierSets()
{
    QTemporaryDir dir;
    const auto set = launchTrace(dir);
    for (AnalysisMode mode : { AnalysisMode::HtaCompat, AnalysisMode::Default }) {
        Run r = prepare(set, mode);
        const auto outliers = core::launchStatsOutliers(r.frames, r.options);
        QCOMPARE(outliers.size(), std::size_t(1));
        // Short: the copy (cpu 4 µs, gpu 3 µs). Runtime and delay outlier: the 60 µs launch, 150 µs delay.
        QCOMPARE(outliers[0].shortKernels.size(), std::size_t(1));
        QCOMPARE(outliers[0].shortKernels[0].correlation, std::int64_t(2));
        QCOMPARE(outliers[0].runtimeOutliers.size(), std::size_t(1));
        QCOMPARE(outliers[0].runtimeOutliers[0].cpuDurationNs, std::int64_t(60000));
        QCOMPARE(outliers[0].launchDelayOutliers.size(), std::size_t(1));
        QCOMPARE(outliers[0].launchDelayOutliers[0].launchDelayNs, std::int64_t(150000));
        // The cutoffs are µs: at 200 µs the delay is no longer an outlier.
        r.options.launches.launchDelayCutoffUs = 200.0;
        QCOMPARE(
            core::launchStatsOutliers(r.frames, r.options)[0].launchDelayOutliers.size(), std::size_t(0));
    }
}

KS_TEST_MAIN(tst_idle_launch_stats, TestIdleLaunchStats)
#include "tst_idle_launch_stats.moc"
