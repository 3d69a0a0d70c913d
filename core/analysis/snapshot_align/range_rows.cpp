#include "core/analysis/snapshot_align/range_rows.h"

#include <algorithm>
#include <limits>

namespace ks::core {

RangeRows::RangeRows(const MemorySnapshot& snapshot, const DeviceSnapshotSummary& device)
{
    const std::span<const TraceEntry> trace = snapshot.trace(device.device);
    m_times.reserve(device.timeline.rows.size());
    std::int64_t last = std::numeric_limits<std::int64_t>::min();
    for (const TimelineRow& row : device.timeline.rows) {
        const std::int64_t t = row.event.raw < trace.size() ? trace[row.event.raw].timeUs : kNoTime;
        if (t != kNoTime)
            last = std::max(last, t);
        m_times.push_back(last);
    }
}

std::size_t RangeRows::rowsUpTo(std::int64_t timeUs) const
{
    return static_cast<std::size_t>(
        std::upper_bound(m_times.begin(), m_times.end(), timeUs) - m_times.begin());
}

RowSpan RangeRows::rowsIn(std::int64_t startUs, std::int64_t endUs) const
{
    const std::size_t before = rowsUpTo(startUs);
    return RowSpan { before, std::max(before, rowsUpTo(endUs)) };
}

} // namespace ks::core
