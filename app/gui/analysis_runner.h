#pragma once

#include "app/gui/load_controller.h"
#include "core/analysis/analysis_options.h"
#include "core/analysis/hta_result.h"

#include <QObject>
#include <QString>
#include <QThreadPool>

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
};

using AnalysisResultsPtr = std::shared_ptr<const AnalysisResults>;

// A window of the trace the analyses are restricted to: absolute ns, [start, end).
struct AnalysisWindow
{
    core::TimeNs start = 0;
    core::TimeNs end = 0;
};

// Computes the analyses the docks show (A1-A6, X1) off the GUI thread after a trace
// set loads. Each start bumps a generation: a result computed for a set that
// was since closed, reloaded or recomputed in another mode is dropped.
class AnalysisRunner : public QObject
{
    Q_OBJECT

public:
    explicit AnalysisRunner(QObject* parent = nullptr);
    ~AnalysisRunner() override;

    // Every dock's analysis; with a window, over the events starting in it.
    void start(TraceSetPtr set, core::AnalysisMode mode, std::optional<AnalysisWindow> window = std::nullopt);
    // Only the operator statistics (a timeline selection changed): delivered by
    // operatorsFinished, with a generation of their own so a running start() survives.
    void startOperators(TraceSetPtr set, std::optional<AnalysisWindow> window);
    void clear(); // drops any running computation's result

    bool isRunning() const { return m_running; }

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
    // A pool of the runner's own: the computation blocks one thread while its
    // per-rank work runs on the others. On the global pool, with the timeline's
    // tasks also waiting on nested work, two cores were enough to deadlock.
    QThreadPool m_pool;
    std::uint64_t m_generation = 0;
    std::uint64_t m_operatorsGeneration = 0;
    bool m_running = false;
};

} // namespace ks::app
Q_DECLARE_METATYPE(ks::app::AnalysisResultsPtr)
