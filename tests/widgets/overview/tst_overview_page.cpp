// The Overview page: headline numbers and one card per
// finding, in the report's order, whose links ask for the events, a zoom or the
// proving analysis; an iteration chosen on the page recomputes; job mode shows
// a summary's findings without timeline links, and its stragglers from the collectives' arrivals.

#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/insights/insights.h"
#include "core/summary/job_overview.h"
#include "core/summary/job_summarizer.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/common/task_pools.h"
#include "widgets/overview/finding_card.h"
#include "widgets/overview/overview_page.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <set>

using namespace ks;

namespace {

bool waitUpdated(widgets::OverviewPage& page)
{
    QSignalSpy spy(&page, &widgets::OverviewPage::updated);
    return spy.wait(60'000);
}

// The mean Tensor Core share over the rows of the folder's rank overview (-1: none).
double meanTensorCorePct(const QString& folder)
{
    const auto set = test::loadSet(folder);
    if (!set)
        return -1;
    auto frames = core::buildFrames(*set, core::AnalysisOptions {});
    if (!frames)
        return -1;
    const core::AnalysisOutput x1 = core::rankOverview(frames.value(), core::AnalysisOptions {});
    if (!x1.ok)
        return -1;
    const core::Table& t = x1.result.frame;
    const std::size_t c = t.columnIndex("tensor_core_pct");
    double sum = 0;
    std::size_t n = 0;
    for (const auto row : t.rows)
        if (const auto v = core::cellAsDouble(row[c])) {
            sum += *v;
            ++n;
        }
    return n ? sum / static_cast<double>(n) : -1;
}

} // namespace

class TestOverviewPage : public QObject
{
    Q_OBJECT

private slots:

    void cardsFollowTheReport()
    {
        const auto set = test::loadSharedTraces("ddp_gloo_2ranks");
        if (!set)
            QSKIP("../shared is absent");
        widgets::TaskPools pools;
        widgets::OverviewPage page(&pools);
        page.resize(1100, 900);
        page.setTraceSet(set);
        QVERIFY(waitUpdated(page));
        const widgets::OverviewData* data = page.data();
        QVERIFY(data);
        // The same findings as the engine on the same frames, in its order.
        auto frames = core::buildFrames(*set, {});
        const auto report = core::runInsights(frames.value(), {}, {});
        const auto cards = page.findChildren<widgets::FindingCard*>();
        QCOMPARE(static_cast<std::size_t>(cards.size()), report.findings.size());
        QCOMPARE(data->report.findings.front().rule, report.findings.front().rule);
        QCOMPARE(data->stragglers, std::vector<std::int64_t> { 1 }); // the gloo job's rank 1
        QVERIFY(data->exposedCommPct.has_value());
        QCOMPARE(data->dataLoadingPct.value_or(-1), 0.0); // X1's rows hold it: no loading spans here
        QVERIFY(!data->tensorCorePct); // a CPU job: no compute kernels, no share (not 0 %)

        // The seven headline tiles in one row when the page is wide, in rows when it is
        // not, never cut off at its right edge.
        const auto rowsOfTiles = [&page](int width) {
            page.resize(width, 900);
            page.setVisible(true);
            QCoreApplication::processEvents();
            std::set<int> tops;
            for (QWidget* t : page.findChildren<QWidget*>(QStringLiteral("headlineTile"))) {
                const QRect onPage(t->mapTo(&page, QPoint(0, 0)), t->size());
                if (onPage.right() > page.width())
                    return -1;
                tops.insert(onPage.top());
            }
            return static_cast<int>(tops.size());
        };
        QCOMPARE(page.findChildren<QWidget*>(QStringLiteral("headlineTile")).size(), qsizetype(7));
        QCOMPARE(rowsOfTiles(1400), 1);
        QCOMPARE(rowsOfTiles(700), 2);
        QCOMPARE(rowsOfTiles(1200), 1); // back as it was
        QVERIFY(!data->mfuPct); // a CPU job: no device peaks
        QVERIFY(!data->mfuNote.isEmpty()); // says why
        QCOMPARE(data->iterations.size(), std::size_t(4));

        // The straggler's card (first or second: the skew it causes ranks within a point of it)
        // asks for its event, and for the proving dock.
        const auto straggler = std::find_if(report.findings.begin(), report.findings.end(),
            [](const core::Finding& f) { return f.rule == "straggler"; });
        QVERIFY(straggler != report.findings.end() && straggler - report.findings.begin() < 2);
        const auto card = static_cast<qsizetype>(straggler - report.findings.begin());
        QSignalSpy events(&page, &widgets::OverviewPage::eventRequested);
        QSignalSpy docks(&page, &widgets::OverviewPage::analysisRequested);
        auto* links = cards[card]->findChild<QLabel*>(QStringLiteral("findingLinks"));
        QVERIFY(links);
        emit links->linkActivated(QStringLiteral("event"));
        QCOMPARE(events.size(), 1);
        QCOMPARE(events.front().at(0).toLongLong(), 1);
        QCOMPARE(events.front().at(1).toLongLong(), straggler->where.front().events.front());
        emit links->linkActivated(QStringLiteral("analysis"));
        QCOMPARE(docks.size(), 1);
        QCOMPARE(docks.front().at(0).toString(), QStringLiteral("jobPath")); // the rule declares it

        // One iteration: the scope says so and the numbers are that step's.
        auto* iteration = page.findChild<QComboBox*>(QStringLiteral("overviewIteration"));
        QCOMPARE(iteration->count(), 5); // all + 4 steps
        iteration->setCurrentIndex(2);
        emit iteration->activated(2);
        QVERIFY(waitUpdated(page));
        QVERIFY(page.data()->scope.contains(QStringLiteral("iteration 11")));
        QCOMPARE(page.data()->iterationCount, std::size_t(1));

        // A selected range: the events starting in it (rank 0's first step), whatever the iteration box says.
        iteration->setCurrentIndex(0);
        const core::TimeNs start = set->startNs();
        page.setTraceSet(set, core::AnalysisWindow { start, start + 80'000'000 });
        QVERIFY(waitUpdated(page));
        QVERIFY(page.data()->scope.contains(QStringLiteral("selected range")));
    }

