#pragma once

#include "core/analysis/tables/table.h"
#include "widgets/charts/analysis_chart.h"

#include <QSize>
#include <QString>

namespace ks::widgets {

// The format a file name asks for by its extension (PNG when unknown).
ChartFormat chartFormatOf(const QString& path);

// Writes the chart at `size` logical pixels; PNG is rendered at `scale`
// (2 = twice the pixels, for print or high-DPI slides). SVG and PDF are vector.
bool saveChart(AnalysisChart& chart, const QString& path, ChartFormat format, QSize size, double scale = 1.0);

// Writes the whole table (not only the filtered rows) as RFC 4180 CSV with its header.
bool saveTableCsv(const core::Table& table, const QString& path);

} // namespace ks::widgets
