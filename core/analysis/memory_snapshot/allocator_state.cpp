#include "core/analysis/memory_snapshot/allocator_state.h"

#include <algorithm>
#include <unordered_map>

namespace ks::core {

namespace {

    // The snapshot's segments and active blocks on one device, undone event
    // by event from the last one backwards, with running totals. Follows
    // memory_viz's simulate_memory, including what it does when the trace and
    // the snapshot disagree (a segment_alloc undone with no segment at its
    // address removes the last segment), so the headers match it.
    class Undo
    {
    public:
        Undo(const MemorySnapshot& snapshot, std::int64_t device)
        {
            for (const SnapshotSegment& s : snapshot.segments) {
                if (s.device != device)
                    continue;
                m_segments.push_back({ s.address, s.totalSize, s.stream, s.stack });
                m_totals.reserved += s.totalSize;
                for (const SnapshotBlock& b : snapshot.segmentBlocks(s))
                    if (b.state != BlockState::Inactive)
                        setBlock({ b.address, b.size, b.requestedSize,
                            b.state == BlockState::ActivePendingFree, b.stack });
            }
            std::sort(m_segments.begin(), m_segments.end(),
                [](const StateSegment& a, const StateSegment& b) { return a.addr < b.addr; });
        }

        const StateTotals& totals() const { return m_totals; }

        void undo(const TraceEntry& e, TraceAction action)
        {
            switch (action) {
            case TraceAction::Free:
                setBlock({ e.addr, e.size, e.size, false, e.stack });
                break;
            case TraceAction::FreeCompleted:
                setBlock({ e.addr, e.size, e.size, true, e.stack });
                break;
            case TraceAction::FreeRequested:
                if (const auto it = m_blocks.find(e.addr); it != m_blocks.end())
                    it->second.pendingFree = false;
                break;
            case TraceAction::Alloc:
                eraseBlock(e.addr);
                break;
            case TraceAction::SegmentFree:
                insertSegment({ e.addr, e.size, e.stream, e.stack }, false);
                break;
            case TraceAction::SegmentUnmap:
                insertSegment({ e.addr, e.size, e.stream, e.stack }, true);
                break;
            case TraceAction::SegmentAlloc:
                removeWhole(e.addr);
                break;
            case TraceAction::SegmentMap:
                removeRange(e.addr, e.size, e.stream, e.stack);
                break;
            default:
                break;
            }
        }

        AllocatorState state() const;

    private:
        void setBlock(const StateBlock& b)
        {
            eraseBlock(b.addr);
            m_blocks.emplace(b.addr, b);
            m_totals.allocated += b.requestedSize;
        }

        void eraseBlock(std::uint64_t addr)
        {
            if (const auto it = m_blocks.find(addr); it != m_blocks.end()) {
                m_totals.allocated -= it->second.requestedSize;
                m_blocks.erase(it);
            }
        }

        void insertSegment(StateSegment seg, bool merge);
        void removeWhole(std::uint64_t addr);
        void removeRange(std::uint64_t addr, std::uint64_t size, std::int64_t stream, SnapshotStackId stack);

        std::vector<StateSegment> m_segments; // by address, unless a trace that disagrees with the snapshot
        bool m_sorted = true; // ... made two overlap (removeRange)
        std::unordered_map<std::uint64_t, StateBlock> m_blocks;
        StateTotals m_totals;
    };

    void Undo::insertSegment(StateSegment seg, bool merge)
    {
        auto at = std::upper_bound(m_segments.begin(), m_segments.end(), seg.addr,
            [](std::uint64_t a, const StateSegment& s) { return a < s.addr; });
        m_totals.reserved += seg.size;
        at = m_segments.insert(at, seg);
        if (!merge)
            return;
        // An unmapped range of an expandable segment rejoins its neighbours.
        if (auto next = at + 1;
            next != m_segments.end() && at->addr + at->size == next->addr && at->stream == next->stream) {
            at->size += next->size;
            at = m_segments.erase(next) - 1;
        }
        if (at != m_segments.begin()) {
            auto prev = at - 1;
            if (prev->addr + prev->size == at->addr && prev->stream == at->stream) {
                prev->size += at->size;
                m_segments.erase(at);
            }
        }
    }

