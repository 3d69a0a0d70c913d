#pragma once

#include "app/gui/load_controller.h"
#include "core/analysis/analysis_options.h"
#include "core/analysis/hta_result.h"
#include "core/analysis/job_critical_path.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

#include <map>
#include <memory>
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

// Computes the analyses the docks show (A1-A6, X1) off the GUI thread after a trace
// set loads. Each start bumps a generation: a result computed for a set that
// was since closed, reloaded or recomputed in another mode is dropped.
class AnalysisRunner : public QObject
{
    Q_OBJECT

public:
    explicit AnalysisRunner(QObject* parent = nullptr);
    ~AnalysisRunner() override;

    void start(TraceSetPtr set, core::AnalysisMode mode);
    void clear(); // drops any running computation's result

    bool isRunning() const { return m_running; }

    // The calls computed, by HTA call name.
    static QStringList shownCalls();
    // Where X1's rank overview lies in AnalysisResults::byCall (HTA has no call for it).
    static constexpr const char* kRankOverviewKey = "rank_overview";

signals:
    void started();
    void finished(ks::app::AnalysisResultsPtr results);

private:
    // A pool of the runner's own: the computation blocks one thread while its
    // per-rank work runs on the others. On the global pool, with the timeline's
    // tasks also waiting on nested work, two cores were enough to deadlock.
    QThreadPool m_pool;
    std::uint64_t m_generation = 0;
    bool m_running = false;
};

} // namespace ks::app
Q_DECLARE_METATYPE(ks::app::AnalysisResultsPtr)
