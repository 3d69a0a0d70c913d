#include "widgets/charts/annotation_pie.h"

#include "widgets/charts/chart_style.h"
#include "widgets/common/format.h"

#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <cmath>
#include <numbers>

namespace ks::widgets {

namespace {

    constexpr double kMargin = 8;
    constexpr double kRaise = 6; // how far the hovered slice moves out, px

    // Qt's angles: 1/16 degree, counter-clockwise from 3 o'clock.
    int qtAngle(double clockwiseFromTwelve)
    {
        return static_cast<int>(std::lround((90.0 - clockwiseFromTwelve) * 16.0));
    }

    QPointF onCircle(const QPointF& centre, double radius, double clockwiseFromTwelve)
    {
        const double radians = clockwiseFromTwelve * std::numbers::pi / 180.0;
        return { centre.x() + radius * std::sin(radians), centre.y() - radius * std::cos(radians) };
    }

} // namespace

AnnotationPie::AnnotationPie(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("annotationPie"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void AnnotationPie::setSlices(std::vector<PieSlice> slices, const QString& caption)
{
    m_given = std::move(slices);
    m_caption = caption;
    fold();
}

void AnnotationPie::fold()
{
    m_slices = m_given;
    m_hovered = -1;
    // The rows the legend has room for (geometry() sizes the legend by m_slices).
    const QFontMetricsF metrics(font());
    const double captionHeight = m_caption.isEmpty() ? 0 : metrics.height() + 6;
    const double room = height() - 2 * kMargin - captionHeight;
    const auto rows = static_cast<std::size_t>(std::max(2.0, std::floor(room / (metrics.height() + 2))));
    if (m_slices.size() > rows) {
        PieSlice other { tr("other"), 0, false };
        for (std::size_t i = rows - 1; i < m_slices.size(); ++i)
            other.nanoseconds += m_slices[i].nanoseconds;
        m_slices.resize(rows - 1);
        m_slices.push_back(other);
    }
    update();
}

void AnnotationPie::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fold();
}

double AnnotationPie::total() const
{
    double sum = 0;
    for (const PieSlice& s : m_slices)
        sum += std::max(0.0, s.nanoseconds);
    return sum;
}

double AnnotationPie::percentOf(int index) const
{
    const double all = total();
    if (index < 0 || index >= static_cast<int>(m_slices.size()) || all <= 0)
        return 0;
    return 100.0 * std::max(0.0, m_slices[static_cast<std::size_t>(index)].nanoseconds) / all;
}

QColor AnnotationPie::colorOf(int index) const
{
    if (index >= 0 && index < static_cast<int>(m_slices.size())
        && !m_slices[static_cast<std::size_t>(index)].searchable)
        return idleColor(); // the folded rest: grey, apart from every named slice
    return rankColor(index);
}

std::pair<double, double> AnnotationPie::anglesOf(int index) const
{
    double start = 0;
    for (int i = 0; i < index; ++i)
        start += 3.6 * percentOf(i);
    return { start, 3.6 * percentOf(index) };
}

AnnotationPie::Geometry AnnotationPie::geometry() const
{
    Geometry g;
    const QFontMetricsF metrics(font());
    g.captionHeight = m_caption.isEmpty() ? 0 : metrics.height() + 6;
    g.rowHeight = metrics.height() + 2;
    const QRectF area = QRectF(rect()).adjusted(kMargin, kMargin + g.captionHeight, -kMargin, -kMargin);
    // The pie takes a square at the left, at most 40 % of the width; the legend the rest.
    const double side = std::max(0.0, std::min(area.height(), area.width() * 0.4) - 2 * kRaise);
    g.pie = QRectF(area.left() + kRaise, area.top() + (area.height() - side) / 2, side, side);
    const double legendHeight = g.rowHeight * static_cast<double>(m_slices.size());
    const double legendLeft = g.pie.right() + kRaise + 2 * kMargin;
    g.legend = QRectF(legendLeft, area.top() + std::max(0.0, (area.height() - legendHeight) / 2),
        std::max(0.0, area.right() - legendLeft), std::min(legendHeight, area.height()));
    return g;
}

int AnnotationPie::legendRowsShown() const
{
    const Geometry g = geometry();
    if (g.rowHeight <= 0)
        return 0;
    const int fit = static_cast<int>((g.legend.height() + 0.5) / g.rowHeight);
    return std::min(fit, static_cast<int>(m_slices.size()));
}

int AnnotationPie::sliceAt(const QPoint& pos) const
{
    const Geometry g = geometry();
    if (g.legend.contains(pos)) {
        const int row = static_cast<int>((pos.y() - g.legend.top()) / g.rowHeight);
        return row < static_cast<int>(m_slices.size()) ? row : -1;
    }
    const QPointF d = QPointF(pos) - g.pie.center();
    if (std::hypot(d.x(), d.y()) > g.pie.width() / 2 + kRaise || total() <= 0)
        return -1;
    double angle = std::atan2(d.x(), -d.y()) * 180.0 / std::numbers::pi; // clockwise from 12
    if (angle < 0)
        angle += 360;
    for (int i = 0; i < static_cast<int>(m_slices.size()); ++i) {
        const auto [start, span] = anglesOf(i);
        if (angle >= start && angle < start + span)
            return i;
    }
    return -1;
}

QPoint AnnotationPie::pointInSlice(int index) const
{
    const Geometry g = geometry();
    const auto [start, span] = anglesOf(index);
    return onCircle(g.pie.center(), g.pie.width() * 0.35, start + span / 2).toPoint();
}

void AnnotationPie::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.fillRect(rect(), palette().base());
    painter.setRenderHint(QPainter::Antialiasing); // curves: unlike the timeline's rectangles
    const Geometry g = geometry();
    if (!m_caption.isEmpty()) {
        QFont bold = font();
        bold.setBold(true);
        painter.setFont(bold);
        painter.setPen(palette().color(QPalette::Text));
        const QRectF line(kMargin, kMargin, width() - 2 * kMargin, g.captionHeight);
        painter.drawText(line, Qt::AlignLeft | Qt::AlignTop,
            QFontMetricsF(bold).elidedText(m_caption, Qt::ElideRight, line.width()));
        painter.setFont(font());
    }
    if (m_slices.empty() || total() <= 0 || g.pie.width() < 8) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No annotation time on this rank"));
        return;
    }
    const double radius = g.pie.width() / 2;
    for (int i = 0; i < static_cast<int>(m_slices.size()); ++i) {
        const auto [start, span] = anglesOf(i);
        if (span <= 0)
            continue;
        QRectF box = g.pie;
        if (i == m_hovered)
            box.translate(onCircle({ 0, 0 }, kRaise, start + span / 2));
        painter.setPen(QPen(palette().color(QPalette::Base), 1.5));
        painter.setBrush(i == m_hovered ? colorOf(i).lighter(115) : colorOf(i));
        if (span >= 359.999)
            painter.drawEllipse(box);
        else
            painter.drawPie(box, qtAngle(start), -static_cast<int>(std::lround(span * 16.0)));
        // The share on slices wide enough to hold it.
        if (span >= 30 && radius >= 50) {
            const QPointF at = onCircle(box.center(), radius * 0.66, start + span / 2);
            const QString text = formatPercent(percentOf(i));
            painter.setPen(colorOf(i).lightnessF() > 0.6 ? Qt::black : Qt::white);
            painter.drawText(QRectF(at.x() - 40, at.y() - 10, 80, 20), Qt::AlignCenter, text);
        }
    }
    paintLegend(painter, g);
}

