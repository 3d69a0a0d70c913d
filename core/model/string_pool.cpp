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

std::size_t StringPool::slotOf(std::string_view text, std::uint64_t hash) const
{
    const std::size_t mask = m_slots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const Slot& slot = m_slots[i];
        if (slot.id == kEmpty || (slot.hash == hash && m_views[slot.id] == text))
            return i;
    }
}

void StringPool::grow()
{
    std::vector<Slot> old(std::max<std::size_t>(64, m_slots.size() * 2));
    old.swap(m_slots);
    const std::size_t mask = m_slots.size() - 1;
    for (const Slot& slot : old) {
        if (slot.id == kEmpty)
            continue;
        std::size_t i = slot.hash & mask;
        while (m_slots[i].id != kEmpty)
            i = (i + 1) & mask;
        m_slots[i] = slot;
    }
}

NameId StringPool::intern(std::string_view text)
{
    if (2 * (m_views.size() + 1) > m_slots.size())
        grow();
    const std::uint64_t hash = hashOf(text);
    Slot& slot = m_slots[slotOf(text, hash)];
    if (slot.id != kEmpty)
        return NameId { slot.id };
    slot.hash = hash;
    slot.id = static_cast<std::uint32_t>(m_views.size());
    m_views.push_back(store(text));
    return NameId { slot.id };
}

NameId StringPool::find(std::string_view text) const
{
    if (m_slots.empty())
        return {};
    const Slot& slot = m_slots[slotOf(text, hashOf(text))];
    return slot.id == kEmpty ? NameId {} : NameId { slot.id };
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
        + m_slots.capacity() * sizeof(Slot);
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
