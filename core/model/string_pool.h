#pragma once

#include "core/model/ids.h"

#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
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
    struct Hash
    {
        using is_transparent = void;

        std::size_t operator()(std::string_view s) const noexcept
        {
            return std::hash<std::string_view> {}(s);
        }
    };

    std::string_view store(std::string_view text);

    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_blockUsed = 0;
    std::size_t m_blockSize = 0;
    std::vector<std::string_view> m_views;
    std::unordered_map<std::string_view, std::uint32_t, Hash, std::equal_to<>> m_index;
};

} // namespace ks::core
