// HTA's get_cupti_counter_data_with_operators (hta-semantics §19) on a small trace with
// CUPTI range-profiler events (`cuda_profiler_range`, one per kernel, counters in args):
// the shared traces have none, so this is the test of the values.

#include "core/analysis/hta/cupti_counters.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

using namespace ks;

namespace {

std::string rangeEvent(const std::string& kernel, std::int64_t ts, std::int64_t dur, int ffma, int fadd)
{
    return tests::eventAtBase("cuda_profiler_range", kernel, ts, dur,
        R"({"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum":)" + std::to_string(ffma)
            + R"(,"smsp__sass_thread_inst_executed_op_fadd_pred_on.sum":)" + std::to_string(fadd)
            + R"(,"note":"x"})",
        0, 7);
}

// aten::linear > aten::mm launches gemm; aten::relu launches relu; one range per kernel.
std::vector<std::string> cuptiRank()
{
    return {
        tests::eventAtBase("cpu_op", "aten::linear", 0, 150),
        tests::eventAtBase("cpu_op", "aten::mm", 5, 100),
        tests::eventAtBase("cuda_runtime", "cudaLaunchKernel", 10, 5, tests::correlationArgs(1)),
        tests::eventAtBase("cpu_op", "aten::relu", 200, 50),
        tests::eventAtBase("cuda_runtime", "cudaLaunchKernel", 210, 5, tests::correlationArgs(2)),
        rangeEvent("gemm", 20, 30, 1000, 10),
        rangeEvent("relu", 220, 8, 0, 64),
    };
}

namespace {

    struct Row
    {
        std::string name, stack, top, bottom;
        double ffma = 0, fadd = 0, ts = 0, end = 0;
    };

} // namespace

std::vector<Row> rowsOf(const core::Table& t)
{
    namespace cc = core::cupti_counters;
    const auto col = [&t](const core::ColumnId& id) { return *t.find(id); };
    const std::size_t ffma = t.columnIndex("smsp__sass_thread_inst_executed_op_ffma_pred_on.sum");
    const std::size_t fadd = t.columnIndex("smsp__sass_thread_inst_executed_op_fadd_pred_on.sum");
    std::vector<Row> rows;
    for (const auto& r : t.rows)
        rows.push_back({ core::cellAsText(r[col(cc::kName)]), core::cellAsText(r[col(cc::kOpStack)]),
            core::cellAsText(r[col(cc::kTopLevelOp)]), core::cellAsText(r[col(cc::kBottomLevelOp)]),
            *core::cellAsDouble(r[ffma]), *core::cellAsDouble(r[fadd]), *core::cellAsDouble(r[col(cc::kTs)]),
            *core::cellAsDouble(r[col(cc::kEnd)]) });
    return rows;
}

core::AnalysisOutput run(const core::TraceSet& set, core::AnalysisMode mode)
{
    core::AnalysisOptions options;
    options.mode = mode;
    return core::cuptiCounterData(tests::frames(set, mode), options);
}

} // namespace

class TestCuptiCounters : public QObject
{
    Q_OBJECT

private slots:

    void countersWithOperators_data()
    {
        QTest::addColumn<bool>("compat");
        QTest::newRow("hta-compat") << true;
        QTest::newRow("default") << false;
    }

    void countersWithOperators()
    {
        QFETCH(bool, compat);
        const auto mode = compat ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, cuptiRank()) });
        const core::AnalysisOutput out = run(set, mode);
        QVERIFY2(out.ok, out.error.c_str());
        QCOMPARE(out.result.items.size(), std::size_t(1)); // one table per rank
        const core::Table& t = out.result.items.front().frame;
        QCOMPARE(t.columnIndex("note"), std::size_t(-1)); // only numeric args are counters
        const std::vector<Row> rows = rowsOf(t);
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0].name, std::string("gemm"));
        QCOMPARE(rows[0].stack, std::string("aten::linear > aten::mm"));
        QCOMPARE(rows[0].top, std::string("aten::linear"));
        QCOMPARE(rows[0].bottom, std::string("aten::mm"));
        QCOMPARE(rows[0].ffma, 1000.0);
        QCOMPARE(rows[1].stack, std::string("aten::relu"));
        QCOMPARE(rows[1].fadd, 64.0);
        QCOMPARE(rows[0].ts, 20.0); // relative to the trace start
        // Q18: HTA's `end` is still absolute; default mode's is relative like ts.
        QCOMPARE(rows[0].end, compat ? static_cast<double>(tests::kBaseUs + 50) : 50.0);
    }

    // HTA leaves out a rank whose launches and ranges do not pair up; default mode says why.
    void unpairedRangesAreReported()
    {
        QTemporaryDir dir;
        std::vector<std::string> events = cuptiRank();
        events.push_back(rangeEvent("extra", 400, 5, 1, 1));
        const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, events) });
        const core::AnalysisOutput compat = run(set, core::AnalysisMode::HtaCompat);
        QVERIFY(compat.ok);
        QCOMPARE(compat.result.items.size(), std::size_t(0));
        const core::AnalysisOutput fixed = run(set, core::AnalysisMode::Default);
        QVERIFY(!fixed.ok);
        QVERIFY(fixed.error.find("counter ranges") != std::string::npos);
    }

    void withoutRanges()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(
            dir, { tests::spacedRankDocument(0, { tests::eventAtBase("cpu_op", "aten::add", 0, 10) }) });
        const core::AnalysisOutput compat = run(set, core::AnalysisMode::HtaCompat);
        QVERIFY(compat.ok);
        QVERIFY(compat.result.kind == core::HtaResult::Kind::List && compat.result.items.empty());
        QVERIFY(!run(set, core::AnalysisMode::Default).ok);
    }
};

KS_TEST_MAIN(tst_cupti_counters, TestCuptiCounters)
#include "tst_cupti_counters.moc"
