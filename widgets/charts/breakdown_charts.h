#pragma once

#include "core/analysis/tables/table.h"
#include "widgets/charts/analysis_chart.h"

namespace ks::widgets {

// Charts of the time breakdowns (A1-A4), drawn on a fresh AnalysisChart from the
// core's table. Each names its bars so tests and legends can find them.

// A1: per rank, compute / non-compute / idle as stacked % of the rank's span.
// Bars named "Compute", "Non-compute", "Idle"; key i = the table's row i.
void buildTemporalChart(AnalysisChart& chart, const core::Table& table);

// A2: per rank and stream, idle time split into host wait / kernel wait / other (ms).
void buildIdleChart(AnalysisChart& chart, const core::Table& table);

// A3: share of GPU kernel time per kernel type, biggest first, with percentages.
void buildKernelTypeChart(AnalysisChart& chart, const core::Table& table);

// A4: communication/computation overlap % per rank.
void buildOverlapChart(AnalysisChart& chart, const core::Table& table);

} // namespace ks::widgets
