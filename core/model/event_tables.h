#pragma once

#include "core/model/compact_columns.h"
#include "core/model/ids.h"
#include "core/model/track.h"

#include <array>
#include <cstdint>
#include <string_view>
#include <tuple>
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
    kSliceRoundedNesting = 32, // nested although it ends past its parent by <= the timestamp resolution
    kSliceHasArgs = 64 // its event has an args object: re-read from the file (core/io/json/args_reader.h)
};

// Reorders a column: element k becomes old element order[k].
template <typename T>
void permuteColumn(std::vector<T>& column, const std::vector<std::uint32_t>& order)
{
    std::vector<T> out;
    out.reserve(order.size());
    for (std::uint32_t i : order)
        out.push_back(column[i]);
    column = std::move(out);
}

// One slice's values, as RankBuilder pushes it: a field per SliceTable column
// (the duration whole; SliceTable splits it into durLow/durOverflow).
struct SliceRow
{
    TimeNs start = 0;
    TimeNs duration = 0;
    NameId name;
    std::uint16_t category = 0;
    std::uint8_t flags = 0;
    std::uint32_t eventIndex = 0;
};

// Complete slices (X, and B/E pairs), column by column. Kept compact because
// a rank can hold tens of millions: the duration is 32-bit with an exact
// overflow table, the category is an index into RankTrace::categories, and
// typed arguments live in ActivityArgs, referenced only by slices that have them.
//
// To add a column: add the member here, its field to SliceRow, and one entry
// to kSliceColumns below. reserve(), push(), permute(), bytesUsed() and
// columnsAligned() are written from that list, and the static_assert after it
// fails to compile if a vector member is missing from it. Then fill the field
// where RankBuilder makes SliceRows (docs/architecture.md, section 4.2).
struct SliceTable
{
    std::vector<TimeNs> start;
    std::vector<std::uint32_t> durLow; // kDurOverflow: the duration is in durOverflow
    std::vector<NameId> name;
    std::vector<std::uint16_t> category;
    std::vector<std::uint8_t> flags;
    std::vector<std::uint32_t> eventIndex; // position in traceEvents
    std::unordered_map<std::uint32_t, TimeNs> durOverflow; // slice -> exact duration when >= 2^32-1 ns

    static constexpr std::uint32_t kDurOverflow = 0xFFFFFFFFu;

    std::size_t size() const { return start.size(); }

    TimeNs duration(std::uint32_t i) const
    {
        if (durLow[i] != kDurOverflow)
            return durLow[i];
        return durOverflow.at(i);
    }

    TimeNs end(std::uint32_t i) const { return start[i] + duration(i); }

    void reserve(std::size_t slices);
    inline void push(const SliceRow& row);
    // Reorders every column (and durOverflow's keys): slice k becomes old slice order[k].
    void permute(const std::vector<std::uint32_t>& order);
    // Every column holds size() values (a column push() or permute() missed would not).
    bool columnsAligned() const;
    std::size_t bytesUsed() const;

    // Calls visit(column) for every per-slice vector, durLow included.
    template <typename Table, typename Visit>
    static void forEachColumn(Table& table, Visit&& visit);
};

// A SliceTable column and the SliceRow field it is pushed from.
template <typename T>
struct SliceColumn
{
    std::vector<T> SliceTable::*column;
    T SliceRow::*field;
    std::string_view label; // in RankTrace::bytesByColumn()
};

// The slice columns, each once (durLow is pushed from SliceRow::duration by push()).
inline constexpr std::tuple kSliceColumns {
    SliceColumn<TimeNs> { &SliceTable::start, &SliceRow::start, "slice start" },
    SliceColumn<NameId> { &SliceTable::name, &SliceRow::name, "slice name" },
    SliceColumn<std::uint16_t> { &SliceTable::category, &SliceRow::category, "slice category" },
    SliceColumn<std::uint8_t> { &SliceTable::flags, &SliceRow::flags, "slice flags" },
    SliceColumn<std::uint32_t> { &SliceTable::eventIndex, &SliceRow::eventIndex, "slice eventIndex" },
};

// A vector member added to SliceTable but not to kSliceColumns changes the size
// and stops the build here, instead of going unpermuted.
static_assert(sizeof(SliceTable)
        == (std::tuple_size_v<decltype(kSliceColumns)> + 1) * sizeof(std::vector<char>)
            + sizeof(std::unordered_map<std::uint32_t, TimeNs>),
    "every SliceTable vector must be listed in kSliceColumns");

