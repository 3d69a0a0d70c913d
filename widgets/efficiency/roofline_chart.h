#pragma once

#include "core/analysis/efficiency/efficiency.h"
#include "widgets/charts/analysis_chart.h"

#include <QColor>

#include <vector>

namespace ks::widgets {

// The roofline of an efficiency report on a log-log chart: arithmetic intensity
// (FLOP/byte) against achieved TFLOP/s, the device's compute roofs per precision and
// unit and its bandwidth slope drawn, one disc per row (op and shape) whose area is
// the row's total kernel time and whose colour is its family. Rows without FLOPs
// (time-only tables, zero FLOPs) are left out. Returns, per graph the chart made
// for a point, the report row it shows (pointRows[i] for the i-th point graph).
struct RooflinePoints
{
    std::vector<QCPGraph*> graphs;
    std::vector<std::size_t> rows;
};

RooflinePoints buildRooflineChart(AnalysisChart& chart, const core::EfficiencyReport& report);

QColor familyColor(core::OpFamily family);

} // namespace ks::widgets
