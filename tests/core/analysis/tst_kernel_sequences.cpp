// A7 frequent CUDA kernel sequences: patterns, counts and durations computed
// by hand on tiny traces, HTA's call graph (nesting, kernels under launches,
// backward-thread operators moved under the main thread's annotation), and
// the differences between the modes: Q12 (substring of any name and only the
// shallowest matches in HTA; exact name or regex and every match by default)
// and HTA's error on ns-rounded negative durations (Q1).

#include "core/analysis/kernels/kernel_sequences.h"
#include "core/analysis/kernels/kernel_sequences_call_graph.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

using namespace ks;

namespace {

using tests::eventAtBase;

std::string launch(int ts, int correlation, int tid = 1)
{
    return eventAtBase("cuda_runtime", "cudaLaunchKernel", ts, 5,
        R"({"correlation":)" + std::to_string(correlation) + "}", 1, tid);
}

std::string kernel(const char* name, int ts, int dur, int correlation)
{
    return eventAtBase(
        "kernel", name, ts, dur, R"({"stream":7,"correlation":)" + std::to_string(correlation) + "}", 0, 7);
}

// Two aten::linear (90 and 100 us), each launching k1, k2, k3 (8, 9, 10 us) through aten::addmm.
std::vector<std::string> linearTrace()
{
    return {
        eventAtBase("user_annotation", "ProfilerStep#1", 0, 1000),
        eventAtBase("cpu_op", "aten::linear", 10, 90),
        eventAtBase("cpu_op", "aten::addmm", 20, 70),
        launch(30, 1),
        launch(40, 2),
        launch(50, 3),
        eventAtBase("cpu_op", "aten::linear", 300, 100),
        eventAtBase("cpu_op", "aten::addmm", 310, 80),
        launch(320, 4),
        launch(330, 5),
        launch(340, 6),
        kernel("k1", 200, 8, 1),
        kernel("k2", 210, 9, 2),
        kernel("k3", 220, 10, 3),
        kernel("k1", 500, 8, 4),
        kernel("k2", 510, 9, 5),
        kernel("k3", 520, 10, 6),
    };
}

struct Loaded
{
    QTemporaryDir dir;
    core::TraceSet set;

    explicit Loaded(const std::vector<std::string>& events)
        : set(tests::loadRanks(dir, { tests::kinetoDocument(0, events) }))
    {
    }

    core::KernelSequences run(core::AnalysisMode mode, const std::string& name, bool regex = false) const
    {
        core::KernelSequenceOptions o;
        o.mode = mode;
        o.regex = regex;
        return core::kernelSequences(tests::frames(set, mode), 0, name, o);
    }
};

namespace {

    struct Row
    {
        std::string pattern;
        std::int64_t count;
        double gpuUs;
        double cpuUs;
        bool operator==(const Row&) const = default;
    };

    std::vector<Row> rows(const core::AnalysisOutput& out)
    {
        std::vector<Row> r;
        for (const auto& row : out.result.frame.rows)
            r.push_back({ core::cellAsText(row[0]), std::get<std::int64_t>(row[1]),
                *core::cellAsDouble(row[2]), *core::cellAsDouble(row[3]) });
        return r;
    }

    // QCOMPARE prints rows through this (found by argument-dependent lookup).
    char* toString(const std::vector<Row>& rows)
    {
        std::string s;
        for (const Row& r : rows)
            s += "(" + r.pattern + ", " + std::to_string(r.count) + ", " + std::to_string(r.gpuUs) + ", "
                + std::to_string(r.cpuUs) + ") ";
        return qstrdup(s.c_str());
    }

} // namespace

constexpr auto kCompat = core::AnalysisMode::HtaCompat;
constexpr auto kDefault = core::AnalysisMode::Default;

} // namespace

class TstKernelSequences : public QObject
{
    Q_OBJECT

private slots:

    void patternCountAndDurations_data()
    {
        QTest::addColumn<bool>("compat");
        QTest::newRow("hta-compat") << true;
        QTest::newRow("default") << false;
    }

