#include "widgets/charts/rank_overview_chart.h"

#include "widgets/charts/chart_style.h"
#include "widgets/common/table_lookup.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ks::widgets {

namespace {

    // The distinct values of an integer column, sorted: the heat map's rows or columns.
    std::vector<std::int64_t> sortedKeys(const core::Table& table, std::size_t column)
    {
        std::vector<std::int64_t> keys;
        for (std::size_t row = 0; row < table.rows.size(); ++row)
            keys.push_back(static_cast<std::int64_t>(numberAt(table, row, column)));
        std::sort(keys.begin(), keys.end());
        keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
        return keys;
    }

    int indexOf(const std::vector<std::int64_t>& keys, double value)
    {
        const auto it = std::lower_bound(keys.begin(), keys.end(), static_cast<std::int64_t>(value));
        return static_cast<int>(it - keys.begin());
    }

    // QCPColorMap puts its first and last cells' centres on the range ends, so a
    // single cell would have no width: one key is stored as two equal cells
    // centred on ±0.25, which together cover -0.5..0.5 like any other cell.
    int storedCells(int count)
    {
        return std::max(count, 2);
    }

    QCPRange cellCentres(int count)
    {
        return count > 1 ? QCPRange(0, count - 1) : QCPRange(-0.25, 0.25);
    }

    QCPColorScale* colorScaleOf(AnalysisChart& chart)
    {
        if (chart.plotLayout()->hasElement(0, 1)) {
            if (auto* scale = qobject_cast<QCPColorScale*>(chart.plotLayout()->element(0, 1)))
                return scale;
        }
        auto* scale = new QCPColorScale(&chart);
        chart.plotLayout()->addElement(0, 1, scale);
        scale->setType(QCPAxis::atRight);
        scale->setBarWidth(12);
        chart.styleAxisRect(scale->axis()->axisRect());
        // Colour scale and plot share their vertical margins so the bar lines up with the cells.
        auto* margins = new QCPMarginGroup(&chart);
        chart.axisRect()->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
        scale->setMarginGroup(QCP::msTop | QCP::msBottom, margins);
        return scale;
    }

    QStringList labelsOf(const std::vector<std::int64_t>& keys, const QString& prefix)
    {
        QStringList labels;
        for (std::int64_t key : keys)
            labels << prefix + QString::number(key);
        return labels;
    }

    void outlineStraggler(AnalysisChart& chart, double x, double y)
    {
        auto* outline = new QCPItemRect(&chart);
        outline->topLeft->setCoords(x - 0.46, y + 0.46);
        outline->bottomRight->setCoords(x + 0.46, y - 0.46);
        outline->setPen(QPen(QColor(220, 30, 30), 3));
        outline->setBrush(Qt::NoBrush);
        outline->setObjectName(QStringLiteral("straggler"));
    }

} // namespace

bool markRankOverviewCell(
    AnalysisChart& chart, const core::Table& table, std::int64_t rank, std::int64_t iteration)
{
    for (int i = chart.itemCount() - 1; i >= 0; --i) {
        if (chart.item(i)->objectName() == QStringLiteral("selectedCell"))
            chart.removeItem(i);
    }
    const auto rankColumn = table.find(core::rank_overview::kRank);
    const auto iterationColumn = table.find(core::rank_overview::kIteration);
    if (!rankColumn || !iterationColumn)
        return false;
    const std::vector<std::int64_t> ranks = sortedKeys(table, *rankColumn);
    const std::vector<std::int64_t> iterations = sortedKeys(table, *iterationColumn);
    if (!std::binary_search(ranks.begin(), ranks.end(), rank)
        || !std::binary_search(iterations.begin(), iterations.end(), iteration))
        return false;
    const double x = indexOf(iterations, static_cast<double>(iteration));
    const double y = indexOf(ranks, static_cast<double>(rank));
    auto* outline = new QCPItemRect(&chart);
    outline->topLeft->setCoords(x - 0.49, y + 0.49);
    outline->bottomRight->setCoords(x + 0.49, y - 0.49);
    outline->setPen(QPen(chart.palette().color(QPalette::Text), 2, Qt::DashLine));
    outline->setBrush(Qt::NoBrush);
    outline->setObjectName(QStringLiteral("selectedCell"));
    return true;
}

QString rankOverviewMetricLabel(RankOverviewMetric metric)
{
    auto tr = [](const char* text) { return QCoreApplication::translate("ks::widgets::RankOverview", text); };
    switch (metric) {
    case RankOverviewMetric::IdlePct:
        return tr("Idle %");
    case RankOverviewMetric::ComputePct:
        return tr("Compute %");
    case RankOverviewMetric::NonComputePct:
        return tr("Non-compute %");
    case RankOverviewMetric::OverlapPct:
        return tr("Overlap %");
    case RankOverviewMetric::StepTime:
        return tr("Step time (µs)");
    case RankOverviewMetric::GpuBusy:
        return tr("GPU busy time (µs)");
    }
    return {};
}

core::ColumnId rankOverviewMetricColumn(RankOverviewMetric metric)
{
    switch (metric) {
    case RankOverviewMetric::IdlePct:
        return core::rank_overview::kIdlePct;
    case RankOverviewMetric::ComputePct:
        return core::rank_overview::kComputePct;
    case RankOverviewMetric::NonComputePct:
        return core::rank_overview::kNonComputePct;
    case RankOverviewMetric::OverlapPct:
        return core::rank_overview::kOverlapPct;
    case RankOverviewMetric::StepTime:
        return core::rank_overview::kStepTime;
    case RankOverviewMetric::GpuBusy:
        return core::rank_overview::kGpuBusy;
    }
    return core::rank_overview::kStepTime;
}

