// The rules other tools have (issue 36 item 4): Nsight Systems' GPU starvation
// and low utilisation, the TensorBoard plugin's Tensor Core use and estimated SM
// efficiency, TraceLens's kernel fusion candidates and CPU idle. Each fires on a trace built with its
// problem, is silent on the same trace without it, and reads its threshold by name.
// The rules whose fix changes particular events give the fix re-timed on the
// critical path: their gain equals the path rebuilt with their edits, and is
// less than the time the symptom holds where the path moves elsewhere.

#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/insights/insights.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/insights_traces.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <algorithm>
#include <cstdio>

using namespace ks;
using ks::tests::RankTraceBuilder;

namespace {

struct Run
{
    QTemporaryDir dir;
    core::TraceSet set;
    core::FrameSet frames;
    core::InsightsReport report;

    Run(const std::string& document, const std::string& rule, const std::string& setting = {})
        : set(tests::loadRanks(dir, { document }))
        , frames(tests::frames(set, core::AnalysisMode::Default))
    {
        core::InsightsOptions options;
        options.rules = { rule };
        if (!setting.empty() && !options.settings.set(setting, core::insightRuleInfos()).ok())
            qFatal("bad setting %s", setting.c_str());
        report = core::runInsights(frames, core::AnalysisOptions {}, options);
    }

    const core::Finding* finding(const std::string& rule) const
    {
        const auto it = std::find_if(report.findings.begin(), report.findings.end(),
            [&](const core::Finding& f) { return f.rule == rule; });
        return it == report.findings.end() ? nullptr : &*it;
    }