    // The budget: while the analyses run the page waits instead of building
    // its own frames beside them, then reads theirs (narrowed to an iteration or a
    // range) with the same findings and numbers as from frames of its own.
    void waitsForTheAnalysesAndReadsTheirFrames()
    {
        const auto set = test::loadSharedTraces("ddp_gloo_2ranks");
        if (!set)
            QSKIP("../shared is absent");
        widgets::TaskPools pools;
        widgets::OverviewPage own(&pools);
        own.setTraceSet(set);
        QVERIFY(waitUpdated(own));

        widgets::OverviewPage page(&pools);
        const core::TraceAnalyses* checked = nullptr;
        page.setMemoryCheck(
            [&checked](const core::TraceAnalyses& analyses, const std::optional<core::AnalysisWindow>&) {
                checked = &analyses;
                return QString();
            });
        QSignalSpy updated(&page, &widgets::OverviewPage::updated);
        // A session whose views' lane has built the frames and the job path.
        const auto analyses = std::make_shared<core::TraceAnalyses>(set);
        page.waitForAnalyses(analyses);
        QVERIFY(page.isWaitingForAnalyses());
        QVERIFY(!page.isComputing());
        QVERIFY(page.message().contains(QStringLiteral("Waiting")));
        QTest::qWait(200);
        QCOMPARE(updated.size(), 0); // nothing computed meanwhile
        const auto path = analyses->jobPath({}, {});
        QVERIFY(path.ok());
        page.setAnalyses(analyses);
        QVERIFY(!page.isWaitingForAnalyses());
        QVERIFY(waitUpdated(page));
        QCOMPARE(checked, analyses.get()); // the budget was asked about the session it reads
        // The page read the session's frames and job path: none was computed again.
        QCOMPARE(analyses->computations().frames, std::size_t(1));
        QCOMPARE(analyses->computations().jobPath, std::size_t(1));
        QCOMPARE(analyses->computations().insights, std::size_t(1));
        const auto sameFindings = [](const widgets::OverviewData& a, const widgets::OverviewData& b) {
            QCOMPARE(a.report.findings.size(), b.report.findings.size());
            for (std::size_t i = 0; i < a.report.findings.size(); ++i) {
                QCOMPARE(a.report.findings[i].rule, b.report.findings[i].rule);
                QCOMPARE(a.report.findings[i].gainPct, b.report.findings[i].gainPct);
                QCOMPARE(a.report.findings[i].evidence, b.report.findings[i].evidence);
            }
            QCOMPARE(a.stepTimeUs, b.stepTimeUs);
            QCOMPARE(a.exposedCommPct, b.exposedCommPct);
            QCOMPARE(a.iterations, b.iterations);
            QCOMPARE(a.scope, b.scope);
        };
        sameFindings(*page.data(), *own.data());

        // One iteration, from the same frames narrowed, equals one built for it.
        for (widgets::OverviewPage* p : { &own, &page }) {
            auto* iteration = p->findChild<QComboBox*>(QStringLiteral("overviewIteration"));
            iteration->setCurrentIndex(2);
            emit iteration->activated(2);
            QVERIFY(waitUpdated(*p));
        }
        QCOMPARE(page.data()->iterationCount, std::size_t(1));
        sameFindings(*page.data(), *own.data());
    }

