#pragma once

#include "widgets/charts/analysis_chart.h"

#include <QColor>
#include <QString>

#include <cstdint>
#include <vector>

namespace ks::widgets {

// Above this many ranks, per-rank bar charts are drawn as distributions over ranks.
inline constexpr std::size_t kMaxRankBars = 32;

// One stacked quantity of a per-rank chart: a value per rank.
struct RankLayer
{
    QString name;
    QColor color;
    std::vector<double> values;
};

// buildRankDistribution's sortBy for "the sum of every layer".
inline constexpr std::size_t kSortByTotal = static_cast<std::size_t>(-1);

// Many ranks' values as a sorted stacked area: ranks ordered by the layer
// `sortBy` (largest first) along x, the layers stacked on y, and the outlier
// ranks of that layer (or of the total, sortBy kSortByTotal; beyond 1.5 interquartile ranges from the
// quartiles; at most eight, the farthest) labelled "rank N". Graphs are named after the layers; the labels
// are QCPItemText objects named "outlier".
void buildRankDistribution(AnalysisChart& chart, const std::vector<std::int64_t>& ranks,
    const std::vector<RankLayer>& layers, std::size_t sortBy, const QString& valueLabel,
    const QString& title);

// Positions (into `values`) of the outliers, farthest first, at most `limit`.
std::vector<std::size_t> outlierRanks(const std::vector<double>& values, std::size_t limit);

} // namespace ks::widgets
