#include "core/analysis/frame/frame_window.h"

#include <algorithm>

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

} // namespace ks::core
