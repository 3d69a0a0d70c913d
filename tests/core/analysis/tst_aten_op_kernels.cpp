// HTA's get_aten_op_kernels_and_delay (hta-semantics §20) in both modes on tiny traces:
// kernel sequences per aten op call, the two delays, and HTA's quirks (Q19).

#include "core/analysis/hta/aten_op_kernels.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <map>

using namespace ks;

namespace {

std::string launch(std::int64_t ts, int correlation, std::int64_t tid = 1)
{
    return tests::eventAtBase(
        "cuda_runtime", "cudaLaunchKernel", ts, 4, tests::correlationArgs(correlation), 1, tid);
}

std::string kernel(const std::string& name, std::int64_t ts, int correlation)
{
    return tests::eventAtBase("kernel", name, ts, 5, tests::correlationArgs(correlation, 7), 0, 7);
}

// aten::linear (0..100) > aten::addmm (10..60) launching gemm then bias; aten::relu twice.
std::vector<std::string> rankEvents()
{
    return {
        tests::eventAtBase("cpu_op", "aten::linear", 0, 100),
        tests::eventAtBase("cpu_op", "aten::addmm", 10, 50),
        launch(20, 1),
        launch(40, 2),
        kernel("gemm", 30, 1),
        kernel("bias", 60, 2),
        tests::eventAtBase("cpu_op", "aten::relu", 200, 20),
        launch(204, 3),
        kernel("relu_k", 214, 3),
        tests::eventAtBase("cpu_op", "aten::relu", 300, 20),
        launch(310, 4),
        kernel("relu_k", 330, 4),
    };
}

namespace {

    struct Row
    {
        std::int64_t count = 0;
        double launchDelay = 0, runtimeDelay = 0;
    };

} // namespace

std::map<std::string, Row> rowsOf(const core::Table& t)
{
    namespace ak = core::aten_op_kernels;
    std::map<std::string, Row> by;
    const auto at = [&t](const core::ColumnId& id) { return *t.find(id); };
    for (const auto& r : t.rows)
        by[core::cellAsText(r[at(ak::kOpName)]) + " | " + core::cellAsText(r[at(ak::kKernelSequence)])] = {
            static_cast<std::int64_t>(*core::cellAsDouble(r[at(ak::kOccurrences)])),
            *core::cellAsDouble(r[at(ak::kLaunchDelay)]), *core::cellAsDouble(r[at(ak::kRuntimeDelay)])
        };
    return by;
}

core::AnalysisOutput run(const core::TraceSet& set, core::AnalysisMode mode)
{
    core::AnalysisOptions options;
    options.mode = mode;
    return core::atenOpKernelsAndDelay(tests::frames(set, mode), options);
}

} // namespace

class TestAtenOpKernels : public QObject
{
    Q_OBJECT

private slots:

    void sequencesAndDelays_data()
    {
        QTest::addColumn<bool>("compat");
        QTest::newRow("hta-compat") << true;
        QTest::newRow("default") << false;
    }

    void sequencesAndDelays()
    {
        QFETCH(bool, compat);
        const auto mode = compat ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, rankEvents()) });
        const core::AnalysisOutput out = run(set, mode);
        QVERIFY2(out.ok, out.error.c_str());
        QCOMPARE(out.result.entries.size(), std::size_t(1));
        auto rows = rowsOf(out.result.entries.front().second.frame);
        QCOMPARE(rows.size(), std::size_t(2));
        const Row addmm = rows["aten::addmm | gemm -> bias"]; // the innermost op
        QCOMPARE(addmm.count, std::int64_t(1));
        QCOMPARE(addmm.launchDelay, 10.0); // op start to first launch
        QCOMPARE(addmm.runtimeDelay, 10.0); // first launch to its kernel
        const Row relu = rows["aten::relu | relu_k"];
        QCOMPARE(relu.count, std::int64_t(2));
        QCOMPARE(relu.launchDelay, 7.0); // (4 + 10) / 2
        QCOMPARE(relu.runtimeDelay, 15.0); // (10 + 20) / 2
    }

    // Q19: HTA's rank 1 table also holds rank 0's calls; default mode keeps ranks apart.
    void ranksAccumulateInCompat()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(
            dir, { tests::spacedRankDocument(0, rankEvents()), tests::spacedRankDocument(1, rankEvents()) });
        const auto countOf = [](const core::AnalysisOutput& out, std::size_t rank) {
            return rowsOf(out.result.entries.at(rank).second.frame)["aten::relu | relu_k"].count;
        };
        const core::AnalysisOutput compat = run(set, core::AnalysisMode::HtaCompat);
        QCOMPARE(countOf(compat, 0), std::int64_t(2));
        QCOMPARE(countOf(compat, 1), std::int64_t(4));
        const core::AnalysisOutput fixed = run(set, core::AnalysisMode::Default);
        QCOMPARE(countOf(fixed, 1), std::int64_t(2));
    }

    // Q19: ops on one thread, a launch on another while the op is open: HTA's per-process
    // stack attributes it, default mode's per-thread stack does not.
    void launchOnAnotherThread()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir,
            { tests::spacedRankDocument(0,
                { tests::eventAtBase("cpu_op", "aten::copy_", 0, 100), launch(20, 1, 2), kernel("k", 30, 1),
                    tests::eventAtBase("cpu_op", "aten::add", 200, 20), launch(205, 2),
                    kernel("k", 215, 2) }) });
        QCOMPARE(rowsOf(run(set, core::AnalysisMode::HtaCompat).result.entries.front().second.frame).size(),
            std::size_t(2));
        QCOMPARE(rowsOf(run(set, core::AnalysisMode::Default).result.entries.front().second.frame).size(),
            std::size_t(1));
    }

    void rankWithoutLaunches()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(
            dir, { tests::spacedRankDocument(0, { tests::eventAtBase("cpu_op", "aten::add", 0, 10) }) });
        const core::AnalysisOutput compat = run(set, core::AnalysisMode::HtaCompat);
        QVERIFY(!compat.ok);
        QVERIFY(compat.error.find("KeyError") != std::string::npos);
        QVERIFY(!run(set, core::AnalysisMode::Default).ok);
    }
};

KS_TEST_MAIN(tst_aten_op_kernels, TestAtenOpKernels)
#include "tst_aten_op_kernels.moc"
