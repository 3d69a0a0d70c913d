#pragma once

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/tables/hta_result.h"
#include "core/session/trace_analyses.h"
#include "widgets/charts/analysis_chart.h"
#include "widgets/efficiency/roofline_chart.h"

#include <QWidget>

#include <map>
#include <memory>
#include <optional>

class QLabel;
class QSplitter;

namespace ks::widgets {

class AnalysisTableView;
class TaskPools;
class TaskTracker;

// The Efficiency dock: the roofline chart (roofline_chart.h) beside the sortable
// table of core::efficiencyTable, above a line with the device, the steps' MFU and
// the calls skipped per reason. It computes core::efficiencyReport on the job pools
// for a trace set and, optionally, the calls starting in a time range. A hover names
// a point's op, shape and numbers; a click on a point or a table row asks the app to
// select that op's kernels on the timeline (callsActivated).
class EfficiencyView : public QWidget
{
    Q_OBJECT

public:
    EfficiencyView(TaskPools* pools, QWidget* parent = nullptr);
    ~EfficiencyView() override;

    // The report of the session's traces (nullptr clears): the session computes
    // it once, and the Overview's MFU over the same window reads the same one.
    // window: [start, end) ns on the trace's clock.
    void compute(std::shared_ptr<core::TraceAnalyses> analyses, std::optional<core::AnalysisWindow> window);
    // The same over a session of its own.
    void compute(std::shared_ptr<const core::TraceSet> set, std::optional<core::AnalysisWindow> window);
    void showMessage(const QString& text);

    const core::EfficiencyReport* report() const { return m_report.get(); }

    AnalysisChart* chart() const { return m_chart; }

    AnalysisTableView* table() const { return m_table; }

    QString summaryText() const;

    // The call of a slice, for the Details panel: its row, or nullptr.
    const core::EfficiencyRow* rowOfCall(std::uint32_t rankIndex, std::uint32_t slice) const;

signals:
    // The calls of one row (op and shape), longest first.
    void callsActivated(const std::vector<ks::core::EfficiencyCall>& calls);
    void chartExportRequested(ks::widgets::ChartFormat format);
    void tableExportRequested(ks::widgets::AnalysisTableView* table);
    void computed(); // a result or its reason is shown

private:
    void show(std::shared_ptr<const core::EfficiencyReport> report, const QString& deviceNote);
    void activateRow(std::size_t row);
    void onMouseMove(QMouseEvent* event);

    std::unique_ptr<TaskTracker> m_tasks;
    std::shared_ptr<const core::EfficiencyReport> m_report;
    std::shared_ptr<const core::AnalysisOutput> m_tableOwner;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::size_t> m_rowOfCall;
    RooflinePoints m_points;
    QLabel* m_summary = nullptr;
    QSplitter* m_splitter = nullptr;
    AnalysisChart* m_chart = nullptr;
    AnalysisTableView* m_table = nullptr;
};

} // namespace ks::widgets
