#include "app/gui/session/analysis_runner.h"

#include "app/common/allocator_tuning.h"
#include "core/analysis/cross_rank/rank_overview.h"
#include "core/session/analysis_catalog.h"
#include "core/analysis/frame/frame_window.h"
#include "core/analysis/hta/annotated_kernels.h"
#include "core/analysis/operators/operator_stats.h"

#include <algorithm>

namespace ks::app {

// What the docks' job hands on to the job path's lane.
struct AnalysisRunner::DocksOutcome
{
    std::shared_ptr<AnalysisResults> results = std::make_shared<AnalysisResults>();
    // Default mode: the docks' frames, which the job path reuses when it runs at once.
    std::shared_ptr<const core::FrameSet> defaultFrames;
    bool framesBuilt = false;
    std::uint64_t framesBytes = 0;
    // jobCriticalPathMemoryEstimate over the whole trace and over the first iteration.
    std::uint64_t wholePathBytes = 0;
    std::optional<std::int64_t> firstIteration;
    std::uint64_t iterationPathBytes = 0;
};

namespace {

    std::shared_ptr<const core::AnalysisOutput> operatorsOutput(
        const TraceSetPtr& set, const std::optional<AnalysisWindow>& window)
    {
        core::OperatorStatsOptions options;
        if (window) {
            options.windowStart = window->start;
            options.windowEnd = window->end;
        }
        const core::OperatorStats stats = core::operatorStats(*set, options);
        if (stats.error)
            return std::make_shared<const core::AnalysisOutput>(
                core::AnalysisOutput::notApplicable(stats.error->describe()));
        if (stats.rows.empty())
            return std::make_shared<const core::AnalysisOutput>(core::AnalysisOutput::notApplicable(
                window ? "no CPU operator starts in the selected range" : "no CPU operators in the trace"));
        return std::make_shared<const core::AnalysisOutput>(core::AnalysisOutput::of(
            core::HtaResult::dataFrame(core::operatorStatsTable(stats, options.by))));
    }

