#pragma once

// Allocations paired with their frees: the plugin's "Memory Events" table
// (spec TB.7) and what the lifetimes say about memory from before the trace and
// memory still live at its end.
//
// By default an allocation is closed by the next free of the same device and
// address (the plugin keys by address alone, across devices), and an allocation
// at an address that is still open leaves the earlier one as never freed (the
// plugin overwrites it and it vanishes from the table). With `tbCompat` the
// plugin's own pairing, rows and order.

#include "core/analysis/memory/memory_attribution.h"
#include "core/analysis/memory/operator_memory_stats.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

enum class AllocationKind : std::uint8_t
{
    Paired, // allocated and freed in the trace
    NeverFreed, // still live at the trace's end (a leak candidate)
    FreedOnly, // freed in the trace, allocated before it began
};

struct AllocationRow
{
    std::string device;
    std::string op; // the allocating operator as the plugin names it, "<unknown>" when none
    std::int64_t size = 0; // bytes
    std::optional<TimeNs> allocated; // absolute ns
    std::optional<TimeNs> released;
    AllocationKind kind = AllocationKind::Paired;
    std::optional<std::uint32_t> allocRecord; // index into MemoryRecords::records
    std::optional<std::uint32_t> freeRecord;
    std::string freeOp; // the operator the free happened in ("" when none)
};

struct AllocationPairing
{
    std::vector<AllocationRow> rows; // the plugin's order: paired (by free), never freed, freed only
    std::size_t recordsWithoutAddr = 0;
    std::size_t sizeMismatches = 0; // frees whose size differs from their allocation's (default mode)
};

AllocationPairing pairAllocations(const MemoryRecords& records, const MemoryAttribution& attribution,
    bool tbCompat, const std::optional<MemoryRange>& range);

} // namespace ks::core
