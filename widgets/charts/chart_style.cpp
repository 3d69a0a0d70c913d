#include "widgets/charts/chart_style.h"

#include "widgets/timeline/render/timeline_palette.h"

#include <algorithm>
#include <array>

namespace ks::widgets {

namespace {

    QColor kind(SliceKind k)
    {
        // The palette derives kind colours from fixed hues; the shade does not
        // depend on the theme, so a default-constructed palette gives the same ones.
        static const TimelinePalette palette;
        return palette.kindColor(k);
    }

} // namespace

QColor computeColor()
{
    return kind(SliceKind::Compute);
}

QColor communicationColor()
{
    return kind(SliceKind::Communication);
}

QColor memoryColor()
{
    return kind(SliceKind::Memory);
}

QColor syncColor()
{
    return kind(SliceKind::Sync);
}

QColor runtimeColor()
{
    return kind(SliceKind::Runtime);
}

QColor idleColor()
{
    return QColor(0xb8, 0xbe, 0xc6);
}

QColor rankColor(int index)
{
    static constexpr std::array<QRgb, 10> kColors = { 0x3f7fbf, 0xe0603a, 0x3aa45a, 0x9a5cc6, 0xe2a23b,
        0x3ea6a0, 0xd81b60, 0x7d6b5d, 0x6f8fcf, 0x8fae3a };
    return QColor::fromRgb(kColors[static_cast<std::size_t>(index) % kColors.size()]);
}

namespace {

    const char* const kLabelsProperty = "ksCategoryLabels";

} // namespace

void setCategoryAxis(QCPAxis* axis, const QStringList& labels)
{
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    // Beyond kMaxLabelledCategories, every k-th category is labelled: a
    // thousand overlapping labels read as a black bar.
    const int step = static_cast<int>((labels.size() + kMaxLabelledCategories - 1) / kMaxLabelledCategories);
    for (int i = 0; i < labels.size(); i += std::max(step, 1))
        ticker->addTick(i, elided(labels[i], kMaxLabelChars));
    axis->setTicker(ticker);
    axis->setProperty(kLabelsProperty, labels);
    axis->setSubTicks(false);
    axis->setTickLength(0, 4);
    axis->grid()->setVisible(false);
    const double slotCount = std::max<double>(static_cast<double>(labels.size()), kMinCategorySlots);
    const double pad = (slotCount - static_cast<double>(labels.size())) / 2;
    axis->setRange(-0.6 - pad, static_cast<double>(labels.size()) - 0.4 + pad);
}

QStringList categoryLabels(const QCPAxis* axis)
{
    return axis->property(kLabelsProperty).toStringList();
}

void addTitle(AnalysisChart& chart, const QString& title)
{
    chart.plotLayout()->insertRow(0);
    QFont font = chart.font();
    font.setBold(true);
    auto* text = new QCPTextElement(&chart, title, font);
    text->setTextColor(chart.palette().color(QPalette::Text));
    chart.plotLayout()->addElement(0, 0, text);
}

void placeLegendBelow(AnalysisChart& chart)
{
    chart.legend->setVisible(true);
    if (chart.legend->layout() == chart.plotLayout())
        return; // a chart built again (AnalysisChart::reset keeps the layout)
    if (chart.axisRect()->insetLayout()->take(chart.legend))
        chart.axisRect()->insetLayout()->simplify();
    const int row = chart.plotLayout()->rowCount();
    chart.plotLayout()->addElement(row, 0, chart.legend);
    chart.legend->setFillOrder(QCPLayoutGrid::foColumnsFirst);
    chart.legend->setWrap(6);
    chart.legend->setBorderPen(Qt::NoPen);
    chart.legend->setMargins(QMargins(4, 0, 4, 2));
    // The legend row takes only the height it needs.
    chart.plotLayout()->setRowStretchFactor(row, 0.001);
}

QCPBars* addBars(QCPAxis* keyAxis, QCPAxis* valueAxis, const QString& name, const QColor& color)
{
    auto* bars = new QCPBars(keyAxis, valueAxis);
    bars->setName(name);
    bars->setBrush(color);
    bars->setPen(QPen(color.darker(130)));
    bars->setWidthType(QCPBars::wtPlotCoords);
    bars->setWidth(0.7);
    return bars;
}

bool isDarkPalette(const QPalette& palette)
{
    return palette.color(QPalette::Base).lightness() < 128;
}

QColor readableOn(const QPalette& palette, const QColor& color)
{
    return isDarkPalette(palette) ? color.lighter(150) : color.darker(120);
}

QString elided(const QString& text, int maxChars)
{
    if (text.size() <= maxChars)
        return text;
    const qsizetype head = (maxChars - 1) / 2;
    const qsizetype tail = maxChars - 1 - head;
    return text.left(head) + QChar(0x2026) + text.right(tail);
}

} // namespace ks::widgets
