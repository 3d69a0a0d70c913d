// Cancelling analysis work: buildFrames and the critical path poll the caller's
// CancelToken (AnalysisOptions::cancel) and stop early with ErrorCode::Cancelled,
// which is what lets the app drop a superseded request without waiting for it.

#include "core/analysis/critical_path/critical_path.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <string>
#include <vector>

using namespace ks;

namespace {

constexpr int kRanks = 4;

std::string event(const std::string& cat, const std::string& name, const std::string& pid,
    const std::string& tid, int ts, int dur, const std::string& args)
{
    return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)" + pid + R"(,"tid":)" + tid
        + R"(,"ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":{)" + args
        + "}}";
}

// One step of a CPU op launching one kernel: enough for frames and a critical path.
std::string rankDocument(std::int64_t rank)
{
    return tests::kinetoDocument(rank,
        { event("user_annotation", "ProfilerStep#1", "1", "1", 1000, 100, ""),
            event("cpu_op", "aten::mm", "1", "1", 1010, 40, ""),
            event("cuda_runtime", "cudaLaunchKernel", "1", "1", 1020, 10, R"("correlation":7)"),
            event("kernel", "gemm", "0", "7", 1040, 30, R"("stream":7,"correlation":7)") });
}

core::TraceSet loadJob(const QTemporaryDir& dir)
{
    std::vector<std::string> documents;
    for (int r = 0; r < kRanks; ++r)
        documents.push_back(rankDocument(r));
    return tests::loadRanks(dir, documents);
}

struct Counts
{
    int stages = 0; // calls of the ParallelFor
    int bodies = 0;
};

// buildFrames with a token and a sequential ParallelFor that counts its calls
// and bodies and cancels the token once `cancelAfter` bodies ran (0: before
// any, negative: never).
core::Result<core::FrameSet> buildCounting(const core::TraceSet& set, int cancelAfter, Counts& counts)
{
    core::CancelToken token;
    if (cancelAfter == 0)
        token.cancel();
    core::AnalysisOptions options;
    options.cancel = &token;
    const core::ParallelFor counting = [&](std::size_t n, const std::function<void(std::size_t)>& body) {
        ++counts.stages;
        for (std::size_t i = 0; i < n; ++i) {
            body(i);
            if (++counts.bodies == cancelAfter)
                token.cancel();
        }
    };
    return core::buildFrames(set, options, counting);
}

} // namespace

class TestCancellation : public QObject
{
    Q_OBJECT

private slots:

    void buildFramesStopsAfterTheStageThatSawTheToken()
    {
        QTemporaryDir dir;
        Counts counts;
        // The request is superseded while the first rank is being built.
        auto frames = buildCounting(loadJob(dir), 1, counts);
        QVERIFY(!frames);
        QCOMPARE(frames.error().code, core::ErrorCode::Cancelled);
        // The first stage (rows of every rank) ended; the second (shift, iterations, index) never began.
        QCOMPARE(counts.stages, 1);
        QCOMPARE(counts.bodies, kRanks);
    }

    void buildFramesRunsEveryStageWhenNotCancelled()
    {
        QTemporaryDir dir;
        Counts counts;
        auto frames = buildCounting(loadJob(dir), -1, counts);
        QVERIFY(frames);
        QCOMPARE(counts.stages, 2);
        QCOMPARE(frames.value().ranks.size(), std::size_t(kRanks));
        for (const core::RankFrame& frame : frames.value().ranks)
            QVERIFY(!frame.rows.empty());
    }

    void aTokenCancelledBeforehandStopsAtOnce()
    {
        // A request superseded before it began: one plain error, no frames.
        QTemporaryDir dir;
        Counts counts;
        auto frames = buildCounting(loadJob(dir), 0, counts);
        QVERIFY(!frames);
        QCOMPARE(frames.error().code, core::ErrorCode::Cancelled);
        QCOMPARE(QString::fromStdString(frames.error().describe()), QStringLiteral("cancelled"));
        QCOMPARE(counts.stages, 1);
    }

    void criticalPathStopsBetweenStages()
    {
        QTemporaryDir dir;
        const core::TraceSet set = loadJob(dir);
        const core::FrameSet frames = tests::frames(set, core::AnalysisMode::Default);
        core::AnalysisOptions options;
        const std::int64_t rank = frames.ranks.front().rank;
        auto whole = core::buildCriticalPath(frames, rank, std::string(), {}, options);
        QVERIFY2(whole, whole ? "" : whole.error().message.c_str());
        QVERIFY(!whole.value().nodes.empty());

        core::CancelToken token;
        token.cancel();
        options.cancel = &token;
        auto stopped = core::buildCriticalPath(frames, rank, std::string(), {}, options);
        QVERIFY(!stopped);
        QCOMPARE(stopped.error().code, core::ErrorCode::Cancelled);
    }
};

KS_TEST_MAIN(tst_cancellation, TestCancellation)
#include "tst_cancellation.moc"
