#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace ks::core {

// Busy ns of one job bin by kernel kind: computation, communication, memory, other.
using KindBusy = std::array<std::int64_t, 4>;

// One rank's GPU work per job bin, summed over all its GPU streams: the
// `rank_profiles` table, written so that job mode reads every rank's strip in
// one query instead of summing millions of `stream_utilisation` rows.
struct RankProfile
{
    std::int64_t rank = 0;
    std::int64_t streams = 0; // GPU streams with work (the bins sum that many)
    std::int64_t firstBin = 0; // job bin of busy[0]
    std::vector<KindBusy> busy;

    // Adds one stream's bin; bins may arrive in any order.
    void add(std::int64_t bin, const KindBusy& kinds);
};

// The blob stored in `rank_profiles.profile`: per bin, four little-endian
// int64 (computation, communication, memory, other ns), bins in order.
std::vector<std::byte> encodeProfileBins(const std::vector<KindBusy>& bins);

// False when the blob is not a whole number of bins.
bool decodeProfileBins(std::span<const std::byte> blob, std::vector<KindBusy>& bins);

} // namespace ks::core
