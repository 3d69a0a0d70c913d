#pragma once

#include "widgets/charts/analysis_chart.h"

#include <QColor>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <vector>

namespace ks::widgets {

// One category of a box chart over ranks (a kernel, a stream, a copy kind):
// one value per rank that has it.
struct RankBoxCategory
{
    QString name;
    std::vector<std::int64_t> ranks;
    std::vector<double> values;
};

// Categories whose per-rank values would be too many bars (a bar per rank
// and category) drawn as one horizontal box plot per category: median,
// quartiles, whiskers to the farthest value within 1.5 interquartile ranges,
// the values beyond as dots, and the farthest outliers of each category (at
// most three) labelled "rank N" (QCPItemText objects named "outlier").
// Categories keep their order, top to bottom; the plottable is named "ranks".
void buildRankBoxChart(AnalysisChart& chart, const std::vector<RankBoxCategory>& categories,
    const QColor& color, const QString& valueLabel, const QString& title);

} // namespace ks::widgets