    // The gain of the finding's edits when the path is rebuilt with them here, in %.
    double rebuiltGain(const core::Finding& f) const
    {
        core::JobPathOptions options;
        const auto before = core::jobCriticalPath(frames, options);
        for (const core::WhatIfRankEdits& e : f.whatIfEdits)
            options.whatIf.addEdits(e);
        const auto after = core::jobCriticalPath(frames, options);
        return 100.0 * static_cast<double>(before.value().path.length - after.value().path.length)
            / static_cast<double>(before.value().measuredTime);
    }
};

// 20 GEMMs, each 100 us on the GPU, launched well ahead by a fast CPU; with
// the problem the CPU spends 3 ms in Python after the 10th, so the GPU drains
// and waits about 2.2 ms.
std::string starvedRank(bool withGap)
{
    RankTraceBuilder b(0);
    b.cpu("ProfilerStep#1", 0, 6000, "user_annotation");
    double t = 0;
    double gpuFree = 0;
    for (int i = 0; i < 20; ++i) {
        if (withGap && i == 10) {
            b.cpu("python_work", t, 3000);
            t += 3000;
        }
        b.cpu("aten::mm", t, 20);
        const double gpuTs = std::max(t + 15, gpuFree);
        b.launch(t + 2, 10, "ampere_sgemm_128x64_nn", gpuTs, 100);
        gpuFree = gpuTs + 100;
        t += 20;
    }
    return b.document();
}

// 30 ms of 1 ms GEMMs back to back, each launched by a 1 ms op (the CPU keeps pace, so the
// path runs on), then 25 short kernels each after 1.1 ms of Python: 25 gaps over the 1 ms
// starvation threshold (more than a where list holds), all inside the low-utilisation
// windows of the second half.
std::string starvedSecondHalfRank()
{
    RankTraceBuilder b(0);
    b.cpu("ProfilerStep#1", 0, 61000, "user_annotation");
    double t = 0;
    double gpuFree = 0;
    for (int i = 0; i < 30; ++i) {
        b.cpu("aten::mm", t, 1000);
        const double gpuTs = std::max(t + 15, gpuFree);
        b.launch(t + 2, 10, "ampere_sgemm_128x64_nn", gpuTs, 1000);
        gpuFree = gpuTs + 1000;
        t += 1000;
    }
    for (int i = 0; i < 25; ++i) {
        b.cpu("python_work", t, 1100);
        t += 1100;
        b.cpu("aten::mm", t, 20);
        b.launch(t + 2, 10, "ampere_sgemm_128x64_nn", t + 15, 100);
        t += 115;
    }
    return b.document();
}

// Ten 500 us GEMMs back to back: FP32 SGEMMs (no Tensor Cores) or bf16 xmma kernels.
std::string gemmRank(const std::string& kernel)
{
    RankTraceBuilder b(0);
    b.cpu("ProfilerStep#1", 0, 5200, "user_annotation");
    double gpuFree = 0;
    for (int i = 0; i < 10; ++i) {
        const double t = i * 20.0;
        b.cpu("aten::mm", t, 15);
        const double gpuTs = std::max(t + 14, gpuFree);
        b.launch(t + 2, 10, kernel, gpuTs, 500);
        gpuFree = gpuTs + 500;
        b.cpu("aten::add", t + 16, 3);
        b.launch(t + 16.5, 2, "vectorized_elementwise_kernel_add", gpuFree, 2);
        gpuFree += 2;
    }
    return b.document();
}

// Ten FP32 GEMMs of 500 us, each launched at the end of a 390 us op that starts every
// 400 us: the GPU is the bottleneck (kernel i ends at 890 + 500 i us), but at 2x the
// kernels (250 us) wait for the host's launches.
std::string hostPacedGemmRank()
{
    RankTraceBuilder b(0);
    b.cpu("ProfilerStep#1", 0, 5400, "user_annotation");
    double gpuFree = 0;
    for (int i = 0; i < 10; ++i) {
        const double t = i * 400.0;
        b.cpu("aten::mm", t, 390);
        const double gpuTs = std::max(t + 390, gpuFree);
        b.launch(t + 380, 8, "volta_sgemm_128x64_nn", gpuTs, 500);
        gpuFree = gpuTs + 500;
    }
    return b.document();
}

// Eight layers: a 50 us GEMM, then `elementwise` short elementwise kernels each
// launched by its own op (the CPU is slower than them: the GPU idles between), then the
// next layer's GEMM.
std::string layersRank(int elementwise)
{
    RankTraceBuilder b(0);
    b.cpu("ProfilerStep#1", 0, 8 * 200 + 300, "user_annotation");
    double t = 0;
    double gpuFree = 0;
    for (int layer = 0; layer <= 8; ++layer) {
        b.cpu("aten::mm", t, 15);
        double gpuTs = std::max(t + 14, gpuFree);
        b.launch(t + 2, 10, "ampere_sgemm_64x64_nn", gpuTs, 50);
        gpuFree = gpuTs + 50;
        t += 20;
        if (layer == 8)
            break;
        for (int k = 0; k < elementwise; ++k) {
            b.cpu("aten::add", t, 30);
            gpuTs = std::max(t + 25, gpuFree);
            b.launch(t + 5, 15, "vectorized_elementwise_kernel_add", gpuTs, 5);
            gpuFree = gpuTs + 5;
            t += 40;
        }
    }
    return b.document();
}

// Ten 400 us kernels back to back, each with Kineto's launch args: a grid of
// `blocksPerSm` blocks per SM (0.25: a quarter of the SMs work).
std::string occupancyRank(double blocksPerSm)
{
    RankTraceBuilder b(0);
    b.cpu("ProfilerStep#1", 0, 4200, "user_annotation");
    double gpuFree = 0;
    char args[200];
    std::snprintf(args, sizeof args,
        R"("grid":[33,1,1],"block":[256,1,1],"blocks per SM":%.6f,"warps per SM":%.6f,)"
        R"("est. achieved occupancy %%":%d)",
        blocksPerSm, blocksPerSm * 8, blocksPerSm < 1 ? 12 : 75);
    for (int i = 0; i < 10; ++i) {
        const double t = i * 20.0;
        b.cpu("aten::softmax", t, 15);
        const double gpuTs = std::max(t + 14, gpuFree);
        b.launch(t + 2, 10, "softmax_warp_forward", gpuTs, 400, "cudaLaunchKernel", "kernel", 7, args);
        gpuFree = gpuTs + 400;
    }
    return b.document();
}

// Ten ops each launching a 100 us kernel the GPU runs at once; with the problem
// nothing is recorded for 2 ms after the fifth (host and GPU both idle).
std::string holeRank(bool withHole)
{
    RankTraceBuilder b(0);
    b.cpu("ProfilerStep#1", 0, withHole ? 3150 : 1150, "user_annotation"); // 40 us after the last op
    double t = 0;
    for (int i = 0; i < 10; ++i) {
        if (withHole && i == 5)
            t += 2000;
        b.cpu("aten::relu", t, 110);
        b.launch(t + 2, 5, "relu_kernel", t + 8, 100);
        t += 110;
    }
    return b.document();
}

// Ten ops of 110 us back to back, then 1.5 ms of nothing recorded before the step ends
// (bookkeeping at the end of the step: an old trace's last stretch).
std::string tailRank()
{
    RankTraceBuilder b(0);
    b.cpu("ProfilerStep#1", 0, 2600, "user_annotation");
    for (int i = 0; i < 10; ++i) {
        b.cpu("aten::relu", i * 110.0, 110);
        b.launch(i * 110.0 + 2, 5, "relu_kernel", i * 110.0 + 8, 100);
    }
    return b.document();
}

} // namespace

