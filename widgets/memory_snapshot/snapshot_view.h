#pragma once

#include "widgets/memory_snapshot/snapshot_overlay_chart.h"
#include "widgets/memory_snapshot/snapshot_steps.h"
#include "widgets/memory_snapshot/snapshot_view_data.h"

#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;
class QPushButton;
class QSplitter;
class QTabWidget;
class QTableView;
class QTableWidget;

namespace ks::widgets {

class ActiveMemoryPlot;
class AllocatorStateWidget;
class SnapshotEventModel;
class SnapshotStepsPage;
class TaskPools;
class TaskTracker;

// The Memory Snapshot view: one torch.cuda.memory._dump_snapshot() pickle as
// memory_viz shows it, beside what it does not: a summary line per device
// (reserved, allocated, active, segments, fragmentation, the peak), the
// Active Memory Timeline (ActiveMemoryPlot) beside four tabs: the allocator
// at the event clicked on the timeline (AllocatorStateWidget), memory_viz's
// event list with allocated/reserved after each, the allocations live at the
// peak by user frame, and, once a second snapshot is given (compareWith), the
// two side by side (snapshot_compare.h). Given the Kineto trace of the same
// run (setTrace), the snapshot is aligned with it (snapshot_align/): its
// ProfilerSteps and annotations are marked on the timeline and a Steps tab
// lists each one's memory. Reading, aligning, summarising and the
// allocator's state run on the window's task pools (TaskTracker), never on
// the GUI thread; a file that is not a snapshot gets one line naming it. The
// view shows no dialog: "Compare with…" asks the app (compareRequested).
class SnapshotView : public QWidget
{
    Q_OBJECT

public:
    explicit SnapshotView(TaskPools* pools, QWidget* parent = nullptr);
    ~SnapshotView() override;

    // Reads the file in the background; loaded() or failed() follows.
    void openSnapshot(const QString& path);
    // Reads a second snapshot and compares the open one (before) with it (after).
    void compareWith(const QString& path);
    // An index into data()->devices.
    void setDeviceIndex(int index);
    // A row of the device's event list: the timeline marks it, the list shows
    // it and the allocator's state at it is computed (stateShown follows).
    void selectRow(int row);
    // The trace to align the snapshot with (null or no rank: none): with its
    // rank the snapshot fits best until the user picks another in the Steps
    // tab (setTraceRank), its times shown since TraceSet::startNs as the
    // timeline shows them. Aligns again whenever the trace or the snapshot
    // changes, with the best fit again.
    void setTrace(std::shared_ptr<const core::TraceSet> set);
    // The rank to align with, an index into the trace set's ranks (-1: the best fit).
    void setTraceRank(int rankIndex);
    // A range of the alignment (an index into its ranges): its row, its band
    // marked and the timeline zoomed to it; rangeActivated follows.
    void selectRange(std::size_t range);
    // Shows a tab: "state", "events", "peak", "steps" or "compare" (false when unknown).
    bool showTab(const QString& name);

    bool isBusy() const;
    // A snapshot being read (openSnapshot until loaded or failed).
    bool isReading() const;

    SnapshotViewDataPtr data() const { return m_data; }

    SnapshotViewDataPtr comparedData() const { return m_other; }

    int deviceIndex() const { return m_device; }

    int selectedRow() const { return m_row; }

    QString path() const { return m_path; }

    QString summaryText() const;
    QString messageText() const;
    QString stateText() const;
    QString comparisonText() const;

    ActiveMemoryPlot* plot() const { return m_plot; }

    AllocatorStateWidget* stateWidget() const { return m_state; }

    QTableView* eventTable() const { return m_events; }

    SnapshotEventModel* eventModel() const { return m_eventModel; }

    QTableWidget* peakTable() const { return m_peak; }

    QTableWidget* comparisonTotals() const { return m_compareTotals; }

    QTableWidget* comparisonFrames() const { return m_compareFrames; }

    // Both snapshots' active memory on one axis (the Comparison tab's chart).
    AnalysisChart* comparisonChart() const { return m_compareChart; }

    const SnapshotOverlayItems& comparisonCurves() const { return m_overlayItems; }

    QComboBox* comparisonAxisChooser() const { return m_compareAxis; }

    QTabWidget* tabs() const { return m_tabs; }

    // The alignment with the trace (null: no trace, no snapshot, or computing).
    SnapshotStepsPtr steps() const { return m_steps; }

    SnapshotStepsPage* stepsPage() const { return m_stepsPage; }

signals:
    void loaded(); // a snapshot is shown
    void failed(const QString& message); // one line naming the file
    void stateShown(); // the allocator's state at the selected row is shown
    void comparisonShown();
    void comparisonFailed(const QString& message);
    void compareRequested(); // the app asks for the second file
    void stepsShown(); // the alignment with the trace is shown, or why there is none
    // A range chosen in the Steps tab or on the timeline, in the trace's store time.
    void rangeActivated(qint64 startNs, qint64 endNs);

private:
    void setupWidgets();
    QWidget* setupTabs();
    void setupConnections();
    void showMessage(const QString& text);
    void showData(SnapshotViewDataPtr data);
    void showDevice();
    void showComparison();
    void showOverlay(const core::SnapshotOverlay* overlay); // null: an empty chart
    void updateSummary();
    void align(); // with the trace given, once both are in
    void showSteps(); // the alignment's marks and rows for the shown device

    std::unique_ptr<TaskTracker> m_loadTasks;
    std::unique_ptr<TaskTracker> m_stateTasks;
    std::unique_ptr<TaskTracker> m_compareTasks;
    std::unique_ptr<TaskTracker> m_alignTasks;
    std::shared_ptr<const core::TraceSet> m_trace;
    int m_traceRank = -1; // asked for in the Steps tab; -1: the best fit
    SnapshotStepsPtr m_steps;
    QString m_path;
    SnapshotViewDataPtr m_data;
    SnapshotViewDataPtr m_other;
    std::vector<core::DeviceComparison> m_comparison;
    std::vector<core::SnapshotOverlay> m_overlayTime; // per device, both curves over time
    std::vector<core::SnapshotOverlay> m_overlaySteps; // ... over memory_viz's steps
    SnapshotOverlayItems m_overlayItems;
    int m_device = 0;
    int m_row = -1;

    QLabel* m_title = nullptr;
    QComboBox* m_deviceChooser = nullptr;
    QPushButton* m_compareButton = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_message = nullptr;
    QSplitter* m_content = nullptr;
    ActiveMemoryPlot* m_plot = nullptr;
    QTabWidget* m_tabs = nullptr;
    QLabel* m_stateLine = nullptr;
    AllocatorStateWidget* m_state = nullptr;
    QTableView* m_events = nullptr;
    SnapshotEventModel* m_eventModel = nullptr;
    QLabel* m_peakLine = nullptr;
    QTableWidget* m_peak = nullptr;
    SnapshotStepsPage* m_stepsPage = nullptr;
    QWidget* m_comparePage = nullptr;
    QLabel* m_compareLine = nullptr;
    QComboBox* m_compareAxis = nullptr; // time or memory_viz's steps
    AnalysisChart* m_compareChart = nullptr;
    QTableWidget* m_compareTotals = nullptr;
    QTableWidget* m_compareFrames = nullptr;
};

} // namespace ks::widgets
