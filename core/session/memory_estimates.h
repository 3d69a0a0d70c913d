#pragma once

// What a load's results hold and what computing them needs: the estimates the
// app compares with its memory budget before it starts work on its own, and
// that TraceAnalyses reports for what it keeps.

#include <cstddef>
#include <cstdint>

namespace ks::core {

struct FrameSet;
struct TraceSet;

// What a piece of work needs, the store included, and the budget it was held against.
struct MemoryNeed
{
    std::uint64_t bytes = 0;
    std::uint64_t budget = 0;

    bool fits() const { return bytes <= budget; }
};

// The loaded store (RankTrace::bytesUsed of every rank).
std::uint64_t storeBytes(const TraceSet& set);
// One FrameSet's rows and event index.
std::uint64_t framesBytes(const FrameSet& frames);
// What the catalog's outputs hold beyond the store at their peak: the frames
// and the analyses' working copies, per kept event.
std::uint64_t docksMemoryEstimate(const TraceSet& set);
// The ranks jobCriticalPath condenses at once on pools of `workers` threads: one
// per worker and its caller (what its memory estimate is asked for).
std::size_t concurrentRanks(const FrameSet& frames, int workers);

} // namespace ks::core
