#pragma once

#include "core/analysis/table.h"
#include "widgets/analysis/rank_overview_chart.h"

#include <QWidget>

class QComboBox;
class QLabel;

namespace ks::widgets {

class AnalysisChart;

// X1's chart side: a metric chooser above the rank-by-iteration heat map and a
// note naming the stragglers below it. The table must outlive the panel (the
// analysis view holding both keeps the result alive).
class RankOverviewPanel : public QWidget
{
    Q_OBJECT

public:
    // Takes `chart` into its layout and draws the first metric (idle %) on it.
    RankOverviewPanel(AnalysisChart* chart, const core::Table& table, QWidget* parent = nullptr);

    QComboBox* metricChooser() const { return m_metrics; }

    QLabel* stragglerNote() const { return m_note; }

    RankOverviewMetric metric() const;
    void setMetric(RankOverviewMetric metric);

private:
    void redraw();

    AnalysisChart* m_chart;
    const core::Table& m_table;
    QComboBox* m_metrics;
    QLabel* m_note;
};

} // namespace ks::widgets
