#include "widgets/diff/timeline_sync.h"

#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <algorithm>

namespace ks::widgets {

TimelineSync::TimelineSync(TimelineWidget* first, TimelineWidget* second, QObject* parent)
    : QObject(parent)
    , m_sides { first, second }
{
    for (int side = 0; side < 2; ++side) {
        TimelineViewState* state = m_sides[side]->state();
        // Connected after the view's own handlers: the shared bounds replace the ones it set.
        connect(state, &TimelineViewState::visibleRangeChanged, this, [this, side] { mirror(side); });
        connect(state, &TimelineViewState::cursorTimeChanged, this, [this, side] { mirrorCursor(side); });
        connect(state, &TimelineViewState::alignmentChanged, this, &TimelineSync::refreshBounds);
        connect(m_sides[side], &TimelineWidget::dataChanged, this, &TimelineSync::refreshBounds);
    }
}

TimeNs TimelineSync::toRuler(int side, TimeNs display) const
{
    const auto& data = m_sides[side]->data();
    return data ? display - data->traceStart : display;
}

TimeNs TimelineSync::fromRuler(int side, TimeNs ruler) const
{
    const auto& data = m_sides[side]->data();
    return data ? ruler + data->traceStart : ruler;
}

void TimelineSync::refreshBounds()
{
    if (!m_sides[0]->data() || !m_sides[1]->data())
        return;
    TimeNs lo = 0;
    TimeNs hi = 0;
    bool first = true;
    for (int side = 0; side < 2; ++side) {
        const TimeRange b = m_sides[side]->data()->displayBounds(m_sides[side]->state()->alignment());
        const TimeNs a = toRuler(side, b.start);
        const TimeNs e = toRuler(side, b.end);
        lo = first ? a : std::min(lo, a);
        hi = first ? e : std::max(hi, e);
        first = false;
    }
    m_mirroring = true;
    for (int side = 0; side < 2; ++side)
        m_sides[side]->state()->setBounds({ fromRuler(side, lo), fromRuler(side, hi) });
    m_mirroring = false;
    mirror(0);
}

void TimelineSync::mirror(int from)
{
    if (m_mirroring || !m_sides[0]->data() || !m_sides[1]->data())
        return;
    const int to = 1 - from;
    const TimeRange v = m_sides[from]->state()->visibleRange();
    m_mirroring = true;
    m_sides[to]->state()->setVisibleRange(
        { fromRuler(to, toRuler(from, v.start)), fromRuler(to, toRuler(from, v.end)) },
        TimelineViewState::History::None);
    m_mirroring = false;
}

void TimelineSync::mirrorCursor(int from)
{
    if (m_mirroring || !m_sides[0]->data() || !m_sides[1]->data())
        return;
    const int to = 1 - from;
    const auto t = m_sides[from]->state()->cursorTime();
    m_mirroring = true;
    m_sides[to]->state()->setCursorTime(t ? std::optional(fromRuler(to, toRuler(from, *t))) : std::nullopt);
    m_mirroring = false;
}

} // namespace ks::widgets
