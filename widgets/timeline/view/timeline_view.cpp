#include "widgets/timeline/view/timeline_view.h"

#include "core/model/rank_trace.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_search.h"
#include "widgets/timeline/model/timeline_view_state.h"

#include <QPaintEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>

namespace ks::widgets {

TimelineView::TimelineView(TimelineViewState* state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
{
    setObjectName(QStringLiteral("timelineView"));
    // Every pixel is painted each frame: Qt need not clear the background first.
    setAttribute(Qt::WA_OpaquePaintEvent);
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setMinimumSize(400, 200);
    m_renderer.setPalette(TimelinePalette(palette()));
    m_renderer.setFont(font());
    auto repaint = [this] { update(); };
    connect(m_state, &TimelineViewState::visibleRangeChanged, this, repaint);
    connect(m_state, &TimelineViewState::selectedSliceChanged, this, repaint);
    connect(m_state, &TimelineViewState::selectedRangeChanged, this, repaint);
    connect(m_state, &TimelineViewState::cursorTimeChanged, this, repaint);
    connect(m_state, &TimelineViewState::appearanceChanged, this, repaint);
    connect(m_state, &TimelineViewState::layoutChanged, this, &TimelineView::relayout);
    connect(m_state, &TimelineViewState::alignmentChanged, this, [this] {
        if (m_data)
            m_state->setBounds(m_data->displayBounds(m_state->alignment()));
        update();
    });
}

void TimelineView::setData(std::shared_ptr<const TimelineData> data)
{
    m_hover = {};
    m_renderer.setHoverSlice({});
    m_data = std::move(data);
    m_renderer.setData(m_data);
    relayout();
}

void TimelineView::setSearch(std::shared_ptr<const SearchResults> search)
{
    m_search = std::move(search);
    m_renderer.setSearch(m_search);
    update();
}

void TimelineView::relayout()
{
    if (m_data)
        m_layout.build(*m_data, *m_state);
    else
        m_layout = TrackLayout();
    setScrollY(m_scrollY);
    emit contentHeightChanged();
    update();
}

int TimelineView::scrollViewportHeight() const
{
    return std::max(0, height() - TimelineGeometry::kRulerHeight - m_layout.pinnedHeight());
}

void TimelineView::setScrollY(int y)
{
    const int clamped = std::clamp(y, 0, std::max(0, m_layout.contentHeight() - scrollViewportHeight()));
    if (clamped == m_scrollY)
        return;
    m_scrollY = clamped;
    emit scrollYChanged(m_scrollY);
    update();
}

TimelineGeometry TimelineView::geometryNow() const
{
    TimelineGeometry g;
    g.width = width();
    g.height = height();
    g.scrollY = m_scrollY;
    g.labelWidth = m_labelWidth;
    return g;
}

void TimelineView::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    m_renderer.render(p, geometryNow(), *m_state, m_layout);
}

void TimelineView::renderTo(QPainter& painter, QSize size)
{
    TimelineGeometry g = geometryNow();
    g.width = size.width();
    g.height = size.height();
    m_renderer.render(painter, g, *m_state, m_layout);
}

void TimelineView::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    setScrollY(m_scrollY);
    emit contentHeightChanged();
}

TimeNs TimelineView::timeAtX(double x) const
{
    const TimelineGeometry g = geometryNow();
    return TimeAxis(m_state->visibleRange(), g.trackWidth()).timeAt(x - g.trackLeft());
}

double TimelineView::xOfTime(TimeNs t) const
{
    const TimelineGeometry g = geometryNow();
    return g.trackLeft() + TimeAxis(m_state->visibleRange(), g.trackWidth()).x(t);
}

int TimelineView::rowAt(QPoint pos) const
{
    const TimelineGeometry g = geometryNow();
    if (pos.y() < g.pinnedTop())
        return -1;
    if (pos.y() < g.scrollTop(m_layout))
        return m_layout.rowAt(true, pos.y() - g.pinnedTop());
    return m_layout.rowAt(false, pos.y() - g.scrollTop(m_layout) + m_scrollY);
}

