// HTA's get_aten_op_kernels_and_delay (hta-semantics §20) in both modes on tiny traces:
// kernel sequences per aten op call, the two delays, and HTA's quirks (Q19).

#include "core/analysis/hta/aten_op_kernels.h"
#include "core/io/gzip/input_stream.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

    // Class E: HTA's op of a launch is the latest-starting aten op that contains the whole
    // launch, any thread; default mode the innermost op open on the launch's thread.
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

    // Class E: a launch that outlasts the inner op it starts in is not contained by it, so
    // HTA gives it to the outer op; and of ops with the same start (a wrapper and the op it
    // dispatches to, equal after ns rounding) pandas' descending sort puts the first in
    // frame order first: the outer, written first.
    void latestStartingContainingOp()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir,
            { tests::spacedRankDocument(0,
                { tests::eventAtBase("cpu_op", "aten::linear", 0, 100),
                    tests::eventAtBase("cpu_op", "aten::mm", 10, 20),
                    launch(25, 1), // ends at 29 < 30: inside mm
                    kernel("gemm", 40, 1), tests::eventAtBase("cpu_op", "aten::relu", 50, 10),
                    tests::eventAtBase("kernel", "relu_k", 70, 5, tests::correlationArgs(2, 7), 0, 7),
                    tests::eventAtBase( // 57..63 outlasts relu (50..60)
                        "cuda_runtime", "cudaLaunchKernel", 57, 6, tests::correlationArgs(2)),
                    tests::eventAtBase("cpu_op", "aten::matmul", 200, 50),
                    tests::eventAtBase("cpu_op", "aten::bmm", 200, 50), launch(210, 3),
                    kernel("bmm_k", 220, 3) }) });
        auto compat = rowsOf(run(set, core::AnalysisMode::HtaCompat).result.entries.front().second.frame);
        QCOMPARE(compat.size(), std::size_t(3));
        QCOMPARE(compat["aten::mm | gemm"].count, std::int64_t(1));
        QCOMPARE(compat["aten::linear | relu_k"].count, std::int64_t(1));
        QCOMPARE(compat["aten::linear | relu_k"].launchDelay, 57.0); // from linear's start
        QCOMPARE(compat["aten::matmul | bmm_k"].count, std::int64_t(1));
        auto fixed = rowsOf(run(set, core::AnalysisMode::Default).result.entries.front().second.frame);
        QCOMPARE(fixed["aten::relu | relu_k"].count, std::int64_t(1)); // the op open at its start
        QCOMPARE(fixed["aten::bmm | bmm_k"].count, std::int64_t(1)); // equal spans: the later event
    }

    // Class E at scale: ties among more than 16 containing ops are ordered by numpy's
    // introsort, not by frame order. 18 ops from 0 and two equal ones from 5, all around the
    // launch: numpy 1.24's argsort(kind="quicksort") of the reversed starts, mapped back and
    // reversed (pandas' nargsort, ascending=False), puts position 19 first, the second of the
    // pair (with 16 candidates or fewer it would be the first in frame order).
    void manyTiedContainingOps()
    {
        std::vector<std::string> events;
        for (int i = 0; i < 18; ++i)
            events.push_back(tests::eventAtBase("cpu_op", "aten::outer" + std::to_string(i), 0, 100));
        events.push_back(tests::eventAtBase("cpu_op", "aten::wrapper", 5, 90));
        events.push_back(tests::eventAtBase("cpu_op", "aten::inner", 5, 90));
        events.push_back(launch(10, 1));
        events.push_back(kernel("k", 20, 1));
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir, { tests::spacedRankDocument(0, events) });
        auto compat = rowsOf(run(set, core::AnalysisMode::HtaCompat).result.entries.front().second.frame);
        QCOMPARE(compat.size(), std::size_t(1));
        QCOMPARE(compat.begin()->first, std::string("aten::inner | k"));
    }

    // Class F: HTA walks the launches in frame order, so a call's kernel sequence and its
    // first launch (both delays) follow the file, not the start times; and calls are keyed
    // by (thread, op name, op start), so two same-name ops of a thread starting together are one.
    void kernelSequenceInFrameOrder()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir,
            { tests::spacedRankDocument(0,
                { tests::eventAtBase("cpu_op", "aten::foo", 0, 100), launch(50, 2), launch(20, 1),
                    kernel("first", 30, 1), kernel("second", 70, 2),
                    tests::eventAtBase("cpu_op", "aten::add", 200, 10), launch(202, 3), kernel("k1", 230, 3),
                    tests::eventAtBase("cpu_op", "aten::add", 200, 20), launch(212, 4),
                    kernel("k2", 240, 4) }) });
        auto compat = rowsOf(run(set, core::AnalysisMode::HtaCompat).result.entries.front().second.frame);
        QCOMPARE(compat.size(), std::size_t(2));
        const Row foo = compat["aten::foo | second -> first"];
        QCOMPARE(foo.count, std::int64_t(1));
        QCOMPARE(foo.launchDelay, 50.0); // the first launch in the file
        QCOMPARE(foo.runtimeDelay, 20.0); // its kernel at 70
        QCOMPARE(compat["aten::add | k1 -> k2"].count, std::int64_t(1));
        auto fixed = rowsOf(run(set, core::AnalysisMode::Default).result.entries.front().second.frame);
        QCOMPARE(fixed["aten::foo | first -> second"].launchDelay, 20.0);
        QCOMPARE(fixed["aten::add | k1"].count, std::int64_t(1));
        QCOMPARE(fixed["aten::add | k2"].count, std::int64_t(1));
    }

    // Class D: old-format traces (operators `Operator`, runtime `Runtime`, kernels `Kernel`):
    // HTA picks aten ops by name alone.
    void oldFormatOperators()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir,
            { tests::spacedRankDocument(0,
                { tests::eventAtBase("Operator", "aten::addmm", 0, 50),
                    tests::eventAtBase("Runtime", "cudaLaunchKernel", 10, 4, tests::correlationArgs(1)),
                    tests::eventAtBase("Kernel", "gemm", 30, 5, tests::correlationArgs(1, 7), 0, 7) }) });
        for (const auto mode : { core::AnalysisMode::HtaCompat, core::AnalysisMode::Default }) {
            const core::AnalysisOutput out = run(set, mode);
            QVERIFY2(out.ok, out.error.c_str());
            auto rows = rowsOf(out.result.entries.front().second.frame);
            QCOMPARE(rows["aten::addmm | gemm"].count, std::int64_t(1));
            QCOMPARE(rows["aten::addmm | gemm"].launchDelay, 10.0);
        }
    }

    // Class D on a real trace: with every cpu_op renamed Operator, HTA's answer is its answer
    // on the original trace (../shared/reference), since its aten ops are chosen by name.
    void renamedOperatorsOnASharedTrace()
    {
        const QString path = tests::sharedDir() + "/traces/cuda_event_sync/event_sync_trace.json.gz";
        auto stream = core::openInputStream(path.toStdString(), core::InflateBackend::Auto);
        QVERIFY(stream);
        QByteArray text;
        char buffer[1 << 16];
        while (true) {
            const auto n = stream.value()->read(buffer, sizeof buffer);
            QVERIFY(n);
            if (n.value() == 0)
                break;
            text.append(buffer, static_cast<qsizetype>(n.value()));
        }
        QVERIFY(!text.isEmpty());
        text.replace("\"cat\": \"cpu_op\"", "\"cat\": \"Operator\"");
        text.replace("\"cat\":\"cpu_op\"", "\"cat\":\"Operator\"");
        QVERIFY(!text.contains("\"cpu_op\""));
        QTemporaryDir dir;
        {
            QFile out(dir.path() + "/event_sync_trace.json");
            QVERIFY(out.open(QIODevice::WriteOnly));
            out.write(text);
        }
        auto set = core::loadTraceSet({ dir.path().toStdString() }, {}, nullptr, nullptr);
        QVERIFY(set);
        const core::AnalysisOutput out = run(set.value(), core::AnalysisMode::HtaCompat);
        QVERIFY2(out.ok, out.error.c_str());
        QFile refFile(tests::sharedDir() + "/reference/cuda_event_sync/get_aten_op_kernels_and_delay.json");
        QVERIFY(refFile.open(QIODevice::ReadOnly));
        const QJsonObject ref = QJsonDocument::fromJson(refFile.readAll()).object();
        const QJsonArray records =
            ref["result"].toObject()["items"].toObject().begin().value().toObject()["records"].toArray();
        auto ours = rowsOf(out.result.entries.front().second.frame);
        QCOMPARE(ours.size(), std::size_t(records.size()));
        for (const QJsonValue& v : records) {
            const QJsonObject r = v.toObject();
            const std::string key = r["aten_op_name"].toString().toStdString() + " | "
                + r["kernel_sequence"].toString().toStdString();
            QVERIFY2(ours.count(key), key.c_str());
            QCOMPARE(ours[key].count, std::int64_t(r["occurrence_count"].toInt()));
            QCOMPARE(ours[key].launchDelay, r["avg_aten_op_launch_delay"].toDouble());
            QCOMPARE(ours[key].runtimeDelay, r["avg_runtime_delay"].toDouble());
        }
    }

    // HTA's launches are re.match of (cuda.*LaunchKernel)|(cuLaunchKernel)|(^runFunction),
    // so prefixes: cudaLaunchKernel_ptsz counts. A launch under an aten op without exactly one
    // kernel makes HTA's .item() raise; default mode leaves it out.
    void launchNamesAndKernelsAsHtaReadsThem()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir,
            { tests::spacedRankDocument(0,
                { tests::eventAtBase("cpu_op", "aten::mul", 0, 50),
                    tests::eventAtBase(
                        "cuda_runtime", "cudaLaunchKernel_ptsz", 10, 4, tests::correlationArgs(1)),
                    kernel("mul_k", 30, 1) }) });
        QCOMPARE(rowsOf(run(set, core::AnalysisMode::HtaCompat).result.entries.front().second.frame).size(),
            std::size_t(1));
        // Kinetoscope's rule knows the per-thread-stream variants by prefix too (launch_api.h).
        QCOMPARE(rowsOf(run(set, core::AnalysisMode::Default).result.entries.front().second.frame).size(),
            std::size_t(1));

        QTemporaryDir lonely;
        const auto noKernel = tests::loadRanks(lonely,
            { tests::spacedRankDocument(0,
                { tests::eventAtBase("cpu_op", "aten::mul", 0, 50), launch(10, 1), kernel("k", 30, 1),
                    tests::eventAtBase("cpu_op", "aten::add", 100, 50), launch(110, 2) }) });
        const core::AnalysisOutput compat = run(noKernel, core::AnalysisMode::HtaCompat);
        QVERIFY(!compat.ok);
        QVERIFY2(compat.error.find("ValueError") != std::string::npos, compat.error.c_str());
        QVERIFY(run(noKernel, core::AnalysisMode::Default).ok);
    }

    // Q6: a graph launch under an aten op is a launch in default mode, its kernels every GPU
    // row with its correlation in start order; HTA's list has no graph launch.
    void graphLaunchUnderAnOp()
    {
        QTemporaryDir dir;
        const auto set = tests::loadRanks(dir,
            { tests::spacedRankDocument(0,
                { tests::eventAtBase("cpu_op", "aten::replay_step", 0, 100),
                    tests::eventAtBase("cuda_runtime", "cudaGraphLaunch", 10, 6, tests::correlationArgs(5)),
                    kernel("graph_b", 60, 5), kernel("graph_a", 30, 5),
                    // Outside every aten op: no call.
                    tests::eventAtBase("cuda_runtime", "cudaGraphLaunch", 150, 6, tests::correlationArgs(6)),
                    kernel("graph_c", 170, 6), tests::eventAtBase("cpu_op", "aten::relu", 200, 20),
                    launch(204, 3), kernel("relu_k", 214, 3) }) });
        auto fixed = rowsOf(run(set, core::AnalysisMode::Default).result.entries.front().second.frame);
        QCOMPARE(fixed.size(), std::size_t(2));
        QVERIFY(fixed.count("aten::replay_step | graph_a -> graph_b"));
        const Row graph = fixed["aten::replay_step | graph_a -> graph_b"];
        QCOMPARE(graph.count, std::int64_t(1));
        QCOMPARE(graph.launchDelay, 10.0); // op start to the graph launch
        QCOMPARE(graph.runtimeDelay, 20.0); // the launch to its first kernel
        const auto compat =
            rowsOf(run(set, core::AnalysisMode::HtaCompat).result.entries.front().second.frame);
        QCOMPARE(compat.size(), std::size_t(1));
        QVERIFY(compat.count("aten::relu | relu_k"));
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
