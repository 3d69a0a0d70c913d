#include "app/gui/session/analysis_runner.h"

#include "app/common/allocator_tuning.h"
#include "app/gui/background/memory_budget.h"
#include "core/analysis/cross_rank/job_critical_path.h"

namespace ks::app {

// What the outputs' task hands on to the job path's lane.
struct AnalysisRunner::OutputsOutcome
{
    std::shared_ptr<AnalysisResults> results = std::make_shared<AnalysisResults>();
    // Default mode: the outputs' frames, which the job path reads (the session
    // keeps frames while they are held: held here until the path has them).
    std::shared_ptr<const core::FrameSet> defaultFrames;
    bool framesBuilt = false;
    std::uint64_t framesBytes = 0;
    // jobCriticalPathMemoryEstimate over the whole trace and over the first iteration.
    std::uint64_t wholePathBytes = 0;
    std::optional<std::int64_t> firstIteration;
    std::uint64_t iterationPathBytes = 0;
};

namespace {

    core::SessionWork sessionWork(const widgets::TaskContext& task)
    {
        core::SessionWork work;
        work.parallelFor = task.parallelFor;
        work.cancel = task.cancel;
        work.releaseFreedMemory = app::releaseFreedMemory;
        return work;
    }

    core::FrameScope scopeOf(core::AnalysisMode mode, const std::optional<AnalysisWindow>& window)
    {
        core::FrameScope scope;
        scope.options.mode = mode;
        scope.window = window;
        return scope;
    }

