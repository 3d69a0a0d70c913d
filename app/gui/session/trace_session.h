#pragma once

#include "app/gui/session/analysis_runner.h"

#include <QObject>
#include <QStringList>

#include <memory>
#include <optional>
#include <vector>

namespace ks::app {

// The app's one owner of a load: the trace set, its TraceAnalyses (every
// derived result computed once), the analysis lanes and the what-if. Views
// subscribe to its signals themselves (the registry binds them,
// view_registry.cpp), as a page of a profiler subscribes to its parser;
// MainWindow keeps menus, docks, layout, settings and drag and drop.
class TraceSession : public QObject
{
    Q_OBJECT

public:
    explicit TraceSession(widgets::TaskPools* pools, QObject* parent = nullptr);
    ~TraceSession() override;

    // A load finished (null: nothing is open): a new TraceAnalyses over it.
    // Emits loaded(); the analyses start with startAnalyses().
    void setTraceSet(TraceSetPtr set);

    TraceSetPtr traceSet() const { return m_set; }

    // Null when nothing is open.
    std::shared_ptr<core::TraceAnalyses> analyses() const { return m_analyses; }

    // The outputs the views show: each view adds its keys as it is made, and
    // startAnalyses computes those (a new analysis view needs nothing more).
    void addShownOutputs(const std::vector<core::OutputKey>& keys);

    const std::vector<core::OutputKey>& shownOutputs() const { return m_shown; }

    // The views' outputs, then the job path. With a window, over the events
    // starting in it; `anyway`: even over the memory budget.
    void startAnalyses(core::AnalysisMode mode, std::optional<AnalysisWindow> window, bool anyway);
    void startJobPath(bool firstIterationOnly);
    // Only the operator statistics, over a range selected on the timeline.
    void startOperators(std::optional<AnalysisWindow> window);

    bool analysesRunning() const;
    bool jobPathRunning() const;

    AnalysisRunner* runner() const { return m_runner; }

    // The last job path lane's outcome; null while it computes or before.
    JobPathResultsPtr jobPathResults() const { return m_jobPath; }

    // The kept path's frames (what the Overview reads), when the path covers `window`.
    std::shared_ptr<const core::FrameSet> jobPathFrames(const std::optional<AnalysisWindow>& window) const;

    // The job path re-run with what-if rules (kind:BOUND=F or NAME_REGEX=F) on
    // the kept frames; asked before the path is in, it runs once the path is.
    void runWhatIf(const QStringList& rules);
    bool whatIfRunning() const;

signals:
    void loaded(ks::app::TraceSetPtr set);
    void analysesStarted();
    void analysesReady(ks::app::AnalysisResultsPtr results);
    void jobPathStarted();
    void jobPathReady(ks::app::JobPathResultsPtr results);
    void operatorsReady(std::shared_ptr<const ks::core::AnalysisOutput> output);
    void operatorsFailed(const QString& message);
    // A what-if was asked for: its rules (for the fields that show them).
    void whatIfStarted(const QStringList& rules);
    void whatIfReady(std::shared_ptr<const ks::core::JobCriticalPath> after);
    // The rules could not be read, the path was not computed, or the task failed.
    void whatIfFailed(const QString& message);

private:
    void onJobPathFinished(const JobPathResultsPtr& results);

    TraceSetPtr m_set;
    std::shared_ptr<core::TraceAnalyses> m_analyses;
    std::vector<core::OutputKey> m_shown;
    AnalysisRunner* m_runner;
    JobPathResultsPtr m_jobPath; // null while computing
    QStringList m_pendingWhatIf; // asked for before the path was in
    widgets::TaskTracker m_whatIfTasks;
};

} // namespace ks::app