    void Undo::removeWhole(std::uint64_t addr)
    {
        // memory_viz's findIndex: the first segment at addr. While the list is in
        // address order that is where a binary search lands (a linear scan here
        // was a tenth of opening a 100 MB snapshot).
        auto it = m_segments.end();
        if (m_sorted) {
            it = std::lower_bound(m_segments.begin(), m_segments.end(), addr,
                [](const StateSegment& s, std::uint64_t a) { return s.addr < a; });
            if (it != m_segments.end() && it->addr != addr)
                it = m_segments.end();
        } else {
            it = std::find_if(
                m_segments.begin(), m_segments.end(), [&](const StateSegment& s) { return s.addr == addr; });
        }
        if (it == m_segments.end()) {
            if (m_segments.empty())
                return;
            it = m_segments.end() - 1; // memory_viz: splice(findIndex() = -1, 1) drops the last one
        }
        m_totals.reserved -= it->size;
        m_segments.erase(it);
    }

    void Undo::removeRange(std::uint64_t addr, std::uint64_t size, std::int64_t stream, SnapshotStackId stack)
    {
        const std::uint64_t end = addr + size;
        const auto it = std::find_if(m_segments.begin(), m_segments.end(),
            [&](const StateSegment& s) { return s.addr <= addr && end <= s.addr + s.size; });
        if (it == m_segments.end())
            return; // memory_viz fails to draw here; the state stays as it was
        m_totals.reserved -= size;
        const std::uint64_t existingEnd = it->addr + it->size;
        if (it->addr == addr) {
            it->addr += size;
            it->size -= size;
            if (const auto next = it + 1; next != m_segments.end() && next->addr < it->addr)
                m_sorted = false;
            if (it->size == 0)
                m_segments.erase(it);
        } else if (existingEnd == end) {
            it->size -= size;
        } else {
            it->size = addr - it->addr;
            const auto tail =
                m_segments.insert(it + 1, StateSegment { end, existingEnd - end, stream, stack });
            if (const auto next = tail + 1; next != m_segments.end() && next->addr < tail->addr)
                m_sorted = false;
        }
    }

    AllocatorState Undo::state() const
    {
        AllocatorState s;
        s.segments = m_segments;
        s.reserved = m_totals.reserved;
        s.allocated = m_totals.allocated;
        s.blocks.reserve(m_blocks.size());
        for (const auto& [addr, b] : m_blocks) {
            s.blocks.push_back(b);
            if (b.size > b.requestedSize)
                s.roundingLoss += b.size - b.requestedSize;
            if (b.pendingFree)
                s.pendingFreeBytes += b.requestedSize;
        }
        std::sort(s.blocks.begin(), s.blocks.end(),
            [](const StateBlock& a, const StateBlock& b) { return a.addr < b.addr; });
        return s;
    }

} // namespace

AllocatorState allocatorStateAt(const MemorySnapshot& snapshot, std::int64_t device, std::int64_t mvIndex)
{
    const std::span<const TraceEntry> trace = snapshot.trace(device);
    const std::vector<MemoryVizEvent> events = memoryVizEvents(trace);
    Undo undo(snapshot, device);
    for (auto i = static_cast<std::int64_t>(events.size()) - 1; i > mvIndex; --i) {
        const MemoryVizEvent& ev = events[static_cast<std::size_t>(i)];
        undo.undo(trace[ev.raw], ev.action);
    }
    return undo.state();
}

StateHistory stateHistory(
    const MemorySnapshot& snapshot, std::int64_t device, const std::vector<MemoryVizEvent>& events)
{
    const std::span<const TraceEntry> trace = snapshot.trace(device);
    StateHistory history;
    history.atEvent.resize(events.size());
    Undo undo(snapshot, device);
    for (auto i = static_cast<std::int64_t>(events.size()) - 1; i >= 0; --i) {
        const MemoryVizEvent& ev = events[static_cast<std::size_t>(i)];
        history.atEvent[static_cast<std::size_t>(i)] = undo.totals();
        undo.undo(trace[ev.raw], ev.action);
    }
    history.beforeFirst = undo.totals();
    return history;
}

} // namespace ks::core