    // A cancelled computation returns early with partial results: the tracker never delivers them.
    void computeOutputs(AnalysisRunner::OutputsOutcome& outcome, core::TraceAnalyses& analyses,
        const std::vector<core::OutputKey>& keys, core::AnalysisMode mode,
        const std::optional<AnalysisWindow>& window, const widgets::TaskContext& task, int workers)
    {
        AnalysisResults& results = *outcome.results;
        const core::SessionWork work = sessionWork(task);
        const core::FrameScope scope = scopeOf(mode, window);
        auto frames = analyses.frames(scope, work);
        if (!frames) {
            results.error = QString::fromStdString(frames.error().describe());
            return;
        }
        auto outputs = analyses.outputs(scope, keys, work);
        if (!outputs) {
            if (!task.cancelled())
                results.error = QString::fromStdString(outputs.error().describe());
            return;
        }
        results.outputs = std::move(outputs).value();

        // What the job path will need, declared before it starts. In
        // HTA-compatible mode the default-mode frames it needs are about these.
        const core::FrameSet& built = *frames.value();
        const std::size_t atOnce = core::concurrentRanks(built, workers);
        outcome.framesBuilt = true;
        outcome.framesBytes = core::framesBytes(built);
        outcome.wholePathBytes = core::jobCriticalPathMemoryEstimate(built, {}, atOnce);
        if (!built.iterations.empty()) {
            core::JobPathOptions first;
            first.iteration = built.iterations.front();
            outcome.firstIteration = first.iteration;
            outcome.iterationPathBytes = core::jobCriticalPathMemoryEstimate(built, first, atOnce);
        }
        if (mode == core::AnalysisMode::Default)
            outcome.defaultFrames = std::move(frames).value();
    }

} // namespace

AnalysisRunner::AnalysisRunner(widgets::TaskPools* pools, QObject* parent)
    : QObject(parent)
    , m_pools(pools)
    , m_jobPath([](core::TraceAnalyses& analyses, const core::JobPathScope& scope,
                    const core::SessionWork& work) { return analyses.jobPath(scope, work); })
    , m_tasks(pools, this)
    , m_jobPathTasks(pools, this)
    , m_operatorTasks(pools, this)
{
    qRegisterMetaType<AnalysisResultsPtr>();
    qRegisterMetaType<JobPathResultsPtr>();
}

AnalysisRunner::~AnalysisRunner() = default;

void AnalysisRunner::setJobPathFunction(JobPathFunction function)
{
    m_jobPath = std::move(function);
}

bool AnalysisRunner::isRunning() const
{
    return m_tasks.isRunning();
}

bool AnalysisRunner::isJobPathRunning() const
{
    return m_jobPathPending || m_jobPathTasks.isRunning();
}

void AnalysisRunner::start(std::shared_ptr<core::TraceAnalyses> analyses, std::vector<core::OutputKey> keys,
    core::AnalysisMode mode, std::optional<AnalysisWindow> window, bool anyway)
{
    if (!analyses) {
        clear();
        return;
    }
    m_jobPathTasks.cancel();
    m_request = Request { analyses, mode, window, core::storeBytes(analyses->traces()), std::nullopt,
        std::nullopt, std::nullopt };
    m_jobPathPending = true;
    emit started();
    const core::MemoryNeed need { m_request.storeBytes + core::docksMemoryEstimate(analyses->traces()),
        memoryBudget(m_request.storeBytes) };
    if (!anyway && !need.fits()) {
        // Nothing starts: the views, then the job path, say what they would need.
        m_tasks.cancel();
        OutputsOutcome outcome;
        outcome.results->notComputed = need;
        onOutputsDone(std::move(outcome));
        return;
    }
    m_tasks.start(
        [analyses = std::move(analyses), keys = std::move(keys), mode, window,
            workers = m_pools->workerCount()](const widgets::TaskContext& task) {
            OutputsOutcome outcome;
            computeOutputs(outcome, *analyses, keys, mode, window, task, workers);
            return outcome;
        },
        [this](OutputsOutcome outcome) { onOutputsDone(std::move(outcome)); },
        [this](const widgets::TaskFailure& failure) {
            OutputsOutcome outcome;
            outcome.results->error = failure.message;
            onOutputsDone(std::move(outcome));
        });
}

void AnalysisRunner::onOutputsDone(OutputsOutcome outcome)
{
    emit finished(outcome.results);
    if (!m_jobPathPending) // cleared or restarted meanwhile (by a receiver of finished)
        return;
    m_jobPathPending = false;
    m_request.firstIteration = outcome.firstIteration;
    auto results = std::make_shared<JobPathResults>();
    if (!outcome.results->error.isEmpty()) {
        results->error = outcome.results->error;
        finishJobPath(std::move(results));
        return;
    }
    if (outcome.results->notComputed || !outcome.framesBuilt) {
        results->notComputed = outcome.results->notComputed;
        finishJobPath(std::move(results));
        return;
    }
    const std::uint64_t budget = memoryBudget(m_request.storeBytes);
    const std::uint64_t held = m_request.storeBytes + outcome.framesBytes;
    m_request.wholeNeed = core::MemoryNeed { held + outcome.wholePathBytes, budget };
    if (outcome.firstIteration)
        m_request.iterationNeed = core::MemoryNeed { held + outcome.iterationPathBytes, budget };
    if (m_request.wholeNeed->fits()) {
        runJobPath(std::move(outcome.defaultFrames), {});
        return;
    }
    results->notComputed = m_request.wholeNeed;
    finishJobPath(std::move(results));
}

void AnalysisRunner::startJobPath(bool firstIterationOnly)
{
    if (!m_request.analyses || (firstIterationOnly && !m_request.firstIteration))
        return;
    m_jobPathPending = false;
    core::JobPathOptions options;
    if (firstIterationOnly)
        options.iteration = m_request.firstIteration;
    runJobPath(nullptr, options);
}

void AnalysisRunner::runJobPath(std::shared_ptr<const core::FrameSet> frames, core::JobPathOptions options)
{
    m_jobPathTasks.start(
        [analyses = m_request.analyses, window = m_request.window, frames = std::move(frames), options,
            compute = m_jobPath](const widgets::TaskContext& task) {
            auto results = std::make_shared<JobPathResults>();
            results->options = options;
            results->window = window; // the views' frames are restricted alike
            // `frames` (the outputs' default-mode frames, when they are those) stay
            // held until the session's path has them: it reads them, not a copy.
            const std::shared_ptr<const core::FrameSet> held = frames;
            app::releaseFreedMemory(); // what the outputs freed, before the first graph is built
            const core::JobPathScope scope { scopeOf(core::AnalysisMode::Default, window),
                options.iteration };
            auto job = compute(*analyses, scope, sessionWork(task));
            if (!job) {
                results->error = QString::fromStdString(job.error().message);
                return results;
            }
            results->job = std::move(job).value();
            if (!results->job->path()) {
                results->error = QString::fromStdString(results->job->kept->path->error().message);
                results->job.reset();
            }
            return results;
        },
        [this](std::shared_ptr<JobPathResults> results) { finishJobPath(std::move(results)); },
        [this, options](const widgets::TaskFailure& failure) {
            auto results = std::make_shared<JobPathResults>();
            results->options = options;
            results->error = tr("Could not be computed: %1").arg(failure.message);
            finishJobPath(std::move(results));
        });
    // After the start, so that its receivers see isJobPathRunning().
    emit jobPathStarted();
}

void AnalysisRunner::finishJobPath(std::shared_ptr<JobPathResults> results)
{
    if (!results->firstIteration)
        results->firstIteration = m_request.firstIteration;
    if (!results->iterationNeed)
        results->iterationNeed = m_request.iterationNeed;
    if (!results->wholeNeed)
        results->wholeNeed = m_request.wholeNeed;
    emit jobPathFinished(std::move(results));
}

void AnalysisRunner::startOperators(
    std::shared_ptr<core::TraceAnalyses> analyses, std::optional<AnalysisWindow> window)
{
    if (!analyses) {
        m_operatorTasks.cancel();
        return;
    }
    m_operatorTasks.start(
        [analyses = std::move(analyses), window](const widgets::TaskContext& task) {
            auto outputs = analyses->outputs(scopeOf(core::AnalysisMode::Default, window),
                { core::OutputKey::OperatorStats }, sessionWork(task));
            return outputs ? outputs.value().at(core::OutputKey::OperatorStats)
                           : std::make_shared<const core::AnalysisOutput>(
                               core::AnalysisOutput::notApplicable(outputs.error().describe()));
        },
        [this](std::shared_ptr<const core::AnalysisOutput> output) {
            emit operatorsFinished(std::move(output));
        },
        [this](const widgets::TaskFailure& failure) { emit operatorsFailed(failure.message); });
}

void AnalysisRunner::clear()
{
    m_tasks.cancel();
    m_jobPathTasks.cancel();
    m_operatorTasks.cancel();
    m_jobPathPending = false;
    m_request = {};
}

} // namespace ks::app
