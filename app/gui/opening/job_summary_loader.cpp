#include "app/gui/opening/job_summary_loader.h"

#include "core/summary/job_summarizer.h"

#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <atomic>

namespace ks::app {

namespace {

    // What the worker shares with the GUI thread; it outlives a cancelled job.
    struct WorkState
    {
        std::atomic<std::size_t> filesDone { 0 };
        std::atomic<std::size_t> filesTotal { 0 };
        std::atomic<int> stage { 0 }; // 0 reading, 1 summarising, 2 merging
    };

} // namespace

// The GUI thread's side of a running job.
struct JobSummaryLoader::Job
{
    QStringList paths; // as the user named them
    QString output;
    QElapsedTimer clock;
    std::shared_ptr<WorkState> state = std::make_shared<WorkState>();
};

JobSummaryLoader::JobSummaryLoader(widgets::TaskPools* pools, QObject* parent)
    : QObject(parent)
    , m_tasks(pools, this)
{
    m_tick.setInterval(200);
    connect(&m_tick, &QTimer::timeout, this, [this] {
        if (m_job)
            emit progressChanged(status());
    });
}

JobSummaryLoader::~JobSummaryLoader() = default; // m_tasks cancels a running job

LoadStatus JobSummaryLoader::status() const
{
    LoadStatus s;
    if (!m_job)
        return s;
    s.paths = m_job->paths;
    const WorkState& state = *m_job->state;
    const int stage = state.stage.load();
    s.stage = stage == 1 ? tr("summarising") : stage == 2 ? tr("merging parts") : tr("reading the summary");
    s.ranksDone = static_cast<int>(state.filesDone.load());
    s.ranksTotal = static_cast<int>(state.filesTotal.load());
    s.elapsedMs = m_job->clock.elapsed();
    if (s.ranksDone > 0 && s.ranksTotal > s.ranksDone)
        s.remainingMs = s.elapsedMs * (s.ranksTotal - s.ranksDone) / s.ranksDone;
    return s;
}

void JobSummaryLoader::openSummary(const QString& path, const QStringList& shownPaths)
{
    start(Work::Read, { path }, shownPaths);
}

void JobSummaryLoader::mergeParts(const QStringList& parts, const QStringList& shownPaths)
{
    start(Work::Merge, parts, shownPaths);
}

void JobSummaryLoader::summarize(const QStringList& paths)
{
    start(Work::Summarize, paths, paths);
}

void JobSummaryLoader::start(Work work, const QStringList& inputs, const QStringList& shownPaths)
{
    cancel();
    auto job = std::make_unique<Job>();
    job->paths = shownPaths;
    job->clock.start();
    std::shared_ptr<WorkState> state = job->state;
    state->stage = work == Work::Summarize ? 1 : work == Work::Merge ? 2 : 0;
    state->filesTotal = work == Work::Read ? 0 : static_cast<std::size_t>(inputs.size());
    if (work == Work::Read) {
        job->output = inputs.front();
    } else {
        m_pendingDir = std::make_unique<QTemporaryDir>();
        job->output = m_pendingDir->filePath(QStringLiteral("job.kssum"));
    }
    std::vector<std::string> files;
    for (const QString& path : inputs)
        files.push_back(path.toStdString());
    m_tasks.start(
        [state, work, files = std::move(files), out = job->output.toStdString()](
            const widgets::TaskContext& context) -> core::Result<core::JobOverview> {
            if (work == Work::Summarize) {
                core::SummarizeOptions options;
                options.cancel = context.cancel;
                options.onFileDone = [raw = state.get()](std::size_t done, std::size_t total) {
                    raw->filesDone = done;
                    raw->filesTotal = total;
                };
                auto summarised = core::summarizeJob(files, out, options, context.parallelFor);
                if (!summarised)
                    return summarised.error();
            } else if (work == Work::Merge) {
                auto merged = core::mergeSummaries(files, out);
                if (!merged)
                    return merged.error();
            }
            if (context.cancelled())
                return core::Error { core::ErrorCode::Cancelled, "cancelled", out, {} };
            state->stage = 0;
            return core::readJobOverview(out);
        },
        [this](core::Result<core::JobOverview> result) { onFinished(std::move(result)); },
        [this](const widgets::TaskFailure& failure) {
            onFinished(core::Error {
                failure.outOfMemory ? core::ErrorCode::OutOfMemory : core::ErrorCode::Unreadable,
                "summarising the job failed: " + failure.message.toStdString(), {}, {} });
        });
    m_job = std::move(job);
    m_tick.start();
    emit started(shownPaths);
    emit busyChanged(true);
}

void JobSummaryLoader::cancel()
{
    if (!m_job)
        return;
    m_tasks.cancel();
    const QStringList paths = m_job->paths;
    m_job.reset();
    // A summarising worker may still write into the folder: it removes its
    // partial file when it notices the cancel, and the folder goes with it.
    m_pendingDir.reset();
    m_tick.stop();
    emit cancelled(paths);
    emit busyChanged(false);
}

void JobSummaryLoader::onFinished(core::Result<core::JobOverview> result)
{
    if (!m_job)
        return;
    std::unique_ptr<Job> job = std::move(m_job);
    m_tick.stop();
    const qint64 elapsed = job->clock.elapsed();
    if (!result) {
        m_pendingDir.reset();
        emit failed(QString::fromStdString(result.error().describe()), job->paths);
    } else {
        m_currentDir = std::move(m_pendingDir);
        m_summaryPath = job->output;
        emit jobReady(
            std::make_shared<const core::JobOverview>(std::move(result).value()), job->paths, elapsed);
    }
    emit busyChanged(false);
}

bool JobSummaryLoader::saveSummary(const QString& path, QString* error) const
{
    if (m_summaryPath.isEmpty()) {
        *error = tr("No job summary is open.");
        return false;
    }
    if (QFileInfo::exists(path) && !QFile::remove(path)) {
        *error = tr("Cannot replace %1.").arg(path);
        return false;
    }
    if (!QFile::copy(m_summaryPath, path)) {
        *error = tr("Cannot write %1.").arg(path);
        return false;
    }
    return true;
}

} // namespace ks::app
