#include "widgets/analysis/analysis_view.h"

#include "core/analysis/hta/memory_bandwidth.h"
#include "core/analysis/hta/queue_length.h"
#include "core/report/table_text.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/analysis/rank_overview_panel.h"
#include "widgets/analysis/user_annotation_panel.h"
#include "widgets/charts/breakdown_charts.h"
#include "widgets/charts/distribution_charts.h"
#include "widgets/charts/operator_chart.h"
#include "widgets/common/not_computed_notice.h"

#include <QComboBox>
#include <QLabel>
#include <QResizeEvent>
#include <QSplitter>
#include <QStackedWidget>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

namespace ks::widgets {

AnalysisView::AnalysisView(AnalysisChartKind kind, QWidget* parent)
    : QWidget(parent)
    , m_kind(kind)
    , m_pages(new QStackedWidget(this))
    , m_messagePage(new QWidget(this))
    , m_message(new QLabel(m_messagePage))
    , m_notice(new NotComputedNotice(m_messagePage))
    , m_splitter(new QSplitter(Qt::Horizontal, this))
    , m_tabs(new QTabWidget(this))
{
    m_chooserRow = new QWidget(this);
    m_chooserLabel = new QLabel(m_chooserRow);
    m_chooser = new QComboBox(m_chooserRow);
    m_chooser->setObjectName(QStringLiteral("variantChooser"));
    m_chooserLabel->setBuddy(m_chooser);
    auto* chooserLayout = new QHBoxLayout(m_chooserRow);
    chooserLayout->setContentsMargins(6, 4, 6, 0);
    chooserLayout->addWidget(m_chooserLabel);
    chooserLayout->addWidget(m_chooser);
    chooserLayout->addStretch(1);
    m_chooserRow->hide();
    connect(m_chooser, &QComboBox::activated, this, &AnalysisView::setCurrentVariant);
    m_message->setAlignment(Qt::AlignCenter);
    m_message->setWordWrap(true);
    m_message->setForegroundRole(QPalette::PlaceholderText);
    m_tabs->setDocumentMode(true);
    m_splitter->setChildrenCollapsible(false);
    m_splitter->addWidget(m_tabs);
    m_notice->hide();
    auto* messageLayout = new QVBoxLayout(m_messagePage);
    messageLayout->addStretch(1);
    messageLayout->addWidget(m_message);
    // Centred like the messages: the line and its button together, not at the dock's two edges.
    m_notice->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Preferred);
    m_notice->label()->setWordWrap(false); // one short line: wrapped, it would be squeezed to a column
    auto* noticeRow = new QHBoxLayout;
    noticeRow->addStretch(1);
    noticeRow->addWidget(m_notice);
    noticeRow->addStretch(1);
    messageLayout->addLayout(noticeRow);
    messageLayout->addStretch(1);
    m_pages->addWidget(m_messagePage);
    m_pages->addWidget(m_splitter);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(m_chooserRow);
    layout->addWidget(m_pages);
    showMessage(tr("Open a trace to see this analysis."));
}

void AnalysisView::showMessage(const QString& message)
{
    m_variantOutputs.clear();
    m_chooserRow->hide();
    setMessage(message);
}

void AnalysisView::setMessage(const QString& message)
{
    m_output.reset(); // the tables keep what they show alive themselves
    m_message->setText(message);
    m_message->show();
    m_notice->hide();
    m_pages->setCurrentWidget(m_messagePage);
}

void AnalysisView::showNotComputed(std::uint64_t needBytes, std::uint64_t budgetBytes)
{
    showMessage(QString());
    m_message->hide();
    m_notice->showNotComputed(needBytes, budgetBytes);
    m_notice->show();
}

QString AnalysisView::message() const
{
    if (m_pages->currentWidget() != m_messagePage)
        return {};
    return m_notice->isVisibleTo(m_messagePage) ? m_notice->text() : m_message->text();
}

