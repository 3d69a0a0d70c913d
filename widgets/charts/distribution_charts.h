#pragma once

#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/table.h"
#include "widgets/charts/analysis_chart.h"

#include <string>
#include <vector>

namespace ks::widgets {

// Charts of distributions (A3 durations, A5 summaries, A6 launches), drawn on a
// fresh AnalysisChart from the core's tables.

// A3: the kernels with the most time, mean duration per rank with min/max error
// bars. The chart's activatable names are the kernels (a click finds them).
void buildKernelDurationChart(AnalysisChart& chart, const core::Table& table);

// The same for HTA's user-annotation breakdown (same columns): mean duration per
// annotation, whiskers min–max, in µs, ms or s as the values need, without a title row
// (the User Annotations view's tab names it); a click on a bar finds the annotation on
// the timeline.
void buildAnnotationDurationChart(AnalysisChart& chart, const core::Table& table);

// Kernel time per user annotation (core::kernelTimeByAnnotation, the kernel views'
// "Group by annotation"): the total per annotation and rank; a click on a bar finds the
// annotation on the timeline.
void buildKernelsByAnnotationChart(AnalysisChart& chart, const core::Table& table);

// A6: histograms of launch delay, CPU launch duration and GPU duration over
// every rank's launches, one panel each; values above the 99th percentile land
// in the last bin so one outlier does not squash the rest.
void buildLaunchHistograms(AnalysisChart& chart, const std::vector<const core::Table*>& perRank);

// The columns of an A5 summary (memory_bw_summary, queue_length_summary) a chart reads.
struct SummaryColumns
{
    core::ColumnId rank, label, mean, min, max;
};

// A5: one bar per row at the mean with error bars to min/max, labelled by the
// rank and the label column (the copy kind's name, the stream).
void buildSummaryBars(AnalysisChart& chart, const core::Table& table, const SummaryColumns& columns,
    const QString& valueLabel, const QString& title);

} // namespace ks::widgets
