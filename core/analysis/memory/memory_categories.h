#pragma once

// HTA pull request #223's memory categories (spec memory-semantics.md HTA.4-HTA.6):
// each [memory] event's stack of enclosing events on its thread, its category from
// that stack's names, allocations paired with their frees per device, and per device
// and category the cumulative bytes (get_memory_timeline_per_category). Times are
// HTA's: integer µs (ts rounded up, ends down, HTA.2) since the rank's earliest kept event.

#include "core/analysis/memory/memory_records.h"
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
};

struct MemoryCategories
{
    std::vector<ClassifiedMemoryEvent> events; // by device id, then HTA's row order, synthetic last
    std::vector<CategoryTimelineRow> timeline; // by device id, category name, then ts
    std::vector<std::string> stackNames; // by first use in `events`
};

// HTA's classify_torchtitan_calls on a stack name (HTA.6 step 2).
std::string classifyTorchtitanStack(std::string_view stackName);

// `records` are `trace`'s (memoryRecords).
MemoryCategories memoryCategories(const RankTrace& trace, const MemoryRecords& records);

} // namespace ks::core
