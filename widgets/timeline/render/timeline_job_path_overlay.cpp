// TimelineRenderer: the hops of the job's critical path (X3) in job path mode.
// Each hop is an arrow from the collective slice of the rank the others waited
// for (at its arrival) to the same collective on the rank the path continues
// on (at its end), labelled with the collective's name.
#include "widgets/timeline/model/job_path_marks.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/render/timeline_renderer.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ks::widgets {

namespace {
    const QColor kHopColor(0xd6, 0x27, 0x28); // the comm-wait red: a hop is where ranks waited
} // namespace

void TimelineRenderer::paintJobPathHops(
    QPainter& p, const TimelineGeometry& g, const TimelineViewState& state, const TrackLayout& layout) const
{
    if (state.colorMode() != ColorMode::JobPath || !m_data->jobPath)
        return;
    p.save();
    p.setRenderHint(QPainter::Antialiasing, true); // few arrows: worth smoothing
    const QFontMetrics fm(p.font());
    std::vector<QRectF> labels; // drawn so far: a label that would cover one is left out
    for (const PathHopMark& hop : m_data->jobPath->hops) {
        if (state.isRankHidden(hop.from.rank) || state.isRankHidden(hop.to.rank))
            continue;
        const auto a = slicePoint(g, state, layout, hop.from, false);
        const auto b = slicePoint(g, state, layout, hop.to, true);
        if (!a || !b)
            continue;
        // A vertical S-curve: the ranks are rows apart, the times may be close.
        QPainterPath path(*a);
        const double bend = std::clamp(std::abs(b->y() - a->y()) * 0.4, 10.0, 60.0);
        const double dir = b->y() >= a->y() ? 1.0 : -1.0;
        path.cubicTo(a->x(), a->y() + dir * bend, b->x(), b->y() - dir * bend, b->x(), b->y());
        p.setPen(QPen(kHopColor, 2.0));
        p.setBrush(Qt::NoBrush);
        p.drawPath(path);
        constexpr double s = 7.0;
        QPolygonF head;
        head << *b << QPointF(b->x() - s * 0.6, b->y() - dir * s)
             << QPointF(b->x() + s * 0.6, b->y() - dir * s);
        p.setPen(Qt::NoPen);
        p.setBrush(kHopColor);
        p.drawPolygon(head);
        p.drawEllipse(*a, 3.0, 3.0);
        const QString label = fm.elidedText(hop.collective, Qt::ElideRight, 220);
        const QPointF mid = path.pointAtPercent(0.5);
        const QRectF box(
            mid.x() + 6, mid.y() - fm.height() / 2.0 - 1, fm.horizontalAdvance(label) + 8, fm.height() + 2);
        if (std::any_of(labels.begin(), labels.end(), [&box](const QRectF& r) { return r.intersects(box); }))
            continue;
        labels.push_back(box);
        p.setBrush(m_palette.background);
        p.setPen(QPen(kHopColor, 1.0));
        p.drawRoundedRect(box, 3, 3);
        p.setPen(m_palette.foreground);
        p.drawText(box, Qt::AlignCenter, label);
    }
    p.restore();
}

} // namespace ks::widgets