void buildRankOverviewHeatMap(AnalysisChart& chart, const core::Table& table, RankOverviewMetric metric)
{
    chart.reset();
    const auto rankColumn = table.find(core::rank_overview::kRank);
    const auto iterationColumn = table.find(core::rank_overview::kIteration);
    const auto valueColumn = table.find(rankOverviewMetricColumn(metric));
    const auto stragglerColumn = table.find(core::rank_overview::kStraggler);
    if (!rankColumn || !iterationColumn || !valueColumn || table.rows.empty())
        return;
    const std::vector<std::int64_t> ranks = sortedKeys(table, *rankColumn);
    const std::vector<std::int64_t> iterations = sortedKeys(table, *iterationColumn);
    const int columns = static_cast<int>(iterations.size());
    const int rows = static_cast<int>(ranks.size());

    auto* map = new QCPColorMap(chart.xAxis, chart.yAxis);
    map->setName(QStringLiteral("heatmap"));
    map->data()->setSize(storedCells(columns), storedCells(rows));
    map->data()->setRange(cellCentres(columns), cellCentres(rows));
    // A rank without some iteration stays empty (NaN) rather than looking like 0.
    map->data()->fill(std::numeric_limits<double>::quiet_NaN());
    for (std::size_t row = 0; row < table.rows.size(); ++row) {
        const int x = indexOf(iterations, numberAt(table, row, *iterationColumn));
        const int y = indexOf(ranks, numberAt(table, row, *rankColumn));
        const double value = numberAt(table, row, *valueColumn);
        // Both stored cells of a single key get the value (see storedCells).
        for (int cx = x; cx < (columns > 1 ? x + 1 : 2); ++cx) {
            for (int cy = y; cy < (rows > 1 ? y + 1 : 2); ++cy)
                map->data()->setCell(cx, cy, value);
        }
        if (stragglerColumn && numberAt(table, row, *stragglerColumn) != 0)
            outlineStraggler(chart, x, y);
    }
    // Viridis (QCustomPlot 2.1.0 lacks the preset): even in lightness, readable in greyscale and by
    // colour-blind readers, so a cell's shade alone says how high it is.
    QCPColorGradient gradient;
    gradient.setColorStops({ { 0.0, QColor(0x44, 0x01, 0x54) }, { 0.25, QColor(0x3b, 0x52, 0x8b) },
        { 0.5, QColor(0x21, 0x91, 0x8c) }, { 0.75, QColor(0x5e, 0xc9, 0x62) },
        { 1.0, QColor(0xfd, 0xe7, 0x25) } });
    gradient.setNanHandling(QCPColorGradient::nhTransparent);
    map->setInterpolate(false); // each cell is one measurement, not a sample of a field

    QCPColorScale* scale = colorScaleOf(chart);
    scale->axis()->setLabel(rankOverviewMetricLabel(metric));
    map->setColorScale(scale); // the map takes the scale's gradient: set it after
    map->setGradient(gradient);
    map->rescaleDataRange(true);
    // Equal values everywhere would give an empty range and one undefined colour.
    if (map->dataRange().size() <= 0)
        map->setDataRange(QCPRange(map->dataRange().lower - 1, map->dataRange().upper + 1));

    setCategoryAxis(chart.xAxis, labelsOf(iterations, QString()));
    setCategoryAxis(
        chart.yAxis, labelsOf(ranks, QCoreApplication::translate("ks::widgets::RankOverview", "rank ")));
    chart.xAxis->setLabel(QCoreApplication::translate("ks::widgets::RankOverview", "iteration"));
    // Rank 0 on top, as the timeline lists ranks.
    chart.yAxis->setRangeReversed(true);
}

bool rankOverviewHasGpuWork(const core::Table& table)
{
    const auto busyColumn = table.find(core::rank_overview::kGpuBusy);
    if (!busyColumn)
        return false;
    for (std::size_t row = 0; row < table.rows.size(); ++row)
        if (numberAt(table, row, *busyColumn) > 0) // NaN (an empty cell) is not above zero
            return true;
    return false;
}

RankOverviewMetric defaultRankOverviewMetric(const core::Table& table)
{
    return rankOverviewHasGpuWork(table) ? RankOverviewMetric::IdlePct : RankOverviewMetric::StepTime;
}

QString rankOverviewStragglerNote(const core::Table& table)
{
    auto tr = [](const char* text) { return QCoreApplication::translate("ks::widgets::RankOverview", text); };
    if (!table.rows.empty() && !rankOverviewHasGpuWork(table))
        return tr("No GPU work in these ranks: the straggler flag compares GPU busy time and does not apply. "
                  "The map shows step time; the list beside it names whom the others waited for.");
    const auto rankColumn = table.find(core::rank_overview::kRank);
    const auto iterationColumn = table.find(core::rank_overview::kIteration);
    const auto stragglerColumn = table.find(core::rank_overview::kStraggler);
    if (!rankColumn || !iterationColumn || !stragglerColumn)
        return {};
    QStringList found;
    for (std::size_t row = 0; row < table.rows.size(); ++row) {
        if (numberAt(table, row, *stragglerColumn) != 0)
            found << tr("rank %1 in iteration %2")
                         .arg(textAt(table, row, *rankColumn), textAt(table, row, *iterationColumn));
    }
    if (found.isEmpty())
        // Not "no stragglers": the list beside the map may name ranks the others
        // waited for on the job's critical path, a different (and finer) measure.
        return tr("GPU busy time: no rank stands out from the median in any iteration. Whom the others "
                  "waited for (the job's critical path) is listed beside the map.");
    return tr("Stragglers (outlined; GPU busy time well above the median of the ranks): %1")
        .arg(found.join(QStringLiteral(", ")));
}

} // namespace ks::widgets
