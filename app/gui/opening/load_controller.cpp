#include "app/gui/opening/load_controller.h"

#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"

#include <QMutex>
#include <QMutexLocker>

#include <algorithm>
#include <new>
#include <optional>

namespace ks::app {

namespace {

    // Progress reaches the bar this often while a load runs.
    constexpr int kProgressIntervalMs = 200;

} // namespace

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
// mutex) and read by the GUI thread. Reports only update a snapshot; the
// controller's timer reads it a few times per second, so the GUI thread never
// sees per-event traffic.
class LoadProgressState : public core::ProgressSink
{
public:
    void report(const core::LoadProgress& progress) override
    {
        QMutexLocker lock(&m_mutex);
        // Parallel ranks report in any order: keep the numbers monotonic.
        m_stage = QString::fromUtf8(progress.stage.data(), static_cast<qsizetype>(progress.stage.size()));
        m_snapshot.bytesTotal = std::max(m_snapshot.bytesTotal, progress.bytesTotal);
        m_snapshot.bytesDone = std::max(m_snapshot.bytesDone, progress.bytesDone);
        m_snapshot.ranksTotal = std::max(m_snapshot.ranksTotal, progress.ranksTotal);
        m_snapshot.ranksDone = std::max(m_snapshot.ranksDone, progress.ranksDone);
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
};

struct LoadController::Job
{
    QStringList paths;
    std::shared_ptr<LoadProgressState> progress;
    QElapsedTimer timer;
};

namespace {

    // Runs on a job thread. Captures only shared state, never the controller.
    // Running out of memory ends the job at its edge (TaskTracker): see start().
    LoadOutcome loadOnWorker(const std::vector<std::string>& paths, std::optional<core::TraceInputs> listed,
        const core::LoadOptions& options, LoadProgressState* progress, const widgets::TaskContext& job)
    {
        LoadOutcome outcome;
        auto result = listed
            ? core::loadTraceInputs(paths, std::move(*listed), options, progress, job.cancel, job.parallelFor)
            : core::loadTraceSet(paths, options, progress, job.cancel, job.parallelFor);
        if (result.ok())
            outcome.set = std::make_shared<const core::TraceSet>(std::move(result).value());
        else
            outcome.error = result.error();
        return outcome;
    }

    LoadOutcome failedLoad(const widgets::TaskFailure& failure)
    {
        // L6: a trace larger than memory allows is a message, not a crash.
        if (failure.outOfMemory)
            return { nullptr,
                core::Error { core::ErrorCode::TooLarge,
                    "not enough memory to load this trace; try fewer ranks at once", {}, std::nullopt } };
        return { nullptr,
            core::Error { core::ErrorCode::Unreadable, "the load failed: " + failure.message.toStdString(),
                {}, std::nullopt } };
    }

} // namespace

LoadController::LoadController(widgets::TaskPools* pools, QObject* parent)
    : QObject(parent)
    , m_tasks(pools, this)
{
    qRegisterMetaType<LoadStatus>();
    qRegisterMetaType<TraceSetPtr>();
    // Each rank inflates on a second thread while its worker parses; a rank
    // opened alone is parsed on every core as well.
    m_options.background = app::makeThreadBackgroundWork;
    m_options.releaseFreedMemory = app::releaseFreedMemory;
    m_options.parseWorkers = app::parseWorkersForOneRank(0);
    m_tick.setInterval(kProgressIntervalMs);
    connect(&m_tick, &QTimer::timeout, this, &LoadController::emitProgress);
}

// The tracker cancels a running load; its worker ends soon after it sees the token.
LoadController::~LoadController() = default;

void LoadController::start(const QStringList& paths)
{
    startLoad(paths, std::nullopt);
}

void LoadController::start(const QStringList& paths, core::TraceInputs listed)
{
    startLoad(paths, std::move(listed));
}

void LoadController::startLoad(const QStringList& paths, std::optional<core::TraceInputs> listed)
{
    auto job = std::make_unique<Job>();
    job->paths = paths;
    job->progress = std::make_shared<LoadProgressState>();
    job->timer.start();

    std::vector<std::string> files;
    files.reserve(static_cast<std::size_t>(paths.size()));
    for (const QString& path : paths)
        files.push_back(path.toStdString());
    // Starting supersedes (and cancels) a load already running.
    m_tasks.start(
        [files = std::move(files), listed = std::move(listed), options = m_options, progress = job->progress](
            const widgets::TaskContext& context) {
            return loadOnWorker(files, listed, options, progress.get(), context);
        },
        [this](LoadOutcome outcome) { onJobFinished(std::move(outcome)); },
        [this](const widgets::TaskFailure& failure) { onJobFinished(failedLoad(failure)); });
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
    m_tasks.cancel();
    m_job.reset();
    m_tick.stop();
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

void LoadController::onJobFinished(LoadOutcome outcome)
{
    std::unique_ptr<Job> job = std::move(m_job);
    m_tick.stop();
    const qint64 elapsedMs = job->timer.elapsed();
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
