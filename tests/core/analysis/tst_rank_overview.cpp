// X1 rank overview: every (rank, iteration) row holds what A9's iteration
// selection gives for that iteration alone, and the rank whose GPU is busy
// well beyond the others in an iteration is flagged there, and only there.

#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/hta/comm_comp_overlap.h"
#include "core/analysis/hta/temporal_breakdown.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

using namespace ks;

namespace {

using tests::correlationArgs;

// Two steps of 1000 µs; in each, a compute kernel of `computeUs[i]` and an
// all-reduce of 100 µs launched from the step.
std::string rankDocument(std::int64_t rank, std::array<std::int64_t, 2> computeUs)
{
    std::vector<std::string> events;
    int correlation = 1;
    for (int step = 0; step < 2; ++step) {
        const std::int64_t t0 = 1000 * step;
        const std::string stepName = "ProfilerStep#" + std::to_string(step + 1);
        events.push_back(tests::completeEvent("user_annotation", stepName, t0, 1000, 100, 1));
        events.push_back(tests::completeEvent(
            "cuda_runtime", "cudaLaunchKernel", t0 + 10, 5, 100, 1, correlationArgs(correlation)));
        events.push_back(tests::completeEvent("kernel", "gemm_kernel", t0 + 20,
            computeUs[static_cast<std::size_t>(step)], 0, 7, correlationArgs(correlation, 7)));
        ++correlation;
        events.push_back(tests::completeEvent(
            "cuda_runtime", "cudaLaunchKernel", t0 + 12, 5, 100, 1, correlationArgs(correlation)));
        events.push_back(tests::completeEvent("kernel", "ncclDevKernel_AllReduce_Sum_f32_RING_LL", t0 + 50,
            100, 0, 13, correlationArgs(correlation, 13)));
        ++correlation;
    }
    return tests::kinetoDocument(rank, events);
}

double cellValue(const core::Table& t, std::size_t row, const std::string& column)
{
    return core::cellAsDouble(t.rows[row][t.columnIndex(column)]).value_or(-1.0);
}

} // namespace

class TestRankOverview : public QObject
{
    Q_OBJECT

private slots:

    void rowsEqualEachIterationAlone()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir,
            { rankDocument(0, { 300, 300 }), rankDocument(1, { 300, 700 }), rankDocument(2, { 310, 290 }) });
        core::AnalysisOptions options;
        const core::FrameSet all = tests::frames(set, options.mode);
        const auto out = core::rankOverview(all, options);
        QVERIFY2(out.ok, out.error.c_str());
        const core::Table& t = out.result.frame;
        QCOMPARE(t.rows.size(), std::size_t(6)); // 3 ranks x 2 iterations
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            const auto rank = static_cast<std::int64_t>(cellValue(t, r, "rank"));
            const auto iteration = static_cast<std::int64_t>(cellValue(t, r, "iteration"));
            QCOMPARE(cellValue(t, r, "step_time_us"), 1000.0);
            // The same iteration selected through A9 gives the same percentages.
            core::AnalysisOptions alone = options;
            alone.iterations = std::vector<std::int64_t> { iteration };
            const core::FrameSet one = core::buildFrames(set, alone).value();
            const core::Table temporal = core::temporalBreakdown(one, alone).result.frame;
            const core::Table overlap = core::commCompOverlap(one, alone).result.frame;
            for (std::size_t k = 0; k < temporal.rows.size(); ++k) {
                if (cellValue(temporal, k, "rank") != static_cast<double>(rank))
                    continue;
                QCOMPARE(cellValue(t, r, "idle_pct"), cellValue(temporal, k, "idle_time_pctg"));
                QCOMPARE(cellValue(t, r, "compute_pct"), cellValue(temporal, k, "compute_time_pctg"));
                QCOMPARE(cellValue(t, r, "gpu_busy_us"),
                    cellValue(temporal, k, "compute_time(us)")
                        + cellValue(temporal, k, "non_compute_time(us)"));
            }
            for (std::size_t k = 0; k < overlap.rows.size(); ++k)
                if (cellValue(overlap, k, "rank") == static_cast<double>(rank))
                    QCOMPARE(cellValue(t, r, "overlap_pct"), cellValue(overlap, k, "comp_comm_overlap_pctg"));
            // Rank 1's GPU is busy 700 + 100 µs in iteration 2 against ~400 µs elsewhere.
            const bool straggler = rank == 1 && iteration == 2;
            QCOMPARE(cellValue(t, r, "straggler"), straggler ? 1.0 : 0.0);
        }
    }

    void marginDecides()
    {
        QTemporaryDir dir;
        const core::TraceSet set =
            tests::loadRanks(dir, { rankDocument(0, { 300, 300 }), rankDocument(1, { 330, 330 }) });
        core::AnalysisOptions options;
        const core::FrameSet all = tests::frames(set, options.mode);
        // Rank 1 is busy 330 µs (the all-reduce overlaps its gemm) against a median of 315: 4.8 % above.
        const auto strict = core::rankOverview(all, options, { 0.02 }).result.frame;
        const auto lenient = core::rankOverview(all, options, { 0.10 }).result.frame;
        double flaggedStrict = 0, flaggedLenient = 0;
        for (std::size_t r = 0; r < strict.rows.size(); ++r) {
            flaggedStrict += cellValue(strict, r, "straggler");
            flaggedLenient += cellValue(lenient, r, "straggler");
        }
        QCOMPARE(flaggedStrict, 2.0); // rank 1, both iterations
        QCOMPARE(flaggedLenient, 0.0);
    }

    // The TensorBoard plugin's DataLoader share: the union of the step's loading spans
    // (dataloader_stall's matcher) over the step's length, per rank and iteration.
    void dataLoadingShare()
    {
        using tests::completeEvent;
        const std::string loader = "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__";
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir,
            { tests::kinetoDocument(0,
                  { completeEvent("user_annotation", "ProfilerStep#1", 0, 1000, 100, 1),
                      completeEvent("user_annotation", "ProfilerStep#2", 1000, 1000, 100, 1),
                      // Step 1: 0..200 (the nested _next_data counts once) and 900..1000 of
                      // load_batch, whose rest (1000..1100) is step 2's: 30 % and 10 %.
                      completeEvent("user_annotation", loader, 0, 200, 100, 1),
                      completeEvent("python_function", "_next_data", 50, 100, 100, 1),
                      completeEvent("user_annotation", "load_batch", 900, 200, 100, 2),
                      completeEvent("cpu_op", "aten::mm", 300, 400, 100, 1),
                      completeEvent("kernel", "gemm", 400, 300, 0, 7, correlationArgs(1, 7)) }),
                tests::kinetoDocument(1,
                    { completeEvent("user_annotation", "ProfilerStep#1", 0, 1000, 100, 1),
                        completeEvent("user_annotation", "ProfilerStep#2", 1000, 1000, 100, 1),
                        completeEvent("kernel", "gemm", 400, 300, 0, 7, correlationArgs(1, 7)) }) });
        core::AnalysisOptions options;
        const auto out = core::rankOverview(tests::frames(set, options.mode), options);
        QVERIFY2(out.ok, out.error.c_str());
        const core::Table& t = out.result.frame;
        QCOMPARE(t.rows.size(), std::size_t(4));
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            const auto rank = cellValue(t, r, "rank");
            const auto iteration = cellValue(t, r, "iteration");
            const double expected = rank == 1 ? 0.0 : iteration == 1 ? 30.0 : 10.0;
            QCOMPARE(cellValue(t, r, "dataloader_pct"), expected);
        }
    }

    // The TensorBoard plugin's Tensor Core share: of each step's compute kernels (by
    // their launch's step), the time of those whose names say Tensor Cores;
    // communication kernels are not counted, a step without compute kernels is empty.
    void tensorCoreShare()
    {
        using tests::completeEvent;
        const auto launch = [](std::int64_t ts, int correlation) {
            return completeEvent(
                "cuda_runtime", "cudaLaunchKernel", ts, 5, 100, 1, correlationArgs(correlation));
        };
        const auto kernel = [](const std::string& name, std::int64_t ts, std::int64_t dur, int correlation) {
            return completeEvent("kernel", name, ts, dur, 0, 7, correlationArgs(correlation, 7));
        };
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir,
            { tests::kinetoDocument(0,
                  { completeEvent("user_annotation", "ProfilerStep#1", 0, 1000, 100, 1),
                      completeEvent("user_annotation", "ProfilerStep#2", 1000, 1000, 100, 1),
                      completeEvent("user_annotation", "ProfilerStep#3", 2000, 1000, 100, 1), launch(10, 1),
                      kernel("ampere_fp16_s1688gemm_fp16_128x128_ldg8_f2f_tn", 20, 300, 1), launch(20, 2),
                      kernel("elementwise_kernel", 400, 100, 2), launch(30, 3),
                      kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 600, 300, 3),
                      // Launched in step 2, run in step 3: step 2's.
                      launch(1990, 4), kernel("volta_sgemm_128x64_nn", 2000, 200, 4) }),
                tests::kinetoDocument(1,
                    { completeEvent("user_annotation", "ProfilerStep#1", 0, 1000, 100, 1),
                        completeEvent("cpu_op", "aten::mm", 300, 400, 100, 1) }) });
        core::AnalysisOptions options;
        const auto out = core::rankOverview(tests::frames(set, options.mode), options);
        QVERIFY2(out.ok, out.error.c_str());
        const core::Table& t = out.result.frame;
        const std::size_t at = t.columnIndex("tensor_core_pct");
        int checked = 0;
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            const auto rank = cellValue(t, r, "rank");
            const auto iteration = cellValue(t, r, "iteration");
            const auto share = core::cellAsDouble(t.rows[r][at]);
            if (rank == 1 || iteration == 3) {
                QVERIFY2(!share, "no compute kernels: empty, not 0 %");
            } else {
                QVERIFY(share);
                QCOMPARE(*share, iteration == 1 ? 75.0 : 0.0);
            }
            ++checked;
        }
        QCOMPARE(checked, 6); // every rank gets a row per iteration of the set
    }

    // ROCm traces put their work on stream 0 (HIP's null stream), where HTA gives GPU
    // rows no iteration (NaN): every per-step column was empty on an MI300 trace. The
    // default mode gives device work on stream 0 its launch's iteration; --hta-compat
    // keeps HTA's NaN.
    void streamZeroKernelsHaveTheirLaunchsIteration()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir,
            { tests::kinetoDocument(0,
                { tests::completeEvent("user_annotation", "ProfilerStep#4", 0, 1000, 100, 1),
                    tests::completeEvent(
                        "cuda_runtime", "hipLaunchKernel", 10, 5, 100, 1, correlationArgs(1)),
                    tests::completeEvent("kernel", "Cijk_Ailk_Bljk_BBS_BH_MT128x128x32_MI16x16x16x1", 20, 400,
                        0, 0, correlationArgs(1, 0)) }) });
        const core::FrameSet frames = tests::frames(set, core::AnalysisMode::Default);
        const auto kernel = std::find_if(frames.ranks.front().rows.begin(), frames.ranks.front().rows.end(),
            [](const core::FrameRow& r) { return r.device; });
        QVERIFY(kernel != frames.ranks.front().rows.end());
        QCOMPARE(kernel->iteration, std::int64_t { 4 });
        const auto out = core::rankOverview(frames, {});
        QVERIFY(out.ok);
        const core::Table& t = out.result.frame;
        QCOMPARE(t.rows.size(), std::size_t(1));
        QCOMPARE(cellValue(t, 0, "gpu_busy_us"), 400.0);
        QCOMPARE(cellValue(t, 0, "compute_pct"), 100.0);
        // HTA's rule in --hta-compat: a GPU row on stream 0 has no iteration.
        const core::FrameSet compat = tests::frames(set, core::AnalysisMode::HtaCompat);
        for (const core::FrameRow& r : compat.ranks.front().rows)
            if (r.stream == 0 && compat.ranks.front().category(r) == "kernel")
                QCOMPARE(r.iteration, core::kNoIteration);
        // The shared MI300X trace: its step's columns are filled now.
        const core::TraceSet mi300 = tests::loadSharedTraces(QStringLiteral("mi300_qwen05b"));
        const auto real = core::rankOverview(tests::frames(mi300, core::AnalysisMode::Default), {});
        QVERIFY(real.ok);
        QCOMPARE(real.result.frame.rows.size(), std::size_t(1));
        QVERIFY(cellValue(real.result.frame, 0, "gpu_busy_us") > 20000);
        QVERIFY(cellValue(real.result.frame, 0, "compute_pct") > 50);
    }

    void noStepsIsNotApplicable()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir,
            { tests::kinetoDocument(
                0, { tests::completeEvent("kernel", "gemm", 10, 5, 0, 7, correlationArgs(1, 7)) }) });
        const auto out = core::rankOverview(tests::frames(set, core::AnalysisMode::Default), {});
        QVERIFY(!out.ok);
        QVERIFY(out.error.find("ProfilerStep") != std::string::npos);
    }
};

KS_TEST_MAIN(tst_rank_overview, TestRankOverview)
#include "tst_rank_overview.moc"