    void patternCountAndDurations()
    {
        QFETCH(bool, compat);
        Loaded t(linearTrace());
        const core::KernelSequences s = t.run(compat ? kCompat : kDefault, "aten::linear");
        QVERIFY2(s.output.ok, s.output.error.c_str());
        const core::Table& table = s.output.result.frame;
        QCOMPARE(table.columns.size(), std::size_t(4));
        QCOMPARE(table.columns[2].name, std::string("GPU kernel duration (us)"));
        QCOMPARE(rows(s.output), (std::vector<Row> { { "aten::linear|k1|k2|k3", 2, 54.0, 190.0 } }));
        // The annotated trace marks both operators, their runtime calls and kernels.
        QCOMPARE(s.patterns.size(), std::size_t(1));
        QCOMPARE(s.patterns[0].eventIndices.size(), std::size_t(16));
    }

    // Q12: HTA matches a substring of any name and keeps only the shallowest
    // matches, so a top-level wrapper with one kernel hides the real operators.
    void shallowSubstringMatchHidesOperators()
    {
        auto events = linearTrace();
        events.push_back(eventAtBase("cpu_op", "my_aten::linear_wrapper", 2000, 100));
        events.push_back(launch(2010, 7));
        events.push_back(kernel("k4", 2200, 5, 7));
        Loaded t(events);
        const core::KernelSequences compat = t.run(kCompat, "aten::linear");
        QVERIFY(compat.output.ok);
        QCOMPARE(
            compat.output.result.frame.columns.size(), std::size_t(1)); // HTA's empty frame: its index only
        QCOMPARE(compat.output.result.frame.rows.size(), std::size_t(0));
        const core::KernelSequences fixed = t.run(kDefault, "aten::linear");
        QCOMPARE(rows(fixed.output), (std::vector<Row> { { "aten::linear|k1|k2|k3", 2, 54.0, 190.0 } }));
    }

    // Q12: nested operators of the same name count once in HTA, each in default mode.
    void nestedMatches()
    {
        Loaded t({ eventAtBase("user_annotation", "ProfilerStep#1", 0, 1000),
            eventAtBase("cpu_op", "aten::linear", 10, 90), eventAtBase("cpu_op", "aten::linear", 15, 80),
            launch(30, 1), launch(40, 2), launch(50, 3), kernel("k1", 200, 8, 1), kernel("k2", 210, 9, 2),
            kernel("k3", 220, 10, 3) });
        QCOMPARE(rows(t.run(kCompat, "aten::linear").output),
            (std::vector<Row> { { "aten::linear|k1|k2|k3", 1, 27.0, 90.0 } }));
        QCOMPARE(rows(t.run(kDefault, "aten::linear").output),
            (std::vector<Row> { { "aten::linear|k1|k2|k3", 2, 54.0, 170.0 } }));
    }

    void regexOnRequest()
    {
        Loaded t(linearTrace());
        QCOMPARE(rows(t.run(kDefault, "aten::(linear|addmm)", true).output),
            (std::vector<Row> {
                { "aten::addmm|k1|k2|k3", 2, 54.0, 150.0 }, { "aten::linear|k1|k2|k3", 2, 54.0, 190.0 } }));
        QCOMPARE(rows(t.run(kDefault, "aten::lin").output), std::vector<Row> {}); // exact name by default
        QVERIFY(!t.run(kDefault, "aten::(", true).output.ok);
    }

    void tooFewKernels()
    {
        Loaded t({ eventAtBase("cpu_op", "aten::mm", 10, 50), launch(20, 1), launch(30, 2),
            kernel("k1", 100, 5, 1), kernel("k2", 110, 5, 2) });
        QCOMPARE(rows(t.run(kDefault, "aten::mm").output), std::vector<Row> {});
        QVERIFY(t.run(kCompat, "aten::mm").output.ok);
        QVERIFY(!t.run(kCompat, "aten::mm").output.result.frame.columns.empty());
    }

