// The analysis docks come first, the job's
// critical path after them as a job of its own; work over the memory budget is
// not started and its docks say what it needs, with [Compute anyway] and [Per
// iteration]; a job that throws (out of memory or otherwise) ends as its
// dock's error line and the window lives on. On a synthetic 4-rank job.
#include "app/gui/background/memory_budget.h"
#include "app/gui/dialogs/preferences_dialog.h"
#include "app/gui/main_window/main_window.h"
#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/cross_rank/stragglers.h"
#include "core/synth/synthetic_trace_generator.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/analysis/rank_overview_panel.h"
#include "widgets/common/format.h"
#include "widgets/common/not_computed_notice.h"
#include "widgets/job_path/job_path_panel.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QAction>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QMenu>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <stdexcept>

using namespace ks;

namespace {

constexpr int kWaitMs = 120'000;

// The window's job path through the session's, counting the calls and
// keeping the scope's iteration of the last; `gate` holds it until set, `failure`
// makes it throw instead (1 bad_alloc, 2 runtime_error, 3 bad_alloc on a worker).
struct JobPathProbe
{
    std::atomic<int> calls { 0 };
    std::atomic<bool> gate { true };
    std::atomic<int> failure { 0 };
    std::mutex mutex;
    std::optional<std::int64_t> lastIterationAsked;

    app::AnalysisRunner::JobPathFunction function()
    {
        return
            [this](core::TraceAnalyses& analyses, const core::JobPathScope& scope,
                const core::SessionWork& work) -> core::Result<std::shared_ptr<const core::SessionJobPath>> {
                calls.fetch_add(1);
                {
                    std::lock_guard lock(mutex);
                    lastIterationAsked = scope.iteration;
                }
                const core::ParallelFor& parallelFor = work.parallelFor;
                while (!gate.load())
                    QThread::msleep(5);
                switch (failure.load()) {
                case 1:
                    throw std::bad_alloc();
                case 2:
                    throw std::runtime_error("broken path");
                case 3: {
                    QThread* jobThread = QThread::currentThread();
                    parallelFor(100'000, [jobThread](std::size_t) {
                        if (QThread::currentThread() == jobThread)
                            QThread::usleep(100);
                        else
                            throw std::bad_alloc();
                    });
                    break;
                }
                default:
                    break;
                }
                return analyses.jobPath(scope, work);
            };
    }

    std::optional<std::int64_t> lastIteration()
    {
        std::lock_guard lock(mutex);
        return lastIterationAsked;
    }
};

widgets::AnalysisView* viewOf(widgets::AnalysisView* view)
{
    return view;
}

// A view shows its result, or, for HTA calls that need what a trace may lack (CUPTI counters
// on a trace without counters, user annotations without any), why it does not apply.
bool computed(const widgets::AnalysisView* view)
{
    const bool optional = view->kind() == widgets::AnalysisChartKind::TableOnly
        || view->kind() == widgets::AnalysisChartKind::UserAnnotations;
    return view->hasResult() || (optional && view->message().startsWith(QStringLiteral("Not applicable")));
}

widgets::RankOverviewPanel* rankOverviewPanel(app::MainWindow& window)
{
    auto* view = window.findChild<widgets::AnalysisView*>(QStringLiteral("rankOverviewView"));
    return view ? view->findChild<widgets::RankOverviewPanel*>() : nullptr;
}

QAction* recomputeAction(app::MainWindow& window)
{
    auto* menu = window.findChild<QMenu*>(QStringLiteral("analysesMenu"));
    for (QAction* action : menu ? menu->actions() : QList<QAction*> {})
        if (action->text() == QStringLiteral("&Recompute"))
            return action;
    return nullptr;
}

} // namespace

class TestAnalysisLanes : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    QTemporaryDir m_dir;

