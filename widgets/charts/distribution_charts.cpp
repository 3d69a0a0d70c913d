#include "widgets/charts/distribution_charts.h"

#include "core/analysis/hta/annotated_kernels.h"
#include "core/analysis/hta/kernel_breakdown.h"
#include "core/analysis/hta/launch_stats.h"
#include "widgets/charts/chart_style.h"
#include "widgets/charts/rank_box_chart.h"
#include "widgets/charts/rank_distribution_chart.h"
#include "widgets/common/table_lookup.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace ks::widgets {

namespace {

    bool isNoAnnotation(const QString& name)
    {
        return name
            == QLatin1String(core::kNoAnnotation.data(), static_cast<qsizetype>(core::kNoAnnotation.size()));
    }

    // Bars at `means` with error bars down to `lows` and up to `highs`.
    QCPErrorBars* addRangeBars(QCPBars* bars, const QVector<double>& keys, const QVector<double>& means,
        const QVector<double>& lows, const QVector<double>& highs)
    {
        bars->setData(keys, means, true);
        auto* errors = new QCPErrorBars(bars->keyAxis(), bars->valueAxis());
        errors->removeFromLegend();
        errors->setDataPlottable(bars);
        QVector<double> minus(means.size());
        QVector<double> plus(means.size());
        for (int i = 0; i < means.size(); ++i) {
            minus[i] = std::max(0.0, means[i] - lows[i]);
            plus[i] = std::max(0.0, highs[i] - means[i]);
        }
        errors->setData(minus, plus);
        errors->setPen(QPen(bars->brush().color().darker(170), 1.2));
        errors->setWhiskerWidth(6);
        return errors;
    }

    // The value axis of horizontal bars from zero to the largest whisker.
    void fitValues(QCPAxis* axis, double largest)
    {
        axis->setRange(0, largest > 0 ? largest * 1.08 : 1);
    }

} // namespace

namespace {

    // What a per-name duration chart calls its names: kernels or user annotations.
    struct NameDurationText
    {
        QString boxAxis; // "mean kernel duration per rank (µs)"
        QString boxTitle; // "Top kernels: mean duration over %1 ranks"
        QString axis; // "kernel duration (µs): mean, whiskers min–max"
        QString title; // "Top kernels: duration across ranks"
        bool sums = false; // bars at each name's total, no whiskers (else the mean, min–max)
        // User annotations (ranges of milliseconds): the axis in µs, ms or s as the values
        // need ("%1" in `axis`), at most five names, no legend for one rank: they must read
        // in the few hundred pixels the view has at 1280×800.
        bool annotations = false;
    };

    void buildNameDurationChart(AnalysisChart& chart, const core::Table& table, const NameDurationText& text);

} // namespace

void buildKernelDurationChart(AnalysisChart& chart, const core::Table& table)
{
    buildNameDurationChart(chart, table,
        { QObject::tr("mean kernel duration per rank (µs)"),
            QObject::tr("Top kernels: mean duration over %1 ranks"),
            QObject::tr("kernel duration (µs): mean, whiskers min–max"),
            QObject::tr("Top kernels: duration across ranks") });
}

void buildAnnotationDurationChart(AnalysisChart& chart, const core::Table& table)
{
    buildNameDurationChart(chart, table,
        { QObject::tr("mean annotation duration per rank (µs)"),
            QObject::tr("Top user annotations: mean duration over %1 ranks"),
            // No title row: the view's "Mean duration" tab names the chart, and at 1280×800 the
            // row is worth the bars' labels.
            QObject::tr("annotation duration (%1): mean, whiskers min–max"), QString(), false, true });
}

void buildKernelsByAnnotationChart(AnalysisChart& chart, const core::Table& table)
{
    buildNameDurationChart(chart, table,
        { QObject::tr("kernel time per rank (µs)"),
            QObject::tr("Kernel time per user annotation over %1 ranks"), QObject::tr("kernel time (%1)"),
            QObject::tr("Kernel time per user annotation"), true, true });
}

namespace {

