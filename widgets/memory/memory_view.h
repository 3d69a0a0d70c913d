#pragma once

#include "core/session/trace_analyses.h"
#include "widgets/charts/analysis_chart.h"
#include "widgets/memory/memory_chart.h"
#include "widgets/memory/memory_view_data.h"

#include <QWidget>

#include <memory>
#include <optional>

class QComboBox;
class QLabel;
class QSplitter;
class QTabWidget;

namespace ks::widgets {

class AnalysisTableView;
class TaskPools;
class TaskTracker;

// The Memory view of the navigator: one rank's allocated and reserved memory
// per device over time (step lines, each device's peak marked with the op live
// there), beside two sortable tables (tabs): the allocations with their lifetimes and
// the plugin's per-operator memory statistics. A range (dragged on the chart,
// or the timeline's selection the app hands in) keeps the allocations live in
// it and the statistics of the records inside it. The reports come from the
// session (TraceAnalyses::memory, computed once per options) on the task
// pools; a trace without [memory] events gets one line saying how to record them.
class MemoryView : public QWidget
{
    Q_OBJECT

public:
    explicit MemoryView(TaskPools* pools, QWidget* parent = nullptr);
    ~MemoryView() override;

    // The session of a load (null clears): the first rank is shown.
    void setAnalyses(std::shared_ptr<core::TraceAnalyses> analyses);
    // Absolute ns on the trace's clock, both ends inclusive; nullopt: the whole trace.
    void setRange(std::optional<core::MemoryRange> range);
    // An index into the session's ranks.
    void setRankIndex(int index);

    void showMessage(const QString& text);

    // The line shown instead of the chart and tables; empty while they are shown.
    QString messageText() const;
    QString summaryText() const;
    QString rangeText() const;

    const MemoryViewData& data() const { return m_data; }

    const MemoryChartItems& chartItems() const { return m_items; }

    AnalysisChart* chart() const { return m_chart; }

    AnalysisTableView* allocationsTable() const { return m_allocations; }

    AnalysisTableView* statsTable() const { return m_stats; }

signals:
    // A range dragged on the chart, or cleared (nullopt): the app hands it to the timeline.
    void rangeSelected(std::optional<ks::core::MemoryRange> range);
    // A row of the allocations clicked: its lifetime, absolute ns (allocated or
    // released alone when the trace holds one end only), for the timeline to show.
    void allocationActivated(ks::core::TimeNs start, ks::core::TimeNs end);
    void computed(); // a result or why there is none is shown
    void chartExportRequested(ks::widgets::ChartFormat format);
    void tableExportRequested(ks::widgets::AnalysisTableView* table);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void setupWidgets();
    void setupConnections();
    void compute();
    void showData(MemoryViewData data);
    void updateRangeText();
    void onChartRangeDragged(const QRect& pixels);
    void activateAllocation(const QModelIndex& proxyIndex);

    std::unique_ptr<TaskTracker> m_tasks;
    std::shared_ptr<core::TraceAnalyses> m_analyses;
    std::optional<core::MemoryRange> m_range;
    int m_rankIndex = 0;
    bool m_pending = false; // asked for while hidden: computed when shown
    MemoryViewData m_data;
    MemoryChartItems m_items;
    QWidget* m_rankRow = nullptr;
    QComboBox* m_rankChooser = nullptr;
    QLabel* m_summary = nullptr;
    QLabel* m_message = nullptr;
    QSplitter* m_content = nullptr;
    AnalysisChart* m_chart = nullptr;
    QLabel* m_rangeLine = nullptr;
    QTabWidget* m_tabs = nullptr;
    AnalysisTableView* m_allocations = nullptr;
    AnalysisTableView* m_stats = nullptr;
};

} // namespace ks::widgets
