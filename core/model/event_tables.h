#pragma once

#include "core/model/args_store.h"
#include "core/model/ids.h"

#include <cstdint>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ks::core {

using TimeNs = std::int64_t;
constexpr std::uint32_t kNoRow = 0xFFFFFFFFu;

// Slice flags.
enum SliceFlag : std::uint8_t
{
    kSliceFromBeginEnd = 1, // built from a B/E pair
    kSliceUnclosed = 2, // B without E: closed at the rank's last timestamp
    kSliceOverflowLane = 4, // overlaps a sibling without nesting
    kSliceNegativeDuration = 8, // dur was negative in the file; stored as 0
    kSliceMissingDuration = 16, // X without dur: stored as 0 (HTA drops such rows)
    kSliceRoundedNesting = 32 // nested although it ends past its parent by <= the timestamp resolution
};

// Complete slices (X, and B/E pairs), column by column. Kept compact because
// a rank can hold tens of millions: the duration is 32-bit with an exact
// overflow table, the category is an index into RankTrace::categories, and
// typed arguments live in ActivityArgs, referenced only by slices that have them.
struct SliceTable
{
    std::vector<TimeNs> start;
    std::vector<std::uint32_t> durLow;
    std::vector<NameId> name;
    std::vector<std::uint16_t> category;
    std::vector<std::uint8_t> flags;
    std::vector<std::uint32_t> eventIndex; // position in traceEvents
    std::vector<std::uint32_t> argsRef; // row in ArgsStore or kNoRow
    std::vector<std::uint32_t> activityRef; // row in ActivityArgs or kNoRow
    std::unordered_map<std::uint32_t, TimeNs> durOverflow; // slice -> exact duration when >= 2^32-1 ns

    std::size_t size() const { return start.size(); }

    TimeNs duration(std::uint32_t i) const
    {
        if (durLow[i] != 0xFFFFFFFFu)
            return durLow[i];
        return durOverflow.at(i);
    }

    TimeNs end(std::uint32_t i) const { return start[i] + duration(i); }

    std::size_t bytesUsed() const;
};

// Typed args the analyses need. One row per event with a stream or a
// correlation (launches, GPU work, syncs): a minority of events. Other args,
// such as External id, are read from ArgsStore on demand.
struct ActivityArgs
{
    std::vector<std::int64_t> correlation; // -1 when absent
    std::vector<std::int64_t> stream; // -1 when absent or not numeric (4294967295 is kept: HTA counts it)
    std::vector<std::uint32_t> extraRef; // row in ExtraArgs or kNoRow

    std::size_t size() const { return correlation.size(); }

    std::size_t bytesUsed() const;
};

// Rarer typed args: copies, syncs and collectives.
struct ExtraArgs
{
    std::vector<std::int64_t> bytes; // -1 when absent
    std::vector<double> memoryBandwidthGBps; // 0 when absent
    std::vector<std::int32_t> device; // -1 when absent
    std::vector<std::int32_t> waitOnStream; // -1 when absent
    std::vector<std::int64_t> waitOnEventRecordCorrelation; // -1 when absent
    std::vector<NameId> collectiveName; // empty when absent
    std::vector<std::int64_t> inMsgNelems; // 0 when absent
    std::vector<std::int64_t> outMsgNelems; // 0 when absent
    std::vector<NameId> dtype; // empty when absent
    std::vector<std::int64_t> groupSize; // 0 when absent
    std::vector<std::int64_t> processRank; // -1 when absent ("Rank" arg)
    std::vector<NameId> processGroupName; // empty when absent
    std::vector<std::int64_t> sequenceNumber; // -1 when absent ("Seq")

    std::size_t size() const { return bytes.size(); }

    std::size_t bytesUsed() const;
};

// Instant events (i / I), excluding [memory] events which are typed below.
struct InstantTable
{
    std::vector<TimeNs> ts;
    std::vector<NameId> name;
    std::vector<std::uint16_t> category;
    std::vector<std::uint32_t> track; // TrackId value, or kNoRow for process/global scope
    std::vector<std::uint32_t> eventIndex;
    std::vector<std::uint32_t> argsRef;

    std::size_t size() const { return ts.size(); }
};

// Allocator events ("[memory]" instants): the GPU memory counter track.
struct MemoryEventTable
{
    std::vector<TimeNs> ts;
    std::vector<std::int64_t> bytes; // + alloc, - free
    std::vector<std::int64_t> totalAllocated; // -1 when absent
    std::vector<std::int64_t> totalReserved; // -1 when absent
    std::vector<std::int32_t> deviceId; // -1 when absent
    std::vector<std::int32_t> deviceType; // 0 = CPU, 1 = CUDA, ... ; -1 when absent
    std::vector<std::uint64_t> addr;
    std::vector<std::uint32_t> eventIndex;

    std::size_t size() const { return ts.size(); }
};

// One counter series from C events: one per (pid, event name, arg key).
struct CounterSeries
{
    std::int64_t pid = 0;
    bool pidIsName = false;
    NameId name;
    NameId key;
    std::vector<TimeNs> ts;
    std::vector<double> value;
};

enum class LinkKind : std::uint8_t
{
    LaunchFlow, // ac2g flow (s -> f): CPU launch to GPU work
    LaunchCorrelation, // same correlation arg, no flow in the file
    ForwardBackward, // fwdbwd flow
    OtherFlow, // any other flow category
    RpcCall, // an RPC call (rpc_async#...) to an op it ran on the callee ("...#remote_op: OP")
};

std::string_view linkKindName(LinkKind kind);

// Links between slices. Sorted by `from`, with a second index sorted by `to`.
struct LinkTable
{
    std::vector<std::uint32_t> from;
    std::vector<std::uint32_t> to;
    std::vector<LinkKind> kind;
    std::vector<std::uint32_t> byTo; // link rows ordered by `to`

    std::size_t size() const { return from.size(); }
};

} // namespace ks::core
