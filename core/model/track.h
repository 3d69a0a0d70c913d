#pragma once

#include "core/model/ids.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace ks::core {

enum class TrackKind : std::uint8_t
{
    GpuStream, // device work of one stream (pid = device, tid = stream)
    CpuThread, // host thread with nested op stacks
};

std::string_view trackKindName(TrackKind kind);

// pid and tid as written in the trace: integers, or strings interned in the
// rank's pool (then the value is a NameId).
struct ThreadKey
{
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    bool pidIsName = false;
    bool tidIsName = false;

    bool operator==(const ThreadKey&) const = default;
};

// One row group of the timeline. Its slices occupy [sliceBegin, sliceEnd) of the
// rank's SliceTable, stored level after level; inside a level they are sorted by
// start and never overlap, so both starts and ends are monotonic and a level can
// be binary-searched. Levels [0, nestingLevels) are the nesting depths; later
// levels are extra lanes for slices that overlap without nesting.
struct Track
{
    TrackKind kind = TrackKind::CpuThread;
    ThreadKey key;
    NameId name; // "stream 7", "thread 1234 (python)"
    NameId processName; // from process_name metadata, or empty
    std::int64_t processSortIndex = 0;
    std::int64_t threadSortIndex = 0;
    std::int64_t device = -1; // GPU index for GPU tracks
    std::int64_t stream = -1; // stream id for GPU tracks
    std::int64_t rpcNode = -1; // RPC node whose remote ops this thread holds (tid " node_id:N, thread_id:T ")
    std::uint32_t sliceBegin = 0;
    std::uint32_t sliceEnd = 0;
    std::uint32_t nestingLevels = 0;
    std::vector<std::uint32_t> levelBegin; // size = levels + 1; absolute slice indices

    std::uint32_t levelCount() const
    {
        return levelBegin.empty() ? 0 : static_cast<std::uint32_t>(levelBegin.size() - 1);
    }

    std::uint32_t sliceCount() const { return sliceEnd - sliceBegin; }
};

} // namespace ks::core
