#include "core/analysis/memory_snapshot/snapshot_compare.h"

#include <algorithm>
#include <map>
#include <set>

namespace ks::core {

namespace {

    std::vector<FrameDelta> joinByFrame(
        const std::vector<FrameGroup>& before, const std::vector<FrameGroup>& after)
    {
        std::map<std::string, FrameDelta> joined;
        for (const FrameGroup& g : before) {
            FrameDelta& d = joined[g.frame];
            d.before = g.bytes;
            d.countBefore = g.count;
        }
        for (const FrameGroup& g : after) {
            FrameDelta& d = joined[g.frame];
            d.after = g.bytes;
            d.countAfter = g.count;
        }
        std::vector<FrameDelta> out;
        for (auto& [frame, d] : joined) {
            d.frame = frame;
            out.push_back(std::move(d));
        }
        std::stable_sort(out.begin(), out.end(), [](const FrameDelta& a, const FrameDelta& b) {
            const auto ma = a.delta() < 0 ? -a.delta() : a.delta();
            const auto mb = b.delta() < 0 ? -b.delta() : b.delta();
            return ma > mb;
        });
        return out;
    }

} // namespace

SnapshotDeviceTotals deviceTotals(const DeviceSnapshotSummary& d)
{
    SnapshotDeviceTotals t;
    t.reserved = d.segments.reserved;
    t.allocated = d.segments.allocated;
    t.active = d.segments.active;
    t.requested = d.segments.requestedActive;
    t.segments = d.segments.segments;
    t.blocks = d.segments.blocks;
    t.peakAllocated = d.timeline.peakAllocated;
    t.peakReserved = d.segmentTimeline.peakAllocated;
    t.oomEvents = d.trace.ooms.size();
    return t;
}

std::vector<DeviceComparison> compareSnapshots(const MemorySnapshot& beforeSnapshot,
    const SnapshotSummary& before, const MemorySnapshot& afterSnapshot, const SnapshotSummary& after)
{
    std::set<std::int64_t> devices;
    for (const DeviceSnapshotSummary& d : before.devices)
        devices.insert(d.device);
    for (const DeviceSnapshotSummary& d : after.devices)
        devices.insert(d.device);
    std::vector<DeviceComparison> out;
    for (const std::int64_t device : devices) {
        DeviceComparison c;
        c.device = device;
        const DeviceSnapshotSummary* b = before.find(device);
        const DeviceSnapshotSummary* a = after.find(device);
        c.inBefore = b != nullptr;
        c.inAfter = a != nullptr;
        std::vector<FrameGroup> peakB, peakA, endB, endA;
        if (b) {
            c.before = deviceTotals(*b);
            peakB = peakByFrame(beforeSnapshot, b->timeline, FrameRule::User);
            endB = endByFrame(beforeSnapshot, device, FrameRule::User);
        }
        if (a) {
            c.after = deviceTotals(*a);
            peakA = peakByFrame(afterSnapshot, a->timeline, FrameRule::User);
            endA = endByFrame(afterSnapshot, device, FrameRule::User);
        }
        c.peakByFrame = joinByFrame(peakB, peakA);
        c.endByFrame = joinByFrame(endB, endA);
        out.push_back(std::move(c));
    }
    return out;
}

} // namespace ks::core