class TestRulesFromOtherTools : public QObject
{
    Q_OBJECT

private slots:

    void gpuStarvation()
    {
        Run with(starvedRank(true), "gpu_starvation");
        const core::Finding* f = with.finding("gpu_starvation");
        QVERIFY(f);
        QCOMPARE(f->where.front().ranges.size(), std::size_t(1)); // one gap, not the edges
        const core::TimeRange gap = f->where.front().ranges.front();
        QVERIFY(gap.end - gap.start > 2'000'000 && gap.end - gap.start < 2'500'000);
        // The fix re-timed, by hand: the 3 ms of Python start while the GPU still runs the
        // 10 kernels queued before them (1 ms). Run beside that work, they leave the GPU
        // idle 1 ms less: the step (6 ms, the measure) gives back 1 ms, 16.7 %. The
        // Python off the loop (high end) closes the whole 2.2 ms gap: 36.7 %.
        QCOMPARE(with.report.measuredNs, core::TimeNs(6'000'000));
        QVERIFY2(std::abs(f->gainPct - 100.0 / 6) < 0.05, qPrintable(QString::number(f->gainPct)));
        const double gapPct = 100.0 * static_cast<double>(gap.end - gap.start) / 6e6;
        QVERIFY2(std::abs(f->gainHighPct - gapPct) < 0.05,
            qPrintable(QString("%1 vs %2").arg(f->gainHighPct).arg(gapPct)));
        QVERIFY(std::any_of(f->evidence.begin(), f->evidence.end(), [](const std::string& e) {
            return e.rfind("model: the host's work in each idle stretch", 0) == 0;
        }));
        QVERIFY(!Run(starvedRank(false), "gpu_starvation").finding("gpu_starvation"));
        // The threshold by name: gaps from 3 ms only.
        QVERIFY(!Run(starvedRank(true), "gpu_starvation", "gpu_starvation.min_gap_ms=3")
                     .finding("gpu_starvation"));
    }

