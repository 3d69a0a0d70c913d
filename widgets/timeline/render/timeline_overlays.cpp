// TimelineRenderer: what is painted over the rows — selected range, selection,
// flow arrows, cursor — and the label column and the ruler.
#include "core/model/rank_trace.h"
#include "widgets/common/format.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_search.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/render/timeline_renderer.h"

#include <QFontMetrics>
#include <QPainter>
#include <QPainterPath>

#include <cmath>

namespace ks::widgets {

namespace {
    constexpr std::size_t kMaxFlowsInView = 1500;
    constexpr int kIndent = 16;
} // namespace

std::optional<std::pair<double, double>> TimelineRenderer::sliceX(
    const TimelineGeometry& g, const TimelineViewState& state, SliceRef ref) const
{
    if (!m_data || !ref.valid() || ref.rank >= m_data->rankCount())
        return std::nullopt;
    const core::RankTrace& t = m_data->trace(ref.rank);
    const TimeNs off = m_data->offset(ref.rank, state.alignment());
    const TimeAxis axis(state.visibleRange(), g.trackWidth());
    const double x0 = axis.x(t.slices.start[ref.slice] - off);
    const double x1 = axis.x(t.slices.end(ref.slice) - off);
    if (x1 < -1 || x0 > g.trackWidth() + 1)
        return std::nullopt;
    return std::make_pair(x0, x1);
}

void TimelineRenderer::paintSelectedRange(
    QPainter& p, const TimelineGeometry& g, const TimeAxis& axis, const TimelineViewState& state) const
{
    const auto range = state.selectedRange();
    if (!range)
        return;
    const int x0 = g.trackLeft()
        + static_cast<int>(std::lround(std::clamp(axis.x(range->start), -2.0, g.trackWidth() + 2)));
    const int x1 = g.trackLeft()
        + static_cast<int>(std::lround(std::clamp(axis.x(range->end), -2.0, g.trackWidth() + 2)));
    p.fillRect(QRect(x0, 0, std::max(1, x1 - x0), g.height), m_palette.rangeFill);
    p.fillRect(QRect(x0, 0, 1, g.height), m_palette.rangeEdge);
    p.fillRect(QRect(x1, 0, 1, g.height), m_palette.rangeEdge);
}

std::optional<QRect> TimelineRenderer::sliceRect(
    const TimelineGeometry& g, const TimelineViewState& state, const TrackLayout& layout, SliceRef ref) const
{
    const auto xs = sliceX(g, state, ref);
    if (!xs)
        return std::nullopt;
    const core::RankTrace& t = m_data->trace(ref.rank);
    const int rowIndex = layout.findRow({ ref.rank, RowKind::Slices, t.trackOf(ref.slice).value });
    if (rowIndex < 0)
        return std::nullopt;
    const TimelineRow& row = layout.rows()[static_cast<std::size_t>(rowIndex)];
    const int top = g.rowTop(layout, row) + TrackLayout::laneTop(t.levelOf(ref.slice));
    const int xa = g.trackLeft() + static_cast<int>(std::floor(std::max(xs->first, -3.0)));
    const int xb = g.trackLeft() + static_cast<int>(std::ceil(std::min(xs->second, g.trackWidth() + 3)));
    return QRect(xa - 1, top, std::max(3, xb - xa + 2), TrackLayout::kLaneHeight);
}

void TimelineRenderer::paintSelection(
    QPainter& p, const TimelineGeometry& g, const TimelineViewState& state, const TrackLayout& layout) const
{
    p.setBrush(Qt::NoBrush);
    if (m_hover.valid() && m_hover != state.selectedSlice() && m_hover.rank < m_data->rankCount()) {
        if (const auto r = sliceRect(g, state, layout, m_hover)) {
            p.setPen(QPen(m_palette.foreground, 1));
            p.drawRect(r->adjusted(0, 0, -1, -1));
        }
    }
    const auto r = sliceRect(g, state, layout, state.selectedSlice());
    if (!r)
        return;
    p.setPen(QPen(m_palette.selection, 2));
    p.drawRect(r->adjusted(0, 0, -1, -1));
    p.setPen(QPen(m_palette.background, 1));
    p.drawRect(r->adjusted(2, 2, -3, -3));
}

std::optional<QPointF> TimelineRenderer::slicePoint(const TimelineGeometry& g, const TimelineViewState& state,
    const TrackLayout& layout, SliceRef ref, bool atEnd) const
{
    const core::RankTrace& t = m_data->trace(ref.rank);
    const core::TrackId track = t.trackOf(ref.slice);
    int rowIndex = layout.findRow({ ref.rank, RowKind::Slices, track.value });
    int laneY = 0;
    if (rowIndex >= 0) {
        laneY = TrackLayout::laneTop(t.levelOf(ref.slice)) + TrackLayout::kLaneHeight / 2;
    } else {
        // Hidden track or collapsed rank: point at the rank's header.
        rowIndex = layout.findRow({ ref.rank, RowKind::RankHeader, 0 });
        laneY = TrackLayout::kHeaderHeight / 2;
    }
    if (rowIndex < 0)
        return std::nullopt;
    const TimelineRow& row = layout.rows()[static_cast<std::size_t>(rowIndex)];
    const TimeAxis axis(state.visibleRange(), g.trackWidth());
    const TimeNs off = m_data->offset(ref.rank, state.alignment());
    const TimeNs at = atEnd ? t.slices.end(ref.slice) : t.slices.start[ref.slice];
    const double x = std::clamp(axis.x(at - off), -50.0, g.trackWidth() + 50.0); // far ends: just off screen
    return QPointF(g.trackLeft() + x, g.rowTop(layout, row) + laneY);
}

std::optional<QLineF> TimelineRenderer::flowLine(const TimelineGeometry& g, const TimelineViewState& state,
    const TrackLayout& layout, const FlowLink& link) const
{
    if (!m_data || !link.from.valid() || !link.to.valid())
        return std::nullopt;
    // From the launch's end to the kernel's start, as Perfetto draws flows.
    const auto a = slicePoint(g, state, layout, link.from, true);
    const auto b = slicePoint(g, state, layout, link.to, false);
    if (!a || !b)
        return std::nullopt;
    return QLineF(*a, *b);
}

void TimelineRenderer::paintFlow(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
    const TrackLayout& layout, const FlowLink& link, bool emphasis) const
{
    const auto line = flowLine(g, state, layout, link);
    if (!line)
        return;
    const QPointF a = line->p1();
    const QPointF b = line->p2();
    QPainterPath path(a);
    const double bend = std::clamp(std::abs(b.x() - a.x()) * 0.5, 12.0, 80.0);
    path.cubicTo(a.x() + bend, a.y(), b.x() - bend, b.y(), b.x(), b.y());
    QColor color = m_palette.flow;
    if (!emphasis)
        color.setAlpha(110);
    p.setPen(QPen(color, emphasis ? 1.6 : 1.0));
    p.setBrush(Qt::NoBrush);
    p.drawPath(path);
    // Arrow head pointing along the curve's end tangent (horizontal).
    const double s = emphasis ? 6.0 : 4.0;
    QPolygonF head;
    head << b << QPointF(b.x() - s, b.y() - s * 0.6) << QPointF(b.x() - s, b.y() + s * 0.6);
    p.setPen(Qt::NoPen);
    p.setBrush(color);
    p.drawPolygon(head);
    p.setBrush(color);
    p.drawEllipse(a, emphasis ? 2.5 : 1.5, emphasis ? 2.5 : 1.5);
}

void TimelineRenderer::paintFlows(
    QPainter& p, const TimelineGeometry& g, const TimelineViewState& state, const TrackLayout& layout) const
{
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true); // a few curves: worth smoothing
    if (state.showAllFlows()) {
        std::size_t budget = kMaxFlowsInView;
        const TimeRange v = state.visibleRange();
        for (int r = 0; r < m_data->rankCount() && budget > 0; ++r) {
            if (state.isRankHidden(r))
                continue;
            const TimeNs off = m_data->offset(r, state.alignment());
            const auto links = launchLinksInRange(*m_data, r, { v.start + off, v.end + off }, budget);
            budget -= links.size();
            for (const FlowLink& link : links)
                paintFlow(p, g, state, layout, link, false);
        }
    }
    const SliceRef selected = state.selectedSlice();
    if (selected.valid() && selected.rank < m_data->rankCount()) {
        for (const FlowLink& link : flowLinksOf(*m_data, selected))
            paintFlow(p, g, state, layout, link, true);
    }
    p.restore();
}

