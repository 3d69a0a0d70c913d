#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace ks::cli {

// The candidate closest to `typed` by edit distance, when it is close enough to
// be a plausible typo (at most a third of the longer word, and at least 1 edit
// allowed); used for "did you mean" hints on unknown options and commands.
std::optional<std::string> nearestName(std::string_view typed, std::span<const std::string> candidates);

// Levenshtein distance: insertions, deletions and substitutions cost 1.
std::size_t editDistance(std::string_view a, std::string_view b);

} // namespace ks::cli
