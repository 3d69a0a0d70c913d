// D1 trace diff: hand-computed counts and durations on two tiny traces, the
// change categories and ops_diff lists, HTA 0.6.1's short names, rank and
// iteration choice, and the differences between the modes (Q3 device split,
// whole-trace diff without ProfilerStep, the last step HTA's LabeledTrace keeps).

#include "core/analysis/hta/trace_diff.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

using namespace ks;

namespace {

using tests::eventAtBase;

using tests::correlationArgs;

std::vector<std::string> steps()
{
    return { eventAtBase("user_annotation", "ProfilerStep#1", 0, 1000),
        eventAtBase("user_annotation", "ProfilerStep#2", 1000, 1000) };
}

// Control: 2 aten::mm, a kernel of 30 us, a Stream Sync of 10 us; step 2: one aten::mm of 50.
std::vector<std::string> controlEvents()
{
    auto e = steps();
    e.push_back(eventAtBase("cpu_op", "aten::mm", 10, 20));
    e.push_back(eventAtBase("cpu_op", "aten::mm", 40, 20));
    e.push_back(eventAtBase("cuda_runtime", "cudaLaunchKernel", 12, 2, correlationArgs(1)));
    e.push_back(eventAtBase("kernel", "void foo<int>(float*)", 100, 30, correlationArgs(1, 7), 0, 7));
    e.push_back(eventAtBase("cuda_runtime", "cudaStreamSynchronize", 60, 2, correlationArgs(5)));
    e.push_back(eventAtBase("cuda_sync", "Stream Sync", 130, 10, correlationArgs(5, 7), 0, 7));
    e.push_back(eventAtBase("cpu_op", "aten::mm", 1010, 50));
    return e;
}

// Test: 3 aten::mm, one aten::add, a kernel of 40 us, no sync.
std::vector<std::string> testEvents()
{
    auto e = steps();
    for (int ts : { 10, 40, 70 })
        e.push_back(eventAtBase("cpu_op", "aten::mm", ts, 20));
    e.push_back(eventAtBase("cpu_op", "aten::add", 95, 5));
    e.push_back(eventAtBase("cuda_runtime", "cudaLaunchKernel", 12, 2, correlationArgs(1)));
    e.push_back(eventAtBase("kernel", "void foo<int>(float*)", 100, 40, correlationArgs(1, 7), 0, 7));
    return e;
}

struct Pair
{
    QTemporaryDir controlDir, testDir;
    core::TraceSet control, test;

    Pair(const std::vector<std::string>& c, const std::vector<std::string>& t)
        : control(tests::loadRanks(controlDir, { tests::kinetoDocument(0, c) }))
        , test(tests::loadRanks(testDir, { tests::kinetoDocument(0, t) }))
    {
    }

    core::AnalysisOutput compare(const core::TraceDiffOptions& o) const
    {
        return core::compareTraces(load(control, o.mode), load(test, o.mode), o);
    }

    core::AnalysisOutput ops(const core::TraceDiffOptions& o) const
    {
        return core::opsDiff(load(control, o.mode), load(test, o.mode), o);
    }

    static core::DiffTrace load(const core::TraceSet& set, core::AnalysisMode mode)
    {
        auto t = core::loadDiffTrace(set, mode);
        if (!t)
            qFatal("%s", t.error().describe().c_str());
        return std::move(t).value();
    }
};

core::TraceDiffOptions options(core::AnalysisMode mode)
{
    core::TraceDiffOptions o;
    o.mode = mode;
    return o;
}

// The numeric cells of the row named `name`: counts, durations, diffs; empty when absent.
std::vector<double> rowOf(const core::Table& t, const std::string& name)
{
    for (const auto& row : t.rows)
        if (core::cellAsText(row[0]) == name) {
            std::vector<double> v;
            for (std::size_t c = 1; c <= 6; ++c)
                v.push_back(core::cellAsDouble(row[c]).value_or(-999));
            return v;
        }
    return {};
}

std::string categoryOf(const core::Table& t, const std::string& name)
{
    for (const auto& row : t.rows)
        if (core::cellAsText(row[0]) == name)
            return core::cellAsText(row[7]);
    return {};
}

std::vector<std::string> names(const core::Table& t)
{
    std::vector<std::string> out;
    for (const auto& row : t.rows)
        out.push_back(core::cellAsText(row[0]));
    return out;
}

std::vector<std::string> listOf(const core::HtaResult& dict, const std::string& key)
{
    std::vector<std::string> out;
    for (const auto& [k, v] : dict.entries)
        if (k == key)
            for (const auto& item : v.items)
                out.push_back(core::cellAsText(item.scalar));
    return out;
}

} // namespace

