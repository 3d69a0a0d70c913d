#pragma once

#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/tables/table.h"
#include "widgets/charts/analysis_chart.h"

#include <QString>

#include <array>

namespace ks::widgets {

// The X1 rank overview drawn as a heat map: iterations on x, ranks on y, one
// cell per (rank, iteration) coloured by the chosen metric, stragglers outlined.

enum class RankOverviewMetric
{
    IdlePct,
    ComputePct,
    NonComputePct,
    OverlapPct,
    StepTime,
    GpuBusy
};

inline constexpr std::array<RankOverviewMetric, 6> kRankOverviewMetrics = { RankOverviewMetric::IdlePct,
    RankOverviewMetric::ComputePct, RankOverviewMetric::NonComputePct, RankOverviewMetric::OverlapPct,
    RankOverviewMetric::StepTime, RankOverviewMetric::GpuBusy };

// "Idle %", "Step time (µs)": the chooser's entry and the colour scale's label.
QString rankOverviewMetricLabel(RankOverviewMetric metric);

// The core table's column the metric reads ("idle_pct", "step_time_us").
core::ColumnId rankOverviewMetricColumn(RankOverviewMetric metric);

// Draws the heat map (a QCPColorMap named "heatmap") with its colour scale on a
// chart. It may be called again on the same chart with another metric: it
// replaces the map and outlines and reuses the colour scale.
void buildRankOverviewHeatMap(AnalysisChart& chart, const core::Table& table, RankOverviewMetric metric);

// Outlines the cell of (rank, iteration) as the selected one (an item named
// "selectedCell"), replacing the previous outline. False when the heat map has
// no such cell.
bool markRankOverviewCell(
    AnalysisChart& chart, const core::Table& table, std::int64_t rank, std::int64_t iteration);

// Whether any rank had GPU work (a gpu_busy_us above zero). Without it, idle,
// compute and overlap percentages are empty and the straggler flag, which
// compares GPU busy time, cannot flag anyone: a CPU-only (gloo) job.
bool rankOverviewHasGpuWork(const core::Table& table);

// The metric a panel opens with: idle % where there was GPU work, else step time.
RankOverviewMetric defaultRankOverviewMetric(const core::Table& table);

// "Stragglers: rank 3 in iteration 552, …", that there are none, or, for a job
// without GPU work, that the flag does not apply.
QString rankOverviewStragglerNote(const core::Table& table);

} // namespace ks::widgets
