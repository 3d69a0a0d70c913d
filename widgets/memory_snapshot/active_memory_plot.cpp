#include "widgets/memory_snapshot/active_memory_plot.h"

#include "core/analysis/memory_snapshot/snapshot_frames.h"
#include "widgets/common/format.h"
#include "widgets/memory_snapshot/snapshot_tooltips.h"
#include "widgets/memory_snapshot/step_envelope.h"

#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ks::widgets {

namespace {

    constexpr int kLeft = 72;
    constexpr int kRight = 12;
    constexpr int kTop = 20; // room for the peak's label
    constexpr int kBottom = 36; // tick labels and the axis title
    constexpr int kTooltipFrames = 6;
    constexpr int kLabelGap = 6; // between two labels of a lane

    // 1, 2, 2.5 or 5 times a power of ten, at least `raw`.
    double niceStep(double raw)
    {
        const double power = std::pow(10.0, std::floor(std::log10(raw)));
        for (const double m : { 1.0, 2.0, 2.5, 5.0, 10.0 }) {
            if (m * power >= raw)
                return m * power;
        }
        return 10 * power;
    }

    // Neighbouring allocations get far-apart hues (the golden angle), as
    // memory_viz colours each one on its own.
    QColor bandColor(std::uint32_t allocation)
    {
        const int hue = int((allocation * 137.508) + 200) % 360;
        return QColor::fromHsv(hue, 120 + int(allocation % 3) * 30, 215 - int(allocation % 2) * 25);
    }

} // namespace

ActiveMemoryPlot::ActiveMemoryPlot(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMinimumSize(minimumSizeHint());
}

void ActiveMemoryPlot::setData(SnapshotViewDataPtr snapshot, int device)
{
    m_data = std::move(snapshot);
    m_device = device;
    m_selectedRow = -1;
    m_marks.clear();
    m_lanes = 0;
    m_selectedMark = -1;
    m_first = 0;
    m_last = layout() ? double(layout()->steps) : 1.0;
    m_dirty = true;
    update();
}

void ActiveMemoryPlot::setVisibleSteps(double first, double last)
{
    const double steps = layout() ? double(layout()->steps) : 1.0;
    // At least 8 steps wide: closer in, one step is wider than any band's detail.
    const double width = std::clamp(last - first, std::min(8.0, steps), steps);
    m_first = std::clamp(first, 0.0, steps - width);
    m_last = m_first + width;
    m_dirty = true;
    update();
}

void ActiveMemoryPlot::setMarks(std::vector<StepMark> marks, int lanes)
{
    m_marks = std::move(marks);
    m_lanes = m_marks.empty() ? 0 : std::max(1, lanes);
    m_selectedMark = -1;
    m_dirty = true; // the plot's top moves down under the lanes
    update();
}

void ActiveMemoryPlot::setSelectedMark(int mark)
{
    m_selectedMark = mark >= 0 && std::size_t(mark) < m_marks.size() ? mark : -1;
    update();
}

void ActiveMemoryPlot::setSelectedRow(int row)
{
    m_selectedRow = row;
    update();
}

const core::ActiveMemoryTimeline* ActiveMemoryPlot::timeline() const
{
    return m_data ? &m_data->summaryOf(m_device).timeline : nullptr;
}

const BandLayout* ActiveMemoryPlot::layout() const
{
    return m_data ? &m_data->devices[std::size_t(m_device)].bands : nullptr;
}

int ActiveMemoryPlot::lanesTop() const
{
    return kTop;
}

QRect ActiveMemoryPlot::plotRect() const
{
    const int lanes = m_lanes > 0 ? m_lanes * (fontMetrics().height() + 4) + 2 : 0;
    return rect().adjusted(kLeft, kTop + lanes, -kRight, -kBottom);
}