    void lowGpuUtilisation()
    {
        Run with(starvedRank(true), "low_gpu_utilisation");
        const core::Finding* f = with.finding("low_gpu_utilisation");
        QVERIFY(f);
        QVERIFY(f->gainPct > 0);
        QVERIFY(f->where.front().ranges.size() >= 10); // the windows the gap covers
        // The gap lies inside the low windows whole: the same fix, the same numbers as
        // gpu_starvation's (1 ms of 6 given back; 2.2 ms with the Python off the loop).
        QVERIFY2(std::abs(f->gainPct - 100.0 / 6) < 0.05, qPrintable(QString::number(f->gainPct)));
        QVERIFY2(std::abs(f->gainHighPct - 2.2 / 6 * 100) < 0.5, qPrintable(QString::number(f->gainHighPct)));
        QVERIFY(!Run(starvedRank(false), "low_gpu_utilisation").finding("low_gpu_utilisation"));
        QVERIFY(!Run(starvedRank(true), "low_gpu_utilisation", "low_gpu_utilisation.max_busy_pct=0")
                     .finding("low_gpu_utilisation"));
    }

    void tensorCoreUnused()
    {
        Run with(gemmRank("volta_sgemm_128x64_nn"), "tensor_core_unused");
        const core::Finding* f = with.finding("tensor_core_unused");
        QVERIFY(f);
        // GPU bound: the 5 ms of SGEMMs are the path; halved, they give back close to half the step.
        QVERIFY2(f->gainPct > 40 && f->gainPct <= 50, std::to_string(f->gainPct).c_str());
        QCOMPARE(f->where.front().events.size(), std::size_t(10)); // the GEMMs, not the adds
        QVERIFY(
            f->evidence.front().find("Tensor Core share of compute kernel time: 0.0 %") != std::string::npos);
        QVERIFY(!Run(gemmRank("sm80_xmma_gemm_bf16bf16_bf16f32_f32_nn_n"), "tensor_core_unused")
                     .finding("tensor_core_unused"));
        // AMD: hipBLASLt's Tensile kernels name their matrix-instruction tile.
        QVERIFY(!Run(gemmRank("Cijk_Alik_Bljk_B_BS_BH_Bias_HA_S_SAV_UserArgs_MT256x128x64_MI16x16x1_SN"),
            "tensor_core_unused")
                     .finding("tensor_core_unused"));
        // speedup=1: Tensor Cores would give nothing back.
        QVERIFY(!Run(gemmRank("volta_sgemm_128x64_nn"), "tensor_core_unused", "tensor_core_unused.speedup=1")
                     .finding("tensor_core_unused"));
    }

    // The fix re-timed, not the symptom: 2x faster, the GEMMs outpace the host and each
    // starts at its launch (the re-timed graph keeps HTA's zero-weight launch edge: no
    // kernel starts before its launch), the last launched at 3980 us ending at 4230, so
    // they give back (5390 - 4230) / 5400 us = 21.5 %, what the timeline gives. HTA's
    // graph claimed 27.6 % (no Python between ops, the last GEMM free of its launch),
    // half the kernels' time on the path (the oldest model) 46 %. 4x faster gives back
    // only the last GEMM's 125 us more: (5390 - 4105) / 5400 = 23.8 %.
    void tensorCoreGainIsTheReTimedFix()
    {
        const Run run(hostPacedGemmRank(), "tensor_core_unused");
        const core::Finding* f = run.finding("tensor_core_unused");
        QVERIFY(f);
        QVERIFY2(std::abs(f->gainPct - 100.0 * 1160 / 5400) < 0.05, std::to_string(f->gainPct).c_str());
        QVERIFY2(
            std::abs(f->gainHighPct - 100.0 * 1285 / 5400) < 0.05, std::to_string(f->gainHighPct).c_str());
        QCOMPARE(f->gainPct, run.rebuiltGain(*f));
        // On the GPU-bound trace the high end does give more: 4x against 2x.
        const Run gpuBound(gemmRank("volta_sgemm_128x64_nn"), "tensor_core_unused");
        const core::Finding* g = gpuBound.finding("tensor_core_unused");
        QVERIFY(g);
        QVERIFY2(g->gainHighPct > g->gainPct + 20, std::to_string(g->gainHighPct).c_str());
        const Run faster(
            gemmRank("volta_sgemm_128x64_nn"), "tensor_core_unused", "tensor_core_unused.max_speedup=8");
        QVERIFY(faster.finding("tensor_core_unused")->gainHighPct > g->gainHighPct);
    }