void TimelineRenderer::paintCursor(
    QPainter& p, const TimelineGeometry& g, const TimeAxis& axis, const TimelineViewState& state) const
{
    const auto t = state.cursorTime();
    if (!t)
        return;
    const double xd = axis.x(*t);
    if (xd < 0 || xd > g.trackWidth())
        return;
    const int x = g.trackLeft() + static_cast<int>(std::lround(xd));
    p.fillRect(QRect(x, TimelineGeometry::kRulerHeight, 1, g.height), m_palette.cursor);
    const QString label = formatPreciseTime(*t - m_data->traceStart);
    p.setFont(m_smallFont);
    const QFontMetrics fm(m_smallFont);
    const int w = fm.horizontalAdvance(label) + 10;
    int left = x - w / 2;
    left = std::clamp(left, g.trackLeft(), std::max(g.trackLeft(), g.width - w));
    const QRect box(left, TimelineGeometry::kRulerHeight - 16, w, 15);
    p.fillRect(box, m_palette.cursor);
    p.setPen(Qt::white);
    p.drawText(box, Qt::AlignCenter, label);
}

void TimelineRenderer::paintRankLabel(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
    const TimelineRow& row, int top) const
{
    const int w = g.labelWidth;
    const RankTimeline& rt = m_data->rank(row.rank);
    {
        p.fillRect(QRect(0, top, w, row.height), m_palette.headerBackground);
        p.fillRect(QRect(0, top, w, 1), m_palette.separator);
        // Disclosure triangle.
        const bool collapsed = state.isCollapsed(row.rank);
        const QPointF c(12, collapsed ? top + 13.0 : top + row.height / 2.0);
        QPolygonF tri;
        if (collapsed)
            tri << QPointF(c.x() - 3, c.y() - 5) << QPointF(c.x() + 3, c.y())
                << QPointF(c.x() - 3, c.y() + 5);
        else
            tri << QPointF(c.x() - 5, c.y() - 3) << QPointF(c.x() + 5, c.y() - 3)
                << QPointF(c.x(), c.y() + 3);
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(Qt::NoPen);
        p.setBrush(m_palette.mutedText);
        p.drawPolygon(tri);
        p.setRenderHint(QPainter::Antialiasing, false);
        QString detail = rt.detail;
        if (collapsed) {
            int gpu = 0;
            for (const core::Track& t : rt.trace->tracks)
                gpu += t.kind == core::TrackKind::GpuStream ? 1 : 0;
            detail = QStringLiteral("%1 streams · %2 threads")
                         .arg(gpu)
                         .arg(static_cast<int>(rt.trace->tracks.size()) - gpu);
        }
        const int hidden = state.hiddenCount(row.rank);
        if (hidden > 0)
            detail = QStringLiteral("%1 hidden · ").arg(hidden) + detail;
        p.setFont(m_boldFont);
        p.setPen(m_palette.foreground);
        // Collapsed: the name over the details (the header is taller); expanded: one line.
        const QRect nameRect(24, top + (collapsed ? 4 : 0), w - 30, collapsed ? 18 : row.height);
        p.drawText(nameRect, Qt::AlignVCenter | Qt::AlignLeft, rt.label);
        const int used = collapsed ? 0 : QFontMetrics(m_boldFont).horizontalAdvance(rt.label) + 8;
        const QRect detailRect =
            collapsed ? QRect(24, top + 22, w - 30, 16) : nameRect.adjusted(used, 0, 0, 0);
        p.setFont(m_smallFont);
        p.setPen(m_palette.mutedText);
        p.drawText(detailRect, Qt::AlignVCenter | Qt::AlignLeft,
            QFontMetrics(m_smallFont).elidedText(detail, Qt::ElideMiddle, detailRect.width()));
    }
}

