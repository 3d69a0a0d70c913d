// TraceAnalyses: each result computed once per load, however many readers and
// threads ask, and equal to the analysis run directly.

#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/cross_rank/stragglers.h"
#include "core/common/progress.h"
#include "core/insights/insights.h"
#include "core/report/table_text.h"
#include "core/session/analysis_catalog.h"
#include "core/session/efficiency_request.h"
#include "core/session/trace_analyses.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QDir>
#include <QObject>

#include <memory>
#include <thread>
#include <vector>

using namespace ks;

namespace {

std::shared_ptr<core::TraceAnalyses> sharedSession(const char* folder)
{
    if (!QDir(tests::sharedDir() + QStringLiteral("/traces/") + QString::fromLatin1(folder)).exists())
        return nullptr;
    return std::make_shared<core::TraceAnalyses>(
        std::make_shared<const core::TraceSet>(tests::loadSharedTraces(QString::fromLatin1(folder))));
}

std::string text(const core::AnalysisOutput& output)
{
    return output.ok ? core::resultAsText("x", output.result) : "not applicable: " + output.error;
}

} // namespace

class TestTraceAnalyses : public QObject
{
    Q_OBJECT

private slots:

    // A two-rank load read as the app reads it: the views' outputs, the job path,
    // the timeline's collectives, the insights, the efficiency report, each asked
    // twice or more. Every kind is computed once.
    void eachResultIsComputedOnce()
    {
        const auto session = sharedSession("two_ranks_sampled");
        if (!session)
            QSKIP("../shared/traces/two_ranks_sampled is absent");
        QCOMPARE(session->traces().ranks.size(), std::size_t(2));
        const core::FrameScope scope;
        const std::vector<core::OutputKey> keys { core::OutputKey::TemporalBreakdown,
            core::OutputKey::IdleTimeBreakdown, core::OutputKey::RankOverview,
            core::OutputKey::OperatorStats };
        // Held, as the app's outputs lane holds its frames until the job path has them
        // (frames are kept while held; the path then holds them).
        const auto held = session->frames(scope, {});
        QVERIFY(held.ok());
        for (int pass = 0; pass < 2; ++pass) {
            const auto outputs = session->outputs(scope, keys, {});
            QVERIFY(outputs.ok());
            QCOMPARE(outputs.value().size(), keys.size());
            const auto match = session->collectiveMatch();
            QVERIFY(!match->instances.empty()); // NCCL collectives on both ranks
            const auto path = session->jobPath({ scope, std::nullopt }, {});
            QVERIFY(path.ok());
            QVERIFY(path.value()->path());
            QVERIFY(session->insights(scope, {}, {}).ok());
            const core::EfficiencyRequest request = core::efficiencyRequest(session->traces());
            QVERIFY(session->efficiency(request.options));
        }
        const core::SessionComputations c = session->computations();
        QCOMPARE(c.frames, std::size_t(1)); // the outputs', the path's and the insights' frames are one
        QCOMPARE(c.outputs, keys.size());
        QCOMPARE(c.collectiveMatch, std::size_t(1)); // the timeline's match is the path's
        QCOMPARE(c.jobPath, std::size_t(1)); // the insights read the views' path
        QCOMPARE(c.insights, std::size_t(1));
        QCOMPARE(c.efficiency, std::size_t(1));
        QVERIFY(session->keptFramesBytes() > 0);
        // Another scope is another result, computed apart.
        core::FrameScope compat;
        compat.options.mode = core::AnalysisMode::HtaCompat;
        QVERIFY(session->outputs(compat, { core::OutputKey::TemporalBreakdown }, {}).ok());
        QCOMPARE(session->computations().frames, std::size_t(2));
        QCOMPARE(session->computations().outputs, keys.size() + 1);
    }

