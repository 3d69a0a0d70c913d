#include "widgets/memory/memory_chart.h"

#include "core/analysis/memory/memory_tables.h"
#include "widgets/charts/chart_style.h"
#include "widgets/common/format.h"

#include <QCoreApplication>

#include <algorithm>

namespace ks::widgets {

namespace {

    QString tr(const char* text)
    {
        return QCoreApplication::translate("ks::widgets::MemoryChart", text);
    }

    struct Unit
    {
        double bytes;
        QString name;
    };

    // The largest binary unit the peak fills at least once, so ticks read "1.5", not "1536".
    Unit unitFor(double maxBytes)
    {
        if (maxBytes >= 1024.0 * 1024 * 1024)
            return { 1024.0 * 1024 * 1024, QStringLiteral("GiB") };
        if (maxBytes >= 1024.0 * 1024)
            return { 1024.0 * 1024, QStringLiteral("MiB") };
        return { 1024.0, QStringLiteral("KiB") };
    }

    QCPGraph* addStepGraph(AnalysisChart& chart, const MemorySeries& s, const std::vector<double>& bytes,
        double perUnit, const QString& name, const QPen& pen)
    {
        QCPGraph* g = chart.addGraph();
        g->setName(name);
        g->setLineStyle(QCPGraph::lsStepLeft); // a total holds until the next record changes it
        g->setPen(pen);
        QVector<double> keys(s.ms.begin(), s.ms.end());
        QVector<double> values;
        values.reserve(qsizetype(bytes.size()));
        for (double b : bytes)
            values.push_back(b / perUnit);
        g->setData(keys, values, true); // sorted: the records are in time order
        return g;
    }

} // namespace

QString peakLabel(const core::DeviceMemorySummary& device, bool withDevice)
{
    QString text =
        tr("peak %1").arg(formatBytes(std::uint64_t(std::max<std::int64_t>(device.peakAllocated, 0))));
    if (!device.peakOp.empty())
        text += QStringLiteral(" · ") + elided(QString::fromStdString(device.peakOp), kMaxLabelChars);
    return withDevice ? QString::fromStdString(device.device) + QLatin1Char(' ') + text : text;
}

MemoryChartItems buildMemoryChart(AnalysisChart& chart, const MemoryViewData& data)
{
    MemoryChartItems items;
    const core::RankMemory* rank = data.rank();
    if (!rank)
        return items;
    double maxBytes = 0;
    for (const MemorySeries& s : data.series) {
        for (double b : s.allocated)
            maxBytes = std::max(maxBytes, b);
        for (double b : s.reserved)
            maxBytes = std::max(maxBytes, b);
    }
    const Unit unit = unitFor(maxBytes);
    items.bytesPerUnit = unit.bytes;
    const bool several = data.series.size() > 1;
    for (std::size_t d = 0; d < data.series.size(); ++d) {
        const MemorySeries& s = data.series[d];
        const QColor color = readableOn(chart.palette(), rankColor(int(d)));
        const QString device = QString::fromStdString(s.device);
        items.allocated.push_back(addStepGraph(
            chart, s, s.allocated, unit.bytes, tr("%1 allocated").arg(device), QPen(color, 1.6)));
        // A device far below the axis' top (the CPU beside a GPU) is a flat line at 0: no
        // legend entry, which would crowd a half-page chart; the line above names its peak.
        const double peak =
            s.allocated.empty() ? 0 : *std::max_element(s.allocated.begin(), s.allocated.end());
        if (several && peak < 0.05 * maxBytes)
            items.allocated.back()->removeFromLegend();
        if (!s.reserved.empty()) {
            QPen dashed(color, 1.2, Qt::DashLine);
            items.reserved.push_back(
                addStepGraph(chart, s, s.reserved, unit.bytes, tr("%1 reserved").arg(device), dashed));
        }
    }
    // Each device's peak: a disc on the curve and its size and op beside it.
    for (std::size_t d = 0; d < rank->devices.size() && d < data.series.size(); ++d) {
        const core::DeviceMemorySummary& device = rank->devices[d];
        // A device far below the axis' top (the CPU beside a GPU) keeps its curve but no
        // label, which would sit on the time axis; the summary line above names its peak.
        if (!device.peakTime || double(device.peakAllocated) < 0.05 * maxBytes)
            continue;
        const double x = msSinceOrigin(data, *device.peakTime);
        const double y = double(device.peakAllocated) / unit.bytes;
        QCPGraph* marker = chart.addGraph();
        marker->removeFromLegend();
        marker->setLineStyle(QCPGraph::lsNone);
        marker->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, items.allocated[d]->pen().color(), 8));
        marker->setData({ x }, { y });
        auto* label = new QCPItemText(&chart);
        label->setClipToAxisRect(true);
        label->position->setCoords(x, y);
        label->setPositionAlignment(Qt::AlignBottom | Qt::AlignHCenter);
        label->setPadding(QMargins(3, 1, 3, 1));
        label->setText(peakLabel(device, several));
        label->setColor(chart.palette().color(QPalette::Text));
        label->setBrush(chart.palette().color(QPalette::Base)); // readable over the curves
        items.peakLabels.push_back(label);
    }
    chart.xAxis->setLabel(tr("time (ms since the trace's start)"));
    chart.yAxis->setLabel(tr("memory (%1)").arg(unit.name));
    chart.rescaleAxes();
    // Room above the peak for its label.
    chart.yAxis->setRange(0, std::max(maxBytes / unit.bytes, 1e-9) * 1.18);
    placeLegendBelow(chart);
    // The peak label stays inside the plot when the peak is near an edge.
    for (QCPItemText* label : items.peakLabels) {
        const double x = label->position->key();
        const QCPRange r = chart.xAxis->range();
        if (x < r.lower + r.size() * 0.15)
            label->setPositionAlignment(Qt::AlignBottom | Qt::AlignLeft);
        else if (x > r.upper - r.size() * 0.15)
            label->setPositionAlignment(Qt::AlignBottom | Qt::AlignRight);
    }
    items.range = new QCPItemRect(&chart);
    items.range->setClipToAxisRect(true);
    QColor shade = chart.palette().color(QPalette::Highlight);
    shade.setAlpha(50);
    items.range->setBrush(shade);
    items.range->setPen(Qt::NoPen);
    items.range->setVisible(false);
    showMemoryRange(chart, items, data);
    return items;
}

void showMemoryRange(AnalysisChart& chart, MemoryChartItems& items, const MemoryViewData& data)
{
    if (!items.range)
        return;
    const core::RankMemory* rank = data.rank();
    items.range->setVisible(data.range && rank);
    if (!data.range || !rank)
        return;
    const double start = msSinceOrigin(data, data.range->start);
    const double end = msSinceOrigin(data, data.range->end);
    items.range->topLeft->setTypeY(QCPItemPosition::ptAxisRectRatio);
    items.range->bottomRight->setTypeY(QCPItemPosition::ptAxisRectRatio);
    items.range->topLeft->setCoords(start, 0);
    items.range->bottomRight->setCoords(end, 1);
    (void)chart;
}

} // namespace ks::widgets
