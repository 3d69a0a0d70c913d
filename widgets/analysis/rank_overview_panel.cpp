#include "widgets/analysis/rank_overview_panel.h"

#include "widgets/charts/analysis_chart.h"
#include "widgets/common/not_computed_notice.h"
#include "widgets/common/table_view_utils.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace ks::widgets {

RankOverviewPanel::RankOverviewPanel(AnalysisChart* chart, const core::Table& table, QWidget* parent)
    : QWidget(parent)
    , m_chart(chart)
    , m_table(table)
    , m_metrics(new QComboBox(this))
    , m_note(new QLabel(this))
    , m_stragglers(new QTableWidget(0, 4, this))
    , m_status(new NotComputedNotice(this))
{
    m_metrics->setObjectName(QStringLiteral("metricChooser"));
    for (RankOverviewMetric metric : kRankOverviewMetrics)
        m_metrics->addItem(rankOverviewMetricLabel(metric), static_cast<int>(metric));
    m_metrics->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    // A CPU-only job has no idle %: open on a metric it has.
    m_metrics->setCurrentIndex(m_metrics->findData(static_cast<int>(defaultRankOverviewMetric(table))));
    m_note->setObjectName(QStringLiteral("stragglerNote"));
    m_note->setWordWrap(true);
    m_note->setText(rankOverviewStragglerNote(table));

    auto* chooserRow = new QHBoxLayout;
    chooserRow->setContentsMargins(4, 2, 4, 0);
    chooserRow->addWidget(new QLabel(tr("Metric:"), this));
    chooserRow->addWidget(m_metrics);
    chooserRow->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addLayout(chooserRow);
    m_stragglers->setObjectName(QStringLiteral("jobPathStragglers"));
    m_stragglers->setHorizontalHeaderLabels(
        { tr("Iteration"), tr("Waited for"), tr("Wait caused"), tr("Why (job critical path)") });
    m_stragglers->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_stragglers->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_stragglers->setSelectionMode(QAbstractItemView::SingleSelection);
    m_stragglers->verticalHeader()->hide();
    m_stragglers->horizontalHeader()->setStretchLastSection(true);
    m_stragglers->setToolTip(tr("Click a row: its cell is outlined on the heat map and the op it names "
                                "is shown on the timeline"));
    m_stragglers->hide();
    // Beside the heat map: a dock is wider than tall, and the map needs its height.
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_chart);
    splitter->addWidget(m_stragglers);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    splitter->setCollapsible(1, false);
    layout->addWidget(splitter, 1);
    layout->addWidget(m_note);
    m_status->setObjectName(QStringLiteral("stragglerStatus"));
    m_status->setPrefix(tr("Stragglers (job critical path): "));
    m_status->setContentsMargins(4, 0, 4, 2);
    m_status->hide();
    layout->addWidget(m_status);

    connect(m_metrics, &QComboBox::currentIndexChanged, this, [this] {
        redraw();
        m_chart->replot();
    });
    connect(m_stragglers, &QTableWidget::cellClicked, this, [this](int row, int) { activateStraggler(row); });
    connect(
        m_stragglers, &QTableWidget::cellActivated, this, [this](int row, int) { activateStraggler(row); });
    redraw();
}

void RankOverviewPanel::setStragglers(std::vector<core::Straggler> found)
{
    m_found = std::move(found);
    m_selected = -1;
    m_stragglers->setRowCount(static_cast<int>(m_found.size()));
    int row = 0;
    for (const core::Straggler& s : m_found) {
        const QList<QTableWidgetItem*> cells { s.iteration < 0 ? new QTableWidgetItem(QStringLiteral("-"))
                                                               : identifierItem(s.iteration),
            new QTableWidgetItem(tr("rank %1").arg(s.rank)), durationItem(s.waitCaused),
            new QTableWidgetItem(QString::fromStdString(s.why)) };
        for (int c = 0; c < cells.size(); ++c) {
            cells[c]->setToolTip(QString::fromStdString(s.why));
            m_stragglers->setItem(row, c, cells[c]);
        }
        ++row;
    }
    m_stragglers->resizeColumnsToContents();
    m_stragglers->setVisible(!m_found.empty());
    // An empty list says so: a hidden table and a stale "computing…" read as still waiting.
    m_status->showText(m_found.empty() ? tr("No stragglers: no rank kept the others waiting on the job's "
                                            "critical path.")
                                       : QString());
    m_status->setVisible(m_found.empty());
    redraw();
    m_chart->replot();
}

void RankOverviewPanel::showStragglerStatus(const QString& text)
{
    setStragglers({});
    m_status->showText(text);
    m_status->show();
}

void RankOverviewPanel::activateStraggler(int row)
{
    if (row < 0 || static_cast<std::size_t>(row) >= m_found.size())
        return;
    m_selected = row;
    m_stragglers->selectRow(row);
    redraw();
    m_chart->replot();
    const core::Straggler& s = m_found[static_cast<std::size_t>(row)];
    emit stragglerActivated(s.rank, s.reasonEvent);
}

RankOverviewMetric RankOverviewPanel::metric() const
{
    return static_cast<RankOverviewMetric>(m_metrics->currentData().toInt());
}

void RankOverviewPanel::setMetric(RankOverviewMetric metric)
{
    m_metrics->setCurrentIndex(m_metrics->findData(static_cast<int>(metric)));
}

void RankOverviewPanel::redraw()
{
    buildRankOverviewHeatMap(*m_chart, m_table, metric());
    if (m_selected >= 0) {
        const core::Straggler& s = m_found[static_cast<std::size_t>(m_selected)];
        markRankOverviewCell(*m_chart, m_table, s.rank, s.iteration);
    }
}

} // namespace ks::widgets
