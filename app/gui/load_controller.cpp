#include "app/gui/load_controller.h"

#include "app/common/thread_pool_parallel_for.h"
#include "app/gui/qt_parallel_for.h"

#include <QFutureWatcher>
#include <QMutex>
#include <QMutexLocker>
#include <QPromise>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <atomic>
#include <new>
#include <optional>

namespace ks::app {

double LoadStatus::fraction() const
{
    if (bytesTotal == 0)
        return -1.0;
    return std::clamp(static_cast<double>(bytesDone) / static_cast<double>(bytesTotal), 0.0, 1.0);
}

// What the worker hands back, once, by move.
struct LoadOutcome
{
    TraceSetPtr set;
    std::optional<core::Error> error;
};

// The core's ProgressSink, shared by the ranks loading in parallel (hence the
// mutex) and read by the GUI thread. Reports only update a snapshot and bump the
// promise's progress value; QFutureWatcher coalesces those into at most a few
// signals per second, so the GUI thread never sees per-event traffic.
class LoadProgressState : public core::ProgressSink
{
public:
    void attach(QPromise<LoadOutcome>* promise) { m_promise.store(promise); }

    void detach() { m_promise.store(nullptr); }

    void report(const core::LoadProgress& progress) override
    {
        {
            QMutexLocker lock(&m_mutex);
            // Parallel ranks report in any order: keep the numbers monotonic.
            m_stage = QString::fromUtf8(progress.stage.data(), static_cast<qsizetype>(progress.stage.size()));
            m_snapshot.bytesTotal = std::max(m_snapshot.bytesTotal, progress.bytesTotal);
            m_snapshot.bytesDone = std::max(m_snapshot.bytesDone, progress.bytesDone);
            m_snapshot.ranksTotal = std::max(m_snapshot.ranksTotal, progress.ranksTotal);
            m_snapshot.ranksDone = std::max(m_snapshot.ranksDone, progress.ranksDone);
        }
        if (QPromise<LoadOutcome>* promise = m_promise.load())
            promise->setProgressValue(m_reports.fetch_add(1) + 1);
    }

    void fill(LoadStatus& status) const
    {
        QMutexLocker lock(&m_mutex);
        status.stage = m_stage;
        status.bytesDone = m_snapshot.bytesDone;
        status.bytesTotal = m_snapshot.bytesTotal;
        status.ranksDone = m_snapshot.ranksDone;
        status.ranksTotal = m_snapshot.ranksTotal;
    }

private:
    mutable QMutex m_mutex;
    core::LoadProgress m_snapshot; // its stage view is unused: m_stage owns the text
    QString m_stage;
    std::atomic<int> m_reports { 0 };
    std::atomic<QPromise<LoadOutcome>*> m_promise { nullptr };
};

struct LoadController::Job
{
    int generation = 0;
    QStringList paths;
    std::shared_ptr<LoadProgressState> progress;
    std::shared_ptr<core::CancelToken> cancel;
    QFutureWatcher<LoadOutcome>* watcher = nullptr;
    QElapsedTimer timer;
};

namespace {

    LoadOutcome loadOnWorker(const std::vector<std::string>& paths, const core::LoadOptions& options,
        LoadProgressState* progress, const core::CancelToken* cancel, int threads)
    {
        LoadOutcome outcome;
        try {
            QThreadPool pool;
            pool.setMaxThreadCount(std::max(1, threads));
            auto result = core::loadTraceSet(paths, options, progress, cancel, makeQtParallelFor(&pool));
            if (result.ok())
                outcome.set = std::make_shared<const core::TraceSet>(std::move(result).value());
            else
                outcome.error = result.error();
        } catch (const std::bad_alloc&) {
            // L6: a trace larger than memory allows is a message, not a crash.
            outcome.error = core::Error { core::ErrorCode::TooLarge,
                "not enough memory to load this trace; try fewer ranks at once", {}, std::nullopt };
        }
        return outcome;
    }

