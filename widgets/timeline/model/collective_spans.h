#pragma once

// X2 on the timeline: the selected collective on every member rank, split into
// the member's wait (its arrival until the last member arrives) and its
// transfer (from then until it leaves), in display time under an alignment.

#include "widgets/timeline/model/timeline_types.h"

#include <vector>

namespace ks::widgets {

class TimelineData;

struct CollectiveSpan
{
    SliceRef ref; // the member's slice
    TimeRange wait; // display time; empty for the member that arrived last
    TimeRange transfer; // display time
    bool last = false; // the member the others waited for
};

// One span per member of the instance holding `selected` (matched by
// TimelineData::collectives); empty when the slice is no collective or only
// one rank has it.
std::vector<CollectiveSpan> collectiveSpans(
    const TimelineData& data, SliceRef selected, const Alignment& alignment);

} // namespace ks::widgets