class TstTraceDiff : public QObject
{
    Q_OBJECT

private slots:

    void countsDurationsAndCategories_data()
    {
        QTest::addColumn<bool>("compat");
        QTest::newRow("hta-compat") << true;
        QTest::newRow("default") << false;
    }

    void countsDurationsAndCategories()
    {
        QFETCH(bool, compat);
        Pair p(controlEvents(), testEvents());
        const auto mode = compat ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
        const core::AnalysisOutput out = p.compare(options(mode));
        QVERIFY2(out.ok, out.error.c_str());
        const core::Table& t = out.result.frame;
        QCOMPARE(t.columns.size(), std::size_t(8));
        QCOMPARE(t.columns[1].name, std::string("Control_counts"));
        QCOMPARE(t.columns[4].name, std::string("Test_total_duration"));
        QCOMPARE(t.indexColumns, std::vector<std::string> { "name" });
        // Iteration 1 only (the smallest step); names sorted byte-wise as pandas does.
        const std::vector<std::string> expected { "ProfilerStep#1", "Stream Sync", "aten::add", "aten::mm",
            "cudaLaunchKernel", "cudaStreamSynchronize", "void foo<int>(float*)" };
        QCOMPARE(names(t), expected);
        QCOMPARE(rowOf(t, "aten::mm"), (std::vector<double> { 2, 40, 3, 60, 1, 20 }));
        QCOMPARE(rowOf(t, "aten::add"), (std::vector<double> { 0, 0, 1, 5, 1, 5 }));
        QCOMPARE(rowOf(t, "Stream Sync"), (std::vector<double> { 1, 10, 0, 0, -1, -10 }));
        QCOMPARE(rowOf(t, "void foo<int>(float*)"), (std::vector<double> { 1, 30, 1, 40, 0, 10 }));
        QCOMPARE(categoryOf(t, "aten::mm"), std::string("+"));
        QCOMPARE(categoryOf(t, "Stream Sync"), std::string("-"));
        QCOMPARE(categoryOf(t, "cudaLaunchKernel"), std::string("="));
        // pandas: a name missing on one side makes the columns float (NaN, then fillna(0)).
        QCOMPARE(std::holds_alternative<double>(t.rows[0][1]), compat);
    }

    void opsDiffLists()
    {
        Pair p(controlEvents(), testEvents());
        const core::AnalysisOutput out = p.ops(options(core::AnalysisMode::HtaCompat));
        QVERIFY(out.ok);
        QCOMPARE(out.result.kind, core::HtaResult::Kind::Dict);
        QCOMPARE(listOf(out.result, "added"), std::vector<std::string> { "aten::add" });
        QCOMPARE(listOf(out.result, "deleted"),
            (std::vector<std::string> { "Stream Sync", "cudaStreamSynchronize" }));
        QCOMPARE(listOf(out.result, "increased"), std::vector<std::string> { "aten::mm" });
        QCOMPARE(listOf(out.result, "decreased"), std::vector<std::string> {});
        QCOMPARE(listOf(out.result, "unchanged"),
            (std::vector<std::string> { "ProfilerStep#1", "cudaLaunchKernel", "void foo<int>(float*)" }));
    }

    // Q3: HTA's GPU side is stream != -1, so the Stream Sync is GPU work; Kinetoscope's is device activity.
    void deviceSplitBothModes()
    {
        Pair p(controlEvents(), testEvents());
        auto gpu = options(core::AnalysisMode::HtaCompat);
        gpu.device = core::DiffDevice::Gpu;
        const core::Table compat = p.compare(gpu).result.frame;
        QCOMPARE(names(compat), (std::vector<std::string> { "Stream Sync", "void foo<int>(float*)" }));
        gpu.mode = core::AnalysisMode::Default;
        QCOMPARE(names(p.compare(gpu).result.frame), std::vector<std::string> { "void foo<int>(float*)" });
        auto cpu = options(core::AnalysisMode::Default);
        cpu.device = core::DiffDevice::Cpu;
        QVERIFY(!rowOf(p.compare(cpu).result.frame, "Stream Sync").empty());
        cpu.mode = core::AnalysisMode::HtaCompat;
        QVERIFY(rowOf(p.compare(cpu).result.frame, "Stream Sync").empty());
    }

