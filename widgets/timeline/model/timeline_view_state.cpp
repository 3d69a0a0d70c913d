#include "widgets/timeline/model/timeline_view_state.h"

#include "widgets/timeline/model/time_axis.h"

namespace ks::widgets {

namespace {
    constexpr qsizetype kMaxHistory = 100;
    constexpr qint64 kGestureGapMs = 1000;
} // namespace

TimelineViewState::TimelineViewState(QObject* parent)
    : QObject(parent)
{
}

void TimelineViewState::reset(TimeRange bounds)
{
    m_bounds = bounds.isEmpty() ? TimeRange { bounds.start, bounds.start + 1 } : bounds;
    m_back.clear();
    m_forward.clear();
    m_selected = {};
    m_selectedRange.reset();
    m_cursor.reset();
    m_hidden.clear();
    m_pinned.clear();
    m_collapsed.clear();
    m_hiddenRanks.clear();
    m_order.clear();
    m_visible = clampRange(m_bounds, m_bounds);
    emit visibleRangeChanged(m_visible);
    emit historyChanged();
    emit selectedSliceChanged(m_selected);
    emit selectedRangeChanged();
    emit layoutChanged();
}

void TimelineViewState::setBounds(TimeRange bounds)
{
    m_bounds = bounds.isEmpty() ? TimeRange { bounds.start, bounds.start + 1 } : bounds;
    setVisibleRange(m_visible, History::None);
}

void TimelineViewState::setVisibleRange(TimeRange range, History history)
{
    range = clampRange(range, m_bounds);
    if (range == m_visible)
        return;
    bool record = history == History::Record;
    if (history == History::Continuous) {
        record = !m_lastContinuous.isValid() || m_lastContinuous.elapsed() > kGestureGapMs;
        m_lastContinuous.start();
    }
    if (record && (m_back.isEmpty() || m_back.back() != m_visible)) {
        m_back.append(m_visible);
        if (m_back.size() > kMaxHistory)
            m_back.removeFirst();
        m_forward.clear();
        emit historyChanged();
    }
    m_visible = range;
    emit visibleRangeChanged(m_visible);
}

void TimelineViewState::fitAll()
{
    setVisibleRange(m_bounds, History::Record);
}

void TimelineViewState::goBack()
{
    if (m_back.isEmpty())
        return;
    m_forward.append(m_visible);
    m_visible = clampRange(m_back.takeLast(), m_bounds);
    m_lastContinuous.invalidate();
    emit historyChanged();
    emit visibleRangeChanged(m_visible);
}

void TimelineViewState::goForward()
{
    if (m_forward.isEmpty())
        return;
    m_back.append(m_visible);
    m_visible = clampRange(m_forward.takeLast(), m_bounds);
    m_lastContinuous.invalidate();
    emit historyChanged();
    emit visibleRangeChanged(m_visible);
}

void TimelineViewState::setSelectedSlice(SliceRef ref)
{
    if (ref == m_selected)
        return;
    m_selected = ref;
    emit selectedSliceChanged(ref);
}

void TimelineViewState::setSelectedRange(std::optional<TimeRange> range)
{
    if (range && range->end < range->start)
        std::swap(range->start, range->end);
    if (range == m_selectedRange)
        return;
    m_selectedRange = range;
    emit selectedRangeChanged();
}

void TimelineViewState::setCursorTime(std::optional<TimeNs> t)
{
    if (t == m_cursor)
        return;
    m_cursor = t;
    emit cursorTimeChanged();
}

void TimelineViewState::setHidden(TrackKey key, bool hidden)
{
    const bool changed = hidden ? !m_hidden.contains(key.packed()) : m_hidden.remove(key.packed());
    if (hidden)
        m_hidden.insert(key.packed());
    if (changed)
        emit layoutChanged();
}

void TimelineViewState::showAllTracks(int rank)
{
    const auto before = m_hidden.size() + m_hiddenRanks.size();
    if (rank < 0) {
        m_hidden.clear();
        m_hiddenRanks.clear();
    } else {
        m_hiddenRanks.remove(rank);
        for (auto it = m_hidden.begin(); it != m_hidden.end();) {
            if (TrackKey::unpack(*it).rank == rank)
                it = m_hidden.erase(it);
            else
                ++it;
        }
    }
    if (before != m_hidden.size() + m_hiddenRanks.size())
        emit layoutChanged();
}

int TimelineViewState::hiddenCount(int rank) const
{
    int n = 0;
    for (quint64 key : m_hidden)
        n += TrackKey::unpack(key).rank == rank ? 1 : 0;
    return n;
}

void TimelineViewState::setPinned(TrackKey key, bool pinned)
{
    const bool has = m_pinned.contains(key.packed());
    if (has == pinned)
        return;
    if (pinned)
        m_pinned.append(key.packed());
    else
        m_pinned.removeAll(key.packed());
    emit layoutChanged();
}

void TimelineViewState::setCollapsed(int rank, bool collapsed)
{
    if (collapsed == m_collapsed.contains(rank))
        return;
    if (collapsed)
        m_collapsed.insert(rank);
    else
        m_collapsed.remove(rank);
    emit layoutChanged();
}

void TimelineViewState::setAllCollapsed(int rankCount, bool collapsed)
{
    QSet<int> next;
    if (collapsed) {
        for (int r = 0; r < rankCount; ++r)
            next.insert(r);
    }
    if (next == m_collapsed)
        return;
    m_collapsed = next;
    emit layoutChanged();
}

void TimelineViewState::setTrackOrder(int rank, const QList<quint64>& order)
{
    if (m_order.value(rank) == order)
        return;
    m_order.insert(rank, order);
    emit layoutChanged();
}

void TimelineViewState::setRankHidden(int rank, bool hidden)
{
    if (hidden == m_hiddenRanks.contains(rank))
        return;
    if (hidden)
        m_hiddenRanks.insert(rank);
    else
        m_hiddenRanks.remove(rank);
    emit layoutChanged();
}

void TimelineViewState::setAlignment(const Alignment& alignment)
{
    if (alignment == m_alignment)
        return;
    m_alignment = alignment;
    emit alignmentChanged();
}

void TimelineViewState::setColorMode(ColorMode mode)
{
    if (mode == m_colorMode)
        return;
    m_colorMode = mode;
    emit appearanceChanged();
}

void TimelineViewState::setShowAllFlows(bool on)
{
    if (on == m_allFlows)
        return;
    m_allFlows = on;
    emit appearanceChanged();
}

} // namespace ks::widgets
