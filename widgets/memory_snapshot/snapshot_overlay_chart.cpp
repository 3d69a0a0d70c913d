#include "widgets/memory_snapshot/snapshot_overlay_chart.h"

#include "widgets/charts/chart_style.h"

#include <QCoreApplication>
#include <QFontMetrics>

#include <algorithm>

namespace ks::widgets {

namespace {

    QString tr(const char* text)
    {
        return QCoreApplication::translate("ks::widgets::SnapshotOverlayChart", text);
    }

    // The largest binary unit the higher peak fills at least once, so ticks read "1.5", not "1536".
    std::pair<double, QString> unitFor(double maxBytes)
    {
        if (maxBytes >= 1024.0 * 1024 * 1024)
            return { 1024.0 * 1024 * 1024, QStringLiteral("GiB") };
        if (maxBytes >= 1024.0 * 1024)
            return { 1024.0 * 1024, QStringLiteral("MiB") };
        return { 1024.0, QStringLiteral("KiB") };
    }

    double peakOf(const std::vector<core::OverlayPoint>& points)
    {
        std::uint64_t peak = 0;
        for (const core::OverlayPoint& p : points)
            peak = std::max(peak, p.bytes);
        return double(peak);
    }

    QCPGraph* addCurve(AnalysisChart& chart, const std::vector<core::OverlayPoint>& points,
        double keysPerUnit, double bytesPerUnit, const QString& name, const QPen& pen)
    {
        if (points.empty())
            return nullptr;
        QCPGraph* g = chart.addGraph();
        g->setName(name);
        g->setLineStyle(QCPGraph::lsStepLeft); // a total holds until the next event changes it
        g->setPen(pen);
        QVector<double> keys;
        QVector<double> values;
        keys.reserve(qsizetype(points.size()));
        values.reserve(qsizetype(points.size()));
        for (const core::OverlayPoint& p : points) {
            keys.push_back(double(p.x) / keysPerUnit);
            values.push_back(double(p.bytes) / bytesPerUnit);
        }
        g->setData(keys, values, true); // x ascending (overlaySnapshots keeps event order)
        return g;
    }

} // namespace

SnapshotOverlayItems buildSnapshotOverlayChart(AnalysisChart& chart, const core::SnapshotOverlay& overlay,
    const QString& beforeName, const QString& afterName)
{
    SnapshotOverlayItems items;
    const double maxBytes = std::max(peakOf(overlay.before), peakOf(overlay.after));
    const auto [bytesPerUnit, unitName] = unitFor(maxBytes);
    items.bytesPerUnit = bytesPerUnit;
    items.keysPerUnit = overlay.byTime ? 1000.0 : 1.0;
    const QColor beforeColor = readableOn(chart.palette(), rankColor(0));
    const QColor afterColor = readableOn(chart.palette(), rankColor(1));
    // A line each (below), so a name has most of a narrow tab's width; the chart's own
    // width is not known yet when the tab was never shown.
    const QFontMetrics fm(chart.legend->font());
    constexpr int room = 340;
    auto fitted = [&](const QString& text) { return fm.elidedText(text, Qt::ElideMiddle, room); };
    items.before = addCurve(chart, overlay.before, items.keysPerUnit, bytesPerUnit,
        fitted(tr("before: %1").arg(beforeName)), QPen(beforeColor, 1.6));
    items.after = addCurve(chart, overlay.after, items.keysPerUnit, bytesPerUnit,
        fitted(tr("after: %1").arg(afterName)), QPen(afterColor, 1.6));
    if (!overlay.byTime)
        chart.xAxis->setLabel(tr("memory_viz's step (event order: one per allocation or free)"));
    else if (!overlay.alignedBy.empty())
        chart.xAxis->setLabel(
            tr("time (ms since %1 starts in each)").arg(QString::fromStdString(overlay.alignedBy)));
    else
        chart.xAxis->setLabel(tr("time (ms since each one's first event)"));
    chart.yAxis->setLabel(tr("active memory (%1)").arg(unitName));
    chart.rescaleAxes();
    chart.yAxis->setRange(0, std::max(maxBytes / bytesPerUnit, 1e-9) * 1.1);
    placeLegendBelow(chart);
    // One run a line: two long file names side by side would not fit the tab at 1280x800,
    // and the first one was cut. Each name elides in its middle, keeping its start and its end.
    chart.legend->setWrap(1);
    chart.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst, true); // re-lays the two items out
    chart.plotLayout()->setRowStretchFactor(chart.plotLayout()->rowCount() - 1, 0.001);
    return items;
}

} // namespace ks::widgets
