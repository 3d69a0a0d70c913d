#pragma once

#include "core/analysis/table.h"
#include "widgets/analysis/analysis_chart.h"

#include <string>
#include <vector>

namespace ks::widgets {

// Charts of distributions (A3 durations, A5 summaries, A6 launches), drawn on a
// fresh AnalysisChart from the core's tables.

// A3: the kernels with the most time, mean duration per rank with min/max error
// bars. The chart's activatable names are the kernels (a click finds them).
void buildKernelDurationChart(AnalysisChart& chart, const core::Table& table);

// A6: histograms of launch delay, CPU launch duration and GPU duration over
// every rank's launches, one panel each; values above the 99th percentile land
// in the last bin so one outlier does not squash the rest.
void buildLaunchHistograms(AnalysisChart& chart, const std::vector<const core::Table*>& perRank);

// A5: one bar per row at "<stat>.mean" with error bars to "<stat>.min"/".max",
// labelled by the rank and `labelColumn` ("name" of a copy kind, "stream").
void buildSummaryBars(AnalysisChart& chart, const core::Table& table, const std::string& stat,
    const std::string& labelColumn, const QString& valueLabel, const QString& title);

} // namespace ks::widgets