void TimelineRenderer::paintRowLabel(QPainter& p, const TimelineGeometry& g, const TimelineViewState& state,
    const TimelineRow& row, int top) const
{
    if (row.kind == RowKind::RankHeader) {
        paintRankLabel(p, g, state, row, top);
        return;
    }
    const int w = g.labelWidth;
    const RankTimeline& rt = m_data->rank(row.rank);
    QString name;
    QString sub;
    if (row.kind == RowKind::Slices) {
        const core::Track& track = rt.trace->tracks[row.index];
        name = rt.trackNames[row.index];
        sub = track.kind == core::TrackKind::GpuStream ? QStringLiteral("GPU %1").arg(track.device)
                                                       : QStringLiteral("CPU");
    } else {
        const CounterTrack& c = m_data->rankCounters(row.rank)[row.index];
        name = c.name;
        sub = QStringLiteral("max ") + c.formatValue(c.maxValue);
    }
    if (row.pinned) {
        name = rt.label + QStringLiteral(" · ") + name;
        p.fillRect(QRect(4, top + 4, 4, row.height - 8), m_palette.highlight); // pinned marker
    }
    const int lineY = top + (row.kind == RowKind::Slices ? TrackLayout::kSlicePadding : 1);
    const QFontMetrics fm(m_font);
    const QFontMetrics small(m_smallFont);
    if (row.kind == RowKind::Counter) {
        // Counters: the name, and under it the scale's top value.
        p.setFont(m_font);
        p.setPen(m_palette.foreground);
        p.drawText(QRect(kIndent, lineY, w - kIndent - 6, 16), Qt::AlignVCenter | Qt::AlignLeft,
            fm.elidedText(name, Qt::ElideMiddle, w - kIndent - 6));
        p.setFont(m_smallFont);
        p.setPen(m_palette.mutedText);
        p.drawText(QRect(kIndent, lineY + 15, w - kIndent - 6, 14), Qt::AlignVCenter | Qt::AlignLeft, sub);
    } else {
        const int subWidth = small.horizontalAdvance(sub) + 6;
        p.setFont(m_font);
        p.setPen(m_palette.foreground);
        p.drawText(QRect(kIndent, lineY, w - kIndent - subWidth - 6, TrackLayout::kLaneHeight),
            Qt::AlignVCenter | Qt::AlignLeft,
            fm.elidedText(name, Qt::ElideMiddle, w - kIndent - subWidth - 6));
        p.setFont(m_smallFont);
        p.setPen(m_palette.mutedText);
        p.drawText(QRect(w - subWidth - 6, lineY, subWidth, TrackLayout::kLaneHeight),
            Qt::AlignVCenter | Qt::AlignRight, sub);
    }
    p.fillRect(QRect(kIndent, top + row.height - 1, w - kIndent, 1), m_palette.gridLine);
}

