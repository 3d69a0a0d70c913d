#include "core/summary/rank_profile.h"

#include <bit>
#include <cstring>

namespace ks::core {

namespace {

    constexpr std::size_t kBytesPerBin = 4 * sizeof(std::int64_t);
    static_assert(sizeof(KindBusy) == kBytesPerBin, "bins are copied whole on little-endian machines");

} // namespace

void RankProfile::add(std::int64_t bin, const KindBusy& kinds)
{
    if (busy.empty())
        firstBin = bin;
    if (bin < firstBin) {
        busy.insert(busy.begin(), static_cast<std::size_t>(firstBin - bin), KindBusy {});
        firstBin = bin;
    }
    const auto at = static_cast<std::size_t>(bin - firstBin);
    if (at >= busy.size())
        busy.resize(at + 1, KindBusy {});
    for (std::size_t k = 0; k < kinds.size(); ++k)
        busy[at][k] += kinds[k];
}

std::vector<std::byte> encodeProfileBins(const std::vector<KindBusy>& bins)
{
    std::vector<std::byte> blob;
    if constexpr (std::endian::native == std::endian::little) { // the blob's byte order: one copy
        blob.resize(bins.size() * kBytesPerBin);
        if (!bins.empty())
            std::memcpy(blob.data(), bins.data(), blob.size());
        return blob;
    }
    blob.reserve(bins.size() * kBytesPerBin);
    for (const KindBusy& bin : bins)
        for (const std::int64_t ns : bin) {
            const auto bits = static_cast<std::uint64_t>(ns);
            for (int shift = 0; shift < 64; shift += 8)
                blob.push_back(static_cast<std::byte>((bits >> shift) & 0xffu));
        }
    return blob;
}

bool decodeProfileBins(std::span<const std::byte> blob, std::vector<KindBusy>& bins)
{
    if (blob.size() % kBytesPerBin != 0)
        return false;
    bins.assign(blob.size() / kBytesPerBin, KindBusy {});
    if constexpr (std::endian::native == std::endian::little) {
        if (!blob.empty())
            std::memcpy(bins.data(), blob.data(), blob.size());
        return true;
    }
    std::size_t at = 0;
    for (KindBusy& bin : bins)
        for (std::int64_t& ns : bin) {
            std::uint64_t bits = 0;
            for (int shift = 0; shift < 64; shift += 8)
                bits |= static_cast<std::uint64_t>(blob[at++]) << shift;
            ns = static_cast<std::int64_t>(bits);
        }
    return true;
}

} // namespace ks::core
