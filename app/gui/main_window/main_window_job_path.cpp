// The "Job Critical Path" dock: the cross-rank path, stragglers and what-if
//. The path is the analysis runner's second lane, after
// the docks; over the memory budget it is not started and the dock and the
// Rank Overview's stragglers say what it would need. What-if
// reruns it on the kept default-mode frames off the GUI thread.

#include "app/gui/main_window/main_window.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/analysis/rank_overview_panel.h"
#include "widgets/common/not_computed_notice.h"
#include "widgets/common/task_tracker.h"
#include "widgets/job_path/job_path_panel.h"
#include "widgets/job_path/what_if_dialog.h"
#include "widgets/overview/overview_page.h"
#include "widgets/timeline/model/slice_queries.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_view.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QDockWidget>
#include <QLayout>
#include <QLineEdit>
#include <QStatusBar>

#include <utility>

namespace ks::app {

void MainWindow::setupJobPathDock()
{
    // A view of the navigator (view_registry.cpp), wired here to the timeline and the what-if.
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
    const JobPathResults* results = m_session->jobPathResults().get();
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
            } else if (results->job) {
                panel->setStragglers(results->job->stragglers); // found once, with the path
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
    m_jobPath->showMessage(tr("Computing the job's critical path…"));
    showStragglers();
}

void MainWindow::computeJobPathAnyway()
{
    m_session->startJobPath(false);
}

void MainWindow::computeJobPathPerIteration()
{
    m_session->startJobPath(true);
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
        m_whatIfDialog->setBaseline(
            m_session->jobPathResults() ? m_session->jobPathResults()->path() : nullptr);
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
    const auto path = results->path();
    m_timeline->setJobPath(path);
    showStragglers();
    if (m_whatIfDialog)
        m_whatIfDialog->setBaseline(path);
    if (path) {
        m_jobPath->setPath(path, results->options.iteration, results->job->stragglers);
        if (results->options.iteration && results->wholeNeed && !results->wholeNeed->fits())
            m_jobPath->showWholeTraceNotComputed(results->wholeNeed->bytes, results->wholeNeed->budget);
    } else if (results->notComputed) {
        m_jobPath->showNotComputed(results->notComputed->bytes, results->notComputed->budget,
            results->iterationNeed ? std::optional(results->iterationNeed->bytes) : std::nullopt,
            results->firstIteration);
    } else {
        m_jobPath->showMessage(results->error);
    }
    emit jobPathReady();
    // Last: the Overview's computation starts once this thread has filled the path's views.
    if (!inJobMode() && m_overview->isWaitingForAnalyses() && m_session->analyses())
        m_overview->setAnalyses(m_session->analyses(), overviewWindow(), analysesWindow());
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
    // Asked before the path is in: the session runs it with the path, and its view comes forward then.
    m_whatIfShowsPath = !m_session->jobPathResults();
    m_session->runWhatIf(rules);
}

void MainWindow::onWhatIfStarted(const QStringList& rules)
{
    if (std::exchange(m_whatIfShowsPath, false))
        showView(QStringLiteral("jobPath"));
    m_jobPath->showWhatIfError(tr("recomputing…"));
    if (m_whatIfDialog)
        m_whatIfDialog->showBusy();
    m_jobPath->whatIfRules()->setText(rules.join(QStringLiteral("; ")));
}

void MainWindow::showWhatIf(const std::shared_ptr<const core::JobCriticalPath>& after)
{
    m_jobPath->showWhatIf(after);
    if (m_whatIfDialog)
        m_whatIfDialog->showResult(after);
    emit whatIfFinished();
}

void MainWindow::onWhatIfFailed(const QString& text)
{
    m_whatIfShowsPath = false;
    showWhatIfError(text);
    emit whatIfFinished();
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
    return m_session->whatIfRunning();
}

void MainWindow::showWhatIfError(const QString& text)
{
    m_jobPath->showWhatIfError(text);
    if (m_whatIfDialog)
        m_whatIfDialog->showError(text);
}

} // namespace ks::app
