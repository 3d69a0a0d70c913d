// The insights' gains against reality and against their models' properties:
// problem/fix pairs recorded with PyTorch (tests/data/gains/, record_pairs.py),
// where the gain predicted on the problem trace must be within max(3 points,
// 25 %) of the step time the fixed trace gave back; and, for the GPU fixes no CPU
// recording can show, small traces built to the cases that misled before (a
// BERT-like host-bound inference step, pageable copies that wait for the stream).

#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/insights/insights.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/insights_traces.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <algorithm>

using namespace ks;
using ks::tests::RankTraceBuilder;

namespace {

core::TraceSet loadFolder(const std::string& folder)
{
    auto set = core::loadTraceSet({ folder }, {}, nullptr, nullptr);
    if (!set)
        qFatal("%s does not load: %s", folder.c_str(), set.error().describe().c_str());
    return std::move(set).value();
}

struct Recorded
{
    core::TraceSet set;
    core::FrameSet frames;
    core::InsightsReport report;

    explicit Recorded(const std::string& folder)
        : set(loadFolder(folder))
        , frames(tests::frames(set, core::AnalysisMode::Default))
        , report(core::runInsights(frames, {}, {}))
    {
    }

    const core::Finding* finding(const std::string& rule) const
    {
        const auto it = std::find_if(report.findings.begin(), report.findings.end(),
            [&](const core::Finding& f) { return f.rule == rule; });
        return it == report.findings.end() ? nullptr : &*it;
    }
};

std::string pairDir(const char* pair, const char* which)
{
    return std::string(KS_TEST_DATA_DIR "/gains/") + pair + "/" + which;
}

// The share of the problem's measured time the fixed run gave back, in %.
double realizedPct(const Recorded& problem, const Recorded& fixed)
{
    return 100.0 * static_cast<double>(problem.report.measuredNs - fixed.report.measuredNs)
        / static_cast<double>(problem.report.measuredNs);
}

bool withinTolerance(double predicted, double realized)
{
    return std::abs(predicted - realized) <= std::max(3.0, 0.25 * std::abs(realized));
}

// Empty when the finding's gain is within the tolerance of what the fixed run gave back, else why not.
QString predictionMiss(const core::Finding& f, const Recorded& problem, const Recorded& fixed)
{
    const double realized = realizedPct(problem, fixed);
    if (withinTolerance(f.gainPct, realized))
        return {};
    return QString("predicted %1 %, realized %2 %").arg(f.gainPct).arg(realized);
}

core::InsightsOptions only(const std::string& rule)
{
    core::InsightsOptions o;
    o.rules = { rule };
    return o;
}

struct Built
{
    QTemporaryDir dir;
    core::TraceSet set;
    core::FrameSet frames;
    core::InsightsReport report;

    Built(const std::vector<std::string>& documents, core::InsightsOptions options = {})
        : set(tests::loadRanks(dir, documents))
        , frames(tests::frames(set, core::AnalysisMode::Default))
        , report(core::runInsights(frames, {}, options))
    {
    }

