#include "core/analysis/memory_snapshot/active_memory_timeline.h"

#include "core/analysis/memory_snapshot/allocator_state.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace ks::core {

namespace {

    struct Phase1
    {
        std::vector<TimelineAllocation> elements;
        std::vector<std::uint32_t> actions; // element per action
        std::vector<std::int64_t> actionMv; // memory_viz event index per action (-1 = synthetic)
        std::vector<std::uint32_t> initially;
    };

    TimelineAllocation elementOf(const TraceEntry& e, std::uint32_t raw, AllocationOrigin origin)
    {
        TimelineAllocation a;
        a.addr = e.addr;
        a.size = e.size;
        a.origin = origin;
        a.eventIdx = raw;
        a.timeUs = e.timeUs;
        a.stream = e.stream;
        a.stack = e.stack;
        return a;
    }

    // memory_viz's first pass: allocs make elements, a free ends the element
    // of the last unfreed alloc at its address (by address only), a free
    // without one is an element live from the start; then the snapshot's
    // live blocks (segments) no alloc accounts for.
    Phase1 collect(const MemorySnapshot& snapshot, std::int64_t device, TimelineKind kind,
        const std::vector<MemoryVizEvent>& events)
    {
        const bool segments = kind == TimelineKind::Segments;
        const TraceAction alloc = segments ? TraceAction::SegmentAlloc : TraceAction::Alloc;
        const std::span<const TraceEntry> trace = snapshot.trace(device);
        Phase1 p;
        // Each event makes at most one element and one action, each live block one
        // element: reserved at that bound so the vectors never grow by copying (the
        // copy is this analysis' peak on a large snapshot; pages never written are
        // never resident).
        std::size_t blocks = 0;
        for (const SnapshotSegment& s : snapshot.segments)
            if (s.device == device)
                blocks += segments ? 1 : s.blockCount;
        p.elements.reserve(events.size() + blocks);
        p.actions.reserve(events.size() + 1);
        p.actionMv.reserve(events.size() + 1);
        std::unordered_map<std::uint64_t, std::uint32_t> open;
        for (std::size_t m = 0; m < events.size(); ++m) {
            const MemoryVizEvent& ev = events[m];
            const TraceEntry& e = trace[ev.raw];
            const bool isFree = segments
                ? ev.action == TraceAction::SegmentFree
                : (ev.action == TraceAction::Free || ev.action == TraceAction::FreeCompleted);
            if (ev.action == alloc) {
                p.elements.push_back(elementOf(e, ev.raw, AllocationOrigin::Alloc));
                open[e.addr] = static_cast<std::uint32_t>(p.elements.size() - 1);
            } else if (isFree) {
                if (const auto it = open.find(e.addr); it != open.end()) {
                    p.actions.push_back(it->second);
                    p.actionMv.push_back(static_cast<std::int64_t>(m));
                    open.erase(it);
                    continue;
                }
                p.elements.push_back(elementOf(e, ev.raw, AllocationOrigin::FreeWithoutAlloc));
                p.initially.push_back(static_cast<std::uint32_t>(p.elements.size() - 1));
            } else {
                continue;
            }
            p.actions.push_back(static_cast<std::uint32_t>(p.elements.size() - 1));
            p.actionMv.push_back(static_cast<std::int64_t>(m));
        }
        for (const SnapshotSegment& s : snapshot.segments) {
            if (s.device != device)
                continue;
            if (segments) {
                if (open.count(s.address))
                    continue;
                TimelineAllocation a;
                a.addr = s.address;
                a.size = s.totalSize;
                a.origin = AllocationOrigin::SnapshotBlock;
                a.stream = s.stream;
                a.stack = s.stack;
                p.elements.push_back(a);
                p.initially.push_back(static_cast<std::uint32_t>(p.elements.size() - 1));
                continue;
            }
            for (const SnapshotBlock& b : snapshot.segmentBlocks(s)) {
                if (b.state != BlockState::ActiveAllocated || open.count(b.address))
                    continue;
                TimelineAllocation a;
                a.addr = b.address;
                a.size = b.requestedSize;
                a.origin = AllocationOrigin::SnapshotBlock;
                a.stream = s.stream;
                a.stack = b.stack;
                p.elements.push_back(a);
                p.initially.push_back(static_cast<std::uint32_t>(p.elements.size() - 1));
            }
        }
        return p;
    }

    // memory_viz's stack of drawn bands: whether a freed band was the top one
    // decides whether the x axis gains 3 steps for the bands above to slide
    // down. Entries are removed lazily; the back is always a live one.
    class BandStack
    {
    public:
        explicit BandStack(std::size_t elements)
            : m_position(elements, -1)
        {
        }

        bool contains(std::uint32_t e) const { return m_position[e] >= 0; }

        void push(std::uint32_t e)
        {
            m_position[e] = static_cast<std::int64_t>(m_entries.size());
            m_entries.push_back(e);
            m_live.push_back(true);
        }

        // Removes e; true when a band was above it.
        bool remove(std::uint32_t e)
        {
            const auto p = static_cast<std::size_t>(m_position[e]);
            m_position[e] = -1;
            m_live[p] = false;
            const bool wasTop = p + 1 == m_entries.size();
            while (!m_entries.empty() && !m_live.back()) {
                m_entries.pop_back();
                m_live.pop_back();
            }
            return !wasTop;
        }

    private:
        std::vector<std::int64_t> m_position;
        std::vector<std::uint32_t> m_entries;
        std::vector<bool> m_live;
    };

