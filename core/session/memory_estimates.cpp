#include "core/session/memory_estimates.h"

#include "core/analysis/frame/hta_frame.h"
#include "core/model/trace_set.h"

#include <algorithm>

namespace ks::core {

namespace {

    // A frame row and its entry in the event index, twice: the frames and
    // what the analyses copy of them at their peak (sorted intervals, per-rank
    // tables).
    constexpr std::uint64_t kDockBytesPerEvent = 2 * (sizeof(FrameRow) + sizeof(std::uint32_t));

} // namespace

std::uint64_t storeBytes(const TraceSet& set)
{
    std::uint64_t bytes = 0;
    for (const auto& rank : set.ranks)
        bytes += rank->bytesUsed();
    return bytes;
}

std::uint64_t framesBytes(const FrameSet& frames)
{
    std::uint64_t bytes = 0;
    for (const RankFrame& frame : frames.ranks)
        bytes += frame.rows.capacity() * sizeof(FrameRow)
            + (frame.trace ? frame.trace->keptEvents() : 0) * sizeof(std::uint32_t);
    return bytes;
}

std::size_t concurrentRanks(const FrameSet& frames, int workers)
{
    return std::min(frames.ranks.size(), static_cast<std::size_t>(std::max(1, workers)) + 1);
}

std::uint64_t docksMemoryEstimate(const TraceSet& set)
{
    std::uint64_t events = 0;
    for (const auto& rank : set.ranks)
        events += rank->keptEvents();
    return events * kDockBytesPerEvent;
}

} // namespace ks::core