    void buildNameDurationChart(AnalysisChart& chart, const core::Table& table, const NameDurationText& text)
    {
        const auto name = table.find(core::kernel_breakdown::kName);
        const auto sum = table.find(core::kernel_breakdown::kSum);
        const auto mean = table.find(core::kernel_breakdown::kMean);
        const auto low = table.find(core::kernel_breakdown::kMin);
        const auto high = table.find(core::kernel_breakdown::kMax);
        const auto rank = table.find(core::kernel_breakdown::kRank);
        if (!name || !sum || !mean || !low || !high || !rank)
            return;
        // Kernels ranked by their time over all ranks; fewer kernels when there are
        // many ranks so each bar keeps a readable height.
        std::map<QString, double> total;
        std::map<double, int> rankSlot;
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            const QString kernel = textAt(table, r, *name);
            if (kernel == QStringLiteral("others"))
                continue;
            total[kernel] += numberAt(table, r, *sum);
            rankSlot.emplace(numberAt(table, r, *rank), 0);
        }
        int slot = 0;
        for (auto& entry : rankSlot)
            entry.second = slot++;
        std::vector<std::pair<QString, double>> ranked(total.begin(), total.end());
        std::stable_sort(
            ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        if (rankSlot.size() > kMaxRankBars) {
            // A bar per rank and kernel would be hundreds: the top kernels' mean
            // durations as a box per kernel over the ranks.
            ranked.resize(std::min<std::size_t>(ranked.size(), 8));
            std::vector<RankBoxCategory> boxes;
            std::map<QString, std::size_t> boxOf;
            QStringList names;
            for (const auto& [kernel, time] : ranked) {
                boxOf[kernel] = boxes.size();
                boxes.push_back({ kernel, {}, {} });
                names << kernel;
            }
            for (std::size_t r = 0; r < table.rows.size(); ++r) {
                const auto it = boxOf.find(textAt(table, r, *name));
                if (it == boxOf.end())
                    continue;
                boxes[it->second].ranks.push_back(static_cast<std::int64_t>(numberAt(table, r, *rank)));
                boxes[it->second].values.push_back(numberAt(table, r, text.sums ? *sum : *mean));
            }
            buildRankBoxChart(chart, boxes, computeColor(), text.boxAxis, text.boxTitle.arg(rankSlot.size()));
            chart.setActivatableNames(names);
            return;
        }
        const int ranks = std::max<int>(1, static_cast<int>(rankSlot.size()));
        const auto kernelCount =
            static_cast<std::size_t>(std::clamp(32 / ranks, 3, text.annotations ? 5 : 8));
        ranked.resize(std::min(ranked.size(), kernelCount));
        std::map<QString, int> kernelKey;
        QStringList names;
        QStringList labels;
        for (const auto& [kernel, time] : ranked) {
            kernelKey[kernel] = static_cast<int>(names.size());
            // Kernels outside every annotation have no name to find: their bar finds nothing.
            names << (isNoAnnotation(kernel) ? QString() : kernel);
            labels << kernel; // setCategoryAxis elides it, whole on hover
        }

        // The unit of the value axis: µs as the table has it, or larger for annotations.
        double divisor = 1;
        QString unit = QStringLiteral("µs");
        if (text.annotations) {
            double top = 0;
            for (std::size_t r = 0; r < table.rows.size(); ++r)
                if (kernelKey.count(textAt(table, r, *name)))
                    top = std::max(top, numberAt(table, r, text.sums ? *sum : *high));
            if (top >= 1e6)
                std::tie(divisor, unit) = std::pair(1e6, QStringLiteral("s"));
            else if (top >= 1e3)
                std::tie(divisor, unit) = std::pair(1e3, QStringLiteral("ms"));
        }
        QCPAxis* keys = chart.yAxis;
        QCPAxis* values = chart.xAxis;
        auto* group = new QCPBarsGroup(&chart);
        group->setSpacingType(QCPBarsGroup::stAbsolute);
        group->setSpacing(1);
        double largest = 0;
        for (const auto& [rankValue, index] : rankSlot) {
            QVector<double> k;
            QVector<double> m;
            QVector<double> lo;
            QVector<double> hi;
            for (std::size_t r = 0; r < table.rows.size(); ++r) {
                const auto it = kernelKey.find(textAt(table, r, *name));
                if (it == kernelKey.end() || numberAt(table, r, *rank) != rankValue)
                    continue;
                k << it->second;
                m << numberAt(table, r, text.sums ? *sum : *mean) / divisor;
                lo << (text.sums ? m.back() : numberAt(table, r, *low) / divisor);
                hi << (text.sums ? m.back() : numberAt(table, r, *high) / divisor);
                largest = std::max(largest, hi.back());
            }
            QCPBars* bars = addBars(keys, values, QObject::tr("rank %1").arg(rankValue), rankColor(index));
            bars->setWidth(0.8 / ranks);
            bars->setBarsGroup(group);
            if (text.sums)
                bars->setData(k, m, true);
            else
                addRangeBars(bars, k, m, lo, hi);
        }
        const QString axisLabel = text.annotations ? text.axis.arg(unit) : text.axis;
        setCategoryAxis(keys, labels);
        keys->setRangeReversed(true);
        fitValues(values, largest);
        values->setLabel(axisLabel);
        chart.setActivatableNames(names);
        if (!text.title.isEmpty())
            addTitle(chart, text.title);
        if (!text.annotations || ranks > 1) // one rank needs no legend: the title says what the bars are
            placeLegendBelow(chart);
    }

} // namespace

