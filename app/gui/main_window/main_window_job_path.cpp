// The "Job Critical Path" dock: the cross-rank path, stragglers and what-if
// (issue 11 items 4-6). The path is the analysis runner's second lane, after
// the docks; over the memory budget it is not started and the dock and the
// Rank Overview's stragglers say what it would need (issue 27 item 3). What-if
// reruns it on the kept default-mode frames off the GUI thread.

#include "app/gui/main_window/main_window.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/job_path/job_path_panel.h"
#include "widgets/analysis/rank_overview_panel.h"
#include "widgets/job_path/what_if_dialog.h"
#include "widgets/common/task_tracker.h"
#include "widgets/common/not_computed_notice.h"
#include "widgets/overview/overview_page.h"
#include "widgets/timeline/model/slice_queries.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/view/timeline_view.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QDockWidget>
#include <QLayout>
#include <QLineEdit>
#include <QStatusBar>

#include <utility>

namespace ks::app {

void MainWindow::setupJobPathDock()
{
    // A view of the navigator (view_registry.cpp), made here for its connections.
    m_jobPath = new widgets::JobPathPanel(this);
    connect(m_jobPath, &widgets::JobPathPanel::segmentActivated, this, &MainWindow::showJobPathSegment);
    connect(m_jobPath, &widgets::JobPathPanel::whatIfRequested, this, &MainWindow::runWhatIf);
    connect(
        m_jobPath, &widgets::JobPathPanel::showOnTimelineToggled, this, &MainWindow::showJobPathOnTimeline);
    connect(m_jobPath, &widgets::JobPathPanel::whatIfDialogRequested, this, &MainWindow::openWhatIfDialog);
    connect(m_jobPath->notice(), &widgets::NotComputedNotice::computeAnywayRequested, this,
        &MainWindow::computeJobPathAnyway);
    connect(m_jobPath->notice(), &widgets::NotComputedNotice::perIterationRequested, this,
        &MainWindow::computeJobPathPerIteration);
    connect(m_timelineState, &widgets::TimelineViewState::appearanceChanged, m_jobPath, [this] {
        m_jobPath->setShownOnTimeline(m_timelineState->colorMode() == widgets::ColorMode::JobPath);
    });
}

void MainWindow::showStragglers()
{
    const JobPathResults* results = m_jobPathResults.get();
    // The Rank Overview dock's panel is rebuilt with each result: found again, connected once.
    for (widgets::AnalysisView* view : m_analysisViews) {
        for (auto* panel : view->findChildren<widgets::RankOverviewPanel*>()) {
            connect(panel, &widgets::RankOverviewPanel::stragglerActivated, this,
                &MainWindow::showJobPathSegment, Qt::UniqueConnection);
            widgets::NotComputedNotice* status = panel->stragglerStatus();
            connect(status, &widgets::NotComputedNotice::computeAnywayRequested, this,
                &MainWindow::computeJobPathAnyway, Qt::UniqueConnection);
            connect(status, &widgets::NotComputedNotice::perIterationRequested, this,
                &MainWindow::computeJobPathPerIteration, Qt::UniqueConnection);
            if (!results) {
                panel->showStragglerStatus(
                    jobPathRunning() ? tr("computing…") : tr("The job's critical path was not computed."));
            } else if (results->path) {
                panel->setStragglers(core::findStragglers(*results->path));
            } else if (results->notComputed) {
                panel->showStragglerStatus(QString());
                status->showNotComputed(results->notComputed->bytes, results->notComputed->budget,
                    results->iterationNeed ? std::optional(results->iterationNeed->bytes) : std::nullopt,
                    results->firstIteration);
            } else {
                panel->showStragglerStatus(results->error);
            }
        }
    }
}

void MainWindow::onJobPathStarted()
{
    m_jobPathResults.reset();
    m_jobPath->showMessage(tr("Computing the job's critical path…"));
    showStragglers();
}

void MainWindow::computeJobPathAnyway()
{
    m_analysisRunner->startJobPath(false);
}

void MainWindow::computeJobPathPerIteration()
{
    m_analysisRunner->startJobPath(true);
}

void MainWindow::openWhatIfDialog()
{
    if (!m_whatIfDialog) {
        m_whatIfDialog = new widgets::WhatIfDialog(this);
        m_whatIfDialog->addRule(widgets::WhatIfDialog::Match::Kind,
            QString::fromUtf8(core::pathBoundName(core::PathBound::GpuCompute).data()), 0.5);
        // Apply runs the dock field's code path: one recomputation, shown in both.
        connect(m_whatIfDialog, &widgets::WhatIfDialog::applyRequested, this, &MainWindow::runWhatIf);
        connect(
            m_whatIfDialog, &widgets::WhatIfDialog::segmentActivated, this, &MainWindow::showJobPathSegment);
        m_whatIfDialog->setBaseline(m_jobPathResult);
    }
    m_whatIfDialog->show();
    m_whatIfDialog->raise();
    m_whatIfDialog->activateWindow();
}

void MainWindow::showJobPathOnTimeline(bool on)
{
    if (on)
        m_timelineState->setColorMode(widgets::ColorMode::JobPath);
    else if (m_timelineState->colorMode() == widgets::ColorMode::JobPath)
        m_timelineState->setColorMode(widgets::ColorMode::KernelType);
}

void MainWindow::showJobPath(const JobPathResultsPtr& results)
{
    m_jobPathResults = results;
    m_jobFrames = results->frames;
    m_jobPathResult = results->path;
    m_jobPathOptions = results->options;
    m_timeline->setJobPath(results->path);
    showStragglers();
    if (m_whatIfDialog)
        m_whatIfDialog->setBaseline(results->path);
    if (results->path) {
        m_jobPath->setPath(results->path, results->options.iteration);
        if (results->options.iteration && results->wholeNeed && !results->wholeNeed->fits())
            m_jobPath->showWholeTraceNotComputed(results->wholeNeed->bytes, results->wholeNeed->budget);
    } else if (results->notComputed) {
        m_jobPath->showNotComputed(results->notComputed->bytes, results->notComputed->budget,
            results->iterationNeed ? std::optional(results->iterationNeed->bytes) : std::nullopt,
            results->firstIteration);
    } else {
        m_jobPath->showMessage(results->error);
    }
    if (!m_pendingWhatIf.isEmpty()) {
        if (results->path) {
            showView(QStringLiteral("jobPath"));
            runWhatIf(std::exchange(m_pendingWhatIf, {}));
        } else {
            m_pendingWhatIf.clear();
            showWhatIfError(tr("the job's critical path was not computed"));
            emit whatIfFinished();
        }
    }
    emit jobPathReady();
    // Last: the Overview's computation starts once this thread has filled the path's views.
    if (!inJobMode() && m_overview->isWaitingForAnalyses() && m_set)
        m_overview->setTraceSet(m_set, overviewWindow(), overviewFrames());
}

void MainWindow::showJobPathSegment(std::int64_t rank, std::int64_t eventIndex)
{
    const auto timelineData = m_timeline->data();
    if (!timelineData || eventIndex < 0)
        return;
    for (int r = 0; r < timelineData->rankCount(); ++r) {
        if (timelineData->trace(r).rank != rank)
            continue;
        const widgets::SliceRef ref = widgets::sliceOfEvent(*timelineData, r, eventIndex);
        if (ref.valid()) {
            m_timeline->view()->revealSlice(ref, true);
            statusBar()->showMessage(
                tr("Showing traceEvents[%1] of %2").arg(eventIndex).arg(timelineData->rank(r).label), 5000);
        }
        return;
    }
}

void MainWindow::runWhatIf(const QStringList& rules)
{
    if (!m_jobFrames) {
        if (!jobPathRunning()) {
            showWhatIfError(tr("the job's critical path was not computed"));
            return;
        }
        m_pendingWhatIf = rules; // the path is still computing: run it with the path
        return;
    }
    core::JobPathOptions options = m_jobPathOptions; // the baseline's window: whole trace or one iteration
    std::vector<core::WhatIfRule> parsed;
    for (const QString& text : rules) {
        auto rule = core::parseWhatIfRule(text.toStdString());
        if (!rule) {
            showWhatIfError(QString::fromStdString(rule.error().message));
            return;
        }
        parsed.push_back(std::move(rule).value());
    }
    options.whatIf = core::WhatIfScaling(std::move(parsed));
    m_jobPath->showWhatIfError(tr("recomputing…"));
    if (m_whatIfDialog)
        m_whatIfDialog->showBusy();
    m_jobPath->whatIfRules()->setText(rules.join(QStringLiteral("; ")));
    if (!m_whatIfTasks)
        m_whatIfTasks = std::make_unique<widgets::TaskTracker>(m_pools.get(), this);
    auto frames = m_jobFrames;
    // A newer what-if supersedes this one; the tracker drops a superseded result.
    m_whatIfTasks->start(
        [frames, options](const widgets::TaskContext& job) mutable {
            options.cancel = job.cancel; // a newer what-if stops this one
            return core::jobCriticalPath(*frames, options, job.parallelFor);
        },
        [this, frames](core::Result<core::JobCriticalPath> job) {
            if (frames != m_jobFrames) // another trace since
                return;
            if (!job) {
                showWhatIfError(QString::fromStdString(job.error().message));
                return;
            }
            auto after = std::make_shared<const core::JobCriticalPath>(std::move(job).value());
            m_jobPath->showWhatIf(after);
            if (m_whatIfDialog)
                m_whatIfDialog->showResult(after);
            emit whatIfFinished();
        },
        [this, frames](const widgets::TaskFailure& failure) {
            if (frames != m_jobFrames)
                return;
            showWhatIfError(tr("could not be computed: %1").arg(failure.message));
            emit whatIfFinished();
        });
}

bool MainWindow::applyJobPathViewCommand(const QString& key, const QString& value)
{
    if (key == QStringLiteral("straggler")) {
        // Clicks the value-th row of the Rank Overview dock's stragglers.
        showView(QStringLiteral("rankOverview"));
        for (widgets::AnalysisView* view : m_analysisViews) {
            for (auto* panel : view->findChildren<widgets::RankOverviewPanel*>())
                panel->activateStraggler(value.toInt());
        }
        return true;
    }
    if (key == QStringLiteral("whatifdialog")) {
        openWhatIfDialog();
        m_whatIfDialog->setRules(value.split(QLatin1Char(','), Qt::SkipEmptyParts));
        m_whatIfDialog->apply();
        return true;
    }
    if (key == QStringLiteral("whatifshot") && m_whatIfDialog) {
        // Saved as soon as the result is in: the window's own screenshot quits the app shortly after.
        connect(
            m_whatIfDialog, &widgets::WhatIfDialog::resultShown, this,
            [this, value] {
                m_whatIfDialog->layout()->activate();
                m_whatIfDialog->grab().save(value, "PNG");
            },
            Qt::SingleShotConnection);
        return true;
    }
    return false;
}

bool MainWindow::whatIfRunning() const
{
    return !m_pendingWhatIf.isEmpty() || (m_whatIfTasks && m_whatIfTasks->isRunning());
}

void MainWindow::showWhatIfError(const QString& text)
{
    m_jobPath->showWhatIfError(text);
    if (m_whatIfDialog)
        m_whatIfDialog->showError(text);
}

} // namespace ks::app
