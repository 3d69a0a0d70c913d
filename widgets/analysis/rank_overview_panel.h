#pragma once

#include "core/analysis/cross_rank/stragglers.h"
#include "core/analysis/tables/table.h"
#include "widgets/charts/rank_overview_chart.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QTableWidget;

namespace ks::widgets {

class AnalysisChart;
class NotComputedNotice;

// X1's chart side: a metric chooser above the rank-by-iteration heat map and a
// note naming the stragglers below it, then the job path's stragglers (issue
// 11 item 5): per iteration the rank the others waited for, the wait it
// caused and why. Clicking one outlines its cell and asks to show the reason's
// op on the timeline. While the job path computes, or where it was not
// computed or failed, a status line says so in place of the list. The table
// must outlive the panel (the analysis view holding both keeps the result alive).
class RankOverviewPanel : public QWidget
{
    Q_OBJECT

public:
    // Takes `chart` into its layout and draws the first metric (idle %) on it.
    RankOverviewPanel(AnalysisChart* chart, const core::Table& table, QWidget* parent = nullptr);

    QComboBox* metricChooser() const { return m_metrics; }

    QLabel* stragglerNote() const { return m_note; }

    QTableWidget* stragglerTable() const { return m_stragglers; }

    RankOverviewMetric metric() const;
    void setMetric(RankOverviewMetric metric);

    // The job path's stragglers (core::findStragglers); empty hides the list.
    void setStragglers(std::vector<core::Straggler> found);
    // No list: why ("computing…", an error). The app shows "not computed" on
    // stragglerStatus() itself and hears its buttons there.
    void showStragglerStatus(const QString& text);

    NotComputedNotice* stragglerStatus() const { return m_status; }

    // Selects the straggler of row `row`: outlines its cell, emits stragglerActivated.
    void activateStraggler(int row);

signals:
    // rank number, and the traceEvents index of the reason's op (-1 when none).
    void stragglerActivated(std::int64_t rank, std::int64_t reasonEvent);

private:
    void redraw();

    AnalysisChart* m_chart;
    const core::Table& m_table;
    QComboBox* m_metrics;
    QLabel* m_note;
    QTableWidget* m_stragglers;
    NotComputedNotice* m_status;
    std::vector<core::Straggler> m_found;
    int m_selected = -1; // row of m_found outlined on the heat map
};

} // namespace ks::widgets
