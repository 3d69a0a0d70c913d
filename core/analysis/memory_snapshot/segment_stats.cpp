#include "core/analysis/memory_snapshot/segment_stats.h"

#include <algorithm>
#include <cmath>

namespace ks::core {

namespace {

    bool isActive(BlockState s)
    {
        return s != BlockState::Inactive;
    }

    void addBlocks(const MemorySnapshot& snapshot, const SnapshotSegment& seg, SegmentStats& st)
    {
        std::uint64_t gap = 0; // the current run of non-active blocks
        std::uint64_t addr = seg.address; // end of the last active block (memory_viz's fragmentation)
        for (const SnapshotBlock& b : snapshot.segmentBlocks(seg)) {
            const auto state = static_cast<std::size_t>(b.state);
            ++st.blocks;
            ++st.blocksByState[state];
            st.bytesByState[state] += b.size;
            if (b.state == BlockState::ActiveAllocated) {
                st.allocated += b.size;
                st.requestedAllocated += b.requestedSize;
                st.segsumAllocated += b.realSize;
                st.segsumFreeInternal += b.size > b.realSize ? b.size - b.realSize : 0;
            } else {
                st.segsumFreeExternal += b.size;
            }
            if (isActive(b.state)) {
                st.active += b.size;
                st.requestedActive += b.requestedSize;
                gap = 0;
                if (b.address > addr)
                    st.sumSquaredFree += static_cast<long double>(b.address - addr) * (b.address - addr);
                addr = b.address + b.size;
            } else {
                gap += b.size;
                st.largestFreeGap = std::max(st.largestFreeGap, gap);
                if (b.state == BlockState::Inactive)
                    st.largestInactiveBlock = std::max(st.largestInactiveBlock, b.size);
            }
        }
        const std::uint64_t end = seg.address + seg.totalSize;
        if (addr < end)
            st.sumSquaredFree += static_cast<long double>(end - addr) * (end - addr);
    }

} // namespace

SegmentStats segmentStats(const MemorySnapshot& snapshot, std::int64_t device)
{
    SegmentStats st;
    for (const SnapshotSegment& seg : snapshot.segments) {
        if (seg.device != device)
            continue;
        ++st.segments;
        ++st.segmentsByType[seg.segmentType.empty() ? std::string("unknown") : seg.segmentType];
        st.expandableSegments += seg.isExpandable ? 1 : 0;
        st.reserved += seg.totalSize;
        addBlocks(snapshot, seg, st);
    }
    if (st.reserved > 0) {
        const long double total = static_cast<long double>(st.reserved);
        st.fragmentation = static_cast<double>(st.sumSquaredFree / (total * total));
    }
    const std::uint64_t freeBytes = st.reserved > st.active ? st.reserved - st.active : 0;
    if (freeBytes > 0)
        st.freeNotInLargestGapFraction =
            1.0 - static_cast<double>(st.largestFreeGap) / static_cast<double>(freeBytes);
    const std::uint64_t allFree = st.segsumFreeInternal + st.segsumFreeExternal;
    if (allFree > 0)
        st.segsumInternalPct =
            std::round(1000.0 * static_cast<double>(st.segsumFreeInternal) / static_cast<double>(allFree))
            / 10.0;
    return st;
}

} // namespace ks::core