SliceRef TimelineView::sliceAt(QPoint pos) const
{
    const TimelineGeometry g = geometryNow();
    const int index = rowAt(pos);
    if (!m_data || index < 0 || pos.x() < g.trackLeft())
        return {};
    const TimelineRow& row = m_layout.rows()[static_cast<std::size_t>(index)];
    if (row.kind != RowKind::Slices)
        return {};
    const int lane = TrackLayout::laneAt(row, pos.y() - g.rowTop(m_layout, row));
    if (lane < 0 || static_cast<std::uint32_t>(lane) >= row.lanes)
        return {};
    const TimeAxis axis(m_state->visibleRange(), g.trackWidth());
    const TimeNs off = m_data->offset(row.rank, m_state->alignment());
    const TimeNs t = axis.timeAt(pos.x() - g.trackLeft()) + off;
    // 3 px either side: thin slices stay clickable at any zoom.
    const TimeNs tolerance = static_cast<TimeNs>(std::ceil(axis.nsForPixels(3.0)));
    const auto hit =
        hitTestLevel(m_data->trace(row.rank), row.index, static_cast<std::uint32_t>(lane), t, tolerance);
    return hit ? SliceRef { row.rank, *hit } : SliceRef {};
}

void TimelineView::scrollToRow(int rowIndex)
{
    if (rowIndex < 0)
        return;
    const TimelineRow& row = m_layout.rows()[static_cast<std::size_t>(rowIndex)];
    if (row.pinned)
        return;
    const int viewport = scrollViewportHeight();
    if (row.y < m_scrollY || row.y + std::min(row.height, viewport) > m_scrollY + viewport)
        setScrollY(row.y - std::max(0, (viewport - std::min(row.height, viewport)) / 3));
}

void TimelineView::revealSlice(SliceRef ref, bool frame)
{
    if (!m_data || !ref.valid() || ref.rank >= m_data->rankCount())
        return;
    const core::RankTrace& t = m_data->trace(ref.rank);
    if (ref.slice >= t.slices.size())
        return;
    const TrackKey key { ref.rank, RowKind::Slices, t.trackOf(ref.slice).value };
    m_state->setRankHidden(ref.rank, false);
    m_state->setCollapsed(ref.rank, false);
    m_state->setHidden(key, false);
    m_state->setSelectedSlice(ref);
    const TimeNs off = m_data->offset(ref.rank, m_state->alignment());
    const TimeNs s = t.slices.start[ref.slice] - off;
    const TimeNs e = t.slices.end(ref.slice) - off;
    const TimeRange v = m_state->visibleRange();
    if (frame || e - s > v.span()) {
        m_state->setVisibleRange(
            framedRange(s, e, m_state->bounds(), 0.15), TimelineViewState::History::Record);
    } else if (s < v.start || e > v.end) {
        const TimeNs centre = s + (e - s) / 2;
        m_state->setVisibleRange(
            { centre - v.span() / 2, centre - v.span() / 2 + v.span() }, TimelineViewState::History::Record);
    }
    scrollToRow(m_layout.findRow(key));
    update();
}

void TimelineView::scrollToRank(int rank)
{
    if (!m_data || rank < 0 || rank >= m_data->rankCount())
        return;
    m_state->setRankHidden(rank, false);
    m_state->setCollapsed(rank, false);
    const int index = m_layout.findRow({ rank, RowKind::RankHeader, 0 });
    if (index >= 0)
        setScrollY(m_layout.rows()[static_cast<std::size_t>(index)].y);
}

void TimelineView::zoomToSelection()
{
    if (const auto range = m_state->selectedRange()) {
        m_state->setVisibleRange(framedRange(range->start, range->end, m_state->bounds(), 0.02),
            TimelineViewState::History::Record);
        return;
    }
    if (m_state->selectedSlice().valid())
        revealSlice(m_state->selectedSlice(), true);
}

void TimelineView::zoomBy(double factor, double anchorX)
{
    const TimelineGeometry g = geometryNow();
    const double fraction = (anchorX - g.trackLeft()) / g.trackWidth();
    m_state->setVisibleRange(zoomRange(m_state->visibleRange(), factor, fraction, m_state->bounds()));
}

void TimelineView::panByPixels(double dx)
{
    const TimelineGeometry g = geometryNow();
    const TimeAxis axis(m_state->visibleRange(), g.trackWidth());
    const auto delta = static_cast<TimeNs>(std::llround(axis.nsForPixels(dx)));
    m_state->setVisibleRange(panRange(m_state->visibleRange(), delta, m_state->bounds()));
}

} // namespace ks::widgets
