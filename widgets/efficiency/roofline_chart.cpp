#include "widgets/efficiency/roofline_chart.h"

#include "widgets/charts/chart_style.h"

#include <QFontMetricsF>

#include <algorithm>
#include <cmath>
#include <map>

namespace ks::widgets {

namespace {

    // Roof colours: matrix roofs solid, vector roofs dashed, a hue per precision.
    QColor precisionColor(const std::string& precision)
    {
        if (precision == "fp64")
            return QColor(0x6a, 0x3d, 0x9a);
        if (precision == "fp32" || precision == "tf32")
            return QColor(0x1f, 0x78, 0xb4);
        if (precision == "bf16" || precision == "fp16")
            return QColor(0x33, 0xa0, 0x2c);
        if (precision == "fp8" || precision == "int8")
            return QColor(0xe3, 0x1a, 0x1c);
        return QColor(0xff, 0x7f, 0x00); // fp6, fp4
    }

    void addLine(AnalysisChart& chart, double x0, double y0, double x1, double y1, const QPen& pen,
        const QString& legend)
    {
        QCPGraph* g = chart.addGraph();
        g->setData({ x0, x1 }, { y0, y1 }, true);
        g->setPen(pen);
        g->setName(legend);
        if (legend.isEmpty())
            g->removeFromLegend();
        g->setSelectable(QCP::stNone);
    }

    // The box a label in the plot sits on: the chart's base, slightly see-through.
    QColor labelBox(const AnalysisChart& chart)
    {
        QColor box = chart.palette().color(QPalette::Base);
        box.setAlpha(190);
        return box;
    }