    void lowSmEfficiency()
    {
        Run with(occupancyRank(0.25), "low_sm_efficiency");
        const core::Finding* f = with.finding("low_sm_efficiency");
        QVERIFY(f);
        // Ten 400 us kernels at SM efficiency 0.25, the GPU the bottleneck: the low end runs
        // each in (1 + 0.25) / 2 of its time (1500 of 4200 us back), the high end in 0.25 (3000).
        QVERIFY2(std::abs(f->gainPct - 100.0 * 1500 / 4200) < 1.0, std::to_string(f->gainPct).c_str());
        QVERIFY2(
            std::abs(f->gainHighPct - 100.0 * 3000 / 4200) < 1.0, std::to_string(f->gainHighPct).c_str());
        QCOMPARE(f->gainPct, with.rebuiltGain(*f));
        QVERIFY(f->evidence.front().find("est. SM efficiency over the kernels read (time-weighted): 25.0 %")
            != std::string::npos);
        QVERIFY(f->evidence.front().find("occupancy 12.0 %") != std::string::npos);
        QVERIFY(f->evidence.back().find("grid [33,1,1], block [256,1,1]") != std::string::npos);
        QCOMPARE(f->where.front().events.size(), std::size_t(10));
        QVERIFY(!Run(occupancyRank(2.0), "low_sm_efficiency").finding("low_sm_efficiency"));
        QVERIFY(!Run(occupancyRank(0.25), "low_sm_efficiency", "low_sm_efficiency.max_sm_efficiency_pct=20")
                     .finding("low_sm_efficiency"));
        // Without the args: not applicable, saying what is missing.
        Run bare(gemmRank("volta_sgemm_128x64_nn"), "low_sm_efficiency");
        QVERIFY(!bare.finding("low_sm_efficiency"));
        QCOMPARE(bare.report.notApplicable.size(), std::size_t(1));
        QVERIFY(bare.report.notApplicable.front().reason.find("blocks per SM") != std::string::npos);
    }

    void cpuIdle()
    {
        Run with(holeRank(true), "cpu_idle");
        const core::Finding* f = with.finding("cpu_idle");
        QVERIFY(f);
        QCOMPARE(f->where.front().ranges.size(), std::size_t(1));
        const core::TimeRange hole = f->where.front().ranges.front();
        QCOMPARE(hole.end - hole.start, core::TimeNs { 2'000'000 });
        QVERIFY(f->gainPct > 0);
        QVERIFY(f->gainPct <= 100.0 * 2e6 / static_cast<double>(with.report.measuredNs) + 1e-9);
        QVERIFY(!Run(holeRank(false), "cpu_idle").finding("cpu_idle"));
        // Unrecorded work after the step's last op, before the step ends, is inside the step.
        const Run tail(tailRank(), "cpu_idle");
        const core::Finding* t = tail.finding("cpu_idle");
        QVERIFY(t);
        QCOMPARE(t->where.front().ranges.size(), std::size_t(1));
        const core::TimeRange last = t->where.front().ranges.front();
        QCOMPARE(last.end - last.start, core::TimeNs { 1'500'000 });
        QVERIFY(!Run(holeRank(true), "cpu_idle", "cpu_idle.min_gap_us=2500").finding("cpu_idle"));
    }