    const core::Finding* finding(const std::string& rule) const
    {
        const auto it = std::find_if(report.findings.begin(), report.findings.end(),
            [&](const core::Finding& f) { return f.rule == rule; });
        return it == report.findings.end() ? nullptr : &*it;
    }
};

// A BERT-like inference step as an H100 records it: 3 steps of 120 ops, each
// op's dispatch 40 µs of Python and ATen around a 9 µs launch of a 3 µs kernel,
// so the GPU idles over 90 % of the step waiting for the host.
std::string bertLikeRank()
{
    RankTraceBuilder b(0);
    const int ops = 120;
    const double period = 48; // µs per op: 40 of dispatch, 8 of Python between ops
    double gpuFree = 0;
    for (int step = 0; step < 3; ++step) {
        const double t0 = step * (ops * period + 100);
        b.cpu("ProfilerStep#" + std::to_string(step + 1), t0, ops * period + 50, "user_annotation");
        for (int i = 0; i < ops; ++i) {
            const double t = t0 + 20 + i * period;
            b.cpu(i % 2 ? "aten::linear" : "aten::gelu", t, 40);
            const double launchAt = t + 25;
            const double kernelAt = std::max(launchAt + 9 + 4, gpuFree);
            b.launch(launchAt, 9, i % 2 ? "sm90_gemm_kernel" : "gelu_kernel", kernelAt, 3);
            gpuFree = kernelAt + 3;
        }
    }
    return b.document();
}

// One step: a 2 ms kernel, then a pageable copy whose host call waits for the
// stream to drain (1.9 ms) before its 0.1 ms copy, then a small kernel.
std::string pageableWaitRank()
{
    RankTraceBuilder b(0);
    b.cpu("ProfilerStep#1", 0, 2400, "user_annotation");
    b.cpu("aten::mm", 10, 20);
    b.launch(12, 5, "gemm", 25, 2000); // the GPU is busy until 2025
    b.cpu("aten::copy_", 40, 2110);
    b.launch(50, 2095, "Memcpy HtoD (Pageable -> Device)", 2030, 100, "cudaMemcpyAsync", "gpu_memcpy");
    b.cpu("aten::relu", 2160, 20);
    b.launch(2162, 5, "relu_kernel", 2175, 30);
    return b.document();
}

} // namespace

class TestInsightsGains : public QObject
{
    Q_OBJECT

private slots:

    // DataLoader(num_workers=0) with a dataset that waits 4 ms a sample, against
    // num_workers=2: the loading leaves the path, up to the rest of each step.
    void dataloaderPairPredictsTheRealizedGain()
    {
        const Recorded problem(pairDir("dataloader", "problem"));
        const Recorded fixed(pairDir("dataloader", "fixed"));
        const core::Finding* f = problem.finding("dataloader_stall");
        QVERIFY(f);
        QCOMPARE(problem.report.findings.front().rule, std::string("dataloader_stall"));
        const QString miss = predictionMiss(*f, problem, fixed);
        QVERIFY2(miss.isEmpty(), qPrintable(miss));
        QVERIFY(f->gainHighPct >= f->gainPct);
        // The fixed run still loads, but off the path: no finding left worth the name.
        const core::Finding* after = fixed.finding("dataloader_stall");
        QVERIFY(!after || after->gainPct < 0.2 * f->gainPct);
    }

    // A step whose host spends 25 ms a step on work the profiler does not record
    // (Python bookkeeping, a blocking write), against the same step without it:
    // cpu_idle's stretches are what the fix gives back.
    void cpuIdlePairPredictsTheRealizedGain()
    {
        const Recorded problem(pairDir("cpu_idle", "problem"));
        const Recorded fixed(pairDir("cpu_idle", "fixed"));
        const core::Finding* f = problem.finding("cpu_idle");
        QVERIFY(f);
        QCOMPARE(problem.report.findings.front().rule, std::string("cpu_idle"));
        const QString miss = predictionMiss(*f, problem, fixed);
        QVERIFY2(miss.isEmpty(), qPrintable(miss));
        const core::Finding* after = fixed.finding("cpu_idle");
        QVERIFY(!after || after->gainPct < 0.2 * f->gainPct);
    }

    // Two gloo ranks, rank 1 sleeping 100 ms a step before its forward, against
    // the same job without the sleep: the straggler's excess over the median.
    void stragglerPairPredictsTheRealizedGain()
    {
        const Recorded problem(pairDir("straggler", "problem"));
        const Recorded fixed(pairDir("straggler", "fixed"));
        const core::Finding* f = problem.finding("straggler");
        QVERIFY(f);
        QCOMPARE(f->ranks, std::vector<std::int64_t> { 1 });
        const QString miss = predictionMiss(*f, problem, fixed);
        QVERIFY2(miss.isEmpty(), qPrintable(miss));
        QVERIFY(!fixed.finding("straggler") || fixed.finding("straggler")->gainPct < 0.2 * f->gainPct);
    }

