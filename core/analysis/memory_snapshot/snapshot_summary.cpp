#include "core/analysis/memory_snapshot/snapshot_summary.h"

#include <algorithm>
#include <unordered_map>

namespace ks::core {

namespace {

    std::string frameOf(const MemorySnapshot& snapshot, SnapshotStackId stack, FrameRule rule)
    {
        return rule == FrameRule::User ? userFrame(snapshot, stack).text : memoryVizTopFrame(snapshot, stack);
    }

    // Grouping caches the text per stack: thousands of allocations share a few stacks.
    class FrameGrouper
    {
    public:
        FrameGrouper(const MemorySnapshot& snapshot, FrameRule rule)
            : m_snapshot(snapshot)
            , m_rule(rule)
        {
        }

        void add(SnapshotStackId stack, std::uint64_t bytes, std::uint64_t blockBytes)
        {
            auto [text, added] = m_text.try_emplace(stack.value);
            if (added)
                text->second = frameOf(m_snapshot, stack, m_rule);
            FrameGroup& g = m_groups[text->second];
            g.bytes += bytes;
            g.blockBytes += blockBytes;
            ++g.count;
        }

        std::vector<FrameGroup> take()
        {
            std::vector<FrameGroup> out;
            out.reserve(m_groups.size());
            for (auto& [frame, g] : m_groups) {
                g.frame = frame;
                out.push_back(std::move(g));
            }
            std::sort(out.begin(), out.end(), [](const FrameGroup& a, const FrameGroup& b) {
                return a.bytes != b.bytes ? a.bytes > b.bytes : a.frame < b.frame;
            });
            return out;
        }

    private:
        const MemorySnapshot& m_snapshot;
        FrameRule m_rule;
        std::unordered_map<std::uint32_t, std::string> m_text;
        std::unordered_map<std::string, FrameGroup> m_groups;
    };

} // namespace

TraceStats traceStats(const MemorySnapshot& snapshot, std::int64_t device)
{
    TraceStats st;
    const std::span<const TraceEntry> trace = snapshot.trace(device);
    st.events = trace.size();
    for (std::size_t i = 0; i < trace.size(); ++i) {
        const TraceEntry& e = trace[i];
        ++st.actions[traceActionName(e.action)];
        ++st.streams[e.stream];
        if (e.timeUs != kNoTime) {
            if (st.hasTime && e.timeUs < st.lastTimeUs)
                st.timeMonotonic = false;
            if (!st.hasTime)
                st.firstTimeUs = e.timeUs;
            st.hasTime = true;
            st.lastTimeUs = e.timeUs;
        }
        if (e.action == TraceAction::Oom)
            st.ooms.push_back(
                { static_cast<std::int64_t>(i), e.size, e.deviceFree, e.stream, e.timeUs, e.stack });
        if (e.action == TraceAction::Snapshot)
            st.snapshots.push_back({ static_cast<std::int64_t>(i), e.size, e.timeUs });
    }
    const std::vector<MemoryVizEvent> events = memoryVizEvents(trace);
    st.memoryVizEvents = events.size();
    for (const MemoryVizEvent& e : events)
        ++st.memoryVizActions[traceActionName(e.action)];
    return st;
}

std::vector<FrameGroup> endByFrame(const MemorySnapshot& snapshot, std::int64_t device, FrameRule rule)
{
    FrameGrouper grouper(snapshot, rule);
    for (const SnapshotSegment& s : snapshot.segments) {
        if (s.device != device)
            continue;
        for (const SnapshotBlock& b : snapshot.segmentBlocks(s))
            if (b.state == BlockState::ActiveAllocated)
                grouper.add(b.stack, b.requestedSize, b.size);
    }
    return grouper.take();
}

std::vector<FrameGroup> peakByFrame(
    const MemorySnapshot& snapshot, const ActiveMemoryTimeline& timeline, FrameRule rule)
{
    FrameGrouper grouper(snapshot, rule);
    for (const std::uint32_t i : timeline.liveAtPeak)
        grouper.add(timeline.allocations[i].stack, timeline.allocations[i].size, 0);
    return grouper.take();
}

SnapshotSummary summarizeSnapshot(const MemorySnapshot& snapshot)
{
    SnapshotSummary summary;
    summary.defaultDevice = snapshot.defaultDevice();
    for (const std::int64_t device : snapshot.devices()) {
        DeviceSnapshotSummary d;
        d.device = device;
        d.segments = segmentStats(snapshot, device);
        d.trace = traceStats(snapshot, device);
        d.timeline = activeMemoryTimeline(snapshot, device, TimelineKind::Blocks);
        d.segmentTimeline = activeMemoryTimeline(snapshot, device, TimelineKind::Segments);
        d.stateBeforeFirst = d.timeline.stateBeforeFirst;
        // Over the events the tab lists; with none it shows the snapshot itself.
        d.stateMax = d.timeline.rows.empty() ? StateTotals { d.segments.requestedActive, d.segments.reserved }
                                             : StateTotals {};
        for (const TimelineRow& r : d.timeline.rows) {
            d.stateMax.allocated = std::max(d.stateMax.allocated, r.stateAllocated);
            d.stateMax.reserved = std::max(d.stateMax.reserved, r.stateReserved);
        }
        summary.devices.push_back(std::move(d));
    }
    return summary;
}

const DeviceSnapshotSummary* SnapshotSummary::find(std::int64_t device) const
{
    for (const DeviceSnapshotSummary& d : devices)
        if (d.device == device)
            return &d;
    return nullptr;
}

} // namespace ks::core