    // What the session keeps is what the analyses give when run directly.
    void resultsEqualTheDirectComputation()
    {
        const auto session = sharedSession("two_ranks_sampled");
        if (!session)
            QSKIP("../shared/traces/two_ranks_sampled is absent");
        core::AnalysisOptions options;
        const core::FrameSet frames = tests::frames(session->traces(), core::AnalysisMode::Default);
        std::vector<std::int64_t> ranks;
        for (const core::RankFrame& f : frames.ranks)
            ranks.push_back(f.rank);
        std::vector<core::OutputKey> keys;
        const std::vector<core::AnalysisCall> calls = core::analysisCalls(options, ranks);
        for (const core::AnalysisCall& call : calls)
            keys.push_back(call.key);
        const auto outputs = session->outputs({}, keys, {});
        QVERIFY(outputs.ok());
        for (const core::AnalysisCall& call : calls)
            QCOMPARE(text(*outputs.value().at(call.key)), text(call.run(frames, call.options)));

        const auto kept = session->jobPath({}, {});
        QVERIFY(kept.ok() && kept.value()->path());
        const auto direct = core::jobCriticalPath(frames, {});
        QVERIFY(direct.ok());
        const core::JobCriticalPath& path = *kept.value()->path();
        QCOMPARE(path.path.length, direct.value().path.length);
        QCOMPARE(path.path.segments.size(), direct.value().path.segments.size());
        QCOMPARE(path.measuredTime, direct.value().measuredTime);
        QCOMPARE(kept.value()->stragglers.size(), core::findStragglers(direct.value()).size());

        const auto insights = session->insights({}, {}, {});
        QVERIFY(insights.ok());
        const core::InsightsReport own = core::runInsights(frames, options, {});
        QCOMPARE(insights.value()->findings.size(), own.findings.size());
        for (std::size_t i = 0; i < own.findings.size(); ++i) {
            QCOMPARE(insights.value()->findings[i].rule, own.findings[i].rule);
            QCOMPARE(insights.value()->findings[i].gainPct, own.findings[i].gainPct);
        }
    }

    // Four threads asking for the same path at once: one computes, the others wait and read it.
    void concurrentRequestsShareOneComputation()
    {
        const auto session = sharedSession("ddp_gloo_2ranks");
        if (!session)
            QSKIP("../shared/traces/ddp_gloo_2ranks is absent");
        std::vector<std::shared_ptr<const core::SessionJobPath>> got(4);
        std::vector<std::thread> threads;
        for (std::size_t i = 0; i < got.size(); ++i)
            threads.emplace_back([&, i] { got[i] = session->jobPath({}, {}).value(); });
        for (std::thread& t : threads)
            t.join();
        for (const auto& path : got)
            QCOMPARE(path.get(), got.front().get());
        QCOMPARE(session->computations().jobPath, std::size_t(1));
        QCOMPARE(session->computations().frames, std::size_t(1));
        QCOMPARE(session->computations().collectiveMatch, std::size_t(1));
    }

    // A cancelled request keeps nothing: the next one computes.
    void cancelledWorkIsNotKept()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir,
            { tests::kinetoDocument(
                0, { R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":10,"dur":5})" }) });
        core::TraceAnalyses session(std::make_shared<const core::TraceSet>(set));
        core::CancelToken cancel;
        cancel.cancel();
        core::SessionWork cancelled;
        cancelled.cancel = &cancel;
        QVERIFY(!session.frames({}, cancelled).ok());
        QCOMPARE(session.computations().frames, std::size_t(0));
        QVERIFY(!session.keptJobPath({}));
        QVERIFY(session.frames({}, {}).ok());
        QCOMPARE(session.computations().frames, std::size_t(1));
        // Frames are kept while held: once nothing holds them they are built again.
        QVERIFY(session.frames({}, {}).ok());
        QCOMPARE(session.computations().frames, std::size_t(2));
        const auto held = session.frames({}, {});
        QVERIFY(session.frames({}, {}).value() == held.value());
        QCOMPARE(session.computations().frames, std::size_t(3));
    }
};

KS_TEST_MAIN(tst_trace_analyses, TestTraceAnalyses)
#include "tst_trace_analyses.moc"