    // Starvation and low utilisation measure the same idle time: "if you fix the first two"
    // counts it once, over every gap, not only the 20 each where list shows.
    void starvationAndLowUtilisationAreNotAdded()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir, { starvedSecondHalfRank() });
        const core::FrameSet frames = tests::frames(set, core::AnalysisMode::Default);
        core::InsightsOptions options;
        options.rules = { "gpu_starvation", "low_gpu_utilisation" };
        const core::InsightsReport report = core::runInsights(frames, core::AnalysisOptions {}, options);
        QCOMPARE(report.findings.size(), std::size_t(2));
        const double a = report.findings[0].gainPct;
        const double b = report.findings[1].gainPct;
        // By hand (61 ms measured): run beside the GPU's work before it, the first gap
        // closes whole (1.1 ms, behind 30 ms of GEMMs), each of the 24 others by its
        // 0.1 ms kernel: 3.5 ms, 5.7 %. The Python off the loop closes all 25 (high end).
        QCOMPARE(report.findings[0].rule, std::string("gpu_starvation"));
        QVERIFY2(std::abs(a - 3.5 / 61 * 100) < 0.1, qPrintable(QString::number(a)));
        QVERIFY2(
            report.findings[0].gainHighPct > 40, qPrintable(QString::number(report.findings[0].gainHighPct)));
        QVERIFY2(b > 4 && b <= a && report.findings[1].gainHighPct > 40, qPrintable(QString::number(b)));
        const auto starvation = std::find_if(report.findings.begin(), report.findings.end(),
            [](const core::Finding& f) { return f.rule == "gpu_starvation"; });
        QVERIFY(starvation != report.findings.end());
        QCOMPARE(starvation->where.front().ranges.size(), core::kMaxWherePerRank); // 25 gaps, 20 shown
        QVERIFY(report.firstTwoGainPct);
        // The gaps in the low windows are the starvation gaps and the short ones beside them.
        QVERIFY2(*report.firstTwoGainPct <= std::max(a, b) + 1.0,
            qPrintable(QString("%1 + %2 -> %3").arg(a).arg(b).arg(*report.firstTwoGainPct)));
        QVERIFY(*report.firstTwoGainPct >= std::max(a, b) - 1e-9);
    }

    void kernelFusion()
    {
        Run with(layersRank(4), "kernel_fusion");
        const core::Finding* f = with.finding("kernel_fusion");
        QVERIFY(f);
        // The fix re-timed: each run's host dispatch from its first launch's end to its last
        // launch's end goes, 120 us a run (the Python between the adds included), and each
        // layer's host time falls from 180 to 60 us; the GPU, a 50 us GEMM and the fused 20 us
        // a layer, becomes the bottleneck: 70 us a layer from the first GEMM at 14 us, the
        // last GEMM ending at 624 against 1504 recorded, 880 of 1900 us (the low end). Keeping
        // only each run's longest kernel (5 us), the GPU's 55 us a layer stay under the host's
        // 60: the host's 960 us back (the high end). The idle gaps between the run's kernels,
        // the old model, held 688 us.
        QVERIFY2(std::abs(f->gainPct - 100.0 * 880 / 1900) < 0.05, std::to_string(f->gainPct).c_str());
        QVERIFY2(
            std::abs(f->gainHighPct - 100.0 * 960 / 1900) < 0.05, std::to_string(f->gainHighPct).c_str());
        QCOMPARE(f->gainPct, with.rebuiltGain(*f));
        QVERIFY(std::any_of(f->evidence.begin(), f->evidence.end(),
            [](const std::string& e) { return e == "gaps between them on the critical path: 0.688 ms"; }));
        QVERIFY(f->gainPct > 0);
        QCOMPARE(f->where.front().events.size(), std::size_t(20)); // 32 kernels, kMaxWherePerRank shown
        QVERIFY(f->evidence.front().find("32 kernels in 8 runs") != std::string::npos);
        // Two elementwise kernels per layer: below min_run.
        QVERIFY(!Run(layersRank(2), "kernel_fusion").finding("kernel_fusion"));
        QVERIFY(Run(layersRank(2), "kernel_fusion", "kernel_fusion.min_run=2").finding("kernel_fusion"));
    }
};

KS_TEST_MAIN(tst_rules_from_other_tools, TestRulesFromOtherTools)
#include "tst_rules_from_other_tools.moc"
