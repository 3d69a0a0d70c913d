#include "widgets/charts/rank_distribution_chart.h"

#include "widgets/charts/chart_style.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace ks::widgets {

namespace {

    constexpr std::size_t kMaxOutlierLabels = 8;
    // Two outlier labels are at least this share of the ranks apart.
    constexpr double kMinLabelGap = 0.06;

    double quantile(std::vector<double> sorted, double q)
    {
        std::sort(sorted.begin(), sorted.end());
        const double at = q * static_cast<double>(sorted.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(at));
        const auto hi = std::min(lo + 1, sorted.size() - 1);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - static_cast<double>(lo));
    }

} // namespace

std::vector<std::size_t> outlierRanks(const std::vector<double>& values, std::size_t limit)
{
    std::vector<std::size_t> out;
    if (values.size() < 4)
        return out;
    const double q1 = quantile(values, 0.25);
    const double q3 = quantile(values, 0.75);
    const double fence = 1.5 * (q3 - q1);
    auto distance = [&](double v) { return v < q1 - fence ? q1 - v : v > q3 + fence ? v - q3 : 0.0; };
    for (std::size_t i = 0; i < values.size(); ++i)
        if (distance(values[i]) > 0)
            out.push_back(i);
    std::stable_sort(out.begin(), out.end(),
        [&](std::size_t a, std::size_t b) { return distance(values[a]) > distance(values[b]); });
    out.resize(std::min(out.size(), limit));
    return out;
}

void buildRankDistribution(AnalysisChart& chart, const std::vector<std::int64_t>& ranks,
    const std::vector<RankLayer>& layers, std::size_t sortBy, const QString& valueLabel, const QString& title)
{
    if (layers.empty() || (sortBy >= layers.size() && sortBy != kSortByTotal))
        return;
    const std::size_t n = ranks.size();
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    // The value each rank is sorted by, and the height its outlier label sits at.
    const std::size_t stackedUpTo = sortBy == kSortByTotal ? layers.size() - 1 : sortBy;
    std::vector<double> key(n, 0.0);
    for (std::size_t l = 0; l <= stackedUpTo; ++l)
        for (std::size_t i = 0; i < n; ++i)
            key[i] = sortBy == kSortByTotal ? key[i] + layers[l].values[i] : layers[l].values[i];
    std::stable_sort(
        order.begin(), order.end(), [&key](std::size_t a, std::size_t b) { return key[a] > key[b]; });

    QVector<double> x(static_cast<qsizetype>(n));
    std::iota(x.begin(), x.end(), 0.0);
    QVector<double> top(static_cast<qsizetype>(n), 0.0);
    QCPGraph* below = nullptr;
    for (const RankLayer& layer : layers) {
        for (std::size_t i = 0; i < n; ++i)
            top[static_cast<qsizetype>(i)] += layer.values[order[i]];
        auto* graph = chart.addGraph();
        graph->setName(layer.name);
        graph->setPen(QPen(layer.color.darker(130)));
        graph->setBrush(layer.color);
        graph->setData(x, top, true);
        // Filled down to the layer below (or the axis): the layers stack.
        if (below)
            graph->setChannelFillGraph(below);
        below = graph;
    }
    std::vector<double> labelled;
    for (const std::size_t outlier : outlierRanks(key, kMaxOutlierLabels)) {
        const auto position =
            static_cast<double>(std::find(order.begin(), order.end(), outlier) - order.begin());
        // Neighbours in the sorted order would print over each other: the
        // farthest outlier speaks for those next to it.
        if (std::any_of(labelled.begin(), labelled.end(), [&](double other) {
                return std::abs(other - position) < kMinLabelGap * static_cast<double>(n);
            }))
            continue;
        labelled.push_back(position);
        double height = 0;
        for (std::size_t l = 0; l <= stackedUpTo; ++l)
            height += layers[l].values[outlier];
        auto* label = new QCPItemText(&chart);
        label->setObjectName(QStringLiteral("outlier"));
        label->position->setCoords(position, height);
        label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        label->setText(QObject::tr("rank %1").arg(ranks[outlier]));
        label->setColor(chart.palette().color(QPalette::Text));
        label->setClipToAxisRect(false);
    }
    chart.xAxis->setRange(-0.5, static_cast<double>(n) - 0.5);
    const QString sortedBy =
        sortBy == kSortByTotal ? QObject::tr("the total") : layers[sortBy].name.toLower();
    chart.xAxis->setLabel(QObject::tr("%1 ranks, sorted by %2 (largest first)").arg(n).arg(sortedBy));
    chart.yAxis->setRange(0, *std::max_element(top.begin(), top.end()) * 1.08 + 1e-9);
    chart.yAxis->setLabel(valueLabel);
    addTitle(chart, title);
    placeLegendBelow(chart);
}

} // namespace ks::widgets
