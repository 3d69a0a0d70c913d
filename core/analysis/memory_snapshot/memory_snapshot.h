#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace ks::core {

// A call stack of a snapshot: frames innermost first, as PyTorch stores them.
struct SnapshotStackId
{
    std::uint32_t value = 0; // 0 = the empty stack (no frames recorded)

    bool operator==(const SnapshotStackId&) const = default;
};

struct SnapshotFrame
{
    std::string filename;
    std::int64_t line = 0;
    std::string name;
};

enum class BlockState : std::uint8_t
{
    ActiveAllocated,
    ActivePendingFree, // freed by the program, waiting on another stream (record_stream)
    Inactive, // cached free memory
};

const char* blockStateName(BlockState state); // "active_allocated", ...

struct SnapshotBlock
{
    std::uint64_t address = 0; // segment address + the sizes of the blocks before it (as memory_viz)
    std::uint64_t size = 0; // rounded
    std::uint64_t requestedSize = 0; // asked for (stale on inactive blocks)
    std::uint64_t realSize = 0; // 2.0 files: history[0].real_size; else requestedSize (segsum's "allocated")
    BlockState state = BlockState::Inactive;
    SnapshotStackId stack;
};

struct SnapshotSegment
{
    std::int64_t device = 0;
    std::uint64_t address = 0;
    std::uint64_t totalSize = 0;
    std::uint64_t allocatedSize = 0; // as stored
    std::uint64_t activeSize = 0;
    std::uint64_t requestedSize = 0;
    std::int64_t stream = 0; // the cudaStream_t as an integer, 0 = default
    std::string segmentType; // "large" / "small"
    bool isExpandable = false;
    std::pair<std::int64_t, std::int64_t> poolId { 0, 0 };
    SnapshotStackId stack;
    std::uint32_t firstBlock = 0; // into MemorySnapshot::blocks
    std::uint32_t blockCount = 0;
};

enum class TraceAction : std::uint8_t
{
    Alloc,
    FreeRequested,
    FreeCompleted,
    SegmentAlloc,
    SegmentFree,
    SegmentMap,
    SegmentUnmap,
    Snapshot,
    Oom,
    Free, // memory_viz's merge of a free_requested and its free_completed (never stored)
    Unknown, // an action this reader does not know (counted, otherwise ignored)
};

const char* traceActionName(TraceAction action); // "alloc", ..., "free"

inline constexpr std::int64_t kNoTime = std::numeric_limits<std::int64_t>::min();

// The narrow fields last: 48 bytes, not 56 (a 100 MB snapshot holds 1.5 M of them).
struct TraceEntry
{
    std::uint64_t addr = 0; // 0 on oom
    std::uint64_t size = 0; // alloc/free: requested bytes; segment events: segment bytes; oom: asked
    std::int64_t stream = 0;
    std::int64_t timeUs = kNoTime; // µs since the epoch (2.2+); kNoTime before
    std::uint64_t deviceFree = 0; // oom only: bytes free on the device
    SnapshotStackId stack;
    TraceAction action = TraceAction::Unknown;
};

static_assert(sizeof(TraceEntry) == 48);

struct ExternalAnnotation
{
    std::string stage; // START / END
    std::string name;
    std::int64_t device = 0;
    std::int64_t timeUs = kNoTime;
};

// One torch.cuda.memory._dump_snapshot() pickle, every version's keys
// mapped onto one shape (see ../shared/reference/snapshots/README.md for the
// format by version). Frames and stacks are interned: a stack shared by many
// blocks and events is stored once.
struct MemorySnapshot
{
    std::string path;
    bool bareSegmentList = false; // torch.cuda.memory_snapshot() / 1.13 _snapshot(): no dict
    bool hasDeviceTraces = false;
    bool historyBlocks = false; // 2.0 blocks (history, no address)
    std::vector<SnapshotSegment> segments;
    std::vector<SnapshotBlock> blocks;
    std::vector<std::vector<TraceEntry>> deviceTraces; // indexed by device
    std::vector<ExternalAnnotation> annotations;
    std::vector<std::pair<std::string, std::string>> allocatorSettings; // key, value as text
    std::uint64_t unknownActions = 0;

    std::vector<SnapshotFrame> frames;
    std::vector<std::uint32_t> stackFrames; // frame indices, stack after stack
    std::vector<std::pair<std::uint32_t, std::uint32_t>> stacks { { 0, 0 } }; // begin, size; 0 = empty

    std::span<const std::uint32_t> stack(SnapshotStackId id) const
    {
        const auto& [begin, size] = stacks[id.value];
        return std::span<const std::uint32_t>(stackFrames).subspan(begin, size);
    }

    std::span<const SnapshotBlock> segmentBlocks(const SnapshotSegment& s) const
    {
        return std::span<const SnapshotBlock>(blocks).subspan(s.firstBlock, s.blockCount);
    }

    std::span<const TraceEntry> trace(std::int64_t device) const
    {
        if (device < 0 || static_cast<std::uint64_t>(device) >= deviceTraces.size())
            return {};
        return deviceTraces[static_cast<std::size_t>(device)];
    }

    // Devices memory_viz offers: a non-empty trace or a segment on it, ascending.
    std::vector<std::int64_t> devices() const;
    // memory_viz's default: the offered device with the longest trace (the first on ties).
    std::int64_t defaultDevice() const;
    bool hasTime() const; // any trace entry has time_us
};

} // namespace ks::core
