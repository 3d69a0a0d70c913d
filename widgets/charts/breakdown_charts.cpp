#include "widgets/charts/breakdown_charts.h"

#include "core/analysis/hta/comm_comp_overlap.h"
#include "core/analysis/hta/idle_time_breakdown.h"
#include "core/analysis/hta/kernel_breakdown.h"
#include "core/analysis/hta/temporal_breakdown.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/rank_distribution_chart.h"
#include "widgets/common/table_lookup.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace ks::widgets {

namespace {

    QStringList rankLabels(const core::Table& table, std::size_t rankColumn)
    {
        QStringList labels;
        for (std::size_t r = 0; r < table.rows.size(); ++r)
            labels << QObject::tr("rank %1").arg(textAt(table, r, rankColumn));
        return labels;
    }

    // A percentage at the end of a horizontal bar.
    void addValueLabel(AnalysisChart& chart, double key, double value, const QString& text)
    {
        auto* label = new QCPItemText(&chart);
        label->position->setCoords(value, key);
        label->setPositionAlignment(Qt::AlignLeft | Qt::AlignVCenter);
        label->setPadding(QMargins(4, 0, 0, 0));
        label->setText(text);
        label->setColor(chart.palette().color(QPalette::Text));
        label->setClipToAxisRect(false);
    }

    QColor kernelTypeColor(const QString& type)
    {
        QColor base = type.startsWith(QStringLiteral("COMMUNICATION")) ? communicationColor()
            : type.startsWith(QStringLiteral("COMPUTATION"))           ? computeColor()
            : type.startsWith(QStringLiteral("MEMORY"))                ? memoryColor()
                                                                       : idleColor().darker(120);
        // Overlap classes share their first kind's hue, lighter.
        return type.contains(QStringLiteral("overlapping")) ? base.lighter(135) : base;
    }

} // namespace

void buildTemporalChart(AnalysisChart& chart, const core::Table& table)
{
    const auto rank = table.find(core::temporal_breakdown::kRank);
    const auto idle = table.find(core::temporal_breakdown::kIdlePctg);
    const auto compute = table.find(core::temporal_breakdown::kComputePctg);
    const auto nonCompute = table.find(core::temporal_breakdown::kNonComputePctg);
    if (!rank || !idle || !compute || !nonCompute)
        return;
    if (table.rows.size() > kMaxRankBars) {
        std::vector<std::int64_t> ranks;
        std::vector<RankLayer> layers { { QObject::tr("Compute"), computeColor(), {} },
            { QObject::tr("Non-compute"), communicationColor(), {} },
            { QObject::tr("Idle"), idleColor(), {} } };
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            ranks.push_back(static_cast<std::int64_t>(numberAt(table, r, *rank)));
            layers[0].values.push_back(numberAt(table, r, *compute));
            layers[1].values.push_back(numberAt(table, r, *nonCompute));
            layers[2].values.push_back(numberAt(table, r, *idle));
        }
        buildRankDistribution(chart, ranks, layers, 0, QObject::tr("% of the rank's traced time"),
            QObject::tr("Temporal breakdown over %1 ranks").arg(ranks.size()));
        return;
    }
    QCPAxis* keys = chart.xAxis;
    QCPAxis* values = chart.yAxis;
    QCPBars* below = nullptr;
    const std::pair<std::size_t, std::pair<QString, QColor>> layers[] = {
        { *compute, { QObject::tr("Compute"), computeColor() } },
        { *nonCompute, { QObject::tr("Non-compute"), communicationColor() } },
        { *idle, { QObject::tr("Idle"), idleColor() } },
    };
    for (const auto& [column, look] : layers) {
        QCPBars* bars = addBars(keys, values, look.first, look.second);
        bars->setStackingGap(0);
        for (std::size_t r = 0; r < table.rows.size(); ++r)
            bars->addData(static_cast<double>(r), numberAt(table, r, column));
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    setCategoryAxis(keys, rankLabels(table, *rank));
    values->setRange(0, 100);
    values->setLabel(QObject::tr("% of the rank's traced time"));
    addTitle(chart, QObject::tr("Temporal breakdown per rank"));
    placeLegendBelow(chart);
}