std::vector<std::pair<QString, const core::Table*>> AnalysisView::shownFrames() const
{
    std::vector<std::pair<QString, const core::Table*>> frames;
    if (!m_output)
        return frames;
    const auto all = core::framesOf(m_output->result);
    auto title = [](const std::string& suffix, const core::Table* table) {
        if (suffix.rfind("_rank", 0) == 0)
            return tr("rank %1").arg(QString::fromStdString(suffix.substr(5)));
        return QString::fromStdString(table->name).replace(QChar(u'_'), QChar(u' '));
    };
    for (std::size_t i = 0; i < all.size(); ++i) {
        const AnalysisChartKind kind = chartKind();
        const bool wanted = kind == AnalysisChartKind::KernelTypes ? i == 0
            : kind == AnalysisChartKind::KernelDurations           ? i == 1
                                                                   : true;
        if (wanted)
            frames.emplace_back(title(all[i].first, all[i].second), all[i].second);
    }
    return frames;
}

AnalysisChartKind AnalysisView::chartKind() const
{
    return m_variants.empty() ? m_kind : m_variants[static_cast<std::size_t>(m_current)].kind;
}

std::vector<core::OutputKey> AnalysisView::outputKeys() const
{
    std::vector<core::OutputKey> keys;
    for (const AnalysisVariant& variant : m_variants)
        keys.push_back(variant.key);
    if (keys.empty() && m_key)
        keys.push_back(*m_key);
    return keys;
}

void AnalysisView::showOutputs(
    const std::function<std::shared_ptr<const core::AnalysisOutput>(core::OutputKey)>& find)
{
    if (!m_variants.empty()) { // GPU or CPU time; kernels by name or by annotation
        std::vector<std::shared_ptr<const core::AnalysisOutput>> outputs;
        for (const AnalysisVariant& variant : m_variants)
            outputs.push_back(find(variant.key));
        setVariantResults(std::move(outputs));
        return;
    }
    setResult(m_key ? find(*m_key) : nullptr);
}

void AnalysisView::setVariants(const QString& label, std::vector<AnalysisVariant> variants)
{
    m_variants = std::move(variants);
    m_current = 0;
    m_chooserLabel->setText(label);
    m_chooser->clear();
    for (const AnalysisVariant& v : m_variants)
        m_chooser->addItem(v.title);
}

void AnalysisView::setVariantResults(std::vector<std::shared_ptr<const core::AnalysisOutput>> outputs)
{
    outputs.resize(m_variants.size());
    m_variantOutputs = std::move(outputs);
    m_chooserRow->setVisible(m_variants.size() > 1);
    if (!m_variantOutputs.empty())
        showOutput(m_variantOutputs[static_cast<std::size_t>(m_current)]);
}

void AnalysisView::setCurrentVariant(int index)
{
    if (index < 0 || index >= static_cast<int>(m_variants.size()))
        return;
    m_current = index;
    m_chooser->setCurrentIndex(index);
    if (!m_variantOutputs.empty())
        showOutput(m_variantOutputs[static_cast<std::size_t>(index)]);
}

void AnalysisView::setResult(std::shared_ptr<const core::AnalysisOutput> output)
{
    m_variantOutputs.clear();
    m_chooserRow->hide();
    showOutput(std::move(output));
}

void AnalysisView::showOutput(std::shared_ptr<const core::AnalysisOutput> output)
{
    if (!output || !output->ok) {
        setMessage(
            output ? tr("Not applicable: %1").arg(QString::fromStdString(output->error)) : tr("No result."));
        return;
    }
    m_output = std::move(output);
    m_tabs->clear();
    qDeleteAll(m_tables);
    m_tables.clear();
    const auto frames = shownFrames();
    for (const auto& [title, table] : frames) {
        auto* view = new AnalysisTableView(m_tabs);
        view->setTable(m_output, table);
        connect(view, &AnalysisTableView::exportCsvRequested, this,
            [this, view] { emit tableExportRequested(view); });
        connect(view, &AnalysisTableView::nameActivated, this, &AnalysisView::nameActivated);
        m_tabs->addTab(view, title);
        m_tables.append(view);
    }
    m_tabs->tabBar()->setVisible(frames.size() > 1);
    buildChart(frames);
    m_pages->setCurrentWidget(m_splitter);
}

