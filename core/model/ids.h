#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <limits>

namespace ks::core {

// A typed 32-bit index. Distinct tags keep a TrackId from being passed where a
// NameId is expected.
template <typename Tag>
struct Id
{
    static constexpr std::uint32_t kInvalid = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t value = kInvalid;

    constexpr Id() = default;

    constexpr explicit Id(std::uint32_t v)
        : value(v)
    {
    }

    constexpr bool valid() const { return value != kInvalid; }

    constexpr auto operator<=>(const Id&) const = default;
};

using NameId = Id<struct NameTag>;
using TrackId = Id<struct TrackTag>;
using SliceId = Id<struct SliceTag>;
using CounterId = Id<struct CounterTag>;

} // namespace ks::core

template <typename Tag>
struct std::hash<ks::core::Id<Tag>>
{
    std::size_t operator()(ks::core::Id<Tag> id) const noexcept
    {
        return std::hash<std::uint32_t> {}(id.value);
    }
};
