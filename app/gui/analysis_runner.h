#pragma once

#include "app/gui/load_controller.h"
#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/frame/analysis_options.h"
#include "core/analysis/tables/hta_result.h"

#include <QObject>
#include <QString>

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace ks::app {

// The analyses of one trace set, keyed by HTA call name ("get_temporal_breakdown").
struct AnalysisResults
{
    std::map<std::string, std::shared_ptr<const core::AnalysisOutput>> byCall;
    QString error; // set when the frames could not be built: no analysis ran
    // The job's critical path across ranks (default mode whatever the toggle), and
    // the frames it came from, kept for what-if recomputation without reloading.
    std::shared_ptr<const core::FrameSet> defaultFrames;
    std::shared_ptr<const core::JobCriticalPath> jobPath;
    QString jobPathError;
};

using AnalysisResultsPtr = std::shared_ptr<const AnalysisResults>;

// A window of the trace the analyses are restricted to: absolute ns, [start, end).
struct AnalysisWindow
{
    core::TimeNs start = 0;
    core::TimeNs end = 0;
};

// Computes the analyses the docks show (A1-A6, X1) off the GUI thread after a trace
// set loads, as a job of the window's JobPools. A computation for a set that was
// since closed, reloaded or recomputed in another mode is cancelled (the core
// stops between ranks and stages) and its result dropped.
class AnalysisRunner : public QObject
{
    Q_OBJECT

public:
    explicit AnalysisRunner(widgets::JobPools* pools, QObject* parent = nullptr);
    ~AnalysisRunner() override;

    // Every dock's analysis; with a window, over the events starting in it.
    void start(TraceSetPtr set, core::AnalysisMode mode, std::optional<AnalysisWindow> window = std::nullopt);
    // Only the operator statistics (a timeline selection changed): delivered by
    // operatorsFinished, tracked apart so a running start() survives.
    void startOperators(TraceSetPtr set, std::optional<AnalysisWindow> window);
    void clear(); // cancels any running computation; its result is dropped

    bool isRunning() const { return m_jobs.isRunning(); }

    // The calls computed, by HTA call name.
    static QStringList shownCalls();
    // Where X1's rank overview lies in AnalysisResults::byCall (HTA has no call for it).
    static constexpr const char* kRankOverviewKey = "rank_overview";
    // Where the operator statistics lie in AnalysisResults::byCall.
    static constexpr const char* kOperatorStatsKey = "operator_stats";

signals:
    void started();
    void finished(ks::app::AnalysisResultsPtr results);
    void operatorsFinished(std::shared_ptr<const ks::core::AnalysisOutput> output);

private:
    widgets::JobTracker m_jobs;
    widgets::JobTracker m_operatorJobs;
};

} // namespace ks::app
Q_DECLARE_METATYPE(ks::app::AnalysisResultsPtr)
