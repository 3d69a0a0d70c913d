#include "widgets/memory_snapshot/allocator_state_widget.h"

#include "widgets/common/format.h"
#include "widgets/memory_snapshot/snapshot_tooltips.h"

#include <QPaintEvent>
#include <QPainter>

#include <algorithm>

namespace ks::widgets {

namespace {

    constexpr int kMargin = 4;
    constexpr int kTooltipFrames = 6;

    const QColor kAllocated(78, 121, 167);
    const QColor kRounding(28, 60, 100);
    const QColor kPending(242, 142, 43);
    const QColor kFree(215, 215, 215);

} // namespace

AllocatorStateWidget::AllocatorStateWidget(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
}

void AllocatorStateWidget::setState(
    std::shared_ptr<const core::AllocatorState> state, std::shared_ptr<const core::MemorySnapshot> snapshot)
{
    m_state = std::move(state);
    m_snapshot = std::move(snapshot);
    // The scroll area it sits in scrolls once the segments are taller than its viewport.
    setMinimumHeight(sizeHint().height());
    updateGeometry();
    update();
}

bool AllocatorStateWidget::stacked() const
{
    return width() < 3 * labelWidth();
}

int AllocatorStateWidget::rowHeight() const
{
    const int line = fontMetrics().height();
    return stacked() ? 2 * line + 8 : line + 6;
}

int AllocatorStateWidget::labelWidth() const
{
    return fontMetrics().horizontalAdvance(QStringLiteral("0x7fffffffffff  1023.9 MiB  s99")) + 2 * kMargin;
}

QSize AllocatorStateWidget::sizeHint() const
{
    const int rows = m_state ? int(m_state->segments.size()) : 0;
    return { 600, std::max(60, rows * rowHeight() + 2 * kMargin) };
}

QRect AllocatorStateWidget::labelRect(int segment) const
{
    const int top = kMargin + segment * rowHeight();
    if (stacked())
        return { kMargin, top, std::max(10, width() - 2 * kMargin), fontMetrics().height() + 2 };
    return { kMargin, top, labelWidth() - 2 * kMargin, rowHeight() };
}

QRect AllocatorStateWidget::barRect(int segment) const
{
    const int top = kMargin + segment * rowHeight();
    const int line = fontMetrics().height();
    if (stacked())
        return { kMargin, top + line + 3, std::max(10, width() - 2 * kMargin), line + 2 };
    const int left = labelWidth();
    return { left, top + 2, std::max(10, width() - left - kMargin), rowHeight() - 4 };
}

void AllocatorStateWidget::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    // Narrow, each label goes above its bar: the height follows the width.
    setMinimumHeight(sizeHint().height());
}

std::pair<std::size_t, std::size_t> AllocatorStateWidget::blocksOf(const core::StateSegment& segment) const
{
    const auto& blocks = m_state->blocks;
    const auto byAddr = [](const core::StateBlock& b, std::uint64_t a) { return b.addr < a; };
    const auto first = std::lower_bound(blocks.begin(), blocks.end(), segment.addr, byAddr);
    const auto last = std::lower_bound(first, blocks.end(), segment.addr + segment.size, byAddr);
    return { std::size_t(first - blocks.begin()), std::size_t(last - blocks.begin()) };
}

void AllocatorStateWidget::paintEvent(QPaintEvent* event)
{
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    if (!m_state) {
        p.setPen(palette().color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("Click the timeline to see the allocator at that event."));
        return;
    }
    if (m_state->segments.empty()) {
        p.setPen(palette().color(QPalette::Text));
        p.drawText(rect(), Qt::AlignCenter, tr("No segment is reserved at this event."));
        return;
    }
    // Only the rows in the exposed area: a snapshot can hold thousands of segments.
    const int firstRow = std::max(0, (event->rect().top() - kMargin) / rowHeight());
    const int lastRow =
        std::min(int(m_state->segments.size()) - 1, (event->rect().bottom() - kMargin) / rowHeight());
    for (int row = firstRow; row <= lastRow; ++row) {
        const core::StateSegment& s = m_state->segments[std::size_t(row)];
        const QRect bar = barRect(row);
        p.setPen(palette().color(QPalette::Text));
        p.drawText(labelRect(row), Qt::AlignVCenter | Qt::AlignLeft,
            QStringLiteral("0x%1  %2  s%3")
                .arg(QString::number(s.addr, 16), formatBytes(s.size), QString::number(s.stream)));
        p.fillRect(bar, kFree);
        const double scale = double(bar.width()) / double(std::max<std::uint64_t>(1, s.size));
        const auto [first, last] = blocksOf(s);
        for (std::size_t i = first; i < last; ++i) {
            const core::StateBlock& b = m_state->blocks[i];
            const double x0 = bar.left() + double(b.addr - s.addr) * scale;
            const double w = std::max(1.0, double(b.size) * scale);
            const QRectF block(x0, bar.top(), w, bar.height());
            p.fillRect(block, b.pendingFree ? kPending : kAllocated);
            const double lost = double(b.size - std::min(b.size, b.requestedSize)) * scale;
            if (lost >= 1)
                p.fillRect(QRectF(x0 + w - lost, bar.top(), lost, bar.height()), kRounding);
            // A 1-pixel gap between neighbouring blocks keeps them apart when the bar is full.
            if (w >= 4)
                p.fillRect(QRectF(x0 + w - 1, bar.top(), 1, bar.height()), palette().base());
        }
    }
}

QString AllocatorStateWidget::textAt(QPoint pos) const
{
    if (!m_state || m_state->segments.empty())
        return {};
    const int row = (pos.y() - kMargin) / rowHeight();
    if (row < 0 || row >= int(m_state->segments.size()))
        return {};
    const core::StateSegment& s = m_state->segments[std::size_t(row)];
    const QRect bar = barRect(row);
    const double scale = double(bar.width()) / double(std::max<std::uint64_t>(1, s.size));
    const auto [first, last] = blocksOf(s);
    for (std::size_t i = first; i < last; ++i) {
        const core::StateBlock& b = m_state->blocks[i];
        const double x0 = bar.left() + double(b.addr - s.addr) * scale;
        if (pos.x() < x0 || pos.x() > x0 + std::max(1.0, double(b.size) * scale))
            continue;
        QStringList lines;
        lines << tr("%1 block at 0x%2 (%3 requested)%4")
                     .arg(formatBytes(b.size), QString::number(b.addr, 16), formatBytes(b.requestedSize),
                         b.pendingFree ? tr(", freed, pending on another stream") : QString());
        lines << keptFrames(*m_snapshot, b.stack, kTooltipFrames);
        return lines.join(QLatin1Char('\n'));
    }
    return tr("segment 0x%1: %2 on stream %3")
        .arg(QString::number(s.addr, 16), formatBytes(s.size))
        .arg(s.stream);
}

bool AllocatorStateWidget::event(QEvent* event)
{
    return handleToolTip(this, event, [this](QPoint pos) { return textAt(pos); }) || QWidget::event(event);
}

} // namespace ks::widgets