    // Four gloo ranks, rank 1 sleeping 100 ms a step and rank 2 80 ms; the fix
    // removes rank 1's sleep only. The collective then waits for rank 2: the
    // fix gives back rank 1's lead over rank 2, not its lead over the median
    // rank (the old model predicted 85.7 % here, against 17 % realized).
    void twoStragglersPairGivesBackTheLeadOverTheNextLatest()
    {
        const Recorded problem(pairDir("two_stragglers", "problem"));
        const Recorded fixed(pairDir("two_stragglers", "fixed"));
        const core::Finding* f = problem.finding("straggler");
        QVERIFY(f);
        QCOMPARE(f->ranks, std::vector<std::int64_t> { 1 });
        const QString miss = predictionMiss(*f, problem, fixed);
        QVERIFY2(miss.isEmpty(), qPrintable(miss));
        // Re-timed (rank 1 balanced, the all-reduce then waiting for rank 2) the fix gives
        // back what the run did, 17.2 %; the lead over rank 2 on the path, now the high
        // end, said 18.4 %.
        QVERIFY(f->hasWhatIf());
        QVERIFY2(std::abs(f->gainPct - realizedPct(problem, fixed)) < 1.0,
            qPrintable(QString("%1 vs %2").arg(f->gainPct).arg(realizedPct(problem, fixed))));
        QVERIFY(f->gainHighPct > f->gainPct);
        // The fixed run's straggler is the next one: rank 2, still slow.
        const core::Finding* next = fixed.finding("straggler");
        QVERIFY(next);
        QCOMPARE(next->ranks, std::vector<std::int64_t> { 2 });
    }

    // The same four ranks with both slow ranks fixed (skew/: recorded beside its
    // problem, the two_stragglers problem again): every rank arrives with the first,
    // collective_skew's fix. Its gain is that fix re-timed on the job's path (each late
    // rank's work before the collective shortened by its lateness), which the fixed
    // run gives back; the straggler's (rank 1's lead over rank 2) is far less.
    void skewPairPredictsTheRealizedGain()
    {
        const Recorded problem(pairDir("skew", "problem"));
        const Recorded fixed(pairDir("skew", "fixed"));
        const core::Finding* f = problem.finding("collective_skew");
        QVERIFY(f);
        QVERIFY(f->hasWhatIf());
        QCOMPARE(f->whatIfEdits.size(), std::size_t(3)); // ranks 1 and 2, and rank 3 behind rank 0 at times
        const QString miss = predictionMiss(*f, problem, fixed);
        QVERIFY2(miss.isEmpty(), qPrintable(miss));
        QVERIFY(f->gainHighPct >= f->gainPct);
        QVERIFY(std::any_of(f->evidence.begin(), f->evidence.end(),
            [](const std::string& e) { return e.rfind("re-timed: on 3 late rank(s)", 0) == 0; }));
        // Fixing the latest rank alone (the straggler's fix) would give back far less.
        const core::Finding* straggler = problem.finding("straggler");
        QVERIFY(straggler);
        QVERIFY(straggler->gainPct < 0.3 * realizedPct(problem, fixed));
        // The fixed run keeps only the ranks' noise: a skew far below the problem's.
        const core::Finding* after = fixed.finding("collective_skew");
        QVERIFY(!after || after->gainPct < 0.2 * f->gainPct);
    }