    void overTheMemoryBudgetSaysSo()
    {
        const auto set = test::loadSharedTraces("cuda_event_sync");
        if (!set)
            QSKIP("../shared is absent");
        widgets::TaskPools pools;
        widgets::OverviewPage page(&pools);
        page.setMemoryCheck([](const core::TraceAnalyses&, const std::optional<core::AnalysisWindow>&) {
            return QStringLiteral("Not computed: over the budget");
        });
        QSignalSpy updated(&page, &widgets::OverviewPage::updated);
        page.setTraceSet(set);
        QCOMPARE(updated.size(), 1); // at once, nothing started
        QVERIFY(!page.data());
        QVERIFY(!page.isComputing());
        QCOMPARE(page.findChild<QLabel*>(QStringLiteral("overviewMessage"))->text(),
            QStringLiteral("Not computed: over the budget"));
        page.setMemoryCheck({});
        page.setTraceSet(set);
        QVERIFY(waitUpdated(page));
        QVERIFY(page.data());
    }

    // MFU from the efficiency analysis, as `overview` prints it (7.1 % on the H100 trace).
    void mfuOfAGpuTrace()
    {
        const auto set = test::loadSharedTraces("h100_qwen05b");
        if (!set)
            QSKIP("../shared is absent");
        widgets::TaskPools pools;
        widgets::OverviewPage page(&pools);
        page.setTraceSet(set);
        QVERIFY(waitUpdated(page));
        QVERIFY(page.data()->mfuPct.has_value());
        QVERIFY2(
            std::abs(*page.data()->mfuPct - 7.105) < 0.01, qPrintable(QString::number(*page.data()->mfuPct)));
        QVERIFY(page.data()->mfuNote.contains(QStringLiteral("H100")));
    }

    void jobModeShowsTheSummary()
    {
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/two_ranks_sampled");
        if (!QDir(folder).exists())
            QSKIP("../shared is absent");
        QTemporaryDir dir;
        const std::string out = dir.path().toStdString() + "/job.kssum";
        QVERIFY(core::summarizeJob({ folder.toStdString() }, out, core::SummarizeOptions {}).ok());
        auto job = core::readJobOverview(out);
        QVERIFY(job.ok());
        widgets::TaskPools pools;
        widgets::OverviewPage page(&pools);
        page.setJob(std::make_shared<const core::JobOverview>(std::move(job).value()));
        QVERIFY(waitUpdated(page));
        QVERIFY(page.data()->fromSummary);
        QVERIFY(!page.data()->report.findings.empty());
        QVERIFY(page.data()->stepTimeUs.has_value());
        // A summary stores each rank's data-loading and Tensor Core shares: the tiles show
        // what the folder's rank overview gives (no loading spans here: 0 %, not none).
        QCOMPARE(page.data()->dataLoadingPct.value_or(-1), 0.0);
        QVERIFY(page.data()->tensorCorePct.has_value());
        const double folderShare = meanTensorCorePct(folder);
        QVERIFY2(std::abs(*page.data()->tensorCorePct - folderShare) < 1e-9,
            qPrintable(QStringLiteral("%1 vs %2").arg(*page.data()->tensorCorePct).arg(folderShare)));
        for (auto* card : page.findChildren<widgets::FindingCard*>())
            QVERIFY(!card->findChild<QLabel*>(QStringLiteral("findingLinks"))); // no timeline, no docks
        QSignalSpy cleared(&page, &widgets::OverviewPage::updated);
        page.setJob(nullptr); // nothing open: cleared at once
        QCOMPARE(cleared.size(), 1);
        QVERIFY(!page.data());
    }

    // A CPU-only gloo job has no GPU compute for job mode to mark: its summary names the rank
    // the others wait for at the collectives, rank 1, as the traces' Overview does.
    void jobModeNamesTheGlooStraggler()
    {
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/ddp_gloo_2ranks");
        if (!QDir(folder).exists())
            QSKIP("../shared is absent");
        QTemporaryDir dir;
        const std::string out = dir.path().toStdString() + "/job.kssum";
        QVERIFY(core::summarizeJob({ folder.toStdString() }, out, core::SummarizeOptions {}).ok());
        auto job = core::readJobOverview(out);
        QVERIFY(job.ok());
        widgets::TaskPools pools;
        widgets::OverviewPage page(&pools);
        page.setJob(std::make_shared<const core::JobOverview>(std::move(job).value()));
        QVERIFY(waitUpdated(page));
        QCOMPARE(page.data()->stragglers, std::vector<std::int64_t> { 1 });
        QVERIFY(page.data()->stragglerSource.contains(QStringLiteral("arrivals")));
    }
};

KS_TEST_MAIN(tst_overview_page, TestOverviewPage)
#include "tst_overview_page.moc"
