#include "core/analysis/frame/frame_window.h"

#include <algorithm>
#include <iterator>
#include <limits>

namespace ks::core {

void restrictFramesToWindow(FrameSet& frames, TimeNs start, TimeNs end)
{
    // Frame times are shifted by minTs (HTA's min_ts).
    const TimeNs from = start - frames.minTs;
    const TimeNs to = end - frames.minTs;
    for (RankFrame& rank : frames.ranks) {
        std::erase_if(rank.rows, [from, to](const FrameRow& row) { return row.ts < from || row.ts >= to; });
        rank.indexRows();
    }
}

FrameSet framesWithoutRanks(const FrameSet& frames)
{
    FrameSet empty;
    empty.mode = frames.mode;
    empty.minTs = frames.minTs;
    empty.deviceType = frames.deviceType;
    empty.filteredToCompleteSteps = frames.filteredToCompleteSteps;
    empty.iterations = frames.iterations;
    return empty;
}

FrameSet narrowedFrames(const FrameSet& frames, std::optional<std::int64_t> iteration,
    std::optional<std::pair<TimeNs, TimeNs>> window)
{
    FrameSet narrowed = framesWithoutRanks(frames);
    if (iteration) // buildFrames lists the iterations left after selecting
        std::erase_if(narrowed.iterations, [&](std::int64_t i) { return i != *iteration; });
    const TimeNs from = window ? window->first - frames.minTs : std::numeric_limits<TimeNs>::min();
    const TimeNs to = window ? window->second - frames.minTs : std::numeric_limits<TimeNs>::max();
    narrowed.ranks.reserve(frames.ranks.size());
    for (const RankFrame& rank : frames.ranks) {
        RankFrame& copy = narrowed.ranks.emplace_back();
        copy.rank = rank.rank;
        copy.trace = rank.trace;
        copy.floatTimestamps = rank.floatTimestamps;
        copy.floatDurations = rank.floatDurations;
        std::copy_if(
            rank.rows.begin(), rank.rows.end(), std::back_inserter(copy.rows), [&](const FrameRow& row) {
                return (!iteration || row.iteration == *iteration) && row.ts >= from && row.ts < to;
            });
        copy.rows.shrink_to_fit();
        copy.indexRows();
    }
    return narrowed;
}

} // namespace ks::core
