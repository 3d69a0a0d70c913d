#pragma once

#include "core/io/trace_set_loader.h"
#include "core/model/trace_set.h"
#include "widgets/common/task_tracker.h"

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QStringList>
#include <QTimer>

#include <memory>
#include <optional>

namespace ks::app {

using TraceSetPtr = std::shared_ptr<const ks::core::TraceSet>;

// A snapshot of a running load, for the progress bar.
struct LoadStatus
{
    QStringList paths;
    QString stage; // "reading", "parsing", ... as the core names it
    quint64 bytesDone = 0; // bytes read from disk (compressed bytes for .gz)
    quint64 bytesTotal = 0; // 0 while unknown
    int ranksDone = 0;
    int ranksTotal = 0;
    qint64 elapsedMs = 0;
    qint64 remainingMs = -1; // -1 while it cannot be estimated yet

    // Fraction of bytes done, or -1 when the total is unknown.
    double fraction() const;
};

struct LoadOutcome;
class LoadProgressState;

// Loads trace sets off the GUI thread, as a job of the window's TaskPools. The
// core sees only a ProgressSink and a CancelToken; ranks load in parallel on
// the pools' workers. A load that was cancelled or replaced may still be
// finishing in the background: its token is cancelled and its result dropped
// on arrival (TaskTracker), so the window never waits for it.
class LoadController : public QObject
{
    Q_OBJECT

public:
    explicit LoadController(widgets::TaskPools* pools, QObject* parent = nullptr);
    ~LoadController() override;

    // Starts loading; a load already running is cancelled and forgotten.
    void start(const QStringList& paths);
    // The same with the trace files `paths` were already listed to (classifyOpening).
    void start(const QStringList& paths, core::TraceInputs listed);
    // Cancels the running load. Returns at once: the window is usable again
    // right away even if the core takes a moment to notice.
    void cancel();

    bool isLoading() const;
    LoadStatus status() const;

signals:
    void loadStarted(const QStringList& paths);
    void progressChanged(const ks::app::LoadStatus& status);
    // The set may hold failures beside the ranks that loaded.
    void loadFinished(ks::app::TraceSetPtr set, const QStringList& paths, qint64 elapsedMs);
    void loadFailed(const QString& message, const QStringList& paths);
    void loadCancelled(const QStringList& paths);
    void loadingChanged(bool loading);

private:
    struct Job;

    void startLoad(const QStringList& paths, std::optional<core::TraceInputs> listed);

    void onJobFinished(LoadOutcome outcome);
    void emitProgress();

    core::LoadOptions m_options;
    std::unique_ptr<Job> m_job; // the load running, for status(); null when none
    widgets::TaskTracker m_tasks;
    QTimer m_tick; // reports progress while a load runs
};

} // namespace ks::app

Q_DECLARE_METATYPE(ks::app::LoadStatus)
Q_DECLARE_METATYPE(ks::app::TraceSetPtr)