    // A cancelled computation returns early with partial results: the tracker never delivers them.
    void computeDocks(AnalysisRunner::DocksOutcome& outcome, const TraceSetPtr& set, core::AnalysisMode mode,
        const std::optional<AnalysisWindow>& window, const widgets::TaskContext& job, int workers)
    {
        AnalysisResults& results = *outcome.results;
        core::AnalysisOptions options;
        options.mode = mode;
        options.cancel = job.cancel; // every call's options are copies of these
        const core::ParallelFor& parallelFor = job.parallelFor;
        auto frames = core::buildFrames(*set, options, parallelFor);
        if (!frames) {
            results.error = QString::fromStdString(frames.error().describe());
            return;
        }
        if (window)
            core::restrictFramesToWindow(frames.value(), window->start, window->end);
        std::vector<std::int64_t> ranks;
        for (const core::RankFrame& frame : frames.value().ranks)
            ranks.push_back(frame.rank);
        // Results are keyed by the call's file name without ".json": HTA's call name, or
        // a variant's ("get_gpu_user_annotation_breakdown__cpu": CPU time).
        const QStringList shown = AnalysisRunner::shownCalls();
        std::vector<core::AnalysisCall> calls;
        std::vector<std::string> keys;
        for (core::AnalysisCall& call : core::analysisCalls(options, ranks)) {
            std::string key = call.fileName.substr(0, call.fileName.rfind(".json"));
            if (shown.contains(QString::fromStdString(key))) {
                calls.push_back(std::move(call));
                keys.push_back(std::move(key));
            }
        }
        // Three more outputs past the catalog's calls: X1's rank overview, which HTA has
        // no call for, the kernels grouped by annotation (the kernel views' "Group by"),
        // and the operator statistics (read from the traces, not the frames).
        const std::size_t overview = calls.size();
        const std::size_t byAnnotation = calls.size() + 1;
        const std::size_t operators = calls.size() + 2;
        std::vector<std::shared_ptr<const core::AnalysisOutput>> outputs(calls.size() + 3);
        // The calls only read the frames: all cores at once.
        parallelFor(outputs.size(), [&](std::size_t i) {
            if (i == operators)
                outputs[i] = operatorsOutput(set, window);
            else if (i == byAnnotation)
                outputs[i] = std::make_shared<const core::AnalysisOutput>(
                    core::kernelTimeByAnnotation(frames.value(), options));
            else
                outputs[i] = std::make_shared<const core::AnalysisOutput>(i == overview
                        ? core::rankOverview(frames.value(), options)
                        : calls[i].run(frames.value(), calls[i].options));
        });
        if (job.cancelled())
            return; // some outputs were skipped
        for (std::size_t i = 0; i < calls.size(); ++i)
            results.byCall[keys[i]] = outputs[i];
        results.byCall[AnalysisRunner::kRankOverviewKey] = outputs[overview];
        results.byCall[AnalysisRunner::kKernelsByAnnotationKey] = outputs[byAnnotation];
        results.byCall[AnalysisRunner::kOperatorStatsKey] = outputs[operators];

        // What the job path will need, declared before it starts (issue 27 item 3). In
        // HTA-compatible mode the default-mode frames it needs are about these.
        const core::FrameSet& built = frames.value();
        const std::size_t atOnce = concurrentRanks(built, workers);
        outcome.framesBuilt = true;
        outcome.framesBytes = framesBytes(built);
        outcome.wholePathBytes = core::jobCriticalPathMemoryEstimate(built, {}, atOnce);
        if (!built.iterations.empty()) {
            core::JobPathOptions first;
            first.iteration = built.iterations.front();
            outcome.firstIteration = first.iteration;
            outcome.iterationPathBytes = core::jobCriticalPathMemoryEstimate(built, first, atOnce);
        }
        if (mode == core::AnalysisMode::Default)
            outcome.defaultFrames = std::make_shared<const core::FrameSet>(std::move(frames).value());
    }

} // namespace

AnalysisRunner::AnalysisRunner(widgets::TaskPools* pools, QObject* parent)
    : QObject(parent)
    , m_pools(pools)
    , m_jobPath([](const core::FrameSet& frames, const core::JobPathOptions& options,
                    const core::ParallelFor& parallelFor) {
        return core::jobCriticalPath(frames, options, parallelFor);
    })
    , m_tasks(pools, this)
    , m_jobPathTasks(pools, this)
    , m_operatorTasks(pools, this)
{
    qRegisterMetaType<AnalysisResultsPtr>();
    qRegisterMetaType<JobPathResultsPtr>();
}

AnalysisRunner::~AnalysisRunner() = default;

QStringList AnalysisRunner::shownCalls()
{
    return { QStringLiteral("get_temporal_breakdown"), QStringLiteral("get_idle_time_breakdown"),
        QStringLiteral("get_gpu_kernel_breakdown"), QStringLiteral("get_comm_comp_overlap"),
        QStringLiteral("get_memory_bw_summary"), QStringLiteral("get_queue_length_summary"),
        QStringLiteral("get_cuda_kernel_launch_stats"),
        // Issue 22 item 3: HTA calls the navigator shows too (view_registry.cpp).
        QStringLiteral("get_aten_op_kernels_and_delay"),
        QStringLiteral("get_cupti_counter_data_with_operators"), QStringLiteral("get_potential_stragglers"),
        QStringLiteral("get_gpu_user_annotation_breakdown"),
        QStringLiteral("get_gpu_user_annotation_breakdown__cpu") };
}

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

void AnalysisRunner::start(
    TraceSetPtr set, core::AnalysisMode mode, std::optional<AnalysisWindow> window, bool anyway)
{
    if (!set) {
        clear();
        return;
    }
    m_jobPathTasks.cancel();
    m_request = Request { set, mode, window, storeBytes(*set), std::nullopt, std::nullopt, std::nullopt };
    m_jobPathPending = true;
    emit started();
    const MemoryNeed docks { m_request.storeBytes + docksMemoryEstimate(*set),
        memoryBudget(m_request.storeBytes) };
    if (!anyway && !docks.fits()) {
        // Nothing starts: the docks, then the job path, say what they would need.
        m_tasks.cancel();
        DocksOutcome outcome;
        outcome.results->notComputed = docks;
        onDocksDone(std::move(outcome));
        return;
    }
    m_tasks.start(
        [set = std::move(set), mode, window, workers = m_pools->workerCount()](
            const widgets::TaskContext& job) {
            DocksOutcome outcome;
            computeDocks(outcome, set, mode, window, job, workers);
            return outcome;
        },
        [this](DocksOutcome outcome) { onDocksDone(std::move(outcome)); },
        [this](const widgets::TaskFailure& failure) {
            DocksOutcome outcome;
            outcome.results->error = failure.message;
            onDocksDone(std::move(outcome));
        });
}

void AnalysisRunner::onDocksDone(DocksOutcome outcome)
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
    m_request.wholeNeed = MemoryNeed { held + outcome.wholePathBytes, budget };
    if (outcome.firstIteration)
        m_request.iterationNeed = MemoryNeed { held + outcome.iterationPathBytes, budget };
    if (m_request.wholeNeed->fits()) {
        runJobPath(std::move(outcome.defaultFrames), {});
        return;
    }
    results->notComputed = m_request.wholeNeed;
    finishJobPath(std::move(results));
}

void AnalysisRunner::startJobPath(bool firstIterationOnly)
{
    if (!m_request.set || (firstIterationOnly && !m_request.firstIteration))
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
        [set = m_request.set, window = m_request.window, frames = std::move(frames), options,
            compute = m_jobPath](const widgets::TaskContext& job) mutable {
            auto results = std::make_shared<JobPathResults>();
            results->options = options;
            results->window = window; // the docks' frames are restricted alike
            if (!frames) { // X3 needs default-mode frames: build them when the docks' are not those
                core::AnalysisOptions analysis;
                analysis.cancel = job.cancel;
                auto built = core::buildFrames(*set, analysis, job.parallelFor);
                if (!built) {
                    results->error = QString::fromStdString(built.error().describe());
                    return results;
                }
                if (window)
                    core::restrictFramesToWindow(built.value(), window->start, window->end);
                frames = std::make_shared<const core::FrameSet>(std::move(built).value());
            }
            core::JobPathOptions cancellable = options; // results->options keeps no token
            cancellable.cancel = job.cancel;
            cancellable.releaseFreedMemory = app::releaseFreedMemory;
            app::releaseFreedMemory(); // what the docks freed, before the first graph is built
            auto path = compute(*frames, cancellable, job.parallelFor);
            if (!path) {
                results->error = QString::fromStdString(path.error().message);
                return results;
            }
            results->frames = std::move(frames);
            results->path = std::make_shared<const core::JobCriticalPath>(std::move(path).value());
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

void AnalysisRunner::startOperators(TraceSetPtr set, std::optional<AnalysisWindow> window)
{
    if (!set) {
        m_operatorTasks.cancel();
        return;
    }
    m_operatorTasks.start(
        [set = std::move(set), window](const widgets::TaskContext&) { return operatorsOutput(set, window); },
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
