#pragma once

#include "core/common/result.h"
#include "core/model/rank_trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ks::core {

// The args a rank's efficiency rows read, from one pass over the file (efficiencyReport reads
// them once for its rows, ForwardCalls and BackwardCalls): the whole text of the slices whose
// args are parsed, only the "Sequence number" of those that are merely linked.
struct RankArgsTexts
{
    std::unordered_map<std::uint32_t, std::string> text; // slice -> its args object
    std::unordered_map<std::uint32_t, std::int64_t> sequence; // slice -> its "Sequence number"

    const std::string* textOf(std::uint32_t slice) const;
    std::optional<std::int64_t> sequenceOf(std::uint32_t slice) const;
};

// The "Sequence number" of an args object; nullopt without one.
std::optional<std::int64_t> sequenceNumberOfArgs(std::string_view args);

// What callers must read before linking: the slices whose text (`text`) or only whose sequence
// number (`sequence`) they need, in any order, repeats allowed.
struct ArgsWanted
{
    std::vector<std::uint32_t> text;
    std::vector<std::uint32_t> sequence;
};

// Reads `wanted` in one forward pass of the file; stops at the first error and returns it (what
// was read before it stays in `out`).
std::optional<Error> readArgsTexts(const RankTrace& trace, const ArgsWanted& wanted, RankArgsTexts& out);

} // namespace ks::core
