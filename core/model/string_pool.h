#pragma once

#include "core/model/ids.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// Interns strings: each distinct text is stored once and named by a NameId.
// Views returned by view() stay valid for the pool's lifetime because text is
// kept in fixed blocks that never move.
class StringPool
{
public:
    StringPool();
    StringPool(StringPool&&) noexcept = default;
    StringPool& operator=(StringPool&&) noexcept = default;
    StringPool(const StringPool&) = delete;
    StringPool& operator=(const StringPool&) = delete;

    NameId intern(std::string_view text);
    // Returns an invalid id when the text was never interned.
    NameId find(std::string_view text) const;
    std::string_view view(NameId id) const;

    std::size_t size() const { return m_views.size(); }

    std::size_t bytesUsed() const;

private:
    // The index is an open-addressing table of (hash, id), at most half full:
    // every event's name, category and thread are interned while loading, and a
    // node-based map's bucket walk was a tenth of the parsing thread's time. The
    // stored hash rejects most other texts without comparing them, and growing
    // needs no rehashing.
    struct Slot
    {
        std::uint64_t hash = 0;
        std::uint32_t id = kEmpty;
    };

    static constexpr std::uint32_t kEmpty = ~std::uint32_t { 0 };

    static std::uint64_t hashOf(std::string_view text) { return std::hash<std::string_view> {}(text); }

    // The slot holding `text`, or the empty slot where it would go.
    std::size_t slotOf(std::string_view text, std::uint64_t hash) const;
    void grow();
    std::string_view store(std::string_view text);

    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_blockUsed = 0;
    std::size_t m_blockSize = 0;
    std::vector<std::string_view> m_views;
    std::vector<Slot> m_slots; // a power of two in size
};

} // namespace ks::core
