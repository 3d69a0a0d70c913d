#pragma once

// What a job summary keeps of each rank's memory analysis (issue 37,
// core/analysis/memory/): per device the peak allocated memory and when, the
// peak reserved and the op live at the peak; per ProfilerStep what was
// allocated at its start and end (the growth per step); and the operators
// that allocated most (the Memory Statistics' top rows by self allocation
// size). Three tables added within version 2: a summary without them was
// written before summaries stored memory and holds no memory data, which is
// not an error (readers say so once).

#include "core/analysis/memory/memory_report.h"
#include "core/analysis/tables/table_rows.h"
#include "core/common/result.h"
#include "core/summary/sqlite_db.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// The operators kept per rank and device in memory_top_ops.
inline constexpr std::size_t kSummaryMemoryTopOps = 10;

// What a reader says, once, of a summary without the memory tables.
inline constexpr std::string_view kNoSummaryMemoryNote =
    "written before job summaries stored memory: no memory data (summarise the traces again for it)";

struct SummaryMemoryPeak
{
    std::int64_t rank = 0;
    std::string device; // "CPU", "GPU0"
    std::int64_t peakAllocated = 0;
    std::int64_t peakReserved = -1; // -1 without reserved totals
    std::optional<std::int64_t> peakNs; // absolute, as the trace records it
    std::int64_t timeBaseNs = 0; // the memory analysis' time base of the rank (RankMemory::timeBase)
    std::string peakOp;
    std::optional<std::int64_t> capacity;

    // µs since the rank's time base, as `memory` prints peak_time_us.
    std::optional<double> peakTimeUs() const;
};

struct SummaryMemoryStep
{
    std::int64_t rank = 0;
    std::string device;
    std::int64_t step = 0; // N of ProfilerStep#N
    std::int64_t startNs = 0;
    std::int64_t endNs = 0;
    std::int64_t allocatedAtStart = 0;
    std::int64_t allocatedAtEnd = 0;
    std::int64_t peakAllocated = 0;

    std::int64_t growth() const { return allocatedAtEnd - allocatedAtStart; }
};

struct SummaryMemoryOp
{
    std::int64_t rank = 0;
    std::string device;
    std::string op;
    std::int64_t calls = 0;
    std::int64_t selfAllocationSize = 0;
    std::int64_t selfAllocationCount = 0;
    std::int64_t allocationSize = 0;
    std::int64_t selfSizeIncrease = 0;
};

struct SummaryMemory
{
    bool stored = false; // false: the summary predates the memory tables
    std::vector<SummaryMemoryPeak> peaks; // by rank, then device
    std::vector<SummaryMemoryStep> steps; // by rank, device, step
    std::vector<SummaryMemoryOp> topOps; // by rank, device, then self allocation size, largest first

    // A rank's peak memory as job mode shows it: its largest GPU peak, or the CPU's
    // when it has no GPU records; nullopt when the rank has no [memory] events.
    std::optional<std::int64_t> rankPeak(std::int64_t rank) const;
};

// The rows of memory_peaks, memory_steps and memory_top_ops for one rank.
void addSummaryMemoryRows(
    const RankMemory& memory, std::map<std::string, std::vector<std::vector<Cell>>, std::less<>>& rows);

// The memory tables of an open summary (stored = false when it has none).
Result<SummaryMemory> readSummaryMemory(SqliteDb& db);

} // namespace ks::core
