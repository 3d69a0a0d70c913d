#include "widgets/charts/rank_box_chart.h"

#include "widgets/charts/chart_style.h"
#include "widgets/charts/rank_distribution_chart.h"

#include <algorithm>
#include <cmath>

namespace ks::widgets {

namespace {

    constexpr std::size_t kLabelledOutliersPerBox = 3;
    // Two outlier labels of one box are at least this share of the value axis apart.
    constexpr double kMinLabelGap = 0.12;

    double quantileOfSorted(const std::vector<double>& sorted, double q)
    {
        const double at = q * static_cast<double>(sorted.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(at));
        const auto hi = std::min(lo + 1, sorted.size() - 1);
        return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - static_cast<double>(lo));
    }

    // The box of one category at `key`; values beyond the whiskers are its outliers.
    QCPStatisticalBoxData boxOf(double key, const std::vector<double>& values)
    {
        std::vector<double> sorted = values;
        std::sort(sorted.begin(), sorted.end());
        const double q1 = quantileOfSorted(sorted, 0.25);
        const double q3 = quantileOfSorted(sorted, 0.75);
        const double fence = 1.5 * (q3 - q1);
        double low = q1;
        double high = q3;
        QVector<double> outliers;
        for (const double v : sorted) {
            if (v < q1 - fence || v > q3 + fence)
                outliers << v;
            else {
                low = std::min(low, v);
                high = std::max(high, v);
            }
        }
        return { key, low, q1, quantileOfSorted(sorted, 0.5), q3, high, outliers };
    }

} // namespace

void buildRankBoxChart(AnalysisChart& chart, const std::vector<RankBoxCategory>& categories,
    const QColor& color, const QString& valueLabel, const QString& title)
{
    // Horizontal boxes: category names read on the left, keys on the y axis.
    auto* boxes = new QCPStatisticalBox(chart.yAxis, chart.xAxis);
    boxes->setName(QObject::tr("ranks"));
    boxes->setBrush(color.lighter(140));
    boxes->setPen(QPen(color.darker(150)));
    boxes->setWidth(0.6);
    boxes->setOutlierStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, color.darker(150), 4));
    QStringList labels;
    double largestOverall = 0;
    for (const RankBoxCategory& category : categories)
        for (const double v : category.values)
            largestOverall = std::max(largestOverall, v);
    double largest = 0;
    for (std::size_t c = 0; c < categories.size(); ++c) {
        const RankBoxCategory& category = categories[c];
        labels << category.name; // setCategoryAxis elides it, whole on hover
        if (category.values.empty())
            continue;
        const auto key = static_cast<double>(c);
        const QCPStatisticalBoxData box = boxOf(key, category.values);
        boxes->addData(box.key, box.minimum, box.lowerQuartile, box.median, box.upperQuartile, box.maximum,
            box.outliers);
        largest = std::max(largest, *std::max_element(category.values.begin(), category.values.end()));
        std::vector<double> labelled;
        for (const std::size_t i : outlierRanks(category.values, kLabelledOutliersPerBox)) {
            // Labels of close values would print over each other: the farthest one speaks for them.
            const double v = category.values[i];
            if (std::any_of(labelled.begin(), labelled.end(),
                    [&](double other) { return std::abs(other - v) < kMinLabelGap * largestOverall; }))
                continue;
            labelled.push_back(v);
            auto* label = new QCPItemText(&chart);
            label->setObjectName(QStringLiteral("outlier"));
            label->position->setAxes(chart.xAxis, chart.yAxis);
            label->position->setCoords(category.values[i], key - 0.32);
            label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
            label->setText(QObject::tr("rank %1").arg(category.ranks[i]));
            label->setColor(chart.palette().color(QPalette::Text));
            label->setClipToAxisRect(false);
        }
    }
    setCategoryAxis(chart.yAxis, labels);
    chart.yAxis->setRangeReversed(true);
    chart.xAxis->setRange(0, largest * 1.1 + 1e-9);
    chart.xAxis->setLabel(valueLabel);
    addTitle(chart, title);
}

} // namespace ks::widgets
