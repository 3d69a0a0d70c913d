#pragma once

// HTA pull request #223's memory categories (spec memory-semantics.md HTA.4-HTA.6):
// each [memory] event's stack of enclosing events on its thread, its category from
// that stack's names, allocations paired with their frees per device, and per device
// and category the cumulative bytes (get_memory_timeline_per_category). Times are
// HTA's: integer µs (ts rounded up, ends down, HTA.2) since a time base: by default
// the rank's own earliest kept event; HTA's own base is the earliest over all the
// ranks it loaded (HTA.2, `min_ts`), which memoryReport uses under htaTimeBase.

#include "core/analysis/memory/memory_records.h"
#include "core/analysis/memory/operator_memory_stats.h"
#include "core/model/rank_trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

inline constexpr std::string_view kAllocatedBeforeProfile = "allocated_before_profile";

// One row of get_memory_timeline_per_category's second value (the events frame).
struct ClassifiedMemoryEvent
{
    std::int64_t deviceId = 0;
    std::int64_t index = 0; // position in traceEvents; the synthetic row: the device's max + 1
    std::int64_t evIdx = -1;
    std::int64_t ts = 0;
    std::int64_t pid = 0;
    std::int64_t tid = 0;
    std::int64_t addr = 0;
    std::int64_t bytesDelta = 0;
    std::int64_t totalAllocated = -1;
    std::int64_t totalReserved = -1;
    std::optional<std::int64_t> allocOrDeallocId; // the matched free's / allocation's index
    std::string stackType;
    std::vector<std::int64_t> stackIds; // the enclosing events but the innermost, outermost first
    std::uint32_t stackNameId = 0; // into MemoryCategories::stackNames
    TimeNs at = 0; // the record's absolute time (the synthetic row: 1 µs before the first record)
};

// One row of the first value (per device, per category: the event and its ts-1 copy).
struct CategoryTimelineRow
{
    std::int64_t deviceId = 0;
    std::int64_t index = 0;
    std::int64_t ts = 0;
    std::string category;
    std::int64_t bytesDelta = 0;
    bool plottingOnly = false;
    std::int64_t categoryTotal = 0; // cumulative bytes of the category up to this row
    std::uint32_t stackNameId = 0;
    TimeNs at = 0; // its event's absolute time (a plotting copy's too: they are kept together)
};

struct MemoryCategories
{
    std::vector<ClassifiedMemoryEvent> events; // by device id, then HTA's row order, synthetic last
    std::vector<CategoryTimelineRow> timeline; // by device id, category name, then ts
    std::vector<std::string> stackNames; // by first use in `events`
    std::int64_t timeBaseUs = 0; // the absolute integer µs every `ts` is counted from
    bool jobTimeBase = false; // true: HTA's base, the earliest over all loaded ranks; false: the rank's own
};

// The earliest rounded µs of the rows HTA keeps of a rank (HTA.1-HTA.2: complete
// events with a category other than "Trace", and cpu_instant_event [memory]
// events); nullopt for a rank with neither. HTA's min_ts is the minimum over ranks.
std::optional<std::int64_t> htaRankStartUs(const RankTrace& trace);

// HTA's classify_torchtitan_calls on a stack name (HTA.6 step 2).
std::string classifyTorchtitanStack(std::string_view stackName);

// `records` are `trace`'s (memoryRecords). `timeBaseUs`: what `ts` counts from
// (nullopt: the rank's own htaRankStartUs; a job's base sets jobTimeBase).
MemoryCategories memoryCategories(const RankTrace& trace, const MemoryRecords& records,
    std::optional<std::int64_t> timeBaseUs = std::nullopt);

// Only the rows whose event lies in `range` (absolute ns, both ends inclusive), as
// `--iterations` restricts the other memory tables: the running totals stay those
// of the whole trace. Stack names no row uses any more are dropped and the rest
// renumbered in order of first use.
void restrictCategoriesToRange(MemoryCategories& categories, const MemoryRange& range);
// Only one device's rows (HTA's device_id: -1 the CPU, else the GPU's id), names as above.
void restrictCategoriesToDevice(MemoryCategories& categories, std::int64_t deviceId);

} // namespace ks::core
