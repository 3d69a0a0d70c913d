#pragma once

#include "core/analysis/tables/hta_result.h"
#include "core/session/output_key.h"
#include "widgets/charts/analysis_chart.h"

#include <QList>
#include <QWidget>

#include <functional>
#include <memory>
#include <optional>

class QComboBox;
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
    UserAnnotations, // HTA's user-annotation breakdown: pie of the top annotations per rank, mean durations
    KernelsByAnnotation, // kernel time per user annotation (core::kernelTimeByAnnotation)
    TableOnly // an HTA call whose tables say it all (aten-op delays, CUPTI counters, HTA's stragglers)
};

// One of the results a view can show, picked by its chooser: GPU or CPU time of the
// user annotations, kernels by name or by annotation.
struct AnalysisVariant
{
    QString title; // "GPU time", shown in the chooser
    AnalysisChartKind kind; // the chart drawn from its result
    core::OutputKey key; // the output it shows
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

    // The output a view without variants shows (its variants' otherwise).
    void setOutputKey(core::OutputKey key) { m_key = key; }

    // Every output the view shows: its own, or its variants', in their order.
    std::vector<core::OutputKey> outputKeys() const;
    // Shows the outputs of outputKeys() found by `find` (null: not computed).
    void showOutputs(const std::function<std::shared_ptr<const core::AnalysisOutput>(core::OutputKey)>& find);

    // Declares the results this view can switch between (a chooser titled `label`
    // above the content); the first is shown first. Without variants the view shows
    // the one result of setResult.
    void setVariants(const QString& label, std::vector<AnalysisVariant> variants);

    const std::vector<AnalysisVariant>& variants() const { return m_variants; }

    // The results of the declared variants, in their order (null: not computed). The
    // chosen variant stays chosen across results.
    void setVariantResults(std::vector<std::shared_ptr<const core::AnalysisOutput>> outputs);

    int currentVariant() const { return m_current; }

    void setCurrentVariant(int index);

    QComboBox* variantChooser() const { return m_chooser; }

    // The chart kind drawn now: the current variant's, else the view's.
    AnalysisChartKind chartKind() const;

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

    // The message page, keeping the variant chooser (a variant that does not apply).
    void setMessage(const QString& message);
    // Shows one output (the view's, or the current variant's).
    void showOutput(std::shared_ptr<const core::AnalysisOutput> output);

    AnalysisChartKind m_kind;
    std::optional<core::OutputKey> m_key;
    std::vector<AnalysisVariant> m_variants;
    std::vector<std::shared_ptr<const core::AnalysisOutput>> m_variantOutputs;
    int m_current = 0;
    QWidget* m_chooserRow = nullptr;
    QLabel* m_chooserLabel = nullptr;
    QComboBox* m_chooser = nullptr;
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
