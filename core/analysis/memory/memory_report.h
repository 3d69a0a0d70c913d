#pragma once

// The memory analysis of a load (issue 37): per rank and device, from the
// [memory] instants — the allocated / reserved curves and their peak with the
// stack live there, the device's capacity, the allocations paired with their
// frees, memory from before the trace and live at its end, what each
// ProfilerStep left allocated, the plugin's per-operator statistics, the cache
// overhead and the allocator's failed requests. Where the TensorBoard plugin
// is wrong (docs/guide/memory.md) the default does the right thing and
// `tbCompat` gives the plugin's numbers.

#include "core/analysis/memory/allocation_pairing.h"
#include "core/analysis/memory/memory_categories.h"
#include "core/analysis/memory/memory_curves.h"
#include "core/analysis/memory/operator_memory_stats.h"
#include "core/common/progress.h"
#include "core/model/trace_set.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

struct MemoryOptions
{
    bool tbCompat = false; // the plugin's numbers where it is wrong
    std::vector<std::int64_t> ranks; // empty = every rank
    std::vector<std::int64_t> iterations; // ProfilerStep numbers; empty = the whole trace
    std::optional<MemoryRange> range; // absolute ns, both ends inclusive (the plugin's range selection)
    bool htaCategories = true; // HTA #223's tables (RankMemory::categories); a job summary needs none
    // HTA #223's tables timed as HTA times them: from the earliest event of every loaded
    // rank (HTA's min_ts). Otherwise from the rank's own earliest (MemoryCategories::jobTimeBase).
    bool htaTimeBase = false;

    bool operator==(const MemoryOptions&) const = default;
};

struct DeviceMemorySummary
{
    std::string device; // "CPU", "GPU0"
    MemoryDevice id;
    std::int64_t peakAllocated = 0;
    std::int64_t peakReserved = -1; // -1 when the trace has no reserved total
    std::optional<TimeNs> peakTime; // absolute ns
    std::optional<std::int64_t> capacity; // deviceProperties' totalGlobalMem (GPUs)
    std::vector<std::string> peakStack; // the allocating thread's frames at the peak, outermost first
    std::string peakOp; // the innermost CPU op of peakStack ("" when none)
    std::int64_t allocatedBeforeTrace = 0; // held before the device's first record
    std::int64_t allocatedAtEnd = 0;
    std::int64_t allocations = 0;
    std::int64_t frees = 0;
    std::int64_t allocatedBytes = 0; // every allocation's bytes, summed (churn)
    std::int64_t freedBeforeTraceBytes = 0; // frees of memory allocated before the trace
    std::int64_t freedBeforeTraceCount = 0;
    std::int64_t liveAtEndBytes = 0; // allocated in the trace and never freed (leak candidates)
    std::int64_t liveAtEndCount = 0;
    std::int64_t maxCacheOverhead = -1; // reserved - allocated at its largest; -1 without reserved totals
    std::optional<TimeNs> maxCacheOverheadTime;
    double meanCacheOverhead = 0; // time-weighted
    bool summedFromBytes = false;
};

// What a ProfilerStep left on a device.
struct StepMemory
{
    std::string device;
    std::int64_t step = 0; // N of ProfilerStep#N
    TimeNs start = 0;
    TimeNs end = 0;
    std::int64_t allocatedAtStart = 0;
    std::int64_t allocatedAtEnd = 0;
    std::int64_t peakAllocated = 0; // the largest total inside the step (at its start when none)

    std::int64_t growth() const { return allocatedAtEnd - allocatedAtStart; }
};

struct OutOfMemoryRow
{
    std::string device;
    TimeNs ts = 0;
    std::int64_t requested = 0; // the request that failed
    std::int64_t totalAllocated = -1;
    std::int64_t totalReserved = -1;
    std::optional<std::int64_t> capacity;
    std::string op; // the innermost CPU op on the requesting thread ("" when none)
};

struct RankMemory
{
    std::int64_t rank = 0;
    std::string path;
    TimeNs timeBase = 0; // the plugin's profiler_start_ts: the tables' times are relative to it
    std::size_t records = 0;
    std::size_t attributed = 0; // records an operator counts
    std::vector<DeviceMemorySummary> devices;
    std::vector<DeviceCurve> curves; // parallel to devices
    std::vector<OperatorMemoryRow> stats;
    std::vector<AllocationRow> allocations;
    std::vector<StepMemory> steps;
    std::vector<OutOfMemoryRow> outOfMemory;
    std::vector<std::string> diagnostics; // what the trace lacks and what was done about it
    std::optional<std::string> error; // the file could not be read again
    MemoryRecords recordSet; // the records the tables index
    MemoryCategories categories; // HTA #223's per-category timeline (spec HTA.4-HTA.6)
};

struct MemoryReport
{
    std::vector<RankMemory> ranks;
    bool tbCompat = false;

    bool anyRecords() const;
};

MemoryReport memoryReport(
    const TraceSet& traces, const MemoryOptions& options, const CancelToken* cancel = nullptr);
// One rank's (the insights' memory rules ask per rank); HTA #223's tables from the rank's own start.
RankMemory rankMemory(const RankTrace& trace, const MemoryOptions& options);

} // namespace ks::core
