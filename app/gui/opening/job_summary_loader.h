#pragma once

#include "app/gui/opening/load_controller.h"
#include "core/summary/job_overview.h"
#include "widgets/common/task_tracker.h"

#include <QObject>
#include <QStringList>
#include <QTimer>

#include <memory>

class QTemporaryDir;

namespace ks::app {

using JobOverviewPtr = std::shared_ptr<const core::JobOverview>;

// Opens jobs for job mode off the GUI thread: reads a .kssum, merges a folder
// of parts, or summarises a trace folder (core::summarizeJob, bounded memory,
// cancellable) and reads the result. Merged and summarised jobs live in a
// temporary file until the next job; saveSummary() copies it where the user
// wants it. Runs on the window's TaskPools through a TaskTracker: a replaced or
// cancelled job's token is cancelled and its late result dropped.
class JobSummaryLoader : public QObject
{
    Q_OBJECT

public:
    explicit JobSummaryLoader(widgets::TaskPools* pools, QObject* parent = nullptr);
    ~JobSummaryLoader() override;

    void openSummary(const QString& path, const QStringList& shownPaths);
    void mergeParts(const QStringList& parts, const QStringList& shownPaths);
    void summarize(const QStringList& paths);
    void cancel();

    bool isBusy() const { return m_job != nullptr; }

    LoadStatus status() const;

    // The .kssum the current job was read from (temporary when summarised or merged).
    QString summaryPath() const { return m_summaryPath; }

    // Copies the current job's summary to `path`; false with `error` set when it cannot.
    bool saveSummary(const QString& path, QString* error) const;

signals:
    void started(const QStringList& paths);
    void progressChanged(const ks::app::LoadStatus& status);
    void jobReady(ks::app::JobOverviewPtr job, const QStringList& paths, qint64 elapsedMs);
    void failed(const QString& message, const QStringList& paths);
    void cancelled(const QStringList& paths);
    void busyChanged(bool busy);

private:
    struct Job;
    enum class Work
    {
        Read,
        Merge,
        Summarize
    };

    void start(Work work, const QStringList& inputs, const QStringList& shownPaths);
    void onFinished(core::Result<core::JobOverview> result);

    widgets::TaskTracker m_tasks;
    std::unique_ptr<Job> m_job;
    std::unique_ptr<QTemporaryDir> m_pendingDir; // the running job's output folder
    std::unique_ptr<QTemporaryDir> m_currentDir; // the shown job's, when temporary
    QString m_summaryPath;
    QTimer m_tick;
};

} // namespace ks::app
