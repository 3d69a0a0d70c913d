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
    return bytesOf(correlation) + bytesOf(stream) + bytesOf(extraRef);
}

std::size_t ExtraArgs::bytesUsed() const
{
    return bytesOf(bytes) + bytesOf(memoryBandwidthGBps) + bytesOf(device) + bytesOf(waitOnStream)
        + bytesOf(waitOnEventRecordCorrelation) + bytesOf(collectiveName) + bytesOf(inMsgNelems)
        + bytesOf(outMsgNelems) + bytesOf(dtype) + bytesOf(groupSize) + bytesOf(processRank)
        + bytesOf(processGroupName) + bytesOf(sequenceNumber);
}

} // namespace ks::core