QRect ActiveMemoryPlot::markRect(int mark) const
{
    if (mark < 0 || std::size_t(mark) >= m_marks.size())
        return {};
    const StepMark& m = m_marks[std::size_t(mark)];
    const QRect r = plotRect();
    const double x1 = xOfStep(m.firstStep);
    const double x2 = xOfStep(m.endStep);
    if (x2 < r.left() || x1 > r.right() + 1)
        return {}; // zoomed out of view
    const int left = int(std::lround(std::max(x1, double(r.left()))));
    const int right = int(std::lround(std::min(x2, double(r.right() + 1))));
    const int laneHeight = fontMetrics().height() + 4;
    // At least a pixel wide: a range without events is still where it happened.
    return QRect(left, lanesTop() + m.lane * laneHeight, std::max(1, right - left), laneHeight - 1);
}

int ActiveMemoryPlot::markAt(QPoint pos) const
{
    // The last drawn on top wins: a nested annotation over the one around it.
    for (int i = int(m_marks.size()); i-- > 0;)
        if (markRect(i).adjusted(-1, 0, 1, 0).contains(pos))
            return i;
    return -1;
}

std::vector<ActiveMemoryPlot::MarkLabel> ActiveMemoryPlot::markLabels() const
{
    const QFontMetrics fm(font());
    std::vector<MarkLabel> labels;
    std::vector<int> lastRight(std::size_t(std::max(m_lanes, 1)), std::numeric_limits<int>::min() / 2);
    for (int i = 0; i < int(m_marks.size()); ++i) {
        const StepMark& m = m_marks[std::size_t(i)];
        const QRect band = markRect(i);
        if (band.isEmpty())
            continue;
        int& last = lastRight[std::size_t(std::min(m.lane, m_lanes - 1))];
        if (band.left() + 3 < last + kLabelGap)
            continue; // the label before still covers this start: thinned out
        QString text = m.label;
        if (fm.horizontalAdvance(text) + 6 > band.width()) {
            // A step too narrow for its name shows "#N", spilling over the narrower steps after it
            // as a ruler's label does; those are left unlabelled. An annotation is elided instead.
            if (m.profilerStep)
                text = m.shortLabel;
            else if (band.width() >= 28)
                text = fm.elidedText(m.label, Qt::ElideRight, band.width() - 6);
            else
                continue;
        }
        const QRect at(band.left() + 3, band.top(), fm.horizontalAdvance(text), band.height());
        if (at.right() > plotRect().right())
            continue;
        last = at.right();
        labels.push_back({ i, text, at });
    }
    return labels;
}

double ActiveMemoryPlot::yMax() const
{
    const BandLayout* l = layout();
    const double top = l ? std::max(l->maxTotal, double(timeline()->peakAllocated)) : 1.0;
    return std::max(1.0, top * 1.04);
}

double ActiveMemoryPlot::xOfStep(double step) const
{
    const QRect r = plotRect();
    return r.left() + (step - m_first) / (m_last - m_first) * r.width();
}

double ActiveMemoryPlot::stepOfX(double x) const
{
    const QRect r = plotRect();
    return m_first + (x - r.left()) / std::max(1, r.width()) * (m_last - m_first);
}

double ActiveMemoryPlot::yOfBytes(double bytes) const
{
    const QRect r = plotRect();
    return r.bottom() + 1 - bytes / yMax() * r.height();
}

double ActiveMemoryPlot::bytesOfY(double y) const
{
    const QRect r = plotRect();
    return (r.bottom() + 1 - y) / std::max(1, r.height()) * yMax();
}

