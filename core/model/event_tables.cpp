#include "core/model/event_tables.h"

#include <cstring>

namespace ks::core {

template <typename T>
static std::size_t bytesOf(const std::vector<T>& v)
{
    return v.capacity() * sizeof(T);
}

std::size_t SliceTable::bytesUsed() const
{
    return bytesOf(start) + bytesOf(durLow) + bytesOf(name) + bytesOf(category) + bytesOf(flags)
        + bytesOf(eventIndex) + bytesOf(argsRef) + bytesOf(activityRef) + durOverflow.size() * 32;
}

std::size_t ActivityArgs::bytesUsed() const
{
    return bytesOf(correlation) + bytesOf(externalId) + bytesOf(stream) + bytesOf(extraRef);
}

std::size_t ExtraArgs::bytesUsed() const
{
    return bytesOf(bytes) + bytesOf(memoryBandwidthGBps) + bytesOf(device) + bytesOf(waitOnStream)
        + bytesOf(waitOnEventRecordCorrelation) + bytesOf(collectiveName) + bytesOf(inMsgNelems)
        + bytesOf(outMsgNelems) + bytesOf(dtype) + bytesOf(groupSize) + bytesOf(processRank)
        + bytesOf(processGroupName) + bytesOf(sequenceNumber);
}

std::uint32_t ArgsStore::add(std::string_view rawJsonObject)
{
    const auto row = static_cast<std::uint32_t>(m_offsets.size() - 1);
    m_text.insert(m_text.end(), rawJsonObject.begin(), rawJsonObject.end());
    m_offsets.push_back(m_text.size());
    return row;
}

std::string_view ArgsStore::raw(std::uint32_t row) const
{
    if (row + 1 >= m_offsets.size())
        return {};
    const std::uint64_t b = m_offsets[row];
    const std::uint64_t e = m_offsets[row + 1];
    return { m_text.data() + b, static_cast<std::size_t>(e - b) };
}

void ArgsStore::shrinkToFit()
{
    m_text.shrink_to_fit();
    m_offsets.shrink_to_fit();
}

} // namespace ks::core
