// MainWindow: job mode — jobs opened from their summaries, ranks loaded in full on request.
#include "app/gui/dialogs/preferences_dialog.h"
#include "app/gui/main_window/main_window.h"
#include "app/gui/opening/job_paths.h"
#include "app/gui/opening/job_summary_loader.h"
#include "app/gui/opening/load_progress_bar.h"
#include "app/gui/opening/recent_files.h"
#include "app/gui/views/welcome_page.h"
#include "widgets/common/format.h"
#include "widgets/common/message_bar.h"
#include "widgets/common/trace_set_summary_view.h"
#include "widgets/job/job_mode_view.h"
#include "widgets/job/job_strip_view.h"
#include "widgets/overview/overview_page.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QStackedWidget>
#include <QStatusBar>

#include <set>

namespace ks::app {

void MainWindow::setupJobMode()
{
    m_jobLoader = new JobSummaryLoader(m_pools.get(), this);
    m_jobRankLoader = new LoadController(m_pools.get(), this);
    m_jobView = new widgets::JobModeView(m_pools.get(), this);
    m_jobView->setObjectName(QStringLiteral("jobView"));
    m_pages->addWidget(m_jobView);

    m_saveJobSummaryAction = new QAction(tr("Save &Job Summary…"), this);
    m_saveJobSummaryAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    m_saveJobSummaryAction->setStatusTip(
        tr("Save the summary of the job in job mode as a .kssum, to open it again without the traces"));
    m_preferencesAction = new QAction(tr("&Preferences…"), this);
    m_preferencesAction->setMenuRole(QAction::PreferencesRole);
    // The platform's Preferences keys where it has some (none without a desktop theme).
    QList<QKeySequence> preferenceKeys = QKeySequence::keyBindings(QKeySequence::Preferences);
    if (preferenceKeys.isEmpty())
        preferenceKeys.append(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    m_preferencesAction->setShortcuts(preferenceKeys);

    connect(m_saveJobSummaryAction, &QAction::triggered, this, &MainWindow::saveJobSummaryDialog);
    connect(m_preferencesAction, &QAction::triggered, this, &MainWindow::showPreferences);
    connect(m_cancelAction, &QAction::triggered, m_jobLoader, &JobSummaryLoader::cancel);
    connect(m_cancelAction, &QAction::triggered, m_jobRankLoader, &LoadController::cancel);
    connect(m_progress, &LoadProgressBar::cancelRequested, m_jobLoader, &JobSummaryLoader::cancel);
    connect(m_progress, &LoadProgressBar::cancelRequested, m_jobRankLoader, &LoadController::cancel);

    connect(m_jobLoader, &JobSummaryLoader::started, this, [this](const QStringList& paths) {
        m_progress->setStatus(m_jobLoader->status());
        m_progress->show();
        statusBar()->showMessage(tr("Opening %1 in job mode…").arg(widgets::displayNames(paths)));
    });
    connect(m_jobLoader, &JobSummaryLoader::progressChanged, m_progress, &LoadProgressBar::setStatus);
    connect(m_jobLoader, &JobSummaryLoader::jobReady, this, &MainWindow::onJobReady);
    // A job that did not open ends like a failed load: the screenshot option and tests wait on viewReady.
    connect(m_jobLoader, &JobSummaryLoader::failed, this,
        [this](const QString& message, const QStringList& paths) {
            onLoadFailed(message, paths);
            emit viewReady();
        });
    connect(m_jobLoader, &JobSummaryLoader::cancelled, this, &MainWindow::onLoadCancelled);
    connect(m_jobLoader, &JobSummaryLoader::busyChanged, this, [this](bool busy) {
        m_progress->setVisible(busy);
        updateActions();
    });

    connect(m_jobView, &widgets::JobModeView::ranksRequested, this, &MainWindow::loadJobRanks);
    connect(m_jobView, &widgets::JobModeView::loadedRanksClosed, m_jobRankLoader, &LoadController::cancel);
    connect(m_jobRankLoader, &LoadController::loadStarted, this, [this] {
        m_progress->setStatus(m_jobRankLoader->status());
        m_progress->show();
    });
    connect(m_jobRankLoader, &LoadController::progressChanged, m_progress, &LoadProgressBar::setStatus);
    connect(m_jobRankLoader, &LoadController::loadingChanged, this, [this](bool loading) {
        m_progress->setVisible(loading);
        updateActions();
    });
    connect(m_jobRankLoader, &LoadController::loadFinished, this,
        [this](const TraceSetPtr& set, const QStringList&, qint64) {
            m_jobView->setLoadedRanks(set);
            reportFailures(*set);
            emit jobRanksLoaded();
        });
    connect(m_jobRankLoader, &LoadController::loadFailed, this,
        [this](const QString& message, const QStringList& paths) {
            onLoadFailed(message, paths);
            emit jobRanksLoaded();
        });
    connect(m_jobRankLoader, &LoadController::loadCancelled, this, [this](const QStringList& paths) {
        onLoadCancelled(paths);
        emit jobRanksLoaded();
    });
}

bool MainWindow::inJobMode() const
{
    return m_jobView && m_jobView->job() != nullptr;
}

bool MainWindow::openInJobMode(const QStringList& paths, core::TraceInputs* listed)
{
    QStringList summaries;
    switch (classifyOpening(paths, jobModeRankThreshold(), &summaries, listed)) {
    case JobOpening::Traces:
        return false;
    case JobOpening::Summary:
        m_loader->cancel();
        m_jobLoader->openSummary(summaries.front(), paths);
        return true;
    case JobOpening::SummaryParts:
        m_loader->cancel();
        m_jobLoader->mergeParts(summaries, paths);
        return true;
    case JobOpening::Summarize:
        m_loader->cancel();
        m_jobLoader->summarize(paths);
        return true;
    }
    return false;
}

void MainWindow::onJobReady(
    const std::shared_ptr<const core::JobOverview>& job, const QStringList& paths, qint64 elapsedMs)
{
    // The job replaces whatever was open; its ranks' traces are not in memory.
    m_session->setTraceSet(nullptr);
    m_summary->setTraceSet(nullptr, QString());
    m_timeline->setTraceSet(nullptr);
    startAnalyses(); // no trace set: the analysis docks are cleared
    m_paths = paths;
    m_jobView->setJob(job);
    m_pages->setCurrentWidget(m_jobView);
    // The trace docks have nothing to show in job mode; the strips get the height.
    if (m_stateBeforeJob.isEmpty()) {
        m_stateBeforeJob = saveState(kStateVersion);
        for (QDockWidget* dock : findChildren<QDockWidget*>())
            dock->hide();
    }
    m_overview->setJob(job);
    showView(QStringLiteral("overview")); // the navigator comes back for the job's page
    m_recent->add(paths);
    std::size_t failed = 0;
    for (const core::JobRank& rank : job->ranks)
        failed += !rank.ok();
    if (failed > 0)
        m_messages->showMessage(tr("%1 of %2 files of this job did not load; their strips are red and the "
                                   "Ranks tab names the error.")
                                    .arg(failed)
                                    .arg(job->ranks.size()),
            widgets::MessageBar::Type::Warning);
    else
        m_messages->clearMessage();
    m_statusSummary->setText(tr("Job mode · %1 ranks · opened in %2")
                                 .arg(job->ranks.size())
                                 .arg(widgets::formatDuration(elapsedMs * 1000 * 1000)));
    statusBar()->showMessage(tr("Opened %1 in job mode").arg(widgets::displayNames(paths)), 5000);
    updateTitle();
    updateActions();
    emit jobReady();
    emit viewReady();
}

void MainWindow::loadJobRanks(const QList<qsizetype>& rows)
{
    const auto job = m_jobView->job();
    if (!job)
        return;
    QStringList files;
    for (const qsizetype row : rows) {
        const auto r = static_cast<std::size_t>(row);
        if (r < job->ranks.size() && job->ranks[r].ok())
            files << QString::fromStdString(job->ranks[r].file);
    }
    if (files.isEmpty()) {
        m_messages->showMessage(tr("The selected ranks did not load when the job was summarised."),
            widgets::MessageBar::Type::Information);
        return;
    }
    m_jobView->setLoadedRanks(nullptr); // frees the previous ranks before loading the next
    m_jobRankLoader->start(files);
}

void MainWindow::saveJobSummaryDialog()
{
    if (!inJobMode())
        return;
    QString path = QFileDialog::getSaveFileName(this, tr("Save Job Summary"),
        startDirectory() + QStringLiteral("/job.kssum"), tr("Job summaries (*.kssum)"));
    if (path.isEmpty())
        return;
    if (!path.endsWith(QStringLiteral(".kssum")))
        path += QStringLiteral(".kssum");
    QString error;
    if (!m_jobLoader->saveSummary(path, &error)) {
        m_messages->showMessage(error, widgets::MessageBar::Type::Error);
        return;
    }
    rememberDirectory(path);
    statusBar()->showMessage(tr("Saved the job summary to %1").arg(path), 5000);
}

void MainWindow::showPreferences()
{
    PreferencesDialog dialog(this);
    dialog.exec();
}

void MainWindow::applyJobViewCommands(const QString& commands)
{
    const auto job = m_jobView->job();
    for (const QString& command : commands.split(QChar(u';'), Qt::SkipEmptyParts)) {
        if (command.section(QChar(u'='), 0, 0).trimmed() != QStringLiteral("ranks"))
            continue;
        std::set<std::size_t> rows;
        for (const QString& rank : command.section(QChar(u'='), 1).split(QChar(u',')))
            for (std::size_t row = 0; row < job->ranks.size(); ++row)
                if (job->ranks[row].rank == rank.trimmed().toLongLong())
                    rows.insert(row);
        m_jobView->strips()->setSelectedRows(rows);
        loadJobRanks(QList<qsizetype>(rows.begin(), rows.end()));
    }
}

void MainWindow::closeJob()
{
    if (!m_jobView)
        return;
    m_jobLoader->cancel();
    m_jobRankLoader->cancel();
    m_jobView->setJob(nullptr);
    if (m_pages->currentWidget() == m_jobView)
        m_pages->setCurrentWidget(m_welcome);
    if (!m_stateBeforeJob.isEmpty()) {
        restoreState(m_stateBeforeJob, kStateVersion);
        m_stateBeforeJob.clear();
    }
}

} // namespace ks::app