void ActiveMemoryPlot::rebuild()
{
    m_dirty = false;
    m_drawn.clear();
    m_summarized.clear();
    m_outline.clear();
    const BandLayout* l = layout();
    if (!l)
        return;
    m_drawn.reserve(l->bands.size());
    for (const SnapshotBand& b : l->bands) {
        if (double(b.endStep) < m_first || double(b.startStep) > m_last)
            continue; // zoomed out of view
        QPolygonF bottom;
        bottom << QPointF(xOfStep(double(b.startStep)), yOfBytes(l->offsetAt(b, double(b.startStep))));
        for (std::uint32_t i = 0; i < b.pointCount; ++i) {
            const BandPoint& p = l->points[b.firstPoint + i];
            if (p.step > b.startStep && p.step < b.endStep)
                bottom << QPointF(xOfStep(double(p.step)), yOfBytes(p.offset));
        }
        bottom << QPointF(xOfStep(double(b.endStep)), yOfBytes(l->offsetAt(b, double(b.endStep))));
        QPolygonF polygon = bottom;
        const double height = b.size / yMax() * plotRect().height();
        for (qsizetype i = bottom.size(); i-- > 0;)
            polygon << bottom[i] - QPointF(0, height);
        m_drawn.push_back({ polygon, bandColor(b.allocation) });
    }
    // The total and the drawn bands' top as step lines (the value holds until the
    // next action), one column per pixel: a large snapshot has millions of actions.
    std::vector<StepSample> samples;
    samples.reserve(l->totals.size());
    for (const TotalPoint& p : l->totals)
        samples.push_back({ xOfStep(double(p.step)), yOfBytes(p.total), yOfBytes(p.drawn) });
    const bool anySummarized = std::any_of(
        l->totals.begin(), l->totals.end(), [](const TotalPoint& p) { return p.total > p.drawn; });
    const QRect r = plotRect();
    StepEnvelope envelope = stepEnvelope(samples, r.left(), r.right() + 1, anySummarized || l->truncated);
    m_outline = std::move(envelope.outline);
    m_summarized = std::move(envelope.band);
}

void ActiveMemoryPlot::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    m_dirty = true;
}

void ActiveMemoryPlot::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_data) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No snapshot"));
        return;
    }
    if (m_dirty)
        rebuild();
    paintAxes(p);
    p.save();
    p.setClipRect(plotRect());
    // Antialiasing off: thousands of bands fill faster and their shared edges stay crisp.
    p.setRenderHint(QPainter::Antialiasing, false);
    p.setPen(Qt::NoPen);
    for (const DrawnBand& band : m_drawn) {
        p.setBrush(band.color);
        p.drawPolygon(band.polygon);
    }
    if (!m_summarized.isEmpty()) {
        p.setBrush(QColor(160, 160, 160));
        p.drawPolygon(m_summarized);
    }
    p.setBrush(Qt::NoBrush);
    // Half-transparent: thousands of steps close together would otherwise paint the top black.
    QColor outline = palette().color(QPalette::Text);
    outline.setAlphaF(0.45f);
    p.setPen(QPen(outline, 1));
    p.drawPolyline(m_outline);
    p.restore();
    paintRanges(p);
    paintMarks(p);
}

