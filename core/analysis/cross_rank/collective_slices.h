#pragma once

// The collective slices of one rank and what their args say, for
// matchCollectives (collective_match.h) and the views that list them.

#include "core/analysis/cross_rank/collective_match.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

struct CollectiveSlice
{
    std::uint32_t slice = 0;
    CollectiveBackend backend = CollectiveBackend::Gpu;
};

// Communication kernels on GPU streams and gloo:* slices on CPU threads, in
// start order (ties: GPU first, then slice order).
std::vector<CollectiveSlice> collectiveSlicesOf(const RankTrace& trace);

// What a collective slice's typed args say.
struct CollectiveSliceInfo
{
    std::string name; // "Collective name", else the slice name
    std::string groupName; // "Process Group Name"; empty when absent
    std::int64_t groupSize = 0; // "Group size"; 0 when absent
    std::int64_t sequence = -1; // "Seq"; -1 when absent
    std::int64_t messageBytes = -1; // max(In, Out msg nelems) x dtype size; -1 when unknown
};

CollectiveSliceInfo describeCollectiveSlice(const RankTrace& trace, std::uint32_t slice);

// The group details only the args text holds ("Process Group Ranks",
// "Process Group Description"); decodes the slice's args, so call it once per group.
struct CollectiveGroupArgs
{
    std::vector<std::int64_t> ranks; // empty when absent or unreadable
    std::string description;
};

CollectiveGroupArgs collectiveGroupArgs(const RankTrace& trace, std::uint32_t slice);

// "[0, 1, 2]" -> {0, 1, 2}; empty for anything else.
std::vector<std::int64_t> parseRankList(std::string_view text);

} // namespace ks::core
