#pragma once

#include "app/gui/opening/load_controller.h"
#include "core/session/memory_estimates.h"
#include "core/session/trace_analyses.h"
#include "widgets/common/task_tracker.h"

#include <QObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

namespace ks::app {

using core::AnalysisWindow;

// What the views of the navigator show, by output key.
struct AnalysisResults
{
    core::OutputSet outputs;
    QString error; // set when the frames could not be built or the task failed: no analysis ran
    // Set when the views' need is over the memory budget: nothing ran.
    std::optional<core::MemoryNeed> notComputed;

    // The output of `key`, or null when it was not computed.
    std::shared_ptr<const core::AnalysisOutput> output(core::OutputKey key) const
    {
        const auto it = outputs.find(key);
        return it == outputs.end() ? nullptr : it->second;
    }
};

using AnalysisResultsPtr = std::shared_ptr<const AnalysisResults>;

// The job's critical path across ranks (default mode whatever the toggle), as
// the session keeps it (its frames, what-if timing and stragglers). Exactly
// one of job (with a path), error and notComputed is set.
struct JobPathResults
{
    std::shared_ptr<const core::SessionJobPath> job;
    core::JobPathOptions options; // whole trace, or options.iteration's
    // The range the frames are restricted to (Restrict to Selected Range); unset:
    // the whole trace, every iteration (whatever options.iteration).
    std::optional<AnalysisWindow> window;
    QString error; // could not be computed, or the task failed (out of memory)
    // Over the memory budget, so not started: what it would need.
    std::optional<core::MemoryNeed> notComputed;
    // The first iteration ("Per iteration") and what its path would need; unset when
    // the trace has no ProfilerStep or the frames were not built.
    std::optional<std::int64_t> firstIteration;
    std::optional<core::MemoryNeed> iterationNeed;
    // What the whole trace's path needs (set once the views' frames were measured).
    std::optional<core::MemoryNeed> wholeNeed;

    std::shared_ptr<const core::FrameSet> frames() const { return job ? job->frames : nullptr; }

    // The path, when there is one (null: an error, or not computed).
    std::shared_ptr<const core::JobCriticalPath> path() const
    {
        return job && job->path() ? std::shared_ptr<const core::JobCriticalPath>(job, job->path()) : nullptr;
    }
};

using JobPathResultsPtr = std::shared_ptr<const JobPathResults>;

// Computes what the navigator's analysis views and the Job Critical Path show,
// off the GUI thread after a trace set loads, in two lanes of the window's
// TaskPools, asking the load's TraceAnalyses (which computes each result once):
// 1. the views' outputs (A1-A6, X1's rank overview, operators): cheap and seen
//    first, delivered by finished() as soon as they are done;
// 2. then the job's critical path (and with it the stragglers), a task of its
//    own delivered by jobPathFinished().
// Each lane first declares what it will need (memory_budget.h); over the
// budget it is not started and its result says so (notComputed), until
// asked again with `anyway` or, for the path, for one iteration. A task that
// throws (out of memory) ends as its result's error. A computation for a set
// that was since closed, reloaded or recomputed in another mode is cancelled
// (the core stops between ranks and stages) and its result dropped. Every
// start() ends in one finished() and then one jobPathFinished(), unless
// superseded or cleared.
class AnalysisRunner : public QObject
{
    Q_OBJECT

public:
    // The job path's computation: the session's, or a stand-in (tests make it throw).
    using JobPathFunction = std::function<core::Result<std::shared_ptr<const core::SessionJobPath>>(
        core::TraceAnalyses&, const core::JobPathScope&, const core::SessionWork&)>;

    explicit AnalysisRunner(widgets::TaskPools* pools, QObject* parent = nullptr);
    ~AnalysisRunner() override;

    // The `keys` of the session's traces, then the job path; with a window, over
    // the events starting in it. `anyway`: the outputs run even over the memory budget.
    void start(std::shared_ptr<core::TraceAnalyses> analyses, std::vector<core::OutputKey> keys,
        core::AnalysisMode mode, std::optional<AnalysisWindow> window = std::nullopt, bool anyway = false);
    // The job path of the last start()'s set now, whatever the budget: over the
    // whole trace, or over the first iteration.
    void startJobPath(bool firstIterationOnly);
    // Only the operator statistics (a timeline selection changed): delivered by
    // operatorsFinished, tracked apart so a running start() survives.
    void startOperators(std::shared_ptr<core::TraceAnalyses> analyses, std::optional<AnalysisWindow> window);
    void clear(); // cancels any running computation; its result is dropped

    // The outputs' lane.
    bool isRunning() const;
    // The job path's lane, or the outputs' that it waits for.
    bool isJobPathRunning() const;

    void setJobPathFunction(JobPathFunction function);

signals:
    void started();
    void finished(ks::app::AnalysisResultsPtr results);
    void jobPathStarted();
    void jobPathFinished(ks::app::JobPathResultsPtr results);
    void operatorsFinished(std::shared_ptr<const ks::core::AnalysisOutput> output);
    void operatorsFailed(const QString& message);

public:
    // What the outputs' task hands on to the job path's lane (analysis_runner.cpp).
    struct OutputsOutcome;

private:
    struct Request
    {
        std::shared_ptr<core::TraceAnalyses> analyses;
        core::AnalysisMode mode = core::AnalysisMode::Default;
        std::optional<AnalysisWindow> window;
        std::uint64_t storeBytes = 0;
        std::optional<std::int64_t> firstIteration;
        std::optional<core::MemoryNeed> wholeNeed;
        std::optional<core::MemoryNeed> iterationNeed;
    };

    void onOutputsDone(OutputsOutcome outcome);
    void runJobPath(std::shared_ptr<const core::FrameSet> frames, core::JobPathOptions options);
    void finishJobPath(std::shared_ptr<JobPathResults> results);

    widgets::TaskPools* m_pools;
    Request m_request; // the last start()'s
    JobPathFunction m_jobPath;
    bool m_jobPathPending = false; // the outputs run and the job path follows them
    widgets::TaskTracker m_tasks;
    widgets::TaskTracker m_jobPathTasks;
    widgets::TaskTracker m_operatorTasks;
};

} // namespace ks::app
Q_DECLARE_METATYPE(ks::app::AnalysisResultsPtr)
Q_DECLARE_METATYPE(ks::app::JobPathResultsPtr)
