#include "core/model/kept_args.h"

#include <algorithm>
#include <limits>

namespace ks::core {

void KeptArgs::add(std::uint32_t eventIndex, std::string_view text)
{
    // File order makes the events ascending; an element met twice (never, in one
    // read) would keep its first text, which find() returns.
    if (!m_events.empty() && eventIndex <= m_events.back())
        return;
    // Offsets are 32-bit: past 4 GB of kept text the rest is re-read from the file.
    if (m_text.size() + text.size() > std::numeric_limits<std::uint32_t>::max())
        return;
    m_events.push_back(eventIndex);
    m_text.append(text);
    m_ends.push_back(static_cast<std::uint32_t>(m_text.size()));
}

std::optional<std::string_view> KeptArgs::find(std::uint32_t eventIndex) const
{
    const auto it = std::lower_bound(m_events.begin(), m_events.end(), eventIndex);
    if (it == m_events.end() || *it != eventIndex)
        return std::nullopt;
    const auto i = static_cast<std::size_t>(it - m_events.begin());
    const std::uint32_t begin = i == 0 ? 0 : m_ends[i - 1];
    return std::string_view(m_text).substr(begin, m_ends[i] - begin);
}

void KeptArgs::shrinkToFit()
{
    m_events.shrink_to_fit();
    m_ends.shrink_to_fit();
    m_text.shrink_to_fit();
}

std::size_t KeptArgs::bytesUsed() const
{
    return m_events.capacity() * sizeof(std::uint32_t) + m_ends.capacity() * sizeof(std::uint32_t)
        + m_text.capacity();
}

} // namespace ks::core
