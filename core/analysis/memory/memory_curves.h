#pragma once

// Per device: the allocated and reserved step curves, the peak, the cache
// overhead (reserved - allocated) and what each ProfilerStep left allocated.
//
// The curves are the records' own "Total Allocated" / "Total Reserved" (both
// tools plot them as written, spec TB.4 / HTA.3). The plugin drops records
// without "Addr" (every record of a PyTorch 1.8/1.9 trace); by default they are
// kept, and a device with no totals at all gets the running sum of "Bytes" from
// the trace's start (said in a diagnostic).

#include "core/analysis/memory/memory_records.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

struct MemoryCurvePoint
{
    TimeNs ts = 0;
    std::int64_t allocated = 0;
    std::int64_t reserved = -1; // -1 when the trace has no reserved total
    std::uint32_t record = 0; // index into MemoryRecords::records
};

struct DeviceCurve
{
    MemoryDevice device;
    std::string name;
    std::vector<MemoryCurvePoint> points; // one per record, in time order
    bool summedFromBytes = false; // no totals in the trace: allocated = running sum of Bytes
    std::optional<std::size_t> peak; // the first point at the largest allocated total
    std::int64_t peakReserved = -1;
    std::optional<std::size_t> peakOverhead; // the point where reserved - allocated is largest
    double meanOverhead = 0; // time-weighted over the curve's span
};

std::vector<DeviceCurve> memoryCurves(const MemoryRecords& records, bool tbCompat);

// What the device held at `t`: the last point at or before it, else what was
// allocated before the device's first record (its total minus its bytes).
std::int64_t allocatedAt(const DeviceCurve& curve, const MemoryRecords& records, TimeNs t);

// The largest-triangle-three-buckets down-sampling of (time, allocated) the
// plugin applies (to `maxPoints`, first and last kept); all points when fewer.
std::vector<std::size_t> downsampleCurve(const DeviceCurve& curve, std::size_t maxPoints);

} // namespace ks::core