    // Two gloo DDP ranks, 64 MB of gradients a step in one bucket reduced after the
    // backward, against 1 MB buckets (a layer each) reduced during it. DDP's first
    // bucket (a layer) is reduced on gloo's thread under the backward in both runs:
    // the path counts it, but it is hidden already, and the old model (all the path's
    // communication, now the high end) predicted 22 % for 12 % realized. The fix
    // leaves the last bucket of each step exposed (ready when the backward ends):
    // without subtracting it the model predicted 15.7 %, outside the tolerance.
    void overlapPairPredictsTheRealizedGain()
    {
        const Recorded problem(pairDir("overlap", "problem"));
        const Recorded fixed(pairDir("overlap", "fixed"));
        const core::Finding* f = problem.finding("exposed_communication");
        QVERIFY(f);
        QCOMPARE(problem.report.findings.front().rule, std::string("exposed_communication"));
        const double realized = realizedPct(problem, fixed);
        QVERIFY2(realized > 5, qPrintable(QString::number(realized))); // the fix gave back time
        const QString miss = predictionMiss(*f, problem, fixed);
        QVERIFY2(miss.isEmpty(), qPrintable(miss));
        // Counting the hidden all-reduce misses: the high end is that model.
        QVERIFY2(!withinTolerance(f->gainHighPct, realized),
            qPrintable(QString("high %1 %, realized %2 %").arg(f->gainHighPct).arg(realized)));
        QVERIFY(std::any_of(f->evidence.begin(), f->evidence.end(),
            [](const std::string& e) { return e.find("hidden already") != std::string::npos; }));
        QVERIFY(std::any_of(f->evidence.begin(), f->evidence.end(),
            [](const std::string& e) { return e.rfind("the last bucket stays exposed", 0) == 0; }));
        // The fixed run exposes only its last buckets, which no overlap hides: nothing
        // left to give back (its finding, if any, far below the problem's).
        const core::Finding* after = fixed.finding("exposed_communication");
        QVERIFY2(!after || after->gainPct < 0.2 * f->gainPct,
            qPrintable(QString("fixed run still gives %1 %").arg(after ? after->gainPct : 0)));
    }

    // On the same pair collective_skew gives back the first-to-last-arrival wait (rank
    // 2's 80 ms and rank 1's lead over it), which only fixing both slow ranks does: its
    // evidence and suggestion must say so. The straggler's gain (rank 1's lead) lies
    // inside that wait, so the Overview's "fix the first two" total counts it once.
    void twoStragglersSkewSaysAllRanksAndCountsTheWaitOnce()
    {
        const Recorded problem(pairDir("two_stragglers", "problem"));
        const Recorded fixed(pairDir("two_stragglers", "fixed"));
        const core::Finding* skew = problem.finding("collective_skew");
        const core::Finding* straggler = problem.finding("straggler");
        QVERIFY(skew);
        QVERIFY(straggler);
        QVERIFY(std::any_of(skew->evidence.begin(), skew->evidence.end(), [](const std::string& e) {
            return e.rfind("model: every member arrives with the first", 0) == 0;
        }));
        QVERIFY(skew->suggestion.find("every rank arrives with the first") != std::string::npos);
        // Fixing rank 1 alone gave back far less than the skew's gain: it assumes more than that fix.
        QVERIFY2(realizedPct(problem, fixed) < 0.5 * skew->gainPct,
            qPrintable(
                QString("skew %1 %, realized %2 %").arg(skew->gainPct).arg(realizedPct(problem, fixed))));
        // The two slow ranks' sleeps are host work the profiler does not record: cpu_idle
        // finds them on both, and fixing them on both (its gain, the larger rank's) gives
        // back what the skew's model says, every member arriving with the first.
        const core::Finding* idle = problem.finding("cpu_idle");
        QVERIFY(idle);
        QCOMPARE(idle->ranks, (std::vector<std::int64_t> { 1, 2 }));
        QVERIFY2(std::abs(idle->gainPct - skew->gainPct) < 3,
            qPrintable(QString("cpu_idle %1 %, skew %2 %").arg(idle->gainPct).arg(skew->gainPct)));
        core::InsightsOptions two;
        two.rules = { "collective_skew", "straggler" };
        const core::InsightsReport pair = core::runInsights(problem.frames, {}, two);
        QCOMPARE(pair.findings.size(), std::size_t(2));
        QVERIFY(pair.firstTwoGainPct);
        const double together = *pair.firstTwoGainPct;
        const double larger = std::max(skew->gainPct, straggler->gainPct);
        // Added twice the total would be over 100 % here (86.9 + 18.4); once, it is the skew's.
        QVERIFY2(together <= larger + 0.5,
            qPrintable(QString("%1 + %2 -> %3").arg(skew->gainPct).arg(straggler->gainPct).arg(together)));
        QVERIFY(together >= larger - 1e-9);
    }