template <typename Table, typename Visit>
void SliceTable::forEachColumn(Table& table, Visit&& visit)
{
    visit(table.durLow);
    std::apply([&](const auto&... c) { (visit(table.*(c.column)), ...); }, kSliceColumns);
}

void SliceTable::push(const SliceRow& row)
{
    const auto index = static_cast<std::uint32_t>(size());
    if (row.duration >= TimeNs { kDurOverflow }) {
        durLow.push_back(kDurOverflow);
        durOverflow.emplace(index, row.duration);
    } else {
        durLow.push_back(static_cast<std::uint32_t>(row.duration));
    }
    std::apply(
        [&](const auto&... c) { ((this->*(c.column)).push_back(row.*(c.field)), ...); }, kSliceColumns);
}

// Typed args the analyses need. One row per slice with a stream or a
// correlation (launches, GPU work, syncs), in slice order: a minority of
// events. Other args, such as External id, are re-read from the file on demand
// (core/io/json/args_reader.h). Use RankTrace::correlation/stream/extraRow.
struct ActivityArgs
{
    RowBitmap ofSlice; // which slices have a row (the row is the rank)
    CompactInt64Column correlation; // -1 when absent
    CompactInt64Column stream; // -1 when absent or not numeric (4294967295 is kept: HTA counts it)
    RowBitmap extra; // which rows have an ExtraArgs row (in row order)
    RowBitmap launch; // which rows have a KernelLaunchArgs row (in row order)

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
    // "Process Group Ranks": the list's text, a JSON string's content or a JSON array; empty when absent.
    std::vector<NameId> processGroupRanks;
    std::vector<NameId> processGroupDescription; // empty when absent

    std::size_t size() const { return bytes.size(); }

    // Reorders every column: row k becomes old row order[k].
    void permute(const std::vector<std::uint32_t>& order);

    std::size_t bytesUsed() const;
};

// CUDA kernels' launch figures, kept while parsing (kernel_occupancy reads them).
// A table of their own, not ExtraArgs columns: every kernel carries them, and an
// ExtraArgs row (15 other columns) per kernel cost ~90 bytes each for nothing.
struct KernelLaunchArgs
{
    std::vector<double> blocksPerSm; // NaN when absent
    std::vector<double> warpsPerSm; // NaN when absent
    std::vector<double> occupancyPct; // "est. achieved occupancy %"; NaN when absent
    std::vector<std::array<std::int32_t, 3>> grid; // { 0, 0, 0 } when absent
    std::vector<std::array<std::int32_t, 3>> block; // { 0, 0, 0 } when absent

    std::size_t size() const { return blocksPerSm.size(); }

    // Reorders every column: row k becomes old row order[k].
    void permute(const std::vector<std::uint32_t>& order);

    std::size_t bytesUsed() const;
};

// Instant events (i / I), excluding [memory] events which are typed below.
struct InstantTable
{
    std::vector<TimeNs> ts;
    std::vector<NameId> name;
    std::vector<std::uint16_t> category;
    std::vector<std::uint32_t> track; // TrackId value, or kNoRow for process/global scope
    std::vector<std::uint32_t> eventIndex; // its args are re-read from the file by this

    std::size_t size() const { return ts.size(); }
};

// MemoryEventTable::flags
inline constexpr std::uint8_t kMemoryHasAddr = 1; // an integer "Addr" arg
inline constexpr std::uint8_t kMemoryHasCategory = 2; // a "cat" field (PyTorch 1.8/1.9 wrote none)
inline constexpr std::uint8_t kMemoryCpuInstantCategory = 4; // cat == "cpu_instant_event"

// Allocator events ("[memory]" instants), with every arg the memory analysis
// reads, kept while parsing: reading the file again for them cost more than
// the analysis itself (about 25 bytes an event).
struct MemoryEventTable
{
    std::vector<TimeNs> ts;
    CompactInt64Column bytes; // + alloc, - free
    std::vector<std::int64_t> totalAllocated; // -1 when absent
    std::vector<std::int64_t> totalReserved; // -1 when absent
    std::vector<std::int64_t> addr; // 0 when absent (flags say which)
    std::vector<std::int32_t> deviceId; // -1 when absent
    std::vector<std::int32_t> deviceType; // 0 = CPU, 1 = CUDA, ... ; -1 when absent
    std::vector<std::uint32_t> thread; // row of `threads`: the (pid, tid) that allocated or freed
    std::vector<ThreadKey> threads; // distinct, in order of first use
    CompactInt64Column evIdx; // arg "Ev Idx" (HTA's ev_idx); -1 when absent
    std::vector<std::uint8_t> flags; // kMemoryHasAddr | kMemoryHasCategory | kMemoryCpuInstantCategory
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
