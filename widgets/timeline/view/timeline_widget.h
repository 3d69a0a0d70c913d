#pragma once

#include "widgets/common/task_tracker.h"
#include "widgets/timeline/model/timeline_types.h"

#include <QWidget>

#include <memory>

class QAction;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QScrollBar;
class QTimer;
class QToolButton;

namespace ks::core {
struct JobCriticalPath;
struct TraceSet;
} // namespace ks::core

namespace ks::core {
class TraceAnalyses;
} // namespace ks::core

namespace ks::widgets {

class SearchResults;
class TimelineData;
class TimelineLegend;
class TimelineView;
class TimelineViewState;

// The timeline with its toolbar: history and fit buttons, search (T6), colour
// mode and legend (T10), alignment (T8), flows (T4), and the vertical scroll
// bar. Prepares TimelineData off the GUI thread when a trace set arrives, then
// adds the analysis counters (queue length, bandwidth) when they are computed.
class TimelineWidget : public QWidget
{
    Q_OBJECT

public:
    // Background work (building the data, counters, critical paths, search) runs on `pools`.
    TimelineWidget(TimelineViewState* state, TaskPools* pools, QWidget* parent = nullptr);
    ~TimelineWidget() override;

    // Builds the timeline of a trace set in the background; null clears it.
    void setTraceSet(std::shared_ptr<const core::TraceSet> set);
    // The load's session (null: nothing open): its traces, with the collectives it matched.
    void setAnalyses(std::shared_ptr<core::TraceAnalyses> analyses);
    // Shows prepared data at once (tests, benchmark). resetView fits the view.
    void setData(std::shared_ptr<const TimelineData> data, bool resetView = true);

    std::shared_ptr<const TimelineData> data() const { return m_data; }

    bool isPreparing() const { return m_preparing; }

    TimelineView* view() const { return m_view; }

    TimelineViewState* state() const { return m_state; }

    QLineEdit* searchField() const { return m_search; }

    std::shared_ptr<const SearchResults> searchResults() const { return m_results; }

    void focusSearch();
    // Runs the search in the field now (no debounce); blocks when `wait`.
    void searchNow(bool wait = false);
    void stepSearch(bool forward);

    TimelineLegend* legend() const { return m_legend; }

    // Offers a colour mode the toolbar lacks by default (the compare window's diff mode).
    void addColorMode(ColorMode mode, const QString& label);
    // Highlights results computed elsewhere (the diff table's row: a name on every rank).
    void showSearchResults(std::shared_ptr<const SearchResults> results);

    // T10: computes every rank's critical path in the background (once per
    // trace set); the critical path colour mode starts it.
    void startCriticalPaths();

    // X3: the job's critical path across ranks, shown in the job path colour
    // mode once its slices are found (in the background). Null clears it; a
    // new trace set clears it too.
    void setJobPath(std::shared_ptr<const core::JobCriticalPath> job);

    bool exportImage(const QString& path) const;
    bool exportSvg(const QString& path) const;

signals:
    void dataChanged();
    // The timeline of the last trace set is complete (counters included).
    void ready();
    void searchResultsChanged();
    void criticalPathsReady();
    // The job path's slices were found (or cleared): the data holds them.
    void jobPathReady();
    // A background job failed (out of memory): what the window's message bar says.
    void jobFailed(const QString& message);

private:
    void setupToolbar(QHBoxLayout* bar);
    void setupConnections();
    void applySearch(std::shared_ptr<const SearchResults> results);
    void updateMatchLabel();
    void updateScrollBar();
    void syncAlignmentBox();
    void updateCriticalPathNote();
    void updateLegendNote();
    void startJobPathMarks();
    void startAnalysisCounters(std::shared_ptr<const TimelineData> data);

    TimelineViewState* m_state = nullptr;
    TimelineView* m_view = nullptr;
    QScrollBar* m_scroll = nullptr;
    QToolButton* m_back = nullptr;
    QToolButton* m_forward = nullptr;
    QToolButton* m_fit = nullptr;
    QLineEdit* m_search = nullptr;
    QAction* m_regex = nullptr;
    QAction* m_caseSensitive = nullptr;
    QToolButton* m_prev = nullptr;
    QToolButton* m_next = nullptr;
    QLabel* m_matches = nullptr;
    QComboBox* m_colorMode = nullptr;
    QComboBox* m_alignment = nullptr;
    QToolButton* m_flows = nullptr;
    TimelineLegend* m_legend = nullptr;
    QLabel* m_hover = nullptr;
    QTimer* m_searchDebounce = nullptr;

    std::shared_ptr<const TimelineData> m_data;
    std::shared_ptr<const SearchResults> m_results;
    std::shared_ptr<const CollectiveAnchor> m_lastAnchor; // the last collective aligned on
    TaskTracker m_buildTasks; // the data of the last trace set, then its analysis counters
    TaskTracker m_searchTasks;
    TaskTracker m_criticalPathTasks; // for the data shown since the last resetView
    TaskTracker m_jobPathTasks; // the job path's slices in the data shown
    std::shared_ptr<const core::JobCriticalPath> m_jobPath; // of the last trace set
    // The critical paths of the shown data are computed or computing.
    bool m_criticalPathsRequested = false;
    bool m_preparing = false;
};

} // namespace ks::widgets
