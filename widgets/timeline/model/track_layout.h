#pragma once

#include "widgets/timeline/model/timeline_types.h"

#include <QList>

#include <vector>

namespace ks::widgets {

class TimelineData;
class TimelineViewState;

// One row of the timeline: a rank header, a slice track (a GPU stream or a CPU
// thread, `lanes` high) or a counter track.
struct TimelineRow
{
    RowKind kind = RowKind::Slices;
    int rank = 0;
    std::uint32_t index = 0; // TrackId value or counter index; 0 for headers
    int y = 0; // top, in its area (pinned rows: the pinned area; others: the scrolled content)
    int height = 0;
    std::uint32_t lanes = 0; // slice rows: nesting levels + extra lanes
    bool pinned = false;

    TrackKey key() const { return { rank, kind, index }; }
};

// T1: the rows of the timeline, top to bottom, and their heights. Pinned rows
// come first in their own area that does not scroll; then per rank a header
// and, unless the rank is collapsed, its visible tracks: GPU streams, GPU
// counters (queue length, bandwidth, memory), CPU threads, host counters, in
// the user's order where one was set.
class TrackLayout
{
public:
    static constexpr int kHeaderHeight = 26;
    static constexpr int kCollapsedHeaderHeight = 44; // room for the GPU overview band
    static constexpr int kLaneHeight = 18;
    static constexpr int kSlicePadding = 3; // above the first lane and below the last
    static constexpr int kCounterHeight = 34;

    void build(const TimelineData& data, const TimelineViewState& state);

    const std::vector<TimelineRow>& rows() const { return m_rows; }

    int pinnedHeight() const { return m_pinnedHeight; }

    int contentHeight() const { return m_contentHeight; }

    // The row at y of the pinned area or the scrolled content; -1 when none.
    int rowAt(bool pinnedArea, int y) const;
    int findRow(TrackKey key) const;
    // The lane at y inside a slice row (may be out of range: callers check).
    static int laneAt(const TimelineRow& row, int yInRow);

    static int laneTop(std::uint32_t lane) { return kSlicePadding + static_cast<int>(lane) * kLaneHeight; }

    // The default order of a rank's tracks, as packed keys.
    static QList<quint64> defaultOrder(const TimelineData& data, int rank);
    // The order in effect: the user's order, then tracks it does not mention.
    static QList<quint64> effectiveOrder(const TimelineData& data, const TimelineViewState& state, int rank);

private:
    TimelineRow makeRow(const TimelineData& data, TrackKey key, bool collapsed = false) const;

    std::vector<TimelineRow> m_rows;
    int m_pinnedHeight = 0;
    int m_contentHeight = 0;
};

} // namespace ks::widgets
