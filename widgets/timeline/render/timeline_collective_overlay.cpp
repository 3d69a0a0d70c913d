// TimelineRenderer: the selected collective on every member rank (X2). Each
// member is outlined like the selection; its wait (arrival until the last
// member arrives) is hatched amber, its transfer green; a dashed line marks
// the last arrival across the members' rows.
#include "widgets/timeline/model/collective_spans.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/render/timeline_renderer.h"

#include <QPainter>

#include <algorithm>
#include <cmath>
#include <limits>

namespace ks::widgets {

namespace {
    const QColor kWaitFill(235, 150, 40, 120);
    const QColor kWaitHatch(150, 80, 0, 200);
    const QColor kTransferFill(40, 170, 90, 150);
} // namespace

void TimelineRenderer::paintCollective(
    QPainter& p, const TimelineGeometry& g, const TimelineViewState& state, const TrackLayout& layout) const
{
    const std::vector<CollectiveSpan> spans =
        collectiveSpans(*m_data, state.selectedSlice(), state.alignment());
    if (spans.empty())
        return;
    const TimeAxis axis(state.visibleRange(), g.trackWidth());
    const auto band = [&](const QRect& lane, const TimeRange& range) {
        const double xa = std::max(axis.x(range.start), -3.0);
        const double xb = std::min(axis.x(range.end), g.trackWidth() + 3.0);
        const int left = g.trackLeft() + static_cast<int>(std::floor(xa));
        const int right = g.trackLeft() + static_cast<int>(std::ceil(xb));
        return QRect(left, lane.top() + 1, std::max(1, right - left), lane.height() - 2);
    };
    int top = std::numeric_limits<int>::max();
    int bottom = std::numeric_limits<int>::min();
    TimeNs lastArrival = 0;
    for (const CollectiveSpan& span : spans) {
        const auto lane = sliceRect(g, state, layout, span.ref);
        if (span.last)
            lastArrival = span.transfer.start;
        if (!lane)
            continue; // the rank's row is hidden or scrolled away
        top = std::min(top, lane->top());
        bottom = std::max(bottom, lane->bottom());
        if (!span.transfer.isEmpty())
            p.fillRect(band(*lane, span.transfer), kTransferFill);
        if (!span.wait.isEmpty()) {
            const QRect w = band(*lane, span.wait);
            p.fillRect(w, kWaitFill);
            p.fillRect(w, QBrush(kWaitHatch, Qt::BDiagPattern));
        }
        p.setBrush(Qt::NoBrush);
        p.setPen(QPen(m_palette.selection, 2));
        p.drawRect(lane->adjusted(0, 0, -1, -1));
    }
    if (top > bottom)
        return;
    const double x = axis.x(lastArrival);
    if (x < 0 || x > g.trackWidth())
        return;
    p.setPen(QPen(m_palette.selection, 1, Qt::DashLine));
    const int xi = g.trackLeft() + static_cast<int>(std::lround(x));
    p.drawLine(xi, top - 4, xi, bottom + 4);
}

} // namespace ks::widgets
