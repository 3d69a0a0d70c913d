#include "core/analysis/memory_snapshot/memory_snapshot.h"

#include <algorithm>
#include <set>

namespace ks::core {

const char* blockStateName(BlockState state)
{
    switch (state) {
    case BlockState::ActiveAllocated:
        return "active_allocated";
    case BlockState::ActivePendingFree:
        return "active_pending_free";
    case BlockState::Inactive:
        return "inactive";
    }
    return "?";
}

const char* traceActionName(TraceAction action)
{
    switch (action) {
    case TraceAction::Alloc:
        return "alloc";
    case TraceAction::FreeRequested:
        return "free_requested";
    case TraceAction::FreeCompleted:
        return "free_completed";
    case TraceAction::SegmentAlloc:
        return "segment_alloc";
    case TraceAction::SegmentFree:
        return "segment_free";
    case TraceAction::SegmentMap:
        return "segment_map";
    case TraceAction::SegmentUnmap:
        return "segment_unmap";
    case TraceAction::Snapshot:
        return "snapshot";
    case TraceAction::Oom:
        return "oom";
    case TraceAction::Free:
        return "free";
    case TraceAction::Unknown:
        return "unknown";
    }
    return "?";
}

std::vector<std::int64_t> MemorySnapshot::devices() const
{
    std::set<std::int64_t> offered;
    for (std::size_t d = 0; d < deviceTraces.size(); ++d)
        if (!deviceTraces[d].empty())
            offered.insert(static_cast<std::int64_t>(d));
    for (const SnapshotSegment& s : segments)
        offered.insert(s.device);
    return { offered.begin(), offered.end() };
}

std::int64_t MemorySnapshot::defaultDevice() const
{
    std::int64_t best = -1;
    std::size_t longest = 0;
    for (const std::int64_t d : devices()) {
        const std::size_t n = trace(d).size();
        if (best < 0 || n > longest) {
            best = d;
            longest = n;
        }
    }
    return best < 0 ? 0 : best;
}

bool MemorySnapshot::hasTime() const
{
    return std::any_of(deviceTraces.begin(), deviceTraces.end(), [](const std::vector<TraceEntry>& t) {
        return std::any_of(t.begin(), t.end(), [](const TraceEntry& e) { return e.timeUs != kNoTime; });
    });
}

} // namespace ks::core