    void markDrawn(std::vector<TimelineAllocation>& elements, std::uint32_t maxEntries)
    {
        std::vector<std::uint32_t> order(elements.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
            [&](std::uint32_t a, std::uint32_t b) { return elements[a].size > elements[b].size; });
        for (std::size_t i = 0; i < order.size(); ++i)
            elements[order[i]].drawn = i < maxEntries;
    }

    void findLiveAtPeak(ActiveMemoryTimeline& t)
    {
        const std::int64_t k = t.peakActionIndex; // -1 = the initial state
        for (std::uint32_t i = 0; i < t.allocations.size(); ++i) {
            const TimelineAllocation& a = t.allocations[i];
            // startAction -1: live from the start (a free without alloc, a snapshot block)
            const bool ended = a.endAction >= 0 && a.endAction <= k;
            if (a.startAction <= k && !ended)
                t.liveAtPeak.push_back(i);
        }
        // Largest first; equal sizes in memory_viz's element order.
        std::stable_sort(t.liveAtPeak.begin(), t.liveAtPeak.end(),
            [&](std::uint32_t a, std::uint32_t b) { return t.allocations[a].size > t.allocations[b].size; });
    }

} // namespace

const char* allocationOriginName(AllocationOrigin origin)
{
    switch (origin) {
    case AllocationOrigin::Alloc:
        return "alloc";
    case AllocationOrigin::FreeWithoutAlloc:
        return "free_without_alloc";
    case AllocationOrigin::SnapshotBlock:
        return "snapshot_block";
    }
    return "?";
}

ActiveMemoryTimeline activeMemoryTimeline(
    const MemorySnapshot& snapshot, std::int64_t device, TimelineKind kind, std::uint32_t maxEntries)
{
    const std::vector<MemoryVizEvent> events = memoryVizEvents(snapshot.trace(device));
    Phase1 p = collect(snapshot, device, kind, events);
    ActiveMemoryTimeline t;
    t.device = device;
    t.initiallyAllocated = p.initially.size();
    for (const std::uint32_t e : p.initially)
        (p.elements[e].origin == AllocationOrigin::FreeWithoutAlloc ? t.initialFromFrees
                                                                    : t.initialFromSnapshot)++;
    std::reverse(p.initially.begin(), p.initially.end());
    if (p.actions.empty() && !p.initially.empty()) {
        p.actions.push_back(p.initially.back());
        p.actionMv.push_back(-1);
        p.initially.pop_back();
        t.syntheticAction = true;
    }
    markDrawn(p.elements, maxEntries);
    t.drawnElements = std::min<std::uint64_t>(maxEntries, p.elements.size());

    BandStack bands(p.elements.size());
    std::vector<bool> summarized(p.elements.size(), false);
    std::uint64_t total = 0; // drawn bands plus the summarized band
    for (const std::uint32_t e : p.initially) {
        if (p.elements[e].drawn)
            bands.push(e);
        else
            summarized[e] = true;
        total += p.elements[e].size;
    }
    t.initialAllocated = total;
    t.peakAllocated = total;
    std::int64_t step = 0;
    // Only the Active Memory Timeline has memory_viz's event list.
    const bool withRows = kind == TimelineKind::Blocks;
    if (withRows)
        t.rows.reserve(events.size());
    std::size_t nextRow = 0;
    auto emitRowsUpTo = [&](std::int64_t mv) {
        if (!withRows)
            return;
        for (; static_cast<std::int64_t>(nextRow) <= mv && nextRow < events.size(); ++nextRow)
            t.rows.push_back({ events[nextRow], total, step, 0, 0 });
    };
    for (std::size_t i = 0; i < p.actions.size(); ++i) {
        const std::uint32_t e = p.actions[i];
        emitRowsUpTo(p.actionMv[i] - 1);
        TimelineAllocation& a = p.elements[e];
        const bool live = a.drawn ? bands.contains(e) : summarized[e];
        if (!live) {
            a.startAction = static_cast<std::int64_t>(i);
            a.startStep = step;
            total += a.size;
            step += 1;
            if (a.drawn)
                bands.push(e);
            else
                summarized[e] = true;
        } else {
            step += 1;
            a.endAction = static_cast<std::int64_t>(i);
            a.endStep = step;
            total -= a.size;
            if (a.drawn && bands.remove(e))
                step += 3;
            if (!a.drawn)
                summarized[e] = false;
        }
        if (a.drawn)
            t.memoryVizMaxSize = std::max(t.memoryVizMaxSize, total);
        if (total > t.peakAllocated) {
            t.peakAllocated = total;
            t.peakAtInitial = false;
            t.peakActionIndex = static_cast<std::int64_t>(i);
            t.peakMvIdx = p.actionMv[i];
            t.peakTimestep = step;
            if (p.actionMv[i] >= 0) {
                t.peakEventIdx = events[static_cast<std::size_t>(p.actionMv[i])].raw;
                t.peakTimeUs = snapshot.trace(device)[static_cast<std::size_t>(t.peakEventIdx)].timeUs;
            }
        }
        emitRowsUpTo(p.actionMv[i]);
    }
    emitRowsUpTo(static_cast<std::int64_t>(events.size()) - 1);
    t.finalAllocated = total;
    t.timesteps = step;
    t.actions = p.actions.size();
    t.allocations = std::move(p.elements);
    findLiveAtPeak(t);
    if (withRows) {
        const StateHistory history = stateHistory(snapshot, device, events);
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            t.rows[r].stateAllocated = history.atEvent[r].allocated;
            t.rows[r].stateReserved = history.atEvent[r].reserved;
        }
        t.stateBeforeFirst = history.beforeFirst;
    }
    return t;
}

} // namespace ks::core