void AnalysisView::buildChart(const std::vector<std::pair<QString, const core::Table*>>& frames)
{
    // A fresh chart per result: builders add panels and title rows to its layout. The
    // split between chart and tables stays as it was (a wide table must not take it over).
    const QList<int> split = m_chartHost ? m_splitter->sizes() : QList<int> {};
    delete m_chartHost;
    m_chart = new AnalysisChart(m_splitter);
    m_chartHost = m_chart;
    const AnalysisChartKind kind = chartKind();
    if (kind == AnalysisChartKind::RankOverview && !frames.empty())
        m_chartHost = new RankOverviewPanel(m_chart, *frames.front().second, m_splitter);
    if (kind == AnalysisChartKind::UserAnnotations && !frames.empty()) {
        const QString time =
            m_variants.empty() ? tr("time") : m_variants[static_cast<std::size_t>(m_current)].title;
        auto* panel = new UserAnnotationPanel(m_chart, *frames.front().second, time, m_splitter);
        connect(panel, &UserAnnotationPanel::nameActivated, this, &AnalysisView::nameActivated);
        m_chartHost = panel;
    }
    m_splitter->insertWidget(0, m_chartHost);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    if (split.size() == 2 && split[0] > 0 && split[1] > 0)
        m_splitter->setSizes(split);
    connect(m_chart, &AnalysisChart::exportRequested, this, &AnalysisView::chartExportRequested);
    connect(m_chart, &AnalysisChart::nameActivated, this, &AnalysisView::nameActivated);
    if (frames.empty())
        return;
    const core::Table& first = *frames.front().second;
    switch (kind) {
    case AnalysisChartKind::Temporal:
        buildTemporalChart(*m_chart, first);
        break;
    case AnalysisChartKind::Idle:
        buildIdleChart(*m_chart, first);
        break;
    case AnalysisChartKind::KernelTypes:
        buildKernelTypeChart(*m_chart, first);
        break;
    case AnalysisChartKind::KernelDurations:
        buildKernelDurationChart(*m_chart, first);
        break;
    case AnalysisChartKind::Overlap:
        buildOverlapChart(*m_chart, first);
        break;
    case AnalysisChartKind::MemoryBandwidth:
        buildSummaryBars(*m_chart, first,
            { core::memory_bw_summary::kRank, core::memory_bw_summary::kName, core::memory_bw_summary::kMean,
                core::memory_bw_summary::kMin, core::memory_bw_summary::kMax },
            tr("memory bandwidth (GB/s): mean, min–max"), tr("Memory copy bandwidth per rank"));
        break;
    case AnalysisChartKind::QueueLength:
        buildSummaryBars(*m_chart, first,
            { core::queue_length_summary::kRank, core::queue_length_summary::kStream,
                core::queue_length_summary::kMean, core::queue_length_summary::kMin,
                core::queue_length_summary::kMax },
            tr("queued kernels: mean, min–max"), tr("CUDA stream queue length per rank"));
        break;
    case AnalysisChartKind::LaunchStats: {
        std::vector<const core::Table*> perRank;
        for (const auto& frame : frames)
            perRank.push_back(frame.second);
        buildLaunchHistograms(*m_chart, perRank);
        break;
    }
    case AnalysisChartKind::Operators:
        buildOperatorChart(*m_chart, first);
        break;
    case AnalysisChartKind::RankOverview:
        break; // the panel drew it and redraws it when the metric changes
    case AnalysisChartKind::UserAnnotations:
        break; // the panel drew its pie and bars
    case AnalysisChartKind::KernelsByAnnotation:
        buildKernelsByAnnotationChart(*m_chart, first);
        break;
    case AnalysisChartKind::TableOnly:
        m_chartHost->hide(); // the tables take the whole view
        break;
    }
    m_chart->replot();
}

void AnalysisView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Side by side in a wide dock, stacked in a tall (e.g. floating or right-hand) one.
    m_splitter->setOrientation(
        event->size().width() >= event->size().height() * 1.4 ? Qt::Horizontal : Qt::Vertical);
}

} // namespace ks::widgets