    void shortNames()
    {
        QCOMPARE(core::shortenName(
                     "void at::native::vectorized_elementwise_kernel<4, at::native::Foo<float> >(int, "
                     "at::native::Foo<float>)"),
            std::string("at::native::vectorized_elementwise_kernel"));
        QCOMPARE(core::shortenName("ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"),
            std::string("ncclKernel_AllReduce_RING_LL_Sum_float"));
        QCOMPARE(core::shortenName("Memcpy HtoD (Pinned -> Device)"),
            std::string("Memcpy HtoD (Pinned -> Device)"));
        QCOMPARE(core::shortenName("## forward ##"), std::string("## forward ##"));
        // is_memory_kernel is anchored: only names starting like a memory kernel stay whole.
        QCOMPARE(core::shortenName("void copy_Memset_kernel<int>(int*)"), std::string("copy_Memset_kernel"));
        QCOMPARE(core::shortenName("hipMemcpyAsync (x)"), std::string("hipMemcpyAsync (x)"));
        QCOMPARE(core::shortenName("dma_transfer(a)"), std::string("dma_transfer(a)"));
        QCOMPARE(core::shortenName("autograd::engine::evaluate_function: AddBackward0"),
            std::string("autograd::engine::evaluate_function: AddBackward0"));
        QCOMPARE(core::shortenName("enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__"),
            std::string("enumerate#_MultiProcessingDataLoaderIter.__next__"));
        Pair p(controlEvents(), testEvents());
        auto o = options(core::AnalysisMode::HtaCompat);
        o.shortNames = true;
        const core::Table t = p.compare(o).result.frame;
        QCOMPARE(t.columns[0].name, std::string("short_name"));
        QCOMPARE(rowOf(t, "foo"), (std::vector<double> { 1, 30, 1, 40, 0, 10 }));
    }

    void rankAndIterationChoice()
    {
        Pair p(controlEvents(), testEvents());
        auto o = options(core::AnalysisMode::Default);
        o.control.iterations = std::vector<std::int64_t> { 2 };
        o.test.iterations = std::vector<std::int64_t> { 1 };
        const core::Table t = p.compare(o).result.frame;
        QCOMPARE(rowOf(t, "aten::mm"), (std::vector<double> { 1, 50, 3, 60, 2, 10 }));
        QCOMPARE(rowOf(t, "ProfilerStep#2"), (std::vector<double> { 1, 1000, 0, 0, -1, -1000 }));
        o.control.ranks = std::vector<std::int64_t> { 5 };
        const core::AnalysisOutput missing = p.compare(o);
        QVERIFY(!missing.ok);
        QVERIFY2(missing.error.find("rank 5") != std::string::npos, missing.error.c_str());
        o.control.ranks.reset();
        o.control.iterations = std::vector<std::int64_t> { 9 };
        QVERIFY(!p.compare(o).ok);
    }

    // HTA's LabeledTrace parses without the last-step filter, so the last
    // ProfilerStep can be compared. Needs frames built without that filter.
    void lastStepInCompatMode()
    {
        Pair p(controlEvents(), testEvents());
        auto o = options(core::AnalysisMode::HtaCompat);
        o.control.iterations = std::vector<std::int64_t> { 2 };
        const core::Table t = p.compare(o).result.frame;
        QCOMPARE(rowOf(t, "aten::mm"), (std::vector<double> { 1, 50, 3, 60, 2, 10 }));
    }

    // HTA raises without ProfilerStep; Kinetoscope compares the whole traces.
    void withoutProfilerSteps()
    {
        Pair p({ eventAtBase("cpu_op", "aten::mm", 10, 20) },
            { eventAtBase("cpu_op", "aten::mm", 10, 30), eventAtBase("cpu_op", "aten::mm", 50, 5) });
        const core::AnalysisOutput compat = p.compare(options(core::AnalysisMode::HtaCompat));
        QVERIFY(!compat.ok);
        QVERIFY2(compat.error.find("iteration") != std::string::npos, compat.error.c_str());
        const core::AnalysisOutput fixed = p.compare(options(core::AnalysisMode::Default));
        QVERIFY(fixed.ok);
        QCOMPARE(rowOf(fixed.result.frame, "aten::mm"), (std::vector<double> { 1, 20, 2, 35, 1, 15 }));
    }

    void sameLabels()
    {
        Pair p(controlEvents(), testEvents());
        auto o = options(core::AnalysisMode::HtaCompat);
        o.control.label = o.test.label = "run";
        const core::Table t = p.compare(o).result.frame;
        QCOMPARE(t.columns[1].name, std::string("run_counts"));
        QCOMPARE(
            t.columns[3].name, std::string("run_control_test_counts")); // HTA renames the test side twice
    }
};

KS_TEST_MAIN(tst_trace_diff, TstTraceDiff)
#include "tst_trace_diff.moc"