    // Q1: ts 10.2 + 0.5 us rounds to ts 11, end 10 (dur -1); next to a
    // zero-length operator at 11 HTA's comparator raises "Unexpected case".
    void negativeDurationFromNsRounding()
    {
        const std::string a =
            R"({"ph":"X","cat":"cpu_op","name":"aten::empty","pid":1,"tid":1,"ts":1000010.2,"dur":0.5})";
        const std::string z =
            R"({"ph":"X","cat":"cpu_op","name":"aten::view","pid":1,"tid":1,"ts":1000011.0,"dur":0.0})";
        auto events = linearTrace();
        events.push_back(a);
        events.push_back(z);
        Loaded t(events);
        const core::KernelSequences compat = t.run(kCompat, "aten::linear");
        QVERIFY(!compat.output.ok);
        QVERIFY2(
            compat.output.error.find("Unexpected case") != std::string::npos, compat.output.error.c_str());
        QCOMPARE(rows(t.run(kDefault, "aten::linear").output),
            (std::vector<Row> { { "aten::linear|k1|k2|k3", 2, 54.0, 190.0 } }));
    }

    // HTA's call graph: depth from the thread root, kernels under their launch,
    // and the backward thread's top-level operators under "## backward ##".
    void callGraphDepthsAndBackwardThread_data()
    {
        QTest::addColumn<bool>("compat");
        QTest::newRow("hta-compat") << true;
        QTest::newRow("default") << false;
    }

    void callGraphDepthsAndBackwardThread()
    {
        QFETCH(bool, compat);
        Loaded t({
            eventAtBase("user_annotation", "ProfilerStep#1", 0, 1000), // 0
            eventAtBase("user_annotation", "## backward ##", 500, 400), // 1
            eventAtBase(
                "cpu_op", "autograd::engine::evaluate_function: MmBackward0", 600, 100, "{}", 1, 2), // 2
            eventAtBase("cpu_op", "aten::mm", 610, 80, "{}", 1, 2), // 3
            launch(620, 11, 2), // 4
            launch(630, 12, 2), // 5
            launch(640, 13, 2), // 6
            kernel("k1", 700, 8, 11), // 7
            kernel("k2", 710, 9, 12), // 8
            kernel("k3", 720, 10, 13), // 9
        });
        const auto mode = compat ? kCompat : kDefault;
        const core::FrameSet frames = tests::frames(t.set, mode);
        auto graph = core::sequences::buildCallGraph(frames.ranks.front(), mode);
        QVERIFY(graph);
        const auto& g = graph.value();
        QCOMPARE(g.rowStack(0).depth, std::int64_t(0));
        QCOMPARE(g.rowStack(1).depth, std::int64_t(1));
        QCOMPARE(g.rowStack(2).depth, std::int64_t(2)); // moved under the annotation
        QCOMPARE(g.rowStack(3).depth, std::int64_t(3));
        QCOMPARE(g.rowStack(4).depth, std::int64_t(4));
        QCOMPARE(g.rowStack(7).depth, std::int64_t(5)); // kernel under its launch
        QCOMPARE(g.rowStack(0).numKernels, std::int64_t(3));
        QCOMPARE(g.rowStack(1).kernelDurNs, std::int64_t(27000));
        QCOMPARE(g.rowStack(3).numKernels, std::int64_t(3));
        QCOMPARE(rows(t.run(mode, "MmBackward0", !compat).output),
            (std::vector<Row> {
                { "autograd::engine::evaluate_function: MmBackward0|k1|k2|k3", 1, 27.0, 100.0 } }));
    }

    void missingRankAndEmptyName()
    {
        Loaded t(linearTrace());
        core::KernelSequenceOptions o;
        const core::FrameSet frames = tests::frames(t.set, kDefault);
        QVERIFY(!core::kernelSequences(frames, 3, "aten::linear", o).output.ok);
        QVERIFY(core::kernelSequences(frames, 0, "", o).output.result.frame.rows.empty());
    }

    void fileNames()
    {
        QCOMPARE(core::kernelSequencesFileName("aten::linear"),
            std::string("get_frequent_cuda_kernel_sequences__aten_linear.json"));
        QCOMPARE(core::kernelSequencesFileName("aten::copy_"),
            std::string("get_frequent_cuda_kernel_sequences__aten_copy_.json"));
    }
};

KS_TEST_MAIN(tst_kernel_sequences, TstKernelSequences)
#include "tst_kernel_sequences.moc"