namespace {

    struct Histogram
    {
        QVector<double> centers;
        QVector<double> counts;
        double binWidth = 1;
        double cutoff = 0; // the 99th percentile: larger values are counted in the last bin
    };

    Histogram histogramOf(std::vector<double> values, int bins)
    {
        Histogram h;
        if (values.empty())
            return h;
        std::sort(values.begin(), values.end());
        const double low = std::min(0.0, values.front());
        h.cutoff =
            values[static_cast<std::size_t>(std::floor(0.99 * static_cast<double>(values.size() - 1)))];
        const double high = std::max(h.cutoff, low + 1e-9);
        h.binWidth = (high - low) / bins;
        h.counts.fill(0, bins);
        for (double v : values) {
            const int bin = std::clamp(static_cast<int>((v - low) / h.binWidth), 0, bins - 1);
            h.counts[bin] += 1;
        }
        for (int b = 0; b < bins; ++b)
            h.centers << low + (b + 0.5) * h.binWidth;
        return h;
    }

} // namespace

void buildLaunchHistograms(AnalysisChart& chart, const std::vector<const core::Table*>& perRank)
{
    struct Panel
    {
        core::ColumnId column;
        QString label;
        QColor color;
    };

    const Panel panels[] = {
        { core::launch_stats::kLaunchDelay, QObject::tr("launch delay (µs)"), syncColor() },
        { core::launch_stats::kCpuDuration, QObject::tr("CPU launch duration (µs)"), runtimeColor() },
        { core::launch_stats::kGpuDuration, QObject::tr("GPU kernel duration (µs)"), computeColor() },
    };
    constexpr int kBins = 30;
    // The panels sit in a grid of their own, so the title row above spans them.
    QCPAxisRect* first = chart.axisRect();
    chart.plotLayout()->take(first);
    chart.plotLayout()->simplify();
    auto* grid = new QCPLayoutGrid;
    chart.plotLayout()->addElement(0, 0, grid);
    grid->addElement(0, 0, first);
    int column = 0;
    for (const Panel& panel : panels) {
        std::vector<double> values;
        for (const core::Table* table : perRank) {
            const auto c = table->find(panel.column);
            if (!c)
                continue;
            for (std::size_t r = 0; r < table->rows.size(); ++r) {
                if (const auto v = core::cellAsDouble(table->rows[r][*c]); v && !std::isnan(*v))
                    values.push_back(*v);
            }
        }
        QCPAxisRect* rect = column == 0 ? first : new QCPAxisRect(&chart);
        if (column > 0) {
            grid->addElement(0, column, rect);
            chart.styleAxisRect(rect);
        }
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        QCPAxis* y = rect->axis(QCPAxis::atLeft);
        const Histogram h = histogramOf(std::move(values), kBins);
        QCPBars* bars = addBars(x, y, panel.label, panel.color);
        bars->setWidth(h.binWidth);
        bars->setData(h.centers, h.counts, true);
        x->setLabel(panel.label + QStringLiteral("\n")
            + QObject::tr("last bin: ≥ p99 = %1").arg(h.cutoff, 0, 'f', h.cutoff >= 100 ? 0 : 1));
        y->setLabel(QObject::tr("launches"));
        rect->axis(QCPAxis::atLeft)->rescale();
        y->setRangeLower(0);
        y->scaleRange(1.05, 0);
        y->setRangeLower(0);
        x->rescale();
        x->scaleRange(1.04, x->range().center());
        ++column;
    }
    addTitle(chart, QObject::tr("CUDA kernel launches, all ranks"));
}

