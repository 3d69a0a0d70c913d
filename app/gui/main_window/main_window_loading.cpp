// MainWindow: opening traces and reporting how loading went.
#include "app/gui/main_window/main_window.h"
#include "app/gui/opening/job_summary_loader.h"
#include "app/gui/opening/load_progress_bar.h"
#include "app/gui/opening/recent_files.h"
#include "app/gui/views/welcome_page.h"
#include "widgets/common/diagnostics_panel.h"
#include "widgets/common/format.h"
#include "widgets/common/message_bar.h"
#include "widgets/common/trace_set_summary_view.h"
#include "widgets/job_path/job_path_panel.h"
#include "widgets/memory_snapshot/snapshot_view.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStringList>

#include <algorithm>

namespace ks::app {

namespace {

    constexpr int kMaxListedFailures = 5;

    QString plural(qsizetype n, const QString& one, const QString& many)
    {
        return (n == 1 ? one : many).arg(n);
    }

} // namespace

void MainWindow::openPaths(const QStringList& paths)
{
    if (paths.isEmpty())
        return;
    m_messages->clearMessage();
    const QStringList traces = openSnapshots(paths);
    if (traces.isEmpty())
        return;
    leaveSnapshotLayout(); // the timeline and its panels come back for the trace
    core::TraceInputs listed; // the folders are listed once: to choose how to open them, then to load
    if (openInJobMode(traces, &listed))
        return;
    m_loader->start(traces, std::move(listed));
}

void MainWindow::closeTrace()
{
    m_loader->cancel();
    closeJob();
    m_session->setTraceSet(nullptr);
    m_paths.clear();
    m_summary->setTraceSet(nullptr, QString());
    m_diagnostics->setTraceSet(nullptr);
    m_jobPath->showMessage(tr("No trace loaded"));
    m_timeline->setTraceSet(nullptr);
    startAnalyses(); // no trace: clears the analysis docks
    m_messages->clearMessage();
    m_pages->setCurrentWidget(m_welcome);
    m_statusSummary->clear();
    updateTitle();
    updateActions();
}

void MainWindow::reload()
{
    if (!m_paths.isEmpty())
        openPaths(m_paths);
}

bool MainWindow::isLoading() const
{
    return m_loader->isLoading() || m_jobLoader->isBusy() || m_snapshot->isBusy();
}

void MainWindow::onLoadStarted(const QStringList& paths)
{
    m_progress->setStatus(m_loader->status());
    m_progress->show();
    statusBar()->showMessage(tr("Loading %1…").arg(widgets::displayNames(paths)));
}

void MainWindow::onLoadFinished(const TraceSetPtr& set, const QStringList& paths, qint64 elapsedMs)
{
    closeJob();
    m_session->setTraceSet(set);
    m_paths = paths;
    m_summary->setTraceSet(set, widgets::displayNames(paths));
    m_diagnostics->setTraceSet(set);
    // The timeline's collectives are the session's match, which the job path shares.
    if (const auto analyses = m_session->analyses())
        m_timeline->setAnalyses(analyses);
    else
        m_timeline->setTraceSet(set);
    m_pages->setCurrentWidget(set->ranks.empty() ? static_cast<QWidget*>(m_welcome) : m_timeline);
    if (set->ranks.empty())
        showView(QStringLiteral("rankSummary")); // the files that failed, each with its error
    m_recent->add(paths);
    reportFailures(*set);
    startAnalyses();

    std::uint64_t events = 0;
    for (const auto& rank : set->ranks)
        events += rank->counts.events;
    m_statusSummary->setText(
        tr("%1 · %2 events · loaded in %3")
            .arg(plural(static_cast<qsizetype>(set->ranks.size()), tr("%1 rank"), tr("%1 ranks")),
                widgets::formatCount(events), widgets::formatDuration(elapsedMs * 1000 * 1000)));
    statusBar()->showMessage(tr("Loaded %1").arg(widgets::displayNames(paths)), 5000);
    updateTitle();
}

void MainWindow::reportFailures(const core::TraceSet& set)
{
    if (set.failures.empty() && set.ranks.empty()) { // only files that are not Kineto traces
        m_messages->showMessage(QString::fromStdString(core::nothingToAnalyse(set.inputs, set.skipped)),
            widgets::MessageBar::Type::Error);
        return;
    }
    if (set.failures.empty()) {
        m_messages->clearMessage();
        return;
    }
    const qsizetype failed = static_cast<qsizetype>(set.failures.size());
    const qsizetype loaded = static_cast<qsizetype>(set.ranks.size());
    QStringList lines;
    if (loaded == 0 && failed == 1)
        lines.append(tr("The file could not be loaded:"));
    else if (loaded == 0)
        lines.append(tr("None of the %1 files could be loaded:").arg(failed));
    else
        lines.append(
            tr("%1 of %2 could not be loaded; %3 shown.")
                .arg(failed)
                .arg(plural(failed + loaded, tr("%1 file"), tr("%1 files")),
                    loaded == 1 ? tr("the other rank is") : tr("the other %1 ranks are").arg(loaded)));
    for (qsizetype i = 0; i < std::min<qsizetype>(failed, kMaxListedFailures); ++i) {
        const core::Error& error = set.failures[static_cast<std::size_t>(i)];
        core::Error shortError = error;
        shortError.path = widgets::displayName(QString::fromStdString(error.path)).toStdString();
        lines.append(QString::fromStdString(shortError.describe()));
    }
    if (failed > kMaxListedFailures)
        lines.append(tr("… and %1 more in the Import Diagnostics panel.").arg(failed - kMaxListedFailures));
    auto* showDiagnostics = new QAction(tr("Show Diagnostics"), m_messages);
    connect(showDiagnostics, &QAction::triggered, this, [this] { showView(QStringLiteral("diagnostics")); });
    m_messages->showMessage(lines.join(QChar(u'\n')),
        loaded == 0 ? widgets::MessageBar::Type::Error : widgets::MessageBar::Type::Warning,
        { showDiagnostics });
}

void MainWindow::onLoadFailed(const QString& message, const QStringList& paths)
{
    QList<QAction*> actions;
    const bool missing =
        std::any_of(paths.cbegin(), paths.cend(), [](const QString& p) { return !QFileInfo::exists(p); });
    if (missing && m_recent->entries().contains(paths)) {
        auto* forget = new QAction(tr("Remove from Recent"), m_messages);
        connect(forget, &QAction::triggered, this, [this, paths] {
            m_recent->remove(paths);
            m_messages->clearMessage();
        });
        actions.append(forget);
    }
    m_messages->showMessage(tr("Could not open %1.\n%2").arg(widgets::displayNames(paths), message),
        widgets::MessageBar::Type::Error, actions);
    statusBar()->clearMessage();
}

void MainWindow::onLoadCancelled(const QStringList& paths)
{
    m_messages->showMessage(tr("Loading %1 was cancelled.").arg(widgets::displayNames(paths)),
        widgets::MessageBar::Type::Information);
    statusBar()->clearMessage();
}

void MainWindow::onLoadingChanged(bool loading)
{
    m_progress->setVisible(loading);
    updateActions();
    if (!loading) {
        emit loadEnded();
        if (!m_timeline->isPreparing())
            emit viewReady();
    }
}

void MainWindow::updateTitle()
{
    if (m_paths.isEmpty())
        setWindowTitle(tr("Kinetoscope"));
    else
        setWindowTitle(tr("%1 — Kinetoscope").arg(widgets::displayNames(m_paths)));
}

void MainWindow::updateActions()
{
    const bool loading = m_loader->isLoading() || m_jobLoader->isBusy() || m_jobRankLoader->isLoading();
    m_cancelAction->setEnabled(loading);
    m_reloadAction->setEnabled(!m_paths.isEmpty());
    m_closeAction->setEnabled(traceSet() != nullptr || loading || inJobMode());
    m_saveJobSummaryAction->setEnabled(inJobMode());
}

} // namespace ks::app
