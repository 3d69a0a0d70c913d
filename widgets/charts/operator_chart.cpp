#include "widgets/charts/operator_chart.h"

#include "core/analysis/operators/operator_stats.h"
#include "widgets/charts/chart_style.h"
#include "widgets/common/table_lookup.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <set>
#include <vector>

namespace ks::widgets {

void buildOperatorChart(AnalysisChart& chart, const core::Table& table, int topCount)
{
    namespace col = core::operator_stats_columns;
    const auto name = table.find(col::kName);
    const auto node = table.find(col::kNode);
    const auto self = table.find(col::kSelfCpu);
    const auto total = table.find(col::kCpuTotal);
    const auto async = table.find(col::kAsync);
    if (!name || !node || !self || !total || table.rows.size() == 0)
        return;
    std::vector<std::size_t> order(table.rows.size());
    std::iota(order.begin(), order.end(), std::size_t { 0 });
    std::stable_sort(order.begin(), order.end(),
        [&](std::size_t a, std::size_t b) { return numberAt(table, a, *self) > numberAt(table, b, *self); });
    order.resize(std::min<std::size_t>(order.size(), static_cast<std::size_t>(topCount)));
    std::set<double> nodes;
    for (std::size_t r = 0; r < table.rows.size(); ++r)
        nodes.insert(numberAt(table, r, *node));
    // Largest at the top: the y axis counts upwards, so the last key is the largest.
    QStringList labels;
    QCPBars* selfBars = addBars(chart.yAxis, chart.xAxis, QObject::tr("Self CPU"), computeColor());
    QCPBars* totalBars = addBars(chart.yAxis, chart.xAxis, QObject::tr("CPU total"), runtimeColor());
    auto* group = new QCPBarsGroup(&chart);
    selfBars->setBarsGroup(group);
    totalBars->setBarsGroup(group);
    double largest = 0;
    for (std::size_t k = 0; k < order.size(); ++k) {
        const std::size_t r = order[order.size() - 1 - k];
        QString label = textAt(table, r, *name); // setCategoryAxis elides it, whole on hover
        if (nodes.size() > 1)
            label += QObject::tr(" [node %1]").arg(static_cast<qint64>(numberAt(table, r, *node)));
        labels << label;
        const double selfMs = numberAt(table, r, *self) / 1000.0;
        // An async span (an RPC call, a gloo collective) has no self time and a
        // total that is waiting, not work: drawn, but only as its total.
        const bool isAsync = async && numberAt(table, r, *async) != 0;
        const double totalMs = isAsync ? 0.0 : numberAt(table, r, *total) / 1000.0;
        selfBars->addData(static_cast<double>(k), selfMs);
        totalBars->addData(static_cast<double>(k), totalMs);
        largest = std::max({ largest, selfMs, totalMs });
    }
    setCategoryAxis(chart.yAxis, labels);
    chart.xAxis->setRange(0, largest > 0 ? largest * 1.05 : 1);
    chart.xAxis->setLabel(QObject::tr("CPU time (ms)"));
    addTitle(chart, QObject::tr("Top operators by self CPU time"));
    placeLegendBelow(chart);
}

} // namespace ks::widgets
