#include "core/model/string_pool.h"

#include <algorithm>
#include <cstring>

namespace ks::core {

namespace {
    constexpr std::size_t kBlockSize = std::size_t { 64 } * 1024;
}

StringPool::StringPool()
{
    intern({}); // id 0 is the empty string, so "missing" names are cheap
}

NameId StringPool::intern(std::string_view text)
{
    if (auto it = m_index.find(text); it != m_index.end())
        return NameId { it->second };
    const std::string_view stored = store(text);
    const auto id = static_cast<std::uint32_t>(m_views.size());
    m_views.push_back(stored);
    m_index.emplace(stored, id);
    return NameId { id };
}

NameId StringPool::find(std::string_view text) const
{
    if (auto it = m_index.find(text); it != m_index.end())
        return NameId { it->second };
    return {};
}

std::string_view StringPool::view(NameId id) const
{
    if (!id.valid() || id.value >= m_views.size())
        return {};
    return m_views[id.value];
}

std::size_t StringPool::bytesUsed() const
{
    return m_blocks.size() * kBlockSize + m_views.capacity() * sizeof(std::string_view)
        + m_index.size() * (sizeof(std::string_view) + sizeof(std::uint32_t) + 2 * sizeof(void*));
}

std::string_view StringPool::store(std::string_view text)
{
    if (text.empty())
        return {};
    if (text.size() > kBlockSize / 4) {
        // Large strings get their own block so the shared block is not wasted.
        auto block = std::make_unique<char[]>(text.size());
        std::memcpy(block.get(), text.data(), text.size());
        std::string_view stored(block.get(), text.size());
        m_blocks.insert(m_blocks.end() - (m_blocks.empty() ? 0 : 1), std::move(block));
        return stored;
    }
    if (m_blocks.empty() || m_blockUsed + text.size() > m_blockSize) {
        m_blocks.push_back(std::make_unique<char[]>(kBlockSize));
        m_blockSize = kBlockSize;
        m_blockUsed = 0;
    }
    char* dest = m_blocks.back().get() + m_blockUsed;
    std::memcpy(dest, text.data(), text.size());
    m_blockUsed += text.size();
    return { dest, text.size() };
}

} // namespace ks::core
