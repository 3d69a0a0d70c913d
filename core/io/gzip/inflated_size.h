#pragma once

#include <cstdint>

namespace ks::core {

// The JSON size of a gzip file, guessed from its trailer (which holds the size
// modulo 4 GiB) and the file's size, for reserving columns before loading.
// Kineto JSON compresses 13-21 times. A file too small to pass 4 GiB at 21 is
// taken at its trailer, or at 13 times its size when that is more (the trailer
// of a file of several members is the last member's). A bigger one is taken at
// the smallest size matching the trailer at a ratio of at least 13: taking 13
// times the file, as before, guessed 3 GB for a 4.5 GB rank, every column then
// grew by doubling mid-load, and the copies left 100+ MB of touched holes in
// the heap (B4 of performance.md).
constexpr std::uint64_t inflatedSizeFromTrailer(std::uint64_t trailer, std::uint64_t fileBytes)
{
    constexpr std::uint64_t kWrap = std::uint64_t { 1 } << 32;
    constexpr std::uint64_t kMinRatio = 13;
    constexpr std::uint64_t kMaxRatio = 21;
    const std::uint64_t atLeast = fileBytes * kMinRatio;
    if (fileBytes * kMaxRatio < kWrap || trailer >= atLeast)
        return trailer > atLeast ? trailer : atLeast;
    return trailer + (atLeast - trailer + kWrap - 1) / kWrap * kWrap;
}

} // namespace ks::core