void AnnotationPie::paintLegend(QPainter& painter, const Geometry& g) const
{
    const QFontMetricsF metrics(font());
    for (int i = 0; i < static_cast<int>(m_slices.size()); ++i) {
        const double top = g.legend.top() + g.rowHeight * i;
        if (top + g.rowHeight > g.legend.bottom() + 0.5)
            break; // no room: the tooltip still names every slice
        const PieSlice& s = m_slices[static_cast<std::size_t>(i)];
        const QRectF row(g.legend.left(), top, g.legend.width(), g.rowHeight);
        if (i == m_hovered)
            painter.fillRect(row, palette().color(QPalette::AlternateBase));
        const double box = std::min(12.0, g.rowHeight - 4);
        painter.setPen(Qt::NoPen);
        painter.setBrush(colorOf(i));
        painter.drawRect(QRectF(row.left() + 2, row.center().y() - box / 2, box, box));
        const QString value =
            QStringLiteral("%1 · %2").arg(formatDurationReal(s.nanoseconds), formatPercent(percentOf(i)));
        const double valueWidth = metrics.horizontalAdvance(value) + 4;
        const QRectF nameRect(row.left() + box + 8, top, row.width() - box - 8 - valueWidth - 8, g.rowHeight);
        painter.setPen(palette().color(QPalette::Text));
        painter.drawText(nameRect, Qt::AlignLeft | Qt::AlignVCenter,
            metrics.elidedText(s.name, Qt::ElideMiddle, nameRect.width()));
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(QRectF(row.right() - valueWidth, top, valueWidth, g.rowHeight),
            Qt::AlignRight | Qt::AlignVCenter, value);
    }
}

void AnnotationPie::mouseMoveEvent(QMouseEvent* event)
{
    const int hovered = sliceAt(event->position().toPoint());
    if (hovered != m_hovered) {
        m_hovered = hovered;
        update();
    }
    if (hovered < 0) {
        QToolTip::hideText();
        return;
    }
    const PieSlice& s = m_slices[static_cast<std::size_t>(hovered)];
    QString text = QStringLiteral("<b>%1</b><br>%2 · %3")
                       .arg(s.name.toHtmlEscaped(), formatDurationReal(s.nanoseconds),
                           formatPercent(percentOf(hovered)));
    if (s.searchable)
        text += QStringLiteral("<br>") + tr("Click to find its ranges on the timeline");
    QToolTip::showText(event->globalPosition().toPoint(), text, this);
}

void AnnotationPie::mousePressEvent(QMouseEvent* event)
{
    const int index = sliceAt(event->position().toPoint());
    if (event->button() == Qt::LeftButton && index >= 0
        && m_slices[static_cast<std::size_t>(index)].searchable)
        emit sliceClicked(m_slices[static_cast<std::size_t>(index)].name);
    QWidget::mousePressEvent(event);
}

void AnnotationPie::leaveEvent(QEvent* event)
{
    m_hovered = -1;
    update();
    QWidget::leaveEvent(event);
}

} // namespace ks::widgets
