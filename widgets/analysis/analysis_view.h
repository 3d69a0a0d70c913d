#pragma once

#include "core/analysis/tables/hta_result.h"
#include "widgets/analysis/analysis_chart.h"

#include <QList>
#include <QWidget>

#include <memory>

class QLabel;
class QSplitter;
class QStackedWidget;
class QTabWidget;

namespace ks::widgets {

class AnalysisTableView;
class NotComputedNotice;

// Which chart an analysis view draws from its result's tables.
enum class AnalysisChartKind
{
    Temporal, // A1
    Idle, // A2
    KernelTypes, // A3, first frame
    KernelDurations, // A3, second frame
    Overlap, // A4
    MemoryBandwidth, // A5 summary
    QueueLength, // A5 summary
    LaunchStats, // A6, one frame per rank
    RankOverview, // X1: heat map with a metric chooser
    Operators, // per-operator statistics (PyTorch's key_averages)
    UserAnnotations, // HTA's user-annotation breakdown: mean duration per annotation
    TableOnly // an HTA call whose tables say it all (aten-op delays, CUPTI counters, HTA's stragglers)
};

// The content of one analysis dock: a "computing…" or "not applicable" message
// until a result arrives, then the chart beside its table(s). The splitter
// stacks them when the dock is taller than wide. When the app did not compute
// the analysis for memory, its notice says what it would need.
class AnalysisView : public QWidget
{
    Q_OBJECT

public:
    explicit AnalysisView(AnalysisChartKind kind, QWidget* parent = nullptr);

    AnalysisChartKind kind() const { return m_kind; }

    void showMessage(const QString& message);
    // Not computed: needs about needBytes, over budgetBytes; [Compute anyway].
    void showNotComputed(std::uint64_t needBytes, std::uint64_t budgetBytes);
    void setResult(std::shared_ptr<const core::AnalysisOutput> output);

    // The message or not-computed line shown in place of a result; empty with a result.
    QString message() const;

    NotComputedNotice* notice() const { return m_notice; }

    bool hasResult() const { return m_output != nullptr; }

    // Null until a result is shown.
    AnalysisChart* chart() const { return m_chart; }

    QList<AnalysisTableView*> tables() const { return m_tables; }

signals:
    void chartExportRequested(ks::widgets::ChartFormat format);
    void tableExportRequested(ks::widgets::AnalysisTableView* table);
    void nameActivated(const QString& name);

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    // The frames this view shows as tables: (tab title, table).
    std::vector<std::pair<QString, const core::Table*>> shownFrames() const;
    void buildChart(const std::vector<std::pair<QString, const core::Table*>>& frames);

    AnalysisChartKind m_kind;
    std::shared_ptr<const core::AnalysisOutput> m_output;
    QStackedWidget* m_pages = nullptr;
    QWidget* m_messagePage = nullptr;
    QLabel* m_message = nullptr;
    NotComputedNotice* m_notice = nullptr;
    QSplitter* m_splitter = nullptr;
    QTabWidget* m_tabs = nullptr;
    AnalysisChart* m_chart = nullptr;
    // What the splitter shows beside the tables: the chart, or a panel holding it.
    QWidget* m_chartHost = nullptr;
    QList<AnalysisTableView*> m_tables;
};

} // namespace ks::widgets
