// The "Job Critical Path" dock: the cross-rank path, stragglers and what-if
// (issue 11 items 4-6). The path comes with the analyses; what-if reruns it on
// the kept default-mode frames off the GUI thread.

#include "app/gui/main_window.h"
#include "widgets/analysis/job_path_panel.h"
#include "widgets/common/job_tracker.h"
#include "widgets/timeline/slice_queries.h"
#include "widgets/timeline/timeline_data.h"
#include "widgets/timeline/timeline_view.h"
#include "widgets/timeline/timeline_widget.h"

#include <QDockWidget>
#include <QLineEdit>
#include <QStatusBar>

#include <utility>

namespace ks::app {

void MainWindow::setupJobPathDock()
{
    m_jobPath = new widgets::JobPathPanel(this);
    m_jobPathDock = addPanelDock(m_jobPath, tr("Job Critical Path"), QStringLiteral("jobPathDock"),
        Qt::BottomDockWidgetArea, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_J));
    tabifyDockWidget(m_diagnosticsDock, m_jobPathDock);
    connect(m_jobPath, &widgets::JobPathPanel::segmentActivated, this, &MainWindow::showJobPathSegment);
    connect(m_jobPath, &widgets::JobPathPanel::whatIfRequested, this, &MainWindow::runWhatIf);
}

void MainWindow::showJobPath(const AnalysisResultsPtr& results)
{
    m_jobFrames = results->defaultFrames;
    if (!results->jobPath) {
        m_jobPath->showMessage(results->jobPathError.isEmpty() ? results->error : results->jobPathError);
        return;
    }
    m_jobPath->setPath(results->jobPath);
    if (!m_pendingWhatIf.isEmpty()) {
        m_jobPathDock->raise();
        runWhatIf(std::exchange(m_pendingWhatIf, {}));
    }
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
    if (!m_jobFrames) { // the analyses are still running: run it with their path
        m_pendingWhatIf = rules;
        return;
    }
    core::JobPathOptions options;
    std::vector<core::WhatIfRule> parsed;
    for (const QString& text : rules) {
        auto rule = core::parseWhatIfRule(text.toStdString());
        if (!rule) {
            m_jobPath->showWhatIfError(QString::fromStdString(rule.error().message));
            return;
        }
        parsed.push_back(std::move(rule).value());
    }
    options.whatIf = core::WhatIfScaling(std::move(parsed));
    m_jobPath->showWhatIfError(tr("recomputing…"));
    m_jobPath->whatIfRules()->setText(rules.join(QStringLiteral("; ")));
    if (!m_whatIfJobs)
        m_whatIfJobs = std::make_unique<widgets::JobTracker>(m_pools.get(), this);
    auto frames = m_jobFrames;
    // A newer what-if supersedes this one; the tracker drops a superseded result.
    m_whatIfJobs->start(
        [frames, options](const widgets::JobContext&) { return core::jobCriticalPath(*frames, options); },
        [this, frames](core::Result<core::JobCriticalPath> job) {
            if (frames != m_jobFrames) // another trace since
                return;
            if (!job) {
                m_jobPath->showWhatIfError(QString::fromStdString(job.error().message));
                return;
            }
            m_jobPath->showWhatIf(std::make_shared<const core::JobCriticalPath>(std::move(job).value()));
        });
}

} // namespace ks::app