void TimelineRenderer::paintLabels(
    QPainter& p, const TimelineGeometry& g, const TimelineViewState& state, const TrackLayout& layout) const
{
    const int w = g.labelWidth;
    p.fillRect(QRect(0, TimelineGeometry::kRulerHeight, w, g.height), m_palette.labelBackground);
    const std::vector<int> rows = visibleRows(g, layout);
    for (int pass = 0; pass < 2; ++pass) {
        const bool pinned = pass == 1;
        const int areaTop = pinned ? g.pinnedTop() : g.scrollTop(layout);
        const int areaBottom = pinned ? g.scrollTop(layout) : g.height;
        if (areaBottom <= areaTop)
            continue;
        p.save();
        p.setClipRect(QRect(0, areaTop, w, areaBottom - areaTop));
        for (int index : rows) {
            const TimelineRow& row = layout.rows()[static_cast<std::size_t>(index)];
            if (row.pinned == pinned)
                paintRowLabel(p, g, state, row, g.rowTop(layout, row));
        }
        p.restore();
    }
    p.fillRect(QRect(w - 1, 0, 1, g.height), m_palette.separator);
}

void TimelineRenderer::paintRulerMarks(
    QPainter& p, const TimelineGeometry& g, const TimeAxis& axis, const TimelineViewState& state) const
{
    const int h = TimelineGeometry::kRulerHeight;
    const int left = g.trackLeft();
    // Search matches in view as ticks along the ruler's foot: where to look,
    // even where the matches are too thin to see on their tracks.
    if (m_search && !m_search->query.isEmpty() && !m_search->ordered.empty()) {
        const TimeRange v = state.visibleRange();
        auto displayStart = [this](SliceRef r) {
            return m_data->trace(r.rank).slices.start[r.slice] - m_data->offset(r.rank, m_search->alignment);
        };
        const auto& ordered = m_search->ordered;
        auto it = std::lower_bound(ordered.begin(), ordered.end(), v.start,
            [&](SliceRef r, TimeNs t) { return displayStart(r) < t; });
        const auto last = std::upper_bound(
            it, ordered.end(), v.end, [&](TimeNs t, SliceRef r) { return t < displayStart(r); });
        // Past ~20k matches in view, sample: one tick per pixel is all that shows.
        const std::ptrdiff_t count = last - it;
        const std::ptrdiff_t stride = std::max<std::ptrdiff_t>(1, count / 20000);
        int lastX = -1;
        for (; it < last; it += stride) {
            const int x = left + static_cast<int>(axis.x(displayStart(*it)));
            if (x == lastX)
                continue;
            lastX = x;
            p.fillRect(QRect(x, h - 5, 1, 4), m_palette.highlight.darker(115));
        }
    }
    // The selected slice: a marker above it, findable at any zoom.
    if (const auto xs = sliceX(g, state, state.selectedSlice())) {
        const double x = left + std::clamp((xs->first + xs->second) / 2, 0.0, g.trackWidth());
        QPolygonF tri;
        tri << QPointF(x - 5, h - 9) << QPointF(x + 5, h - 9) << QPointF(x, h - 2);
        p.save();
        p.setRenderHint(QPainter::Antialiasing, true);
        p.setPen(Qt::NoPen);
        p.setBrush(m_palette.selection);
        p.drawPolygon(tri);
        p.restore();
    }
}

