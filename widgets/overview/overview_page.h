#pragma once

// The Overview page: the first thing a user sees after a
// load. The job's headline numbers (step time, GPU busy, exposed communication,
// MFU when known, stragglers) and the insights findings as cards ranked by
// gain, whose links select events on the timeline, zoom to them, or open the
// analysis that proves them. It follows an iteration chosen here and the
// range the window restricts the analyses to; in job mode it shows what the
// job's summary holds.

#include "core/model/trace_set.h"
#include "core/session/trace_analyses.h"
#include "widgets/common/task_tracker.h"
#include "widgets/overview/overview_data.h"

#include <QWidget>

#include <functional>
#include <memory>
#include <optional>
#include <vector>

class QComboBox;
class QGridLayout;
class QLabel;
class QVBoxLayout;

namespace ks::core {
struct FrameSet;
struct JobOverview;
} // namespace ks::core

namespace ks::widgets {

class TimelineData;
class TimelineViewState;

class OverviewPage : public QWidget
{
    Q_OBJECT

public:
    explicit OverviewPage(TaskPools* pools, QWidget* parent = nullptr);
    ~OverviewPage() override;

    // A load's session (null: nothing open); `window` (absolute ns) restricts to
    // a range, `scopeWindow` is the range the session's analyses cover (none: the
    // whole trace). The page reads the session's results where they are what it
    // shows (computeOverview): its job path and insights are not computed again.
    void setAnalyses(std::shared_ptr<core::TraceAnalyses> analyses,
        std::optional<core::AnalysisWindow> window = std::nullopt,
        std::optional<core::AnalysisWindow> scopeWindow = std::nullopt);
    // The same over a session of its own (tests, a set with no session).
    void setTraceSet(
        std::shared_ptr<const core::TraceSet> set, std::optional<core::AnalysisWindow> window = std::nullopt);
    // The session's analyses are running: the page computes once setAnalyses
    // comes, after them, rather than building a second copy of everything at the
    // same time (both at once passed the memory budget).
    void waitForAnalyses(std::shared_ptr<core::TraceAnalyses> analyses,
        std::optional<core::AnalysisWindow> window = std::nullopt);

    bool isWaitingForAnalyses() const { return m_waiting; }

    // Job mode: what the summary holds (null leaves job mode).
    void setJob(std::shared_ptr<const core::JobOverview> job);

    // Asked before each computation on loaded traces: a reason not to start it
    // (over the window's memory budget), or empty to go ahead. The app sets it;
    // without it the page always computes. `scopeWindow` is setAnalyses'.
    using MemoryCheck = std::function<QString(
        const core::TraceAnalyses& analyses, const std::optional<core::AnalysisWindow>& scopeWindow)>;

    void setMemoryCheck(MemoryCheck check) { m_memoryCheck = std::move(check); }

    bool isComputing() const;
    // The line shown instead of (or above) the page's numbers: waiting, not computed, an error.
    QString message() const;

    const OverviewData* data() const { return m_data.get(); }

    // Frames a rank's raw [start, end] (absolute ns) on the timeline.
    static void zoomTimeline(
        const TimelineData& data, TimelineViewState& state, qint64 rank, qint64 start, qint64 end);

signals:
    void eventRequested(qint64 rank, qint64 eventIndex);
    void rangeRequested(qint64 rank, qint64 startNs, qint64 endNs);
    void analysisRequested(const QString& viewId);
    void updated(); // a result, an error or a failure is shown

private:
    void recompute();
    void show(std::shared_ptr<const OverviewData> data);
    void showMessage(const QString& text);
    void showFailure(const TaskFailure& failure);
    // No numbers or cards, `message` in their place.
    void clearResult(const QString& message);
    // A different set starts from "All iterations".
    void resetIterationsFor(const std::shared_ptr<core::TraceAnalyses>& analyses);
    void fillHeadline(const OverviewData& data);
    // The headline tiles in as many columns as the page's width holds (one row at
    // full HD, two at 1280 wide), so none is cut off.
    void placeTiles();
    void fillCards(const OverviewData& data);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    TaskTracker m_tasks;
    std::shared_ptr<core::TraceAnalyses> m_analyses;
    std::optional<core::AnalysisWindow> m_scopeWindow;
    bool m_waiting = false;
    std::shared_ptr<const core::JobOverview> m_job;
    std::optional<core::AnalysisWindow> m_window;
    std::shared_ptr<const OverviewData> m_data;
    MemoryCheck m_memoryCheck;

    QLabel* m_scope = nullptr;
    QComboBox* m_iteration = nullptr;
    QGridLayout* m_headline = nullptr;
    std::vector<QWidget*> m_tiles; // in m_headline, in reading order
    int m_tileColumns = 0; // how m_tiles are placed now
    QVBoxLayout* m_cards = nullptr;
    QLabel* m_message = nullptr;
};

} // namespace ks::widgets