    // Each roof's label just above its line, but never over the label of the roof above:
    // on a log axis at laptop height, peaks a factor of two apart (an H100's 989 and 495
    // TFLOP/s) are a few pixels apart. Recomputed after every layout, as the pixels per
    // decade change with the chart's height.
    void spaceRoofLabels(AnalysisChart& chart, std::vector<std::pair<QCPItemText*, double>> labels)
    {
        if (labels.empty())
            return;
        std::sort(
            labels.begin(), labels.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        QCPItemText* first = labels.front().first; // the connection ends with the labels (reset)
        const auto place = [&chart, labels] {
            double previousBottom = -1e9;
            for (const auto& [label, tflops] : labels) {
                const double height = QFontMetricsF(label->font()).height() + label->padding().top()
                    + label->padding().bottom();
                const double bottom = std::max(chart.yAxis->coordToPixel(tflops), previousBottom + height);
                label->position->setCoords(label->position->key(), bottom);
                previousBottom = bottom;
            }
        };
        QObject::connect(&chart, &QCustomPlot::afterLayout, first, place);
        place();
    }

} // namespace

QColor familyColor(core::OpFamily family)
{
    switch (family) {
    case core::OpFamily::Gemm:
        return QColor(0x1f, 0x77, 0xb4);
    case core::OpFamily::Attention:
        return QColor(0xd6, 0x27, 0x28);
    case core::OpFamily::Conv:
        return QColor(0x94, 0x67, 0xbd);
    case core::OpFamily::Elementwise:
        return QColor(0x2c, 0xa0, 0x2c);
    case core::OpFamily::Reduce:
        return QColor(0xff, 0x7f, 0x0e);
    case core::OpFamily::Norm:
        return QColor(0x8c, 0x56, 0x4b);
    case core::OpFamily::Rope:
        return QColor(0xe3, 0x77, 0xc2);
    case core::OpFamily::Moe:
        return QColor(0x17, 0xbe, 0xcf);
    case core::OpFamily::Collective:
        return QColor(0xbc, 0xbd, 0x22);
    case core::OpFamily::Mhc:
        return QColor(0x7f, 0x7f, 0x7f);
    }
    return Qt::gray;
}

RooflinePoints buildRooflineChart(AnalysisChart& chart, const core::EfficiencyReport& report)
{
    RooflinePoints points;
    auto logTicker = QSharedPointer<QCPAxisTickerLog>::create();
    for (QCPAxis* axis : { chart.xAxis, chart.yAxis }) {
        axis->setScaleType(QCPAxis::stLogarithmic);
        axis->setTicker(logTicker);
        axis->setNumberFormat(QStringLiteral("eb"));
        axis->setNumberPrecision(0);
    }
    chart.xAxis->setLabel(QObject::tr("Arithmetic intensity (FLOP/byte)"));
    chart.yAxis->setLabel(QObject::tr("Achieved TFLOP/s"));

    double xMin = 1e300, xMax = 0, yMin = 1e300, yMax = 0, timeMax = 0;
    for (const core::EfficiencyRow& r : report.rows)
        if (r.modelled && r.flops > 0 && r.bytes > 0 && r.tflopsTotal() > 0) {
            xMin = std::min(xMin, r.intensity());
            xMax = std::max(xMax, r.intensity());
            yMin = std::min(yMin, r.tflopsTotal());
            yMax = std::max(yMax, r.tflopsTotal());
            timeMax = std::max(timeMax, r.kernelTimeUsSum);
        }
    const bool anyPoint = timeMax > 0;
    if (!anyPoint) {
        xMin = 0.1;
        xMax = 1000;
        yMin = 0.01;
        yMax = 100;
    }
    // Roofs: each peak from its ridge point (where the bandwidth slope meets it) rightwards.
    if (report.device) {
        const core::DevicePeaks& d = *report.device;
        const double tbps = d.memoryBandwidthGBps / 1000.0; // TFLOP/s per FLOP/byte of intensity
        double topRoof = 0;
        for (const auto& [precision, tflops] : d.matrixTflops)
            topRoof = std::max(topRoof, tflops);
        for (const auto& [precision, tflops] : d.vectorTflops)
            topRoof = std::max(topRoof, tflops);
        xMin = std::min(xMin, 0.05);
        xMax = std::max(xMax * 8, topRoof / tbps * 8); // room right of the points for the roofs' labels
        yMax = std::max(yMax, topRoof * 2);
        yMin = std::min(yMin, tbps * xMin / 2);
        // The slope in the text colour, softened: dark on a light chart, light on a dark one.
        QColor slopeColor = chart.palette().color(QPalette::Text);
        slopeColor.setAlpha(170);
        addLine(chart, xMin, tbps * xMin, topRoof / tbps, topRoof, QPen(slopeColor, 2), {});
        auto* slope = new QCPItemText(&chart);
        slope->position->setType(QCPItemPosition::ptPlotCoords);
        slope->position->setCoords(xMin * 1.2, tbps * xMin * 1.2 * 2);
        slope->setPositionAlignment(Qt::AlignLeft | Qt::AlignBottom);
        slope->setRotation(0);
        slope->setText(QObject::tr("%1 GB/s").arg(d.memoryBandwidthGBps));
        slope->setColor(slopeColor);
        // Large discs just under the slope reach over it: the label stays on top, on a box.
        slope->setLayer(QStringLiteral("legend"));
        slope->setBrush(labelBox(chart));
        // A line per peak (matrix solid, vector dashed); one label per distinct value, above
        // its line, naming every unit and precision with that peak.
        std::map<double, QStringList> labels;
        std::map<double, QColor> labelColors;
        for (const bool matrix : { true, false }) {
            std::map<double, QStringList> byValue;
            for (const auto& [precision, tflops] : matrix ? d.matrixTflops : d.vectorTflops)
                byValue[tflops] << QString::fromStdString(precision);
            for (const auto& [tflops, precisions] : byValue) {
                QPen pen(precisionColor(precisions.front().toStdString()), matrix ? 1.6 : 1.2,
                    matrix ? Qt::SolidLine : Qt::DashLine);
                addLine(chart, tflops / tbps, tflops, xMax, tflops, pen, {});
                labels[tflops] << QStringLiteral("%1 %2").arg(
                    matrix ? QObject::tr("matrix") : QObject::tr("vector"),
                    precisions.join(QLatin1Char('/')));
                labelColors.try_emplace(tflops, readableOn(chart.palette(), pen.color()));
            }
        }
        std::vector<std::pair<QCPItemText*, double>> roofLabels;
        for (const auto& [tflops, names] : labels) {
            auto* label = new QCPItemText(&chart);
            // x in data, y in pixels: spaceRoofLabels places each after every layout.
            label->position->setTypeX(QCPItemPosition::ptPlotCoords);
            label->position->setTypeY(QCPItemPosition::ptAbsolute);
            label->position->setCoords(xMax * 2, 0);
            label->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
            label->setText(names.join(QStringLiteral(", ")) + QLatin1Char(' ') + QString::number(tflops));
            label->setColor(labelColors[tflops]);
            // Over the discs, readable where a large one sits under it.
            label->setLayer(QStringLiteral("legend"));
            label->setBrush(labelBox(chart));
            QFont font = label->font();
            font.setPointSizeF(font.pointSizeF() * 0.85);
            label->setFont(font);
            roofLabels.emplace_back(label, tflops);
        }
        spaceRoofLabels(chart, std::move(roofLabels));
    }
    // The points, largest first so that small ones stay visible on top.
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < report.rows.size(); ++i) {
        const core::EfficiencyRow& r = report.rows[i];
        if (r.modelled && r.flops > 0 && r.bytes > 0 && r.tflopsTotal() > 0)
            order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return report.rows[a].kernelTimeUsSum > report.rows[b].kernelTimeUsSum;
    });
    std::vector<bool> familyInLegend(7, false);
    for (const std::size_t i : order) {
        const core::EfficiencyRow& r = report.rows[i];
        QCPGraph* g = chart.addGraph();
        g->setLineStyle(QCPGraph::lsNone);
        QColor fill = familyColor(r.family);
        fill.setAlpha(150);
        // Area proportional to kernel time: the diameter goes with its square root.
        const double diameter = 5 + 35 * std::sqrt(r.kernelTimeUsSum / timeMax);
        g->setScatterStyle(
            QCPScatterStyle(QCPScatterStyle::ssDisc, familyColor(r.family).darker(130), fill, diameter));
        g->setData({ r.intensity() }, { r.tflopsTotal() }, true);
        const auto family = static_cast<std::size_t>(r.family);
        g->setName(QString::fromLatin1(core::opFamilyName(r.family).data()));
        if (familyInLegend[family]) {
            g->removeFromLegend();
        } else {
            familyInLegend[family] = true;
            // The legend shows the family with a fixed-size disc.
            if (auto* item = chart.legend->itemWithPlottable(g))
                chart.legend->removeItem(item);
            QCPGraph* legendOnly = chart.addGraph();
            legendOnly->setLineStyle(QCPGraph::lsNone);
            // Opaque: a see-through disc fades into a dark chart.
            legendOnly->setScatterStyle(QCPScatterStyle(
                QCPScatterStyle::ssDisc, familyColor(r.family).darker(130), familyColor(r.family), 9));
            legendOnly->setName(g->name());
            legendOnly->setSelectable(QCP::stNone);
        }
        g->setSelectable(QCP::stSingleData);
        points.graphs.push_back(g);
        points.rows.push_back(i);
    }
    chart.xAxis->setRange(xMin / 2, xMax * 2);
    chart.yAxis->setRange(yMin / 2, yMax * 2);
    // The families' legend in a row under the plot: inside it, the discs of a
    // memory-bound trace (low intensity, low FLOP/s) sat under it.
    placeLegendBelow(chart);
    return points;
}

} // namespace ks::widgets