void TimelineRenderer::paintRuler(QPainter& p, const TimelineGeometry& g, const TimeAxis& axis,
    const RulerScale& scale, const TimelineViewState& state) const
{
    const int h = TimelineGeometry::kRulerHeight;
    p.fillRect(QRect(0, 0, g.width, h), m_palette.headerBackground);
    p.fillRect(QRect(0, h - 1, g.width, 1), m_palette.separator);
    const int left = g.trackLeft();
    for (TimeNs t : scale.minors) {
        const int x = left + static_cast<int>(std::lround(axis.x(t)));
        p.fillRect(QRect(x, h - 5, 1, 4), m_palette.mutedText);
    }
    p.setFont(m_smallFont);
    p.setPen(m_palette.foreground);
    for (TimeNs t : scale.majors) {
        const int x = left + static_cast<int>(std::lround(axis.x(t)));
        p.fillRect(QRect(x, h - 11, 1, 10), m_palette.foreground);
        p.drawText(QRect(x + 4, 2, 160, h - 12), Qt::AlignLeft | Qt::AlignVCenter,
            formatTickLabel(t - m_data->traceStart, scale.majorStep));
    }
    if (const auto range = state.selectedRange()) {
        const int x0 =
            left + static_cast<int>(std::lround(std::clamp(axis.x(range->start), -2.0, g.trackWidth() + 2)));
        const int x1 =
            left + static_cast<int>(std::lround(std::clamp(axis.x(range->end), -2.0, g.trackWidth() + 2)));
        const QRect band(x0, h - 14, std::max(2, x1 - x0), 13);
        p.fillRect(band, m_palette.rangeEdge);
        const QString text = QStringLiteral("Δ ") + formatDuration(range->span());
        if (QFontMetrics(m_smallFont).horizontalAdvance(text) + 8 < band.width()) {
            p.setPen(Qt::white);
            p.drawText(band, Qt::AlignCenter, text);
        }
    }
    paintRulerMarks(p, g, axis, state);
    // The corner above the labels: the span of the view.
    p.fillRect(QRect(0, 0, left, h), m_palette.headerBackground);
    p.fillRect(QRect(left - 1, 0, 1, h), m_palette.separator);
    p.fillRect(QRect(0, h - 1, left, 1), m_palette.separator);
    p.setPen(m_palette.mutedText);
    const Alignment::Mode mode = state.alignment().mode;
    const QString alignment = mode == Alignment::Mode::RankStart ? QStringLiteral(" · ranks aligned")
        : mode == Alignment::Mode::Collective                    ? QStringLiteral(" · on collective")
        : mode == Alignment::Mode::EstimatedClocks               ? QStringLiteral(" · estimated clocks")
                                                                 : QString();
    p.drawText(QRect(10, 0, left - 16, h), Qt::AlignVCenter | Qt::AlignLeft,
        QStringLiteral("View ") + formatDuration(state.visibleRange().span()) + alignment);
}

} // namespace ks::widgets
