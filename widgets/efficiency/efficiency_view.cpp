#include "widgets/efficiency/efficiency_view.h"

#include "core/session/efficiency_request.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/common/task_tracker.h"

#include <QLabel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTableView>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace ks::widgets {

namespace {

    struct Computed
    {
        std::shared_ptr<const core::EfficiencyReport> report;
        QString deviceNote;
    };

    QString number(double v, int digits = 4)
    {
        return QString::number(v, 'g', digits);
    }

} // namespace

EfficiencyView::EfficiencyView(TaskPools* pools, QWidget* parent)
    : QWidget(parent)
    , m_tasks(std::make_unique<TaskTracker>(pools, this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("efficiencySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);
    m_splitter = new QSplitter(Qt::Horizontal, this);
    m_chart = new AnalysisChart(m_splitter);
    m_chart->setObjectName(QStringLiteral("rooflineChart"));
    m_chart->setMinimumWidth(240); // its height: AnalysisChart::minimumSizeHint (a readable plot)
    m_table = new AnalysisTableView(m_splitter);
    m_splitter->addWidget(m_chart);
    m_splitter->addWidget(m_table);
    m_splitter->setStretchFactor(0, 3);
    m_splitter->setStretchFactor(1, 2);
    m_splitter->setSizes({ 600, 400 });
    layout->addWidget(m_splitter, 1);
    connect(m_chart, &AnalysisChart::exportRequested, this, &EfficiencyView::chartExportRequested);
    connect(m_table, &AnalysisTableView::exportCsvRequested, this,
        [this] { emit tableExportRequested(m_table); });
    connect(m_chart, &QCustomPlot::plottableClick, this, [this](QCPAbstractPlottable* p, int, QMouseEvent*) {
        const auto it = std::find(m_points.graphs.begin(), m_points.graphs.end(), p);
        if (it != m_points.graphs.end())
            activateRow(m_points.rows[std::size_t(it - m_points.graphs.begin())]);
    });
    connect(m_chart, &QCustomPlot::mouseMove, this, &EfficiencyView::onMouseMove);
    connect(m_table->view(), &QTableView::clicked, this, [this](const QModelIndex& index) {
        const QModelIndex source = m_table->proxy()->mapToSource(index);
        if (source.isValid())
            activateRow(std::size_t(source.row()));
    });
    showMessage(tr("Open a trace to see this analysis."));
}

EfficiencyView::~EfficiencyView() = default;

void EfficiencyView::showMessage(const QString& text)
{
    m_summary->setText(text);
    m_splitter->setVisible(false);
}

QString EfficiencyView::summaryText() const
{
    return m_summary->text();
}

void EfficiencyView::compute(
    std::shared_ptr<const core::TraceSet> set, std::optional<core::AnalysisWindow> window)
{
    compute(
        set && !set->ranks.empty() ? std::make_shared<core::TraceAnalyses>(std::move(set)) : nullptr, window);
}

void EfficiencyView::compute(
    std::shared_ptr<core::TraceAnalyses> analyses, std::optional<core::AnalysisWindow> window)
{
    if (!analyses || analyses->traces().ranks.empty()) {
        m_tasks->cancel();
        m_report.reset();
        showMessage(tr("Open a trace to see this analysis."));
        return;
    }
    showMessage(tr("Computing…"));
    m_tasks->start(
        [analyses = std::move(analyses), window](const TaskContext&) {
            const core::EfficiencyRequest request =
                core::efficiencyRequest(analyses->traces(), {}, {}, window);
            return Computed { analyses->efficiency(request.options),
                QString::fromStdString(request.device.note) };
        },
        [this](Computed computed) {
            show(std::move(computed.report), computed.deviceNote);
            emit this->computed();
        },
        [this](
            const TaskFailure& failure) { showMessage(tr("Could not compute: %1").arg(failure.message)); });
}

void EfficiencyView::show(std::shared_ptr<const core::EfficiencyReport> report, const QString& deviceNote)
{
    m_report = std::move(report);
    const core::EfficiencyReport& r = *m_report;
    if (r.error) {
        showMessage(tr("Could not compute: %1").arg(QString::fromStdString(r.error->describe())));
        return;
    }
    if (r.rows.empty()) {
        showMessage(tr("Not applicable: no call of a modelled op (GEMM, attention, convolution, elementwise, "
                       "reduction, normalisation, RoPE) launched GPU work"));
        return;
    }
    QStringList lines;
    lines << deviceNote;
    if (!r.shapesRecorded)
        lines << QString::fromLatin1(core::kNoShapesMessage) + tr(": kernel time only, no FLOPs");
    else if (r.mfu.mfu)
        lines << tr("MFU %1 % of %2 (%3 TFLOP/s): %4 TFLOP in %5 ms of steps")
                     .arg(number(*r.mfu.mfu * 100, 3), QString::fromStdString(r.mfu.peakLabel),
                         number(r.mfu.peakTflops), number(r.mfu.modelFlops / 1e12),
                         number(r.mfu.stepTimeUs / 1000));
    for (const std::string& line : core::skippedLines(r))
        lines << QString::fromStdString(line);
    m_summary->setText(lines.join(QStringLiteral(" · ")));
    m_rowOfCall.clear();
    for (std::size_t i = 0; i < r.rows.size(); ++i)
        for (const core::EfficiencyCall& c : r.rows[i].callList)
            m_rowOfCall.emplace(std::pair { c.rankIndex, c.slice }, i);
    m_chart->reset();
    m_points = buildRooflineChart(*m_chart, r);
    m_chart->replot();
    m_tableOwner = std::make_shared<const core::AnalysisOutput>(
        core::AnalysisOutput::of(core::HtaResult::dataFrame(core::efficiencyTable(r))));
    m_table->setTable(m_tableOwner, &m_tableOwner->result.frame);
    m_splitter->setVisible(true);
}

const core::EfficiencyRow* EfficiencyView::rowOfCall(std::uint32_t rankIndex, std::uint32_t slice) const
{
    const auto it = m_rowOfCall.find({ rankIndex, slice });
    return it == m_rowOfCall.end() || !m_report ? nullptr : &m_report->rows[it->second];
}

void EfficiencyView::activateRow(std::size_t row)
{
    if (!m_report || row >= m_report->rows.size())
        return;
    std::vector<core::EfficiencyCall> calls = m_report->rows[row].callList;
    std::stable_sort(
        calls.begin(), calls.end(), [](const core::EfficiencyCall& a, const core::EfficiencyCall& b) {
            return a.kernelTime > b.kernelTime;
        });
    emit callsActivated(calls);
}

void EfficiencyView::onMouseMove(QMouseEvent* event)
{
    if (!m_report)
        return;
    // The nearest point under the cursor, within its disc.
    const QPointF at = event->position();
    for (std::size_t k = m_points.graphs.size(); k-- > 0;) {
        QCPGraph* g = m_points.graphs[k];
        if (g->data()->isEmpty())
            continue;
        const auto point = g->data()->constBegin();
        const QPointF centre = g->coordsToPixels(point->key, point->value);
        const double radius = std::max(4.0, g->scatterStyle().size() / 2);
        if (QLineF(centre, at).length() > radius)
            continue;
        const core::EfficiencyRow& r = m_report->rows[m_points.rows[k]];
        QString text = QStringLiteral("<b>%1</b> (%2)<br>%3<br>%4<br>")
                           .arg(QString::fromStdString(r.name).toHtmlEscaped(),
                               QString::fromLatin1(core::opFamilyName(r.family).data()),
                               QString::fromStdString(r.dims).toHtmlEscaped(),
                               QString::fromStdString(r.dtypes).toHtmlEscaped());
        text += tr("%1 calls, %2 µs of kernels (mean %3 µs)<br>")
                    .arg(r.calls)
                    .arg(number(r.kernelTimeUsSum))
                    .arg(number(r.kernelTimeUsMean()));
        text += tr("%1 GFLOP, %2 MiB per call; %3 FLOP/B<br>%4 TFLOP/s, %5 TB/s (means of calls)")
                    .arg(number(r.flops / 1e9), number(r.bytes / 1048576.0), number(r.intensity()),
                        number(r.tflopsMean), number(r.tbpsMean));
        if (r.peak)
            text += tr("<br>%1 % of roofline (%2, %3-bound)")
                        .arg(number(r.rooflinePctMean, 3), QString::fromStdString(r.peak->label),
                            r.computeBound ? tr("compute") : tr("memory"));
        QToolTip::showText(event->globalPosition().toPoint(), text, m_chart);
        return;
    }
    QToolTip::hideText();
}

} // namespace ks::widgets