    // The H100 BERT-like case: GPU idle >= 90 %, all of it waiting for the host.
    // Host bound ranks first, with a gain above half the idle time: the fix
    // (CUDA graphs) removes the CPU's dispatch, not only the launch calls.
    void bertLikeHostBoundRanksFirstAboveHalfTheIdle()
    {
        Built b({ bertLikeRank() });
        QVERIFY(!b.report.findings.empty());
        const core::Finding& first = b.report.findings.front();
        QCOMPARE(first.rule, std::string("gpu_idle_host_bound"));
        // The GPU's idle share of the measured time.
        core::TimeNs busy = 0;
        for (const core::FrameRow& row : b.frames.ranks.front().rows)
            if (row.device)
                busy += row.dur;
        const double idlePct =
            100.0 * (1.0 - static_cast<double>(busy) / static_cast<double>(b.report.measuredNs));
        QVERIFY2(idlePct >= 90, qPrintable(QString::number(idlePct)));
        QVERIFY2(first.gainPct > idlePct / 2,
            qPrintable(QString("gain %1 %, idle %2 %").arg(first.gainPct).arg(idlePct)));
        QVERIFY(first.gainHighPct >= first.gainPct);
        QVERIFY(first.gainHighPct <= idlePct + 1); // the kernels keep their time
        QVERIFY(std::any_of(first.evidence.begin(), first.evidence.end(),
            [](const std::string& e) { return e.rfind("model:", 0) == 0; }));
        // Launch calls and gaps alone (the old what-if) gave far less: the range is the fix's.
        QVERIFY(!first.whatIfEdits.empty());
    }

    // A pageable copy whose host call waits for the stream to drain: pinning
    // moves the wait to the next synchronisation, so the gain excludes it.
    void pageableGainExcludesTheWaitForTheStream()
    {
        Built b({ pageableWaitRank() }, only("pageable_memcpy"));
        const core::Finding* f = b.finding("pageable_memcpy");
        QVERIFY(f);
        const double measuredUs = static_cast<double>(b.report.measuredNs) / 1000.0;
        // The host call's own copy time (from the copy's start to the call's end: 115 µs)
        // and the copy's 100 µs on the GPU are the most pinning can give back; the
        // call's 1980 µs wait stays.
        QVERIFY2(
            f->gainPct <= 100.0 * (115 + 100) / measuredUs + 0.5, qPrintable(QString::number(f->gainPct)));
        QVERIFY(f->gainHighPct <= 100.0 * (115 + 100) / measuredUs + 0.5);
        QVERIFY(f->gainPct < 25); // counting the wait would have given most of the step
        QVERIFY(std::any_of(f->evidence.begin(), f->evidence.end(),
            [](const std::string& e) { return e.find("waiting for the stream") != std::string::npos; }));
    }

    // Gains that overlap are not added: two findings on the same idle time give
    // back together less than their sum, and never less than the larger.
    void firstTwoReTimesBothFixesTogether()
    {
        Built b({ bertLikeRank() });
        QVERIFY(b.report.findings.size() >= 2);
        QVERIFY(b.report.firstTwoGainPct);
        const double a = b.report.findings[0].gainPct;
        const double c = b.report.findings[1].gainPct;
        QVERIFY(*b.report.firstTwoGainPct >= std::max(a, c) - 1e-9);
        QVERIFY(*b.report.firstTwoGainPct <= 100.0);
        // host bound and short kernels claim the same launches: the total is not their sum
        QVERIFY2(*b.report.firstTwoGainPct < a + c - 1e-6,
            qPrintable(QString("%1 + %2 -> %3").arg(a).arg(c).arg(*b.report.firstTwoGainPct)));
    }
};

KS_TEST_MAIN(tst_insights_gains, TestInsightsGains)
#include "tst_insights_gains.moc"
