#include "widgets/analysis/rank_overview_panel.h"

#include "widgets/analysis/analysis_chart.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace ks::widgets {

RankOverviewPanel::RankOverviewPanel(AnalysisChart* chart, const core::Table& table, QWidget* parent)
    : QWidget(parent)
    , m_chart(chart)
    , m_table(table)
    , m_metrics(new QComboBox(this))
    , m_note(new QLabel(this))
{
    m_metrics->setObjectName(QStringLiteral("metricChooser"));
    for (RankOverviewMetric metric : kRankOverviewMetrics)
        m_metrics->addItem(rankOverviewMetricLabel(metric), static_cast<int>(metric));
    m_metrics->setSizeAdjustPolicy(QComboBox::AdjustToContents);
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
    layout->addWidget(m_chart, 1);
    layout->addWidget(m_note);

    connect(m_metrics, &QComboBox::currentIndexChanged, this, [this] {
        redraw();
        m_chart->replot();
    });
    redraw();
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
}

} // namespace ks::widgets
