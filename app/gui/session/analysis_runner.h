#pragma once

#include "app/gui/background/memory_budget.h"
#include "app/gui/opening/load_controller.h"
#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/frame/analysis_options.h"
#include "core/analysis/tables/hta_result.h"

#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace ks::app {

// A window of the trace the analyses are restricted to: absolute ns, [start, end).
struct AnalysisWindow
{
    core::TimeNs start = 0;
    core::TimeNs end = 0;
};

// The analyses the docks show, keyed by HTA call name ("get_temporal_breakdown").
struct AnalysisResults
{
    std::map<std::string, std::shared_ptr<const core::AnalysisOutput>> byCall;
    QString error; // set when the frames could not be built or the job failed: no analysis ran
    // Set when the docks' need is over the memory budget: nothing ran.
    std::optional<MemoryNeed> notComputed;
};

using AnalysisResultsPtr = std::shared_ptr<const AnalysisResults>;

// The job's critical path across ranks (default mode whatever the toggle) and
// the frames it came from, kept for what-if recomputation without reloading.
// Exactly one of path, error and notComputed is set.
struct JobPathResults
{
    std::shared_ptr<const core::FrameSet> frames;
    std::shared_ptr<const core::JobCriticalPath> path;
    core::JobPathOptions options; // whole trace, or options.iteration's
    // The range `frames` are restricted to (Restrict to Selected Range); unset:
    // the whole trace, every iteration (whatever options.iteration).
    std::optional<AnalysisWindow> window;
    QString error; // could not be computed, or the job failed (out of memory)
    // Over the memory budget, so not started: what it would need.
    std::optional<MemoryNeed> notComputed;
    // The first iteration ("Per iteration") and what its path would need; unset when
    // the trace has no ProfilerStep or the frames were not built.
    std::optional<std::int64_t> firstIteration;
    std::optional<MemoryNeed> iterationNeed;
    // What the whole trace's path needs (set once the docks' frames were measured).
    std::optional<MemoryNeed> wholeNeed;
};

using JobPathResultsPtr = std::shared_ptr<const JobPathResults>;

// Computes what the analysis docks and the Job Critical Path show, off the GUI
// thread after a trace set loads, in two lanes of the window's TaskPools (issue
// 27 items 2 and 3):
// 1. the docks (A1-A6, X1's rank overview, operators): cheap and seen first,
//    delivered by finished() as soon as they are done;
// 2. then the job's critical path (and with it the Rank Overview's
//    stragglers), a job of its own delivered by jobPathFinished().
// Each lane first declares what it will need (memory_budget.h); over the
// budget it is not started and its result says so (notComputed), until
// asked again with `anyway` or, for the path, for one iteration. A job that
// throws (out of memory) ends as its result's error. A computation for a set
// that was since closed, reloaded or recomputed in another mode is cancelled
// (the core stops between ranks and stages) and its result dropped. Every
// start() ends in one finished() and then one jobPathFinished(), unless
// superseded or cleared.
class AnalysisRunner : public QObject
{
    Q_OBJECT

public:
    // The job path's computation: core::jobCriticalPath, or a stand-in (tests make it throw).
    using JobPathFunction = std::function<core::Result<core::JobCriticalPath>(
        const core::FrameSet&, const core::JobPathOptions&, const core::ParallelFor&)>;

    explicit AnalysisRunner(widgets::TaskPools* pools, QObject* parent = nullptr);
    ~AnalysisRunner() override;

    // Every dock's analysis, then the job path; with a window, over the events
    // starting in it. `anyway`: the docks run even over the memory budget.
    void start(TraceSetPtr set, core::AnalysisMode mode, std::optional<AnalysisWindow> window = std::nullopt,
        bool anyway = false);
    // The job path of the last start()'s set now, whatever the budget: over the
    // whole trace, or over the first iteration.
    void startJobPath(bool firstIterationOnly);
    // Only the operator statistics (a timeline selection changed): delivered by
    // operatorsFinished, tracked apart so a running start() survives.
    void startOperators(TraceSetPtr set, std::optional<AnalysisWindow> window);
    void clear(); // cancels any running computation; its result is dropped

    // The docks' lane.
    bool isRunning() const;
    // The job path's lane, or the docks' that it waits for.
    bool isJobPathRunning() const;

    void setJobPathFunction(JobPathFunction function);

    // The calls computed, by HTA call name (a variant by its file name's stem:
    // "get_gpu_user_annotation_breakdown__cpu").
    static QStringList shownCalls();
    // Where X1's rank overview lies in AnalysisResults::byCall (HTA has no call for it).
    static constexpr const char* kRankOverviewKey = "rank_overview";
    // Where the kernels grouped by annotation lie (core::kernelTimeByAnnotation).
    static constexpr const char* kKernelsByAnnotationKey = "kernels_by_annotation";
    // Where the operator statistics lie in AnalysisResults::byCall.
    static constexpr const char* kOperatorStatsKey = "operator_stats";

signals:
    void started();
    void finished(ks::app::AnalysisResultsPtr results);
    void jobPathStarted();
    void jobPathFinished(ks::app::JobPathResultsPtr results);
    void operatorsFinished(std::shared_ptr<const ks::core::AnalysisOutput> output);
    void operatorsFailed(const QString& message);

public:
    // What the docks' job hands on to the job path's lane (analysis_runner.cpp).
    struct DocksOutcome;

private:
    struct Request
    {
        TraceSetPtr set;
        core::AnalysisMode mode = core::AnalysisMode::Default;
        std::optional<AnalysisWindow> window;
        std::uint64_t storeBytes = 0;
        std::optional<std::int64_t> firstIteration;
        std::optional<MemoryNeed> wholeNeed;
        std::optional<MemoryNeed> iterationNeed;
    };

    void onDocksDone(DocksOutcome outcome);
    void runJobPath(std::shared_ptr<const core::FrameSet> frames, core::JobPathOptions options);
    void finishJobPath(std::shared_ptr<JobPathResults> results);

    widgets::TaskPools* m_pools;
    Request m_request; // the last start()'s
    JobPathFunction m_jobPath;
    bool m_jobPathPending = false; // the docks run and the job path follows them
    widgets::TaskTracker m_tasks;
    widgets::TaskTracker m_jobPathTasks;
    widgets::TaskTracker m_operatorTasks;
};

} // namespace ks::app
Q_DECLARE_METATYPE(ks::app::AnalysisResultsPtr)
Q_DECLARE_METATYPE(ks::app::JobPathResultsPtr)