private slots:

    void initTestCase()
    {
        QVERIFY(m_settingsDir.isValid());
        QVERIFY(m_dir.isValid());
        ks::test::useTestSettings(m_settingsDir, QStringLiteral("tst_analysis_lanes"));
        core::SynthOptions options;
        options.ranks = 4;
        options.targetBytes = 300'000;
        options.seed = 5;
        options.outDir = m_dir.path().toStdString();
        options.stragglers = { 2 };
        options.slowdown = 2.0;
        QVERIFY(core::generateSyntheticTraces(options).ok());
    }

    void init() { QSettings().clear(); }

    void budgetIsAPreference()
    {
        // Automatic: the store plus 2 GB.
        QCOMPARE(app::memoryBudgetSettingGb(), 0.0);
        QCOMPARE(app::memoryBudget(300'000'000), std::uint64_t(2'300'000'000));
        app::PreferencesDialog dialog;
        QCOMPARE(dialog.memoryBudget()->value(), 0.0);
        QVERIFY(dialog.memoryBudget()->text().startsWith(QStringLiteral("Automatic")));
        dialog.memoryBudget()->setValue(6.5);
        dialog.accept();
        QCOMPARE(QSettings().value(QStringLiteral("memory/budgetGb")).toDouble(), 6.5);
        QCOMPARE(app::memoryBudget(300'000'000), std::uint64_t(6'500'000'000));
        app::PreferencesDialog again;
        QCOMPARE(again.memoryBudget()->value(), 6.5);
    }

    // Item 2: the docks show while the job path still computes.
    void docksArriveBeforeTheJobPath()
    {
        app::MainWindow window;
        JobPathProbe probe;
        probe.gate = false;
        window.analysisRunner()->setJobPathFunction(probe.function());
        window.show();
        QSignalSpy docks(&window, &app::MainWindow::analysesReady);
        QSignalSpy path(&window, &app::MainWindow::jobPathReady);
        window.openPaths({ m_dir.path() });
        QVERIFY(docks.wait(kWaitMs));
        for (widgets::AnalysisView* dock : window.analysisViews())
            QVERIFY2(computed(dock), qPrintable(dock->objectName()));
        QTRY_COMPARE_WITH_TIMEOUT(probe.calls.load(), 1, kWaitMs);
        QVERIFY(window.jobPathRunning());
        QCOMPARE(path.count(), 0);
        QCOMPARE(window.jobPathPanel()->summaryText(), QStringLiteral("Computing the job's critical path…"));
        auto* panel = rankOverviewPanel(window);
        QVERIFY(panel);
        QCOMPARE(
            panel->stragglerStatus()->text(), QStringLiteral("Stragglers (job critical path): computing…"));

        probe.gate = true;
        QVERIFY(path.wait(kWaitMs));
        QVERIFY(!window.jobPathRunning());
        QVERIFY2(window.jobPathPanel()->summaryText().startsWith(QStringLiteral("Path ")),
            qPrintable(window.jobPathPanel()->summaryText()));
        QVERIFY(panel->stragglerStatus()->isHidden());
        QVERIFY(!panel->stragglerTable()->isHidden()); // rank 2 is the straggler
        QVERIFY(panel->stragglerTable()->rowCount() > 0);
    }

    // Item 3: over the budget the job path is not started; the user starts it.
    void jobPathOverTheBudgetWaitsForTheUser()
    {
        app::setMemoryBudgetSettingGb(1000);
        app::MainWindow window;
        JobPathProbe probe;
        window.analysisRunner()->setJobPathFunction(probe.function());
        window.show();
        QSignalSpy finished(window.analysisRunner(), &app::AnalysisRunner::jobPathFinished);
        QSignalSpy path(&window, &app::MainWindow::jobPathReady);
        window.openPaths({ m_dir.path() });
        QVERIFY(path.wait(kWaitMs));
        QCOMPARE(probe.calls.load(), 1);
        auto first = finished.last().at(0).value<app::JobPathResultsPtr>();
        QVERIFY(first->path() && first->wholeNeed && first->iterationNeed && first->firstIteration);
        QVERIFY(first->iterationNeed->bytes < first->wholeNeed->bytes);
        const core::TraceSet& set = *window.traceSet();
        const std::uint64_t docksNeed = core::storeBytes(set) + core::docksMemoryEstimate(set);
        QVERIFY(first->wholeNeed->bytes > docksNeed);

        // A budget the docks fit in and the path does not.
        const std::uint64_t budget = (docksNeed + first->wholeNeed->bytes) / 2;
        app::setMemoryBudgetSettingGb(static_cast<double>(budget) / 1e9);
        QSignalSpy docks(&window, &app::MainWindow::analysesReady);
        recomputeAction(window)->trigger();
        QVERIFY(path.wait(kWaitMs));
        QCOMPARE(docks.count(), 1);
        QCOMPARE(probe.calls.load(), 1); // not started
        for (widgets::AnalysisView* dock : window.analysisViews())
            QVERIFY2(computed(dock), qPrintable(dock->objectName()));
        auto deferred = finished.last().at(0).value<app::JobPathResultsPtr>();
        QVERIFY(!deferred->path() && deferred->notComputed);
        QCOMPARE(deferred->notComputed->bytes, first->wholeNeed->bytes);
        QVERIFY(std::llabs(std::int64_t(deferred->notComputed->budget) - std::int64_t(budget)) <= 1);
        const QString expected = widgets::NotComputedNotice::notComputedText(
            deferred->notComputed->bytes, deferred->notComputed->budget);
        QVERIFY(expected.startsWith(QStringLiteral("Not computed: needs about ")));
        QVERIFY(expected.contains(
            QStringLiteral("(budget %1)").arg(widgets::formatBytes(deferred->notComputed->budget))));

        widgets::NotComputedNotice* notice = window.jobPathPanel()->notice();
        QVERIFY(notice->isVisibleTo(window.jobPathPanel()));
        QCOMPARE(notice->text(), expected);
        QVERIFY(notice->computeAnywayButton()->isVisibleTo(notice));
        QVERIFY(notice->perIterationButton()->isVisibleTo(notice));
        QCOMPARE(window.jobPathPanel()->segments()->model()->rowCount(), 0);
        auto* panel = rankOverviewPanel(window);
        QVERIFY(panel);
        QCOMPARE(
            panel->stragglerStatus()->text(), QStringLiteral("Stragglers (job critical path): ") + expected);
        QVERIFY(panel->stragglerStatus()->perIterationButton()->isVisibleTo(panel->stragglerStatus()));
        QVERIFY(panel->stragglerTable()->isHidden());

        // "Per iteration" from the Rank Overview: the first iteration's path.
        panel->stragglerStatus()->perIterationButton()->click();
        QVERIFY(path.wait(kWaitMs));
        QCOMPARE(probe.calls.load(), 2);
        QCOMPARE(probe.lastIteration(), first->firstIteration);
        auto perIteration = finished.last().at(0).value<app::JobPathResultsPtr>();
        QVERIFY(perIteration->path());
        const QString summary = window.jobPathPanel()->summaryText();
        QVERIFY2(summary.startsWith(QStringLiteral("Iteration %1: Path ").arg(*first->firstIteration)),
            qPrintable(summary));
        QCOMPARE(notice->text(), QStringLiteral("Whole trace: ") + expected);
        QVERIFY(!notice->perIterationButton()->isVisibleTo(notice));
        panel = rankOverviewPanel(window);
        QCOMPARE(
            panel->stragglerTable()->rowCount(), int(core::findStragglers(*perIteration->path()).size()));

        // "Compute anyway" from the dock: the whole trace's path.
        notice->computeAnywayButton()->click();
        QVERIFY(path.wait(kWaitMs));
        QCOMPARE(probe.calls.load(), 3);
        QCOMPARE(probe.lastIteration(), std::nullopt);
        QVERIFY(window.jobPathPanel()->summaryText().startsWith(QStringLiteral("Path ")));
        QVERIFY(!notice->isVisibleTo(window.jobPathPanel()));
        QCOMPARE(window.jobPathPanel()->segments()->model()->rowCount(),
            int(finished.last().at(0).value<app::JobPathResultsPtr>()->path()->path.segments.size()));
    }

    void docksOverTheBudgetWaitForTheUser()
    {
        app::setMemoryBudgetSettingGb(1e-6); // 1 kB: nothing fits
        app::MainWindow window;
        JobPathProbe probe;
        window.analysisRunner()->setJobPathFunction(probe.function());
        window.show();
        QSignalSpy docks(&window, &app::MainWindow::analysesReady);
        QSignalSpy path(&window, &app::MainWindow::jobPathReady);
        window.openPaths({ m_dir.path() });
        QVERIFY(path.wait(kWaitMs));
        QCOMPARE(docks.count(), 1);
        const core::TraceSet& set = *window.traceSet();
        const QString expected = widgets::NotComputedNotice::notComputedText(
            core::storeBytes(set) + core::docksMemoryEstimate(set), 1000);
        for (widgets::AnalysisView* dock : window.analysisViews()) {
            QVERIFY(!viewOf(dock)->hasResult());
            QCOMPARE(viewOf(dock)->message(), expected);
        }
        QCOMPARE(probe.calls.load(), 0);
        QCOMPARE(window.jobPathPanel()->notice()->text(), expected);

        // Compute anyway on one dock: all of them; the path then declares its own need.
        viewOf(window.analysisViews().front())->notice()->computeAnywayButton()->click();
        QVERIFY(path.wait(kWaitMs));
        QCOMPARE(docks.count(), 2);
        for (widgets::AnalysisView* dock : window.analysisViews())
            QVERIFY2(computed(dock), qPrintable(dock->objectName()));
        QCOMPARE(probe.calls.load(), 0);
        widgets::NotComputedNotice* notice = window.jobPathPanel()->notice();
        QVERIFY(notice->text().startsWith(QStringLiteral("Not computed: needs about ")));
        QVERIFY(notice->perIterationButton()->isVisibleTo(notice));
    }

    // Item 4: a job that throws ends as its dock's error line; the window lives on.
    void failingJobPathShowsItsErrorAndTheWindowLives_data()
    {
        QTest::addColumn<int>("failure");
        QTest::addColumn<QString>("line");
        QTest::newRow("bad_alloc") << 1 << QStringLiteral("Could not be computed: not enough memory");
        QTest::newRow("runtime_error") << 2 << QStringLiteral("Could not be computed: broken path");
        QTest::newRow("bad_alloc on a worker thread")
            << 3 << QStringLiteral("Could not be computed: not enough memory");
    }

    void failingJobPathShowsItsErrorAndTheWindowLives()
    {
        QFETCH(int, failure);
        QFETCH(QString, line);
        auto window = std::make_unique<app::MainWindow>();
        JobPathProbe probe;
        probe.failure = failure;
        window->analysisRunner()->setJobPathFunction(probe.function());
        window->show();
        QSignalSpy path(window.get(), &app::MainWindow::jobPathReady);
        window->openPaths({ m_dir.path() });
        QVERIFY(path.wait(kWaitMs));
        QCOMPARE(probe.calls.load(), 1);
        QCOMPARE(window->jobPathPanel()->summaryText(), line);
        auto* panel = rankOverviewPanel(*window);
        QVERIFY(panel);
        QCOMPARE(panel->stragglerStatus()->text(), QStringLiteral("Stragglers (job critical path): ") + line);
        // The Operators table may be recomputed by its own job when the load resets the
        // selected range, so it can land just after the failed path: wait for it.
        for (widgets::AnalysisView* dock : window->analysisViews())
            QTRY_VERIFY2_WITH_TIMEOUT(computed(dock), qPrintable(dock->objectName()), kWaitMs);

        // Still alive and working: the next computation succeeds.
        probe.failure = 0;
        QVERIFY(window->timeline()->data() || window->timeline()->isPreparing());
        recomputeAction(*window)->trigger();
        QVERIFY(path.wait(kWaitMs));
        QVERIFY2(window->jobPathPanel()->summaryText().startsWith(QStringLiteral("Path ")),
            qPrintable(window->jobPathPanel()->summaryText()));
        window->closeTrace();
        window.reset(); // closes cleanly
    }
};

KS_TEST_MAIN(tst_analysis_lanes, TestAnalysisLanes)
#include "tst_analysis_lanes.moc"
