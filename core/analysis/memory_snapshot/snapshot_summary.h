#pragma once

#include "core/analysis/memory_snapshot/active_memory_timeline.h"
#include "core/analysis/memory_snapshot/memory_snapshot.h"
#include "core/analysis/memory_snapshot/segment_stats.h"
#include "core/analysis/memory_snapshot/snapshot_frames.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ks::core {

struct OomEvent
{
    std::int64_t eventIdx = 0; // raw trace index
    std::uint64_t size = 0; // bytes asked
    std::uint64_t deviceFree = 0;
    std::int64_t stream = 0;
    std::int64_t timeUs = kNoTime;
    SnapshotStackId stack;
};

struct SnapshotMarker
{
    std::int64_t eventIdx = 0;
    std::uint64_t size = 0;
    std::int64_t timeUs = kNoTime;
};

// The device's trace as counted: raw actions and memory_viz's merged list.
struct TraceStats
{
    std::uint64_t events = 0;
    std::uint64_t memoryVizEvents = 0;
    std::map<std::string, std::uint64_t> actions;
    std::map<std::string, std::uint64_t> memoryVizActions;
    bool hasTime = false;
    std::int64_t firstTimeUs = kNoTime;
    std::int64_t lastTimeUs = kNoTime;
    bool timeMonotonic = true;
    std::vector<OomEvent> ooms;
    std::vector<SnapshotMarker> snapshots;
    std::map<std::int64_t, std::uint64_t> streams; // raw stream -> events
};

TraceStats traceStats(const MemorySnapshot& snapshot, std::int64_t device);

enum class FrameRule : std::uint8_t
{
    User, // userFrame(): the program's own line
    MemoryViz, // memoryVizTopFrame(): the first line memory_viz prints
};

struct FrameGroup
{
    std::string frame;
    std::uint64_t bytes = 0; // requested
    std::uint64_t blockBytes = 0; // rounded (the snapshot's blocks only; 0 at the peak)
    std::uint64_t count = 0;
};

// Live bytes grouped by frame, largest first (then by frame): at the end (the
// snapshot's active_allocated blocks) or at the timeline's peak.
std::vector<FrameGroup> endByFrame(const MemorySnapshot& snapshot, std::int64_t device, FrameRule rule);
std::vector<FrameGroup> peakByFrame(
    const MemorySnapshot& snapshot, const ActiveMemoryTimeline& timeline, FrameRule rule);

// Everything `memory --snapshot` reports about one device.
struct DeviceSnapshotSummary
{
    std::int64_t device = 0;
    SegmentStats segments;
    TraceStats trace;
    ActiveMemoryTimeline timeline; // Active Memory Timeline (requested bytes)
    ActiveMemoryTimeline segmentTimeline; // Active Cached Segment Timeline (reserved bytes)
    StateTotals stateMax; // the state history's largest header values
    StateTotals stateBeforeFirst;
};

struct SnapshotSummary
{
    std::vector<DeviceSnapshotSummary> devices; // memory_viz's offered devices, ascending
    std::int64_t defaultDevice = 0;

    // The summary of `device` (a device number, not an index), or null when
    // the snapshot has none: the one lookup comparisons and overlays share.
    const DeviceSnapshotSummary* find(std::int64_t device) const;
};

SnapshotSummary summarizeSnapshot(const MemorySnapshot& snapshot);

} // namespace ks::core
