#include "core/model/args_index.h"

#include <algorithm>

namespace ks::core {

bool ArgsIndex::checkpointBefore(
    std::uint32_t eventIndex, std::uint32_t& checkpointEvent, std::uint64_t& offset) const
{
    auto it = std::upper_bound(m_checkpointEvent.begin(), m_checkpointEvent.end(), eventIndex);
    if (it == m_checkpointEvent.begin())
        return false;
    const auto k = static_cast<std::size_t>(it - m_checkpointEvent.begin()) - 1;
    checkpointEvent = m_checkpointEvent[k];
    offset = m_checkpointOffset[k];
    return true;
}

const InflatePoint* ArgsIndex::pointBefore(std::uint64_t jsonOffset) const
{
    auto it = std::upper_bound(points.begin(), points.end(), jsonOffset,
        [](std::uint64_t offset, const InflatePoint& p) { return offset < p.jsonOffset; });
    return it == points.begin() ? nullptr : &*(it - 1);
}

void ArgsIndex::finish()
{
    m_checkpointEvent.shrink_to_fit();
    m_checkpointOffset.shrink_to_fit();
    points.shrink_to_fit();
}

std::size_t ArgsIndex::bytesUsed() const
{
    std::size_t bytes = m_checkpointEvent.capacity() * sizeof(std::uint32_t)
        + m_checkpointOffset.capacity() * sizeof(std::uint64_t) + points.capacity() * sizeof(InflatePoint);
    for (const InflatePoint& p : points)
        bytes += p.state.capacity();
    return bytes;
}

} // namespace ks::core
