#include "widgets/timeline/model/track_layout.h"

#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"

#include <algorithm>

namespace ks::widgets {

TimelineRow TrackLayout::makeRow(const TimelineData& data, TrackKey key, bool collapsed) const
{
    TimelineRow row;
    row.kind = key.kind;
    row.rank = key.rank;
    row.index = key.index;
    switch (key.kind) {
    case RowKind::RankHeader:
        row.height = collapsed ? kCollapsedHeaderHeight : kHeaderHeight;
        break;
    case RowKind::Slices:
        row.lanes = std::max<std::uint32_t>(1, data.trace(key.rank).tracks[key.index].levelCount());
        row.height = 2 * kSlicePadding + static_cast<int>(row.lanes) * kLaneHeight;
        break;
    case RowKind::Counter:
        row.height = kCounterHeight;
        break;
    }
    return row;
}

QList<quint64> TrackLayout::defaultOrder(const TimelineData& data, int rank)
{
    QList<quint64> order;
    const core::RankTrace& trace = data.trace(rank);
    const CounterTracks& counters = data.rankCounters(rank);
    // Each GPU stream is followed by its queue length; other GPU counters
    // (bandwidth, memory) come after the streams, host counters last.
    auto addCounters = [&](CounterTrack::Placement placement, std::int64_t stream) {
        for (std::uint32_t c = 0; c < counters.size(); ++c) {
            if (counters[c].placement == placement && counters[c].stream == stream)
                order.append(TrackKey { rank, RowKind::Counter, c }.packed());
        }
    };
    for (std::uint32_t t = 0; t < trace.tracks.size(); ++t) {
        if (trace.tracks[t].kind != core::TrackKind::GpuStream)
            continue;
        order.append(TrackKey { rank, RowKind::Slices, t }.packed());
        if (trace.tracks[t].stream >= 0)
            addCounters(CounterTrack::Placement::Gpu, trace.tracks[t].stream);
    }
    for (std::uint32_t c = 0; c < counters.size(); ++c) {
        const quint64 key = TrackKey { rank, RowKind::Counter, c }.packed();
        if (counters[c].placement == CounterTrack::Placement::Gpu && !order.contains(key))
            order.append(key);
    }
    for (std::uint32_t t = 0; t < trace.tracks.size(); ++t) {
        if (trace.tracks[t].kind == core::TrackKind::CpuThread)
            order.append(TrackKey { rank, RowKind::Slices, t }.packed());
    }
    addCounters(CounterTrack::Placement::Host, -1);
    return order;
}

QList<quint64> TrackLayout::effectiveOrder(const TimelineData& data, const TimelineViewState& state, int rank)
{
    const QList<quint64> defaults = defaultOrder(data, rank);
    const QList<quint64> user = state.trackOrder(rank);
    if (user.isEmpty())
        return defaults;
    QList<quint64> order;
    for (quint64 key : user) {
        if (defaults.contains(key))
            order.append(key);
    }
    for (quint64 key : defaults) {
        if (!order.contains(key))
            order.append(key);
    }
    return order;
}

void TrackLayout::build(const TimelineData& data, const TimelineViewState& state)
{
    m_rows.clear();
    int y = 0;
    for (quint64 packed : state.pinned()) {
        const TrackKey key = TrackKey::unpack(packed);
        if (key.rank >= data.rankCount() || state.isHidden(key))
            continue;
        if ((key.kind == RowKind::Slices && key.index >= data.trace(key.rank).tracks.size())
            || (key.kind == RowKind::Counter && key.index >= data.rankCounters(key.rank).size()))
            continue;
        TimelineRow row = makeRow(data, key);
        row.pinned = true;
        row.y = y;
        y += row.height;
        m_rows.push_back(row);
    }
    m_pinnedHeight = y;
    y = 0;
    for (int r = 0; r < data.rankCount(); ++r) {
        if (state.isRankHidden(r))
            continue;
        TimelineRow header = makeRow(data, { r, RowKind::RankHeader, 0 }, state.isCollapsed(r));
        header.y = y;
        y += header.height;
        m_rows.push_back(header);
        if (state.isCollapsed(r))
            continue;
        for (quint64 packed : effectiveOrder(data, state, r)) {
            const TrackKey key = TrackKey::unpack(packed);
            if (state.isHidden(key) || state.isPinned(key))
                continue;
            TimelineRow row = makeRow(data, key);
            row.y = y;
            y += row.height;
            m_rows.push_back(row);
        }
    }
    m_contentHeight = y;
}

int TrackLayout::rowAt(bool pinnedArea, int y) const
{
    // Rows are sorted by y within each area: pinned rows first.
    const auto first =
        std::find_if(m_rows.begin(), m_rows.end(), [](const TimelineRow& r) { return !r.pinned; });
    auto begin = pinnedArea ? m_rows.begin() : first;
    auto end = pinnedArea ? first : m_rows.end();
    auto it = std::upper_bound(begin, end, y, [](int v, const TimelineRow& r) { return v < r.y; });
    if (it == begin)
        return -1;
    --it;
    if (y >= it->y + it->height)
        return -1;
    return static_cast<int>(it - m_rows.begin());
}

int TrackLayout::findRow(TrackKey key) const
{
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].key() == key)
            return static_cast<int>(i);
    }
    return -1;
}

int TrackLayout::laneAt(const TimelineRow&, int yInRow)
{
    if (yInRow < kSlicePadding)
        return -1;
    return (yInRow - kSlicePadding) / kLaneHeight;
}

} // namespace ks::widgets
