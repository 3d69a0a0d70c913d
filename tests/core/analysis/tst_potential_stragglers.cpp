// HTA's get_potential_stragglers (hta-semantics §18) on tiny two-rank traces: the rank
// whose last long communication kernel starts latest, and the failures HTA raises.

#include "core/analysis/hta/potential_stragglers.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

using namespace ks;

namespace {

// Two ProfilerSteps of 1000 µs; in each, one all-reduce launched at the step start that
// starts at `start` µs into the step and lasts `dur` µs (plus a third step, dropped by HTA).
std::string rankDocument(std::int64_t rank, std::int64_t start, std::int64_t dur, const char* kernel)
{
    std::vector<std::string> events;
    for (int step = 0; step < 3; ++step) {
        const std::int64_t base = step * 1000;
        const int correlation = 10 + step;
        events.push_back(
            tests::eventAtBase("cpu_op", "ProfilerStep#" + std::to_string(step + 1), base, 1000));
        events.push_back(tests::eventAtBase(
            "cuda_runtime", "cudaLaunchKernel", base + 10, 5, tests::correlationArgs(correlation)));
        events.push_back(tests::eventAtBase(
            "kernel", kernel, base + start, dur, tests::correlationArgs(correlation, 7), 0, 7));
    }
    return tests::spacedRankDocument(rank, events);
}

core::AnalysisOutput run(const core::TraceSet& set, core::AnalysisMode mode, int candidates)
{
    core::AnalysisOptions options;
    options.mode = mode;
    options.stragglers.numCandidates = candidates;
    return core::potentialStragglers(tests::frames(set, mode), options);
}

std::vector<std::int64_t> ranksOf(const core::AnalysisOutput& out)
{
    std::vector<std::int64_t> ranks;
    for (const core::HtaResult& item : out.result.items)
        ranks.push_back(std::get<std::int64_t>(item.scalar));
    return ranks;
}

} // namespace

class TestPotentialStragglers : public QObject
{
    Q_OBJECT

private slots:

    void lateStarterFound_data()
    {
        QTest::addColumn<bool>("compat");
        QTest::newRow("hta-compat") << true;
        QTest::newRow("default") << false;
    }

    void lateStarterFound()
    {
        QFETCH(bool, compat);
        const auto mode = compat ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir,
            { rankDocument(0, 300, 600, "ncclKernel_AllReduce"),
                rankDocument(1, 700, 200, "ncclKernel_AllReduce") });
        const core::AnalysisOutput one = run(set, mode, 1);
        QVERIFY2(one.ok, one.error.c_str());
        QCOMPARE(ranksOf(one), (std::vector<std::int64_t> { 1 }));
        QCOMPARE(ranksOf(run(set, mode, 2)).size(), std::size_t(2));
    }

    // Q17: HTA only knows names starting with ncclKernel.
    void devKernelsCountByDefault()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir,
            { rankDocument(0, 300, 600, "ncclDevKernel_AllReduce"),
                rankDocument(1, 700, 200, "ncclDevKernel_AllReduce") });
        const core::AnalysisOutput compat = run(set, core::AnalysisMode::HtaCompat, 1);
        QVERIFY(!compat.ok);
        QVERIFY(compat.error.find("argmax of an empty sequence") != std::string::npos);
        QCOMPARE(ranksOf(run(set, core::AnalysisMode::Default, 1)), (std::vector<std::int64_t> { 1 }));
    }

    void oneRankIsNotApplicable()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir, { rankDocument(0, 300, 600, "ncclKernel_AllReduce") });
        const core::AnalysisOutput compat = run(set, core::AnalysisMode::HtaCompat, 2);
        QVERIFY(!compat.ok);
        QVERIFY(compat.error.find("TypeError") != std::string::npos);
        const core::AnalysisOutput fixed = run(set, core::AnalysisMode::Default, 2);
        QVERIFY(!fixed.ok);
        QVERIFY(fixed.error.find("two ranks") != std::string::npos);
    }
};

KS_TEST_MAIN(tst_potential_stragglers, TestPotentialStragglers)
#include "tst_potential_stragglers.moc"
