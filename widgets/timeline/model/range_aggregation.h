#pragma once

#include "widgets/timeline/model/timeline_types.h"

#include <QString>

#include <functional>
#include <vector>

namespace ks::widgets {

class TimelineData;

// One line of the range table: the slices of one name on one kind of track.
struct AggregateRow
{
    QString name;
    bool gpu = false; // GPU streams or CPU threads
    std::uint64_t count = 0;
    TimeNs total = 0; // full durations
    TimeNs inRange = 0; // durations clipped to the range
    TimeNs max = 0;

    double mean() const { return count ? static_cast<double>(total) / static_cast<double>(count) : 0.0; }
};

struct RangeAggregate
{
    TimeRange range; // display time
    std::vector<AggregateRow> rows; // by in-range time, descending
    std::uint64_t slices = 0;
    int ranks = 0;
};

// T5: what lies inside a time range, by name and track kind, over the tracks
// `include` accepts (all when empty). A slice is inside when it overlaps the
// range by more than zero time (zero-length slices: when they start in it).
RangeAggregate aggregateRange(const TimelineData& data, TimeRange range, const Alignment& alignment,
    const std::function<bool(TrackKey)>& include = {});

} // namespace ks::widgets