void buildSummaryBars(AnalysisChart& chart, const core::Table& table, const SummaryColumns& columns,
    const QString& valueLabel, const QString& title)
{
    const auto rank = table.find(columns.rank);
    const auto label = table.find(columns.label);
    const auto mean = table.find(columns.mean);
    const auto low = table.find(columns.min);
    const auto high = table.find(columns.max);
    if (!rank || !label || !mean || !low || !high)
        return;
    std::map<double, int> ranks;
    for (std::size_t r = 0; r < table.rows.size(); ++r)
        ranks.emplace(numberAt(table, r, *rank), 0);
    if (ranks.size() > kMaxRankBars || table.rows.size() > static_cast<std::size_t>(kMaxLabelledCategories)) {
        // A bar per rank and label would be too many to read: the means as a
        // box per label (copy kind, stream) over the ranks.
        std::vector<RankBoxCategory> boxes;
        std::map<QString, std::size_t> boxOf;
        // "stream 7", "Memcpy DtoH": a bare number needs its column's name.
        const QString column = QString::fromStdString(table.columns[*label].name);
        for (std::size_t r = 0; r < table.rows.size(); ++r) {
            const QString text = textAt(table, r, *label);
            bool isNumber = false;
            text.toDouble(&isNumber);
            const QString name = isNumber ? column + u' ' + text : text;
            const auto [it, added] = boxOf.emplace(name, boxes.size());
            if (added)
                boxes.push_back({ name, {}, {} });
            boxes[it->second].ranks.push_back(static_cast<std::int64_t>(numberAt(table, r, *rank)));
            boxes[it->second].values.push_back(numberAt(table, r, *mean));
        }
        // At most the 16 labels most ranks have (streams differ between ranks).
        std::stable_sort(boxes.begin(), boxes.end(), [](const RankBoxCategory& a, const RankBoxCategory& b) {
            return a.values.size() > b.values.size();
        });
        boxes.resize(std::min<std::size_t>(boxes.size(), 16));
        buildRankBoxChart(chart, boxes, memoryColor(), QObject::tr("mean per rank: ") + valueLabel,
            QObject::tr("%1 over %2 ranks").arg(title).arg(ranks.size()));
        return;
    }
    QVector<double> k;
    QVector<double> m;
    QVector<double> lo;
    QVector<double> hi;
    QStringList labels;
    double largest = 0;
    for (std::size_t r = 0; r < table.rows.size(); ++r) {
        k << static_cast<double>(r);
        m << numberAt(table, r, *mean);
        lo << numberAt(table, r, *low);
        hi << numberAt(table, r, *high);
        largest = std::max(largest, hi.back());
        labels << QObject::tr("rank %1 · %2").arg(textAt(table, r, *rank), textAt(table, r, *label));
    }
    QCPBars* bars = addBars(chart.yAxis, chart.xAxis, QObject::tr("mean"), memoryColor());
    addRangeBars(bars, k, m, lo, hi);
    setCategoryAxis(chart.yAxis, labels);
    chart.yAxis->setRangeReversed(true);
    fitValues(chart.xAxis, largest);
    chart.xAxis->setLabel(valueLabel);
    addTitle(chart, title);
}

} // namespace ks::widgets
