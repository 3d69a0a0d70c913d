#pragma once

// One rank's [memory] instants as the memory analysis reads them: in time
// order (ties in file order, as the plugin's stable sort and HTA's file order
// leave them), with the thread, device and what each record lacks, from the
// store's MemoryEventTable (the loader keeps every arg the analysis reads).
// The rare [OutOfMemory] instants are re-read from the file.

#include "core/analysis/memory/memory_device.h"
#include "core/common/result.h"
#include "core/model/rank_trace.h"

#include <cstdint>
#include <vector>

namespace ks::core {

struct MemoryRecord
{
    TimeNs ts = 0;
    std::int64_t bytes = 0; // + allocation, <= 0 free (the plugin's rule: 0 is a free)
    std::int64_t totalAllocated = -1; // -1 when absent
    std::int64_t totalReserved = -1;
    std::int64_t addr = 0;
    MemoryDevice device;
    ThreadKey thread; // the (pid, tid) that allocated or freed
    std::uint32_t row = 0; // row of RankTrace::memory
    bool hasAddr = false;
    bool hasCategory = false; // PyTorch 1.8/1.9 wrote no "cat"
    bool cpuInstantCategory = false; // cat == "cpu_instant_event" (the only ones HTA keeps)
    std::int64_t evIdx = -1; // arg "Ev Idx" (HTA's ev_idx)

    bool isAllocation() const { return bytes > 0; }

    bool hasTotals() const { return totalAllocated >= 0 && totalReserved >= 0; }
};

struct MemoryRecords
{
    std::vector<MemoryRecord> records; // by (ts, file position)
    std::vector<MemoryDevice> devices; // distinct, ascending
    bool anyAddr = false;
    bool anyTotals = false;
    bool anyCategory = false;
};

// The allocator's failed requests ("[OutOfMemory]" instants).
struct OutOfMemoryRecord
{
    TimeNs ts = 0;
    std::int64_t bytes = 0; // the request that failed
    std::int64_t totalAllocated = -1;
    std::int64_t totalReserved = -1;
    MemoryDevice device;
    ThreadKey thread;
};

// memoryRecords never fails; outOfMemoryRecords fails when the file cannot be
// read again (changed, or not loaded from a file).
Result<MemoryRecords> memoryRecords(const RankTrace& trace);
Result<std::vector<OutOfMemoryRecord>> outOfMemoryRecords(const RankTrace& trace);

// The plugin's time base (spec TB.3): the earliest start of the complete events
// it keeps (by category) and of the [memory] records. Times in the tables are
// relative to it.
TimeNs memoryTimeBase(const RankTrace& trace);

} // namespace ks::core
