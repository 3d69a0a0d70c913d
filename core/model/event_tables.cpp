#include "core/model/event_tables.h"

namespace ks::core {

template <typename T>
static std::size_t bytesOf(const std::vector<T>& v)
{
    return v.capacity() * sizeof(T);
}

void SliceTable::reserve(std::size_t slices)
{
    forEachColumn(*this, [&](auto& column) { column.reserve(slices); });
}

void SliceTable::permute(const std::vector<std::uint32_t>& order)
{
    // One column at a time through a gathered copy: the gather's reads are
    // independent, so the CPU overlaps their cache misses; an in-place cycle walk
    // (no copy at all) chains every miss on the previous one and took 20 % of a
    // 1 GB rank's load. The copy costs one column (8 B per slice at most) at a time.
    forEachColumn(*this, [&](auto& column) { permuteColumn(column, order); });
    if (durOverflow.empty())
        return;
    std::unordered_map<std::uint32_t, TimeNs> moved;
    for (std::uint32_t k = 0; k < order.size(); ++k)
        if (durLow[k] == kDurOverflow)
            moved.emplace(k, durOverflow.at(order[k]));
    durOverflow = std::move(moved);
}

bool SliceTable::columnsAligned() const
{
    bool aligned = true;
    forEachColumn(*this, [&](const auto& column) { aligned = aligned && column.size() == size(); });
    return aligned;
}

std::size_t SliceTable::bytesUsed() const
{
    std::size_t bytes = durOverflow.size() * 32;
    forEachColumn(*this, [&](const auto& column) { bytes += bytesOf(column); });
    return bytes;
}

std::size_t ActivityArgs::bytesUsed() const
{
    return ofSlice.bytesUsed() + correlation.bytesUsed() + stream.bytesUsed() + extra.bytesUsed()
        + launch.bytesUsed();
}

void ExtraArgs::permute(const std::vector<std::uint32_t>& order)
{
    permuteColumn(bytes, order);
    permuteColumn(memoryBandwidthGBps, order);
    permuteColumn(device, order);
    permuteColumn(waitOnStream, order);
    permuteColumn(waitOnEventRecordCorrelation, order);
    permuteColumn(collectiveName, order);
    permuteColumn(inMsgNelems, order);
    permuteColumn(outMsgNelems, order);
    permuteColumn(dtype, order);
    permuteColumn(groupSize, order);
    permuteColumn(processRank, order);
    permuteColumn(processGroupName, order);
    permuteColumn(sequenceNumber, order);
    permuteColumn(processGroupRanks, order);
    permuteColumn(processGroupDescription, order);
}

void KernelLaunchArgs::permute(const std::vector<std::uint32_t>& order)
{
    permuteColumn(blocksPerSm, order);
    permuteColumn(warpsPerSm, order);
    permuteColumn(occupancyPct, order);
    permuteColumn(grid, order);
    permuteColumn(block, order);
}

std::size_t ExtraArgs::bytesUsed() const
{
    return bytesOf(bytes) + bytesOf(memoryBandwidthGBps) + bytesOf(device) + bytesOf(waitOnStream)
        + bytesOf(waitOnEventRecordCorrelation) + bytesOf(collectiveName) + bytesOf(inMsgNelems)
        + bytesOf(outMsgNelems) + bytesOf(dtype) + bytesOf(groupSize) + bytesOf(processRank)
        + bytesOf(processGroupName) + bytesOf(sequenceNumber) + bytesOf(processGroupRanks)
        + bytesOf(processGroupDescription);
}

std::size_t KernelLaunchArgs::bytesUsed() const
{
    return bytesOf(blocksPerSm) + bytesOf(warpsPerSm) + bytesOf(occupancyPct) + bytesOf(grid)
        + bytesOf(block);
}

} // namespace ks::core
