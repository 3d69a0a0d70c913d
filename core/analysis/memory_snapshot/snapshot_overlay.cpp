#include "core/analysis/memory_snapshot/snapshot_overlay.h"

#include <algorithm>
#include <set>

namespace ks::core {

namespace {

    std::int64_t firstTime(std::span<const TraceEntry> trace)
    {
        for (const TraceEntry& e : trace)
            if (e.timeUs != kNoTime)
                return e.timeUs;
        return kNoTime;
    }

    std::int64_t firstStart(const MemorySnapshot& s, const std::string& name)
    {
        std::int64_t t = kNoTime;
        for (const ExternalAnnotation& a : s.annotations)
            if (a.stage == "START" && a.name == name && a.timeUs != kNoTime && (t == kNoTime || a.timeUs < t))
                t = a.timeUs;
        return t;
    }

    // The first (by time) START of `before` whose name `after` has too.
    std::string commonAnnotation(const MemorySnapshot& before, const MemorySnapshot& after)
    {
        std::set<std::string> names;
        for (const ExternalAnnotation& a : after.annotations)
            if (a.stage == "START" && a.timeUs != kNoTime)
                names.insert(a.name);
        const ExternalAnnotation* first = nullptr;
        for (const ExternalAnnotation& a : before.annotations)
            if (a.stage == "START" && a.timeUs != kNoTime && names.count(a.name)
                && (!first || a.timeUs < first->timeUs))
                first = &a;
        return first ? first->name : std::string();
    }

    std::vector<OverlayPoint> curve(
        const MemorySnapshot& s, const DeviceSnapshotSummary& d, bool byTime, std::int64_t origin)
    {
        const ActiveMemoryTimeline& t = d.timeline;
        const std::span<const TraceEntry> trace = s.trace(d.device);
        std::vector<OverlayPoint> points;
        points.reserve(t.rows.size() + 1);
        std::int64_t last = byTime ? firstTime(trace) : 0;
        points.push_back(OverlayPoint { byTime ? last - origin : 0, t.initialAllocated });
        for (const TimelineRow& row : t.rows) {
            std::int64_t x = row.timestep;
            if (byTime) {
                const std::int64_t time =
                    row.event.raw < trace.size() ? trace[row.event.raw].timeUs : kNoTime;
                if (time != kNoTime)
                    last = std::max(last, time);
                x = last - origin;
            }
            if (!points.empty() && points.back().x == x && points.size() > 1)
                points.back().bytes = row.allocated; // the total after the last event at that x
            else
                points.push_back(OverlayPoint { x, row.allocated });
        }
        return points;
    }

} // namespace

std::vector<OverlayPoint> downsampleKeepingPeaks(
    const std::vector<OverlayPoint>& points, std::size_t maxPoints)
{
    maxPoints = std::max<std::size_t>(maxPoints, 4);
    if (points.size() <= maxPoints)
        return points;
    // First and last kept; the rest in (maxPoints - 2) / 2 buckets, each giving its min and max in x order.
    const std::size_t inner = points.size() - 2;
    const std::size_t buckets = (maxPoints - 2) / 2;
    std::vector<OverlayPoint> out { points.front() };
    for (std::size_t b = 0; b < buckets; ++b) {
        const std::size_t begin = 1 + b * inner / buckets;
        const std::size_t end = 1 + (b + 1) * inner / buckets;
        if (begin >= end)
            continue;
        std::size_t lo = begin;
        std::size_t hi = begin;
        for (std::size_t i = begin; i < end; ++i) {
            if (points[i].bytes < points[lo].bytes)
                lo = i;
            if (points[i].bytes > points[hi].bytes)
                hi = i;
        }
        out.push_back(points[std::min(lo, hi)]);
        if (lo != hi)
            out.push_back(points[std::max(lo, hi)]);
    }
    out.push_back(points.back());
    return out;
}

std::vector<SnapshotOverlay> overlaySnapshots(const MemorySnapshot& before,
    const SnapshotSummary& beforeSummary, const MemorySnapshot& after, const SnapshotSummary& afterSummary,
    std::size_t maxPoints, OverlayAxis axis)
{
    std::set<std::int64_t> devices;
    for (const DeviceSnapshotSummary& d : beforeSummary.devices)
        devices.insert(d.device);
    for (const DeviceSnapshotSummary& d : afterSummary.devices)
        devices.insert(d.device);
    const bool timed = before.hasTime() && after.hasTime() && axis != OverlayAxis::Steps;
    const std::string common = timed ? commonAnnotation(before, after) : std::string();
    const bool byTime = timed && (axis == OverlayAxis::Time || !common.empty());
    std::vector<SnapshotOverlay> out;
    for (const std::int64_t device : devices) {
        SnapshotOverlay o;
        o.device = device;
        o.byTime = byTime;
        o.alignedBy = byTime ? common : std::string();
        if (byTime) {
            o.beforeOriginUs = common.empty() ? firstTime(before.trace(device)) : firstStart(before, common);
            o.afterOriginUs = common.empty() ? firstTime(after.trace(device)) : firstStart(after, common);
        }
        if (const DeviceSnapshotSummary* d = beforeSummary.find(device))
            o.before = downsampleKeepingPeaks(curve(before, *d, byTime && o.beforeOriginUs != kNoTime,
                                                  o.beforeOriginUs == kNoTime ? 0 : o.beforeOriginUs),
                maxPoints);
        if (const DeviceSnapshotSummary* d = afterSummary.find(device))
            o.after = downsampleKeepingPeaks(curve(after, *d, byTime && o.afterOriginUs != kNoTime,
                                                 o.afterOriginUs == kNoTime ? 0 : o.afterOriginUs),
                maxPoints);
        out.push_back(std::move(o));
    }
    return out;
}

} // namespace ks::core
