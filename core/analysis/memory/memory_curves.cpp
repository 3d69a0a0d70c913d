#include "core/analysis/memory/memory_curves.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace ks::core {

std::vector<DeviceCurve> memoryCurves(const MemoryRecords& records, bool tbCompat)
{
    std::map<MemoryDevice, DeviceCurve> byDevice;
    std::map<MemoryDevice, bool> hasTotals;
    for (const MemoryRecord& r : records.records)
        hasTotals[r.device] = hasTotals[r.device] || r.totalAllocated >= 0;
    std::map<MemoryDevice, std::int64_t> runningSum;
    for (std::uint32_t i = 0; i < records.records.size(); ++i) {
        const MemoryRecord& r = records.records[i];
        const auto name = memoryDeviceName(r.device, tbCompat);
        if (!name)
            continue;
        DeviceCurve& curve = byDevice[r.device];
        curve.device = r.device;
        curve.name = *name;
        if (tbCompat && (!r.hasAddr || !r.hasTotals()))
            continue;
        MemoryCurvePoint p;
        p.ts = r.ts;
        p.record = i;
        if (hasTotals[r.device]) {
            if (r.totalAllocated < 0)
                continue;
            p.allocated = r.totalAllocated;
            p.reserved = r.totalReserved;
        } else {
            curve.summedFromBytes = true;
            p.allocated = runningSum[r.device] += r.bytes;
        }
        curve.points.push_back(p);
    }
    std::vector<DeviceCurve> out;
    for (auto& [device, curve] : byDevice) {
        std::int64_t bestOverhead = -1;
        double weighted = 0;
        for (std::size_t k = 0; k < curve.points.size(); ++k) {
            const MemoryCurvePoint& p = curve.points[k];
            if (!curve.peak || p.allocated > curve.points[*curve.peak].allocated)
                curve.peak = k;
            curve.peakReserved = std::max(curve.peakReserved, p.reserved);
            // The CPU allocator reserves nothing (PyTorch writes 0): no cache to measure.
            if (p.reserved >= 0 && curve.device.type != kDeviceTypeCpu) {
                const std::int64_t overhead = p.reserved - p.allocated;
                if (overhead > bestOverhead) {
                    bestOverhead = overhead;
                    curve.peakOverhead = k;
                }
                if (k + 1 < curve.points.size())
                    weighted +=
                        static_cast<double>(overhead) * static_cast<double>(curve.points[k + 1].ts - p.ts);
            }
        }
        const TimeNs span = curve.points.empty() ? 0 : curve.points.back().ts - curve.points.front().ts;
        curve.meanOverhead = span > 0 ? weighted / static_cast<double>(span)
                                      : std::max(0.0, static_cast<double>(bestOverhead));
        out.push_back(std::move(curve));
    }
    return out;
}

std::int64_t allocatedAt(const DeviceCurve& curve, const MemoryRecords& records, TimeNs t)
{
    const auto it = std::upper_bound(curve.points.begin(), curve.points.end(), t,
        [](TimeNs value, const MemoryCurvePoint& p) { return value < p.ts; });
    if (it != curve.points.begin())
        return std::prev(it)->allocated;
    if (curve.points.empty())
        return 0;
    const MemoryCurvePoint& first = curve.points.front();
    return curve.summedFromBytes ? 0 : first.allocated - records.records[first.record].bytes;
}

std::vector<std::size_t> downsampleCurve(const DeviceCurve& curve, std::size_t maxPoints)
{
    const std::size_t n = curve.points.size();
    std::vector<std::size_t> kept;
    if (maxPoints >= n || maxPoints < 3) {
        for (std::size_t i = 0; i < n && (maxPoints >= n || i < maxPoints); ++i)
            kept.push_back(i);
        return kept;
    }
    auto x = [&](std::size_t i) { return static_cast<double>(curve.points[i].ts); };
    auto y = [&](std::size_t i) { return static_cast<double>(curve.points[i].allocated); };
    const double every = static_cast<double>(n - 2) / static_cast<double>(maxPoints - 2);
    std::size_t a = 0;
    kept.push_back(0);
    for (std::size_t bucket = 0; bucket < maxPoints - 2; ++bucket) {
        const auto start = static_cast<std::size_t>(std::floor(static_cast<double>(bucket) * every)) + 1;
        const auto end = std::min(
            n - 1, static_cast<std::size_t>(std::floor(static_cast<double>(bucket + 1) * every)) + 1);
        const auto nextEnd =
            std::min(n, static_cast<std::size_t>(std::floor(static_cast<double>(bucket + 2) * every)) + 1);
        double avgX = 0, avgY = 0;
        const std::size_t nextStart = end;
        const std::size_t count = nextEnd > nextStart ? nextEnd - nextStart : 1;
        for (std::size_t i = nextStart; i < nextStart + count && i < n; ++i) {
            avgX += x(i);
            avgY += y(i);
        }
        avgX /= static_cast<double>(count);
        avgY /= static_cast<double>(count);
        double bestArea = -1;
        std::size_t best = start;
        for (std::size_t i = start; i < end; ++i) {
            const double area = std::abs((x(a) - avgX) * (y(i) - y(a)) - (x(a) - x(i)) * (avgY - y(a)));
            if (area > bestArea) {
                bestArea = area;
                best = i;
            }
        }
        kept.push_back(best);
        a = best;
    }
    kept.push_back(n - 1);
    return kept;
}

} // namespace ks::core
