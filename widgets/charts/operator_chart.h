#pragma once

#include "core/analysis/tables/table.h"
#include "widgets/charts/analysis_chart.h"

namespace ks::widgets {

// The operator statistics' chart: the operators with the most self CPU time,
// largest at the top, as horizontal bars of self time beside their total.
// Bars named "Self CPU" and "CPU total"; a bar's key is its rank from the top.
void buildOperatorChart(AnalysisChart& chart, const core::Table& table, int topCount = 15);

} // namespace ks::widgets
