#include "widgets/timeline/model/collective_spans.h"

#include "widgets/timeline/model/timeline_data.h"

#include <algorithm>

namespace ks::widgets {

std::vector<CollectiveSpan> collectiveSpans(
    const TimelineData& data, SliceRef selected, const Alignment& alignment)
{
    std::vector<CollectiveSpan> spans;
    if (!selected.valid() || !data.collectives || selected.rank >= data.rankCount())
        return spans;
    const auto index = data.collectives->instanceOf(static_cast<std::size_t>(selected.rank), selected.slice);
    if (!index)
        return spans;
    const core::CollectiveInstance& inst = data.collectives->instances[*index];
    if (inst.members.size() < 2)
        return spans;
    // The last arrival as the view shows it: under this alignment's offsets.
    TimeNs lastArrival = 0;
    std::size_t lastMember = 0;
    for (std::size_t i = 0; i < inst.members.size(); ++i) {
        const core::CollectiveMember& m = inst.members[i];
        const TimeNs start = m.start - data.offset(static_cast<int>(m.rankIndex), alignment);
        if (i == 0 || start > lastArrival) {
            lastArrival = start;
            lastMember = i;
        }
    }
    for (std::size_t i = 0; i < inst.members.size(); ++i) {
        const core::CollectiveMember& m = inst.members[i];
        const int rank = static_cast<int>(m.rankIndex);
        const TimeNs off = data.offset(rank, alignment);
        const TimeNs start = m.start - off;
        const TimeNs end = m.end - off;
        // Clocks that disagree can put the last arrival after a member's end: clip.
        const TimeNs split = std::clamp(lastArrival, start, end);
        spans.push_back({ { rank, m.slice }, { start, split }, { split, end }, i == lastMember });
    }
    return spans;
}

} // namespace ks::widgets
