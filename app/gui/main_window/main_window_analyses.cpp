// MainWindow: the analysis views (C1) of the navigator, their Analyses menu, computing them off
// the GUI thread after a load, chart and table exports (C3) and finding a
// clicked kernel on the timeline (C2).
#include "app/gui/background/memory_budget.h"
#include "app/gui/dialogs/chart_export_dialog.h"
#include "app/gui/main_window/main_window.h"
#include "app/gui/session/trace_session.h"
#include "core/analysis/cross_rank/job_critical_path.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/analysis/rank_overview_panel.h"
#include "widgets/charts/analysis_export.h"
#include "widgets/common/format.h"
#include "widgets/common/message_bar.h"
#include "widgets/common/not_computed_notice.h"
#include "widgets/common/view_navigator.h"
#include "widgets/job_path/job_path_panel.h"
#include "widgets/overview/overview_page.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QTableWidget>

namespace ks::app {

using widgets::AnalysisChartKind;
using widgets::AnalysisView;

void MainWindow::setupOverview()
{
    m_overview->setObjectName(QStringLiteral("overviewPage"));
    // The page starts once the analyses and the job path are done (runAnalyses,
    // showJobPath) and reads the session's frames, job path and insights: what it
    // adds on its own is a narrowed copy of the frames (an iteration or a range
    // chosen on the page) and the insights' own critical paths over it.
    m_overview->setMemoryCheck([this](const core::TraceAnalyses& analyses,
                                   const std::optional<AnalysisWindow>& scopeWindow) {
        const std::uint64_t store = core::storeBytes(analyses.traces());
        const auto frames = m_session->jobPathFrames(scopeWindow);
        const std::uint64_t need = frames ? store + 2 * core::framesBytes(*frames)
                + core::jobCriticalPathMemoryEstimate(
                    *frames, {}, core::concurrentRanks(*frames, m_pools->workerCount()))
                                          : store + 2 * core::docksMemoryEstimate(analyses.traces());
        const std::uint64_t budget = memoryBudget(store);
        return need <= budget ? QString()
                              : tr("Not computed: the overview needs about %1, over the memory budget of %2 "
                                   "(Preferences).")
                                    .arg(widgets::formatBytes(need), widgets::formatBytes(budget));
    });
    connect(m_overview, &widgets::OverviewPage::eventRequested, this, &MainWindow::showJobPathSegment);
    connect(m_overview, &widgets::OverviewPage::rangeRequested, this,
        [this](qint64 rank, qint64 start, qint64 end) {
            if (const auto timelineData = m_timeline->data())
                widgets::OverviewPage::zoomTimeline(*timelineData, *m_timelineState, rank, start, end);
        });
    // A finding names the view that proves it (its rule declares it).
    connect(m_overview, &widgets::OverviewPage::analysisRequested, this,
        [this](const QString& id) { showView(id); });
}

void MainWindow::setupSession()
{
    // The views subscribe to the session themselves (view_registry.cpp); the window
    // follows the job path's lane for its own widgets (the timeline, the what-if).
    connect(m_session, &TraceSession::jobPathStarted, this, &MainWindow::onJobPathStarted);
    connect(m_session, &TraceSession::jobPathReady, this, &MainWindow::showJobPath);
    connect(m_session, &TraceSession::whatIfStarted, this, &MainWindow::onWhatIfStarted);
    connect(m_session, &TraceSession::whatIfReady, this, &MainWindow::showWhatIf);
    connect(m_session, &TraceSession::whatIfFailed, this, &MainWindow::onWhatIfFailed);
    // A range selected on the timeline restricts the Operators table; with
    // "Restrict to Selected Range" on, every analysis view.
    connect(m_timelineState, &widgets::TimelineViewState::selectedRangeChanged, this,
        &MainWindow::onSelectedRangeChanged);
}

void MainWindow::wireAnalysisView(AnalysisView* view)
{
    connect(view, &AnalysisView::chartExportRequested, this,
        [this, view](widgets::ChartFormat format) { exportChartDialog(view, format); });
    connect(view, &AnalysisView::tableExportRequested, this, &MainWindow::exportTableDialog);
    connect(view, &AnalysisView::nameActivated, this, &MainWindow::findOnTimeline);
    connect(view->notice(), &widgets::NotComputedNotice::computeAnywayRequested, this,
        [this] { runAnalyses(true); });
}

AnalysisView* MainWindow::analysisView(const QString& id) const
{
    return qobject_cast<AnalysisView*>(m_navigator->view(id));
}

std::optional<AnalysisWindow> MainWindow::selectedWindow() const
{
    const auto range = m_timelineState->selectedRange();
    if (!range || range->end <= range->start)
        return std::nullopt;
    return AnalysisWindow { range->start, range->end };
}

std::optional<AnalysisWindow> MainWindow::overviewWindow() const
{
    return selectedWindow();
}

std::optional<AnalysisWindow> MainWindow::analysesWindow() const
{
    return m_restrictToRangeAction->isChecked() ? selectedWindow() : std::nullopt;
}

void MainWindow::updateOverview()
{
    if (inJobMode())
        return;
    if (analysesRunning() || jobPathRunning())
        m_overview->waitForAnalyses(m_session->analyses(), overviewWindow()); // showJobPath starts it
    else
        m_overview->setAnalyses(m_session->analyses(), overviewWindow(), analysesWindow());
}

void MainWindow::onSelectedRangeChanged()
{
    if (!m_session->analyses())
        return;
    if (m_restrictToRangeAction->isChecked()) {
        startAnalyses(); // the Overview waits for them
        return;
    }
    updateOverview();
    if (AnalysisView* view = analysisView(QStringLiteral("operators")))
        view->showMessage(tr("Computing…"));
    m_session->startOperators(selectedWindow());
}

void MainWindow::setupAnalysesMenu()
{
    m_analysesMenu = menuBar()->addMenu(tr("&Analyses"));
    m_analysesMenu->setObjectName(QStringLiteral("analysesMenu"));
    setupViewActions();
    m_htaCompatAction = m_analysesMenu->addAction(tr("&HTA-Compatible Numbers"));
    m_htaCompatAction->setCheckable(true);
    m_htaCompatAction->setStatusTip(
        tr("Reproduce HTA 0.6.1's numbers, quirks included, instead of Kinetoscope's corrected ones"));
    connect(m_htaCompatAction, &QAction::toggled, this, [this] { startAnalyses(); });
    m_restrictToRangeAction = m_analysesMenu->addAction(tr("Restrict to &Selected Range"));
    m_restrictToRangeAction->setObjectName(QStringLiteral("restrictToRangeAction"));
    m_restrictToRangeAction->setCheckable(true);
    m_restrictToRangeAction->setStatusTip(
        tr("Recompute every analysis over the events starting in the range selected on the timeline"));
    connect(m_restrictToRangeAction, &QAction::toggled, this, [this] { startAnalyses(); });
    QAction* recompute = m_analysesMenu->addAction(tr("&Recompute"));
    connect(recompute, &QAction::triggered, this, [this] { startAnalyses(); });
    QAction* whatIf = m_analysesMenu->addAction(tr("&What-if on the Critical Path…"));
    whatIf->setObjectName(QStringLiteral("whatIfAction"));
    whatIf->setStatusTip(
        tr("Scale ops or kernels on the job's critical path and compare the path before and after"));
    connect(whatIf, &QAction::triggered, this, &MainWindow::openWhatIfDialog);
}

void MainWindow::startAnalyses()
{
    runAnalyses(false);
}

void MainWindow::runAnalyses(bool anyway)
{
    if (!m_session->analyses()) {
        if (!inJobMode())
            m_overview->setAnalyses(nullptr);
        m_session->startAnalyses(core::AnalysisMode::Default, std::nullopt, false); // clears the lanes
        return;
    }
    // The job path follows the views' outputs (their lane first): it computes once
    // they are in, and the Overview (following the selected range) once it is.
    if (!inJobMode())
        m_overview->waitForAnalyses(m_session->analyses(), overviewWindow());
    m_jobPath->showMessage(tr("Waiting for the analyses…"));
    m_session->startAnalyses(
        m_htaCompatAction->isChecked() ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default,
        analysesWindow(), anyway);
}

bool MainWindow::analysesRunning() const
{
    return m_session->analysesRunning();
}

bool MainWindow::jobPathRunning() const
{
    return m_session->jobPathRunning();
}

void MainWindow::onAnalysesReady()
{
    showStragglers(); // the Rank Overview's panel is new: the job path's state again
    emit analysesReady();
}

QStringList MainWindow::dockReport() const
{
    QStringList lines;
    auto add = [&lines](const QString& name, const QString& state, QString text) {
        lines << name + QLatin1Char('\t') + state + QLatin1Char('\t')
                + text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    };
    auto stateOf = [this](const QString& message) {
        if (message.startsWith(tr("Not applicable: ")))
            return QStringLiteral("not-applicable");
        if (message.startsWith(tr("Not computed: ")))
            return QStringLiteral("not-computed");
        if (message.startsWith(tr("The analyses could not run: "))
            || message.startsWith(tr("Could not compute: ")))
            return QStringLiteral("error");
        if (message == tr("Computing…"))
            return QStringLiteral("computing");
        return QStringLiteral("message");
    };
    // Named "<id>Dock" as when each analysis had a dock of its own: the report's readers know them.
    for (const AnalysisView* view : m_analysisViews) {
        const QString name = view->objectName().chopped(4) + QStringLiteral("Dock");
        if (view->hasResult())
            add(name, QStringLiteral("result"), QString());
        else
            add(name, stateOf(view->message()), view->message());
    }
    const JobPathResults* job = m_session->jobPathResults().get();
    const QString state = !job ? (jobPathRunning() ? QStringLiteral("computing") : QStringLiteral("message"))
        : job->job             ? QStringLiteral("result")
        : job->notComputed     ? QStringLiteral("not-computed")
                               : QStringLiteral("error");
    add(QStringLiteral("jobPathDock"), state,
        job && job->notComputed ? m_jobPath->notice()->text() : m_jobPath->summaryText());
    const QString overviewState = m_overview->isComputing() || m_overview->isWaitingForAnalyses()
        ? QStringLiteral("computing")
        : m_overview->data() && m_overview->data()->error.isEmpty() ? QStringLiteral("result")
                                                                    : stateOf(m_overview->message());
    add(QStringLiteral("overview"), overviewState,
        overviewState == QLatin1String("result")
            ? tr("%n finding(s)", nullptr, static_cast<int>(m_overview->data()->report.findings.size()))
            : m_overview->message());
    for (const AnalysisView* view : m_analysisViews) {
        for (auto* panel : view->findChildren<widgets::RankOverviewPanel*>()) {
            const bool listed = !panel->stragglerTable()->isHidden() || (job && job->job);
            add(QStringLiteral("stragglers"), listed ? QStringLiteral("result") : state,
                listed ? tr("%n straggler(s)", nullptr, panel->stragglerTable()->rowCount())
                       : panel->stragglerStatus()->text());
        }
    }
    return lines;
}

void MainWindow::exportChartDialog(AnalysisView* view, widgets::ChartFormat format)
{
    if (widgets::AnalysisChart* chart = view->chart())
        exportChart(*chart, view->objectName().chopped(4), format);
}

void MainWindow::exportChart(
    widgets::AnalysisChart& chart, const QString& baseName, widgets::ChartFormat format)
{
    ChartExportDialog sizeDialog(chart.size(), format == widgets::ChartFormat::Png, this);
    if (sizeDialog.exec() != QDialog::Accepted)
        return;
    const QString suffix = format == widgets::ChartFormat::Svg ? QStringLiteral(".svg")
        : format == widgets::ChartFormat::Pdf                  ? QStringLiteral(".pdf")
                                                               : QStringLiteral(".png");
    QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"),
        QDir(startDirectory()).filePath(baseName + suffix), tr("Chart (*%1)").arg(suffix));
    if (path.isEmpty())
        return;
    if (!path.endsWith(suffix, Qt::CaseInsensitive))
        path += suffix;
    if (widgets::saveChart(chart, path, format, sizeDialog.chartSize(), sizeDialog.scale()))
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    else
        m_messages->showMessage(
            tr("Could not write %1").arg(QDir::toNativeSeparators(path)), widgets::MessageBar::Type::Error);
}

void MainWindow::exportTableDialog(widgets::AnalysisTableView* table)
{
    if (!table->table())
        return;
    QString path = QFileDialog::getSaveFileName(this, tr("Export Table as CSV"),
        QDir(startDirectory())
            .filePath(QString::fromStdString(table->table()->name) + QStringLiteral(".csv")),
        tr("CSV (*.csv)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QStringLiteral(".csv"), Qt::CaseInsensitive))
        path += QStringLiteral(".csv");
    if (widgets::saveTableCsv(*table->table(), path))
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    else
        m_messages->showMessage(
            tr("Could not write %1").arg(QDir::toNativeSeparators(path)), widgets::MessageBar::Type::Error);
}

void MainWindow::findOnTimeline(const QString& name)
{
    if (!m_timeline->data())
        return;
    m_timeline->searchField()->setText(name);
    m_timeline->searchNow();
    statusBar()->showMessage(tr("Searching the timeline for %1").arg(name), 5000);
}

} // namespace ks::app