void ActiveMemoryPlot::paintAxes(QPainter& p) const
{
    const QRect r = plotRect();
    const QColor text = palette().color(QPalette::Text);
    const QColor grid = palette().color(QPalette::Mid);
    const QFontMetrics fm(font());
    // y: bytes at round multiples of the largest binary unit under the top.
    double unit = 1;
    while (unit * 1024 <= yMax())
        unit *= 1024;
    const double step = niceStep(yMax() / unit / 4) * unit;
    for (double v = 0; v <= yMax(); v += step) {
        const int y = int(std::lround(yOfBytes(v)));
        p.setPen(QPen(grid, 1, Qt::DotLine));
        p.drawLine(r.left(), y, r.right(), y);
        p.setPen(text);
        p.drawText(QRect(0, y - fm.height() / 2, kLeft - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
            formatBytes(std::uint64_t(v)));
    }
    // x: memory_viz's steps; the time between events varies, so no time axis.
    const double xStep = niceStep(std::max(1.0, (m_last - m_first) / std::max(2, r.width() / 90)));
    p.setPen(text);
    for (double s = std::ceil(m_first / xStep) * xStep; s <= m_last; s += xStep) {
        const int x = int(std::lround(xOfStep(s)));
        p.drawLine(x, r.bottom() + 1, x, r.bottom() + 4);
        p.drawText(QRect(x - 40, r.bottom() + 4, 80, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
            QString::number(std::int64_t(s)));
    }
    p.drawText(QRect(r.left(), r.bottom() + 4 + fm.height(), r.width(), fm.height()), Qt::AlignHCenter,
        tr("memory_viz steps (wheel zooms)"));
    p.setPen(grid);
    p.drawLine(r.bottomLeft() + QPoint(0, 1), r.bottomRight() + QPoint(0, 1));
    p.drawLine(r.topLeft(), r.bottomLeft());
}

void ActiveMemoryPlot::paintMarks(QPainter& p) const
{
    const core::ActiveMemoryTimeline* t = timeline();
    const QRect r = plotRect();
    const QFontMetrics fm(font());
    // The peak: a dashed line and its size above the plot.
    const int px = int(std::lround(xOfStep(double(t->peakTimestep))));
    p.setPen(QPen(QColor(200, 40, 40), 1, Qt::DashLine));
    p.drawLine(px, r.top(), px, r.bottom());
    const QString label = tr("peak %1").arg(formatBytes(t->peakAllocated));
    const int width = fm.horizontalAdvance(label) + 4;
    const int lx = std::clamp(px - width / 2, r.left(), std::max(r.left(), r.right() - width));
    p.setPen(QColor(200, 40, 40));
    p.drawText(QRect(lx, 2, width, kTop - 2), Qt::AlignCenter, label);
    if (m_selectedRow >= 0 && std::size_t(m_selectedRow) < t->rows.size()) {
        const int sx = int(std::lround(xOfStep(double(t->rows[std::size_t(m_selectedRow)].timestep))));
        p.setPen(QPen(palette().color(QPalette::Highlight), 2));
        p.drawLine(sx, r.top(), sx, r.bottom());
    }
}

void ActiveMemoryPlot::paintRanges(QPainter& p) const
{
    if (m_marks.empty())
        return;
    const QRect r = plotRect();
    const QColor highlight = palette().color(QPalette::Highlight);
    // Where each step begins, across the memory: thinned to one line per 4 px.
    p.setPen(QPen(QColor(110, 130, 160, 110), 1, Qt::DotLine));
    int lastLine = std::numeric_limits<int>::min();
    for (int i = 0; i < int(m_marks.size()); ++i) {
        const QRect band = markRect(i);
        if (band.isEmpty() || !m_marks[std::size_t(i)].profilerStep || band.left() < lastLine + 4)
            continue;
        p.drawLine(band.left(), r.top(), band.left(), r.bottom());
        lastLine = band.left();
    }
    if (const QRect chosen = markRect(m_selectedMark); !chosen.isEmpty()) {
        QColor shade = highlight;
        shade.setAlpha(45);
        p.fillRect(QRect(chosen.left(), r.top(), chosen.width(), r.height()), shade);
        p.setPen(QPen(highlight, 1));
        p.drawLine(chosen.left(), r.top(), chosen.left(), r.bottom());
        p.drawLine(chosen.right(), r.top(), chosen.right(), r.bottom());
    }
    // The lanes: alternating shades tell neighbouring ranges apart however narrow they are.
    static const QColor kStep[2] = { QColor(196, 212, 234), QColor(150, 178, 216) };
    static const QColor kAnnotation[2] = { QColor(206, 230, 200), QColor(164, 206, 158) };
    int steps = 0;
    int annotations = 0;
    for (int i = 0; i < int(m_marks.size()); ++i) {
        const StepMark& m = m_marks[std::size_t(i)];
        const int parity = m.profilerStep ? steps++ % 2 : annotations++ % 2;
        const QRect band = markRect(i);
        if (band.isEmpty())
            continue;
        p.fillRect(band,
            i == m_selectedMark  ? highlight
                : m.profilerStep ? kStep[parity]
                                 : kAnnotation[parity]);
    }
    for (const MarkLabel& label : markLabels()) {
        p.setPen(
            label.mark == m_selectedMark ? palette().color(QPalette::HighlightedText) : QColor(25, 25, 25));
        p.drawText(label.rect, Qt::AlignLeft | Qt::AlignVCenter, label.text);
    }
}

std::int64_t ActiveMemoryPlot::bandAt(QPoint pos) const
{
    const BandLayout* l = layout();
    if (!l || !plotRect().contains(pos))
        return -1;
    return l->bandAt(stepOfX(pos.x()), bytesOfY(pos.y()));
}

QString ActiveMemoryPlot::bandText(std::int64_t band) const
{
    const BandLayout* l = layout();
    if (!l || band < 0 || std::size_t(band) >= l->bands.size())
        return {};
    const core::TimelineAllocation& a = timeline()->allocations[l->bands[std::size_t(band)].allocation];
    QStringList lines;
    lines << tr("%1 (%2 bytes) at 0x%3")
                 .arg(formatBytes(a.size), QLocale().toString(qulonglong(a.size)),
                     QString::number(a.addr, 16));
    if (a.origin == core::AllocationOrigin::FreeWithoutAlloc)
        lines << tr("allocated before the trace began");
    else if (a.origin == core::AllocationOrigin::SnapshotBlock)
        lines << tr("live in the snapshot, allocated before the trace began");
    else
        lines << tr("allocated by event %1").arg(a.eventIdx);
    const QStringList frames = keptFrames(*m_data->snapshot, a.stack, kTooltipFrames);
    lines << (frames.isEmpty() ? QStringList { toQString(core::kNoFrames) } : frames);
    return lines.join(QLatin1Char('\n'));
}

int ActiveMemoryPlot::rowAtX(int x) const
{
    const core::ActiveMemoryTimeline* t = timeline();
    if (!t || t->rows.empty())
        return -1;
    const double step = stepOfX(x);
    // Rows are in event order, their steps non-decreasing.
    const auto it = std::upper_bound(t->rows.begin(), t->rows.end(), step,
        [](double s, const core::TimelineRow& row) { return s < double(row.timestep); });
    return it == t->rows.begin() ? 0 : int(it - t->rows.begin()) - 1;
}

void ActiveMemoryPlot::mouseMoveEvent(QMouseEvent* event)
{
    QWidget::mouseMoveEvent(event);
    setCursor(plotRect().contains(event->position().toPoint()) ? Qt::CrossCursor : Qt::ArrowCursor);
}

bool ActiveMemoryPlot::event(QEvent* event)
{
    return handleToolTip(this, event, [this](QPoint pos) {
        if (const int mark = markAt(pos); mark >= 0)
            return tr("%1 (click: its row in the Steps tab)").arg(m_marks[std::size_t(mark)].label);
        return bandText(bandAt(pos));
    }) || QWidget::event(event);
}

void ActiveMemoryPlot::wheelEvent(QWheelEvent* event)
{
    if (!m_data || event->angleDelta().y() == 0)
        return QWidget::wheelEvent(event);
    const double at = stepOfX(event->position().x());
    const double factor = event->angleDelta().y() > 0 ? 0.8 : 1.25;
    setVisibleSteps(at - (at - m_first) * factor, at + (m_last - at) * factor);
    event->accept();
}

void ActiveMemoryPlot::mouseDoubleClickEvent(QMouseEvent* event)
{
    if (!m_data)
        return QWidget::mouseDoubleClickEvent(event);
    setVisibleSteps(0, double(layout()->steps));
}

void ActiveMemoryPlot::mousePressEvent(QMouseEvent* event)
{
    if (const int mark = markAt(event->position().toPoint());
        event->button() == Qt::LeftButton && mark >= 0) {
        setSelectedMark(mark);
        emit markPicked(mark);
        return;
    }
    if (event->button() != Qt::LeftButton || !plotRect().contains(event->position().toPoint()))
        return QWidget::mousePressEvent(event);
    const int row = rowAtX(event->position().toPoint().x());
    if (row >= 0) {
        setSelectedRow(row);
        emit eventPicked(row);
    }
}

} // namespace ks::widgets