    // Runs on a QThreadPool thread. Captures only shared state, never the controller.
    void runLoad(QPromise<LoadOutcome>& promise, const std::vector<std::string>& paths,
        const core::LoadOptions& options, const std::shared_ptr<LoadProgressState>& progress,
        const std::shared_ptr<core::CancelToken>& cancel, int threads)
    {
        progress->attach(&promise);
        LoadOutcome outcome = loadOnWorker(paths, options, progress.get(), cancel.get(), threads);
        progress->detach();
        promise.addResult(std::move(outcome));
    }

} // namespace

LoadController::LoadController(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<LoadStatus>();
    qRegisterMetaType<TraceSetPtr>();
    // Each rank inflates on a second thread while its worker parses.
    m_options.background = app::makeThreadBackgroundWork;
    m_tick.setInterval(250);
    connect(&m_tick, &QTimer::timeout, this, &LoadController::emitProgress);
}

LoadController::~LoadController()
{
    // The worker owns its shared state and ends soon after it sees the token.
    if (m_job)
        m_job->cancel->cancel();
}

void LoadController::start(const QStringList& paths)
{
    if (m_job)
        abandonCurrentJob();
    auto job = std::make_unique<Job>();
    job->generation = ++m_generation;
    job->paths = paths;
    job->progress = std::make_shared<LoadProgressState>();
    job->cancel = std::make_shared<core::CancelToken>();
    job->watcher = new QFutureWatcher<LoadOutcome>(this);
    job->timer.start();

    std::vector<std::string> files;
    files.reserve(static_cast<std::size_t>(paths.size()));
    for (const QString& path : paths)
        files.push_back(path.toStdString());
    const int threads = QThread::idealThreadCount();

    const int generation = job->generation;
    connect(job->watcher, &QFutureWatcher<LoadOutcome>::progressValueChanged, this,
        &LoadController::emitProgress);
    connect(job->watcher, &QFutureWatcher<LoadOutcome>::finished, this,
        [this, generation] { onJobFinished(generation); });
    job->watcher->setFuture(
        QtConcurrent::run(&runLoad, files, m_options, job->progress, job->cancel, threads));
    m_job = std::move(job);
    m_tick.start();
    emit loadStarted(paths);
    emit loadingChanged(true);
    emitProgress();
}

void LoadController::cancel()
{
    if (!m_job)
        return;
    const QStringList paths = m_job->paths;
    abandonCurrentJob();
    emit loadCancelled(paths);
    emit loadingChanged(false);
}

bool LoadController::isLoading() const
{
    return m_job != nullptr;
}

LoadStatus LoadController::status() const
{
    LoadStatus status;
    if (!m_job)
        return status;
    status.paths = m_job->paths;
    m_job->progress->fill(status);
    status.elapsedMs = m_job->timer.elapsed();
    // Bytes read is the only measure known from the start; estimate from it once
    // there is enough to go on.
    const double fraction = status.fraction();
    if (fraction > 0.01 && fraction < 1.0 && status.elapsedMs > 500)
        status.remainingMs =
            static_cast<qint64>(static_cast<double>(status.elapsedMs) * (1.0 - fraction) / fraction);
    return status;
}

void LoadController::emitProgress()
{
    if (m_job)
        emit progressChanged(status());
}

void LoadController::abandonCurrentJob()
{
    std::unique_ptr<Job> job = std::move(m_job);
    m_tick.stop();
    job->cancel->cancel();
    QFutureWatcher<LoadOutcome>* watcher = job->watcher;
    disconnect(watcher, nullptr, this, nullptr);
    if (watcher->isFinished())
        watcher->deleteLater();
    else
        connect(watcher, &QFutureWatcher<LoadOutcome>::finished, watcher, &QObject::deleteLater);
}

void LoadController::onJobFinished(int generation)
{
    if (!m_job || m_job->generation != generation)
        return; // a stale generation: dropped on arrival
    std::unique_ptr<Job> job = std::move(m_job);
    m_tick.stop();
    const qint64 elapsedMs = job->timer.elapsed();
    LoadOutcome outcome;
    if (job->watcher->future().resultCount() > 0)
        outcome = job->watcher->future().takeResult();
    else
        outcome.error = core::Error { core::ErrorCode::Unreadable, "the loader stopped without a result", {},
            std::nullopt };
    job->watcher->deleteLater();

    if (outcome.set)
        emit loadFinished(outcome.set, job->paths, elapsedMs);
    else if (outcome.error && outcome.error->code == core::ErrorCode::Cancelled)
        emit loadCancelled(job->paths);
    else
        emit loadFailed(
            QString::fromStdString(outcome.error ? outcome.error->describe() : std::string()), job->paths);
    emit loadingChanged(false);
}

} // namespace ks::app
