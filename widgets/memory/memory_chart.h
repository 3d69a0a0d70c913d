#pragma once

#include "widgets/charts/analysis_chart.h"
#include "widgets/memory/memory_view_data.h"

#include <vector>

namespace ks::widgets {

// What buildMemoryChart drew, for the view's range overlay and the tests.
struct MemoryChartItems
{
    std::vector<QCPGraph*> allocated; // per device, a step line
    std::vector<QCPGraph*> reserved; // per device with a reserved total, dashed
    // per device whose peak reaches 5 % of the axis: "peak 1.2 GiB · aten::mm"
    std::vector<QCPItemText*> peakLabels;
    QCPItemRect* range = nullptr; // the selected range, on the chart's overlay layer
    double bytesPerUnit = 1; // the value axis' unit (KiB, MiB or GiB)
};

// The rank's allocated (solid) and reserved (dashed) memory per device over
// time as step lines, ms since the rank's time base on x, each device's peak
// marked with its size and the op live there. Expects a fresh chart.
MemoryChartItems buildMemoryChart(AnalysisChart& chart, const MemoryViewData& data);

// Shades [startMs, endMs] on the chart (hides the shade without a range).
void showMemoryRange(AnalysisChart& chart, MemoryChartItems& items, const MemoryViewData& data);

// "peak 1.23 GiB · aten::mm" (the device's name first when the rank has several).
QString peakLabel(const core::DeviceMemorySummary& device, bool withDevice);

} // namespace ks::widgets
