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
        // HTA adds every key of the ranges' args as a counter column; default mode the numeric ones.
        QCOMPARE(t.columnIndex("note") == std::size_t(-1), !compat);
        const std::vector<Row> rows = rowsOf(t);
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[0].name, std::string("gemm"));
        // Class C: HTA's op_stack is a list of names (JSON), default mode one " > "-joined text.
        QCOMPARE(rows[0].stack,
            std::string(compat ? R"(["aten::linear", "aten::mm"])" : "aten::linear > aten::mm"));
        QCOMPARE(rows[0].top, std::string("aten::linear"));
        QCOMPARE(rows[0].bottom, std::string("aten::mm"));
        QCOMPARE(rows[0].ffma, 1000.0);
        QCOMPARE(rows[1].stack, std::string(compat ? R"(["aten::relu"])" : "aten::relu"));
        QCOMPARE(rows[1].fadd, 64.0);
        QCOMPARE(rows[0].ts, 20.0); // relative to the trace start
        // Q18: HTA's `end` is still absolute; default mode's is relative like ts.
        QCOMPARE(rows[0].end, compat ? static_cast<double>(tests::kBaseUs + 50) : 50.0);
    }

    // Class A: HTA's frame for the ranges has every column of its trace frame: pid, tid,
    // stream, correlation, the parser arguments, the counters (-1 where a range lacks one),
    // index_correlation, iteration and the call graph's 8 columns, whose defaults the ranges
    // keep (their track is GPU-like: pid 0, so the call graph skips it).
    void everyColumnOfHtasFrame()
    {
        QTemporaryDir dir;
        std::vector<std::string> events = cuptiRank();
        events.pop_back(); // the relu range without its fadd counter
        events.push_back(tests::eventAtBase("cuda_profiler_range", "relu", 220, 8,
            R"({"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum":3})", 0, 7));
        const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, events) });
        const core::AnalysisOutput out = run(set, core::AnalysisMode::HtaCompat);
        QVERIFY2(out.ok, out.error.c_str());
        const core::Table& t = out.result.items.front().frame;
        const std::string fadd = "smsp__sass_thread_inst_executed_op_fadd_pred_on.sum";
        const std::string ffma = "smsp__sass_thread_inst_executed_op_ffma_pred_on.sum";
        const std::vector<std::string> hta { "index", "cat", "name", "pid", "tid", "ts", "dur", "end",
            "stream", "correlation", "bytes", "memory_bw_gbps", "wait_on_stream",
            "wait_on_cuda_event_record_corr_id", "input_dims", "input_type", "input_strides", "external_id",
            "python_id", "python_parent_id", "collective_name", "in_msg_nelems", "out_msg_nelems",
            "msg_dtype", "group_size", "process_rank", "in_split_size", "out_split_size", "note", fadd, ffma,
            "index_correlation", "iteration", "parent", "depth", "height", "first_kernel_start",
            "last_kernel_end", "num_kernels", "kernel_dur_sum", "kernel_span", "index_runtime", "op_stack",
            "top_level_op", "bottom_level_op" };
        std::vector<std::string> columns;
        for (const core::Column& c : t.columns)
            columns.push_back(c.name);
        QCOMPARE(columns, hta);
        QCOMPARE(t.rows.size(), std::size_t(2));
        using core::Cell;
        const auto cell = [&t](std::size_t row, const std::string& column) {
            return t.rows[row][t.columnIndex(column)];
        };
        QVERIFY(cell(0, "pid") == Cell(std::int64_t { 0 }));
        QVERIFY(cell(0, "tid") == Cell(std::int64_t { 7 }));
        QVERIFY(cell(0, "stream") == Cell(std::int64_t { -1 }));
        QVERIFY(cell(0, "correlation") == Cell(std::int64_t { -1 }));
        QVERIFY(cell(0, "index_correlation") == Cell(std::int64_t { -1 }));
        QVERIFY(cell(0, "iteration") == Cell(std::int64_t { -1 })); // a CPU-side row outside every step
        QVERIFY(cell(0, "bytes") == Cell(std::int64_t { -1 }));
        QVERIFY(cell(0, "input_dims") == Cell(std::string("-1")));
        QVERIFY(cell(0, "note") == Cell(std::string("x")));
        QVERIFY(cell(0, fadd) == Cell(std::int64_t { 10 }));
        QVERIFY(cell(1, fadd) == Cell(std::int64_t { -1 })); // the relu range lacks it
        QVERIFY(cell(1, "note") == Cell(std::int64_t { -1 }));
        QVERIFY(cell(1, ffma) == Cell(std::int64_t { 3 }));
        for (std::size_t r = 0; r < 2; ++r) {
            QVERIFY(cell(r, "parent") == Cell(std::int64_t { -1 }));
            QVERIFY(cell(r, "depth") == Cell(std::int64_t { -1 }));
            QVERIFY(cell(r, "height") == Cell(std::int64_t { -1 }));
            QVERIFY(cell(r, "first_kernel_start") == Cell(-1.0));
            QVERIFY(cell(r, "last_kernel_end") == Cell(-1.0));
            QVERIFY(cell(r, "num_kernels") == Cell(std::int64_t { 0 }));
            QVERIFY(cell(r, "kernel_dur_sum") == Cell(0.0));
            QVERIFY(cell(r, "kernel_span") == Cell(0.0));
        }
        QVERIFY(cell(0, "op_stack") == Cell(core::JsonText { R"(["aten::linear", "aten::mm"])" }));
    }

    // A trace in which no event has "args": HTA's frame has no parser-argument columns (trace_parser.py
    // _compress_df, `if "args" in columns`), so --hta-compat writes none of the 18 either; the range
    // has no counters. Default mode's columns do not change.
    void noArgsAnywhereNoArgColumns()
    {
        const auto bare = [](const std::string& cat, const std::string& name, std::int64_t ts,
                              std::int64_t dur, int pid, int tid) {
            return "{\"ph\":\"X\",\"cat\":\"" + cat + "\",\"name\":\"" + name
                + "\",\"pid\":" + std::to_string(pid) + ",\"tid\":" + std::to_string(tid)
                + ",\"ts\":" + std::to_string(tests::kBaseUs + ts) + ",\"dur\":" + std::to_string(dur) + "}";
        };
        std::vector<std::string> events { bare("cpu_op", "aten::relu", 0, 50, 1, 1),
            bare("cuda_runtime", "cudaLaunchKernel", 10, 5, 1, 1),
            bare("cuda_profiler_range", "relu", 20, 8, 0, 7) };
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, events) });
        const core::AnalysisOutput out = run(set, core::AnalysisMode::HtaCompat);
        QVERIFY2(out.ok, out.error.c_str());
        const core::Table& t = out.result.items.front().frame;
        const std::vector<std::string> hta { "index", "cat", "name", "pid", "tid", "ts", "dur", "end",
            "stream", "correlation", "index_correlation", "iteration", "parent", "depth", "height",
            "first_kernel_start", "last_kernel_end", "num_kernels", "kernel_dur_sum", "kernel_span",
            "index_runtime", "op_stack", "top_level_op", "bottom_level_op" };
        std::vector<std::string> columns;
        for (const core::Column& c : t.columns)
            columns.push_back(c.name);
        QCOMPARE(columns, hta);
        QCOMPARE(t.rows.size(), std::size_t(1));
        QCOMPARE(t.rows[0].cells().size(), hta.size());
        QVERIFY(t.rows[0][t.columnIndex("op_stack")] == core::Cell(core::JsonText { R"(["aten::relu"])" }));
        // One event with args, even empty ones, and HTA's frame has the columns again.
        events.push_back(tests::eventAtBase("cpu_op", "aten::add", 100, 10));
        QTemporaryDir again;
        const auto withArgs = tests::loadRanks(again, { tests::spacedRankDocument(0, events) });
        const core::AnalysisOutput full = run(withArgs, core::AnalysisMode::HtaCompat);
        QVERIFY2(full.ok, full.error.c_str());
        QVERIFY(full.result.items.front().frame.columnIndex("input_dims") != std::size_t(-1));
        QCOMPARE(full.result.items.front().frame.columns.size(), hta.size() + 18);
        // Default mode: its own columns either way.
        const core::AnalysisOutput fixed = run(set, core::AnalysisMode::Default);
        QVERIFY2(fixed.ok, fixed.error.c_str());
        QCOMPARE(fixed.result.items.front().frame.columns.size(),
            run(withArgs, core::AnalysisMode::Default).result.items.front().frame.columns.size());
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