void buildIdleChart(AnalysisChart& chart, const core::Table& table)
{
    const auto rank = table.find(core::idle_time_breakdown::kRank);
    const auto stream = table.find(core::idle_time_breakdown::kStream);
    const auto category = table.find(core::idle_time_breakdown::kIdleCategory);
    const auto time = table.find(core::idle_time_breakdown::kIdleTime);
    if (!rank || !stream || !category || !time)
        return;
    // One slot per (rank, stream), in the table's order.
    std::map<std::pair<double, double>, int> slotOf;
    std::map<double, std::size_t> rankOf; // rank → its position in first-seen order
    QStringList labels;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        const auto key = std::make_pair(numberAt(table, r, *rank), numberAt(table, r, *stream));
        if (slotOf.emplace(key, static_cast<int>(labels.size())).second)
            labels << QObject::tr("r%1 · s%2").arg(textAt(table, r, *rank), textAt(table, r, *stream));
        rankOf.emplace(key.first, rankOf.size());
    }
    const std::pair<std::string, std::pair<QString, QColor>> layers[] = {
        { "host_wait", { QObject::tr("Host wait"), runtimeColor() } },
        { "kernel_wait", { QObject::tr("Kernel wait"), syncColor() } },
        { "other", { QObject::tr("Other"), idleColor() } },
    };
    if (rankOf.size() > kMaxRankBars || labels.size() > kMaxLabelledCategories) {
        // Too many bars to read: each rank's idle time over all its streams,
        // as a distribution over the ranks sorted by the total.
        std::vector<std::int64_t> ranks(rankOf.size());
        for (const auto& [value, index] : rankOf)
            ranks[index] = static_cast<std::int64_t>(value);
        std::vector<RankLayer> perRank;
        for (const auto& [name, look] : layers)
            perRank.push_back({ look.first, look.second, std::vector<double>(ranks.size(), 0.0) });
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            const std::string kind = core::cellAsText(table.rows[r][*category]);
            for (std::size_t l = 0; l < std::size(layers); ++l)
                if (layers[l].first == kind)
                    perRank[l].values[rankOf[numberAt(table, r, *rank)]] +=
                        numberAt(table, r, *time) / 1000.0;
        }
        buildRankDistribution(chart, ranks, perRank, kSortByTotal,
            QObject::tr("idle time over all streams (ms)"),
            QObject::tr("GPU idle time over %1 ranks (%2 rank · stream pairs)")
                .arg(ranks.size())
                .arg(labels.size()));
        return;
    }
    QCPBars* below = nullptr;
    for (const auto& [name, look] : layers) {
        QCPBars* bars = addBars(chart.xAxis, chart.yAxis, look.first, look.second);
        bars->setStackingGap(0);
        QVector<double> ms(labels.size(), 0.0);
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            if (core::cellAsText(table.rows[r][*category]) != name)
                continue;
            const int slot = slotOf[{ numberAt(table, r, *rank), numberAt(table, r, *stream) }];
            ms[slot] += numberAt(table, r, *time) / 1000.0;
        }
        for (int i = 0; i < labels.size(); ++i)
            bars->addData(i, ms[i]);
        if (below)
            bars->moveAbove(below);
        below = bars;
    }
    setCategoryAxis(chart.xAxis, labels);
    if (labels.size() > 8)
        chart.xAxis->setTickLabelRotation(-45);
    chart.rescaleAxes();
    setCategoryAxis(chart.xAxis, labels); // rescaling moved the key range; keep the half-slot margins
    chart.yAxis->setRangeLower(0);
    chart.yAxis->scaleRange(1.05, 0);
    chart.yAxis->setRangeLower(0);
    chart.yAxis->setLabel(QObject::tr("idle time (ms)"));
    chart.xAxis->setLabel(QObject::tr("rank · stream"));
    addTitle(chart, QObject::tr("GPU idle time per rank and stream"));
    placeLegendBelow(chart);
}

void buildKernelTypeChart(AnalysisChart& chart, const core::Table& table)
{
    const auto type = table.find(core::kernel_breakdown::kKernelType);
    const auto share = table.find(core::kernel_breakdown::kPercentage);
    if (!type || !share)
        return;
    std::vector<std::size_t> order(table.rows.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return numberAt(table, a, *share) > numberAt(table, b, *share);
    });
    // Horizontal bars: the long type names read on the left, biggest on top.
    QCPAxis* keys = chart.yAxis;
    QCPAxis* values = chart.xAxis;
    QStringList labels;
    double largest = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        const QString name = textAt(table, order[i], *type);
        const double pct = numberAt(table, order[i], *share);
        QCPBars* bars = addBars(keys, values, name, kernelTypeColor(name));
        bars->addData(static_cast<double>(i), pct);
        labels << name;
        largest = std::max(largest, pct);
        addValueLabel(chart, static_cast<double>(i), pct, QStringLiteral("%1 %").arg(pct, 0, 'f', 1));
    }
    setCategoryAxis(keys, labels);
    keys->setRangeReversed(true);
    values->setRange(0, std::min(100.0, largest * 1.2 + 1));
    values->setLabel(QObject::tr("% of GPU kernel time"));
    addTitle(chart, QObject::tr("GPU kernel time by kernel type"));
}

void buildOverlapChart(AnalysisChart& chart, const core::Table& table)
{
    const auto rank = table.find(core::comm_comp_overlap::kRank);
    const auto overlap = table.find(core::comm_comp_overlap::kOverlapPctg);
    if (!rank || !overlap)
        return;
    if (table.rows.size() > kMaxRankBars) {
        std::vector<std::int64_t> ranks;
        std::vector<RankLayer> layers { { QObject::tr("Overlap"), communicationColor(), {} } };
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            ranks.push_back(static_cast<std::int64_t>(numberAt(table, r, *rank)));
            layers[0].values.push_back(numberAt(table, r, *overlap));
        }
        buildRankDistribution(chart, ranks, layers, 0,
            QObject::tr("% of communication time overlapped by compute"),
            QObject::tr("Communication / computation overlap over %1 ranks").arg(ranks.size()));
        return;
    }
    QCPBars* bars = addBars(chart.xAxis, chart.yAxis, QObject::tr("Overlap"), communicationColor());
    for (std::size_t r = 0; r < table.rows.size(); ++r)
        bars->addData(static_cast<double>(r), numberAt(table, r, *overlap));
    setCategoryAxis(chart.xAxis, rankLabels(table, *rank));
    chart.yAxis->setRange(0, 100);
    chart.yAxis->setLabel(QObject::tr("% of communication time overlapped by compute"));
    addTitle(chart, QObject::tr("Communication / computation overlap per rank"));
}

} // namespace ks::widgets
