#pragma once

// The plugin's "Memory Statistics" table (spec TB.8): per device and operator
// name, the calls and the self and total size increase, allocation count and
// allocation size, over the operator instances of the threads' trees.

#include "core/analysis/memory/memory_attribution.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

struct OperatorMemoryRow
{
    std::string device;
    std::string op;
    std::int64_t calls = 0;
    std::int64_t sizeIncrease = 0;
    std::int64_t selfSizeIncrease = 0;
    std::int64_t allocationCount = 0;
    std::int64_t selfAllocationCount = 0;
    std::int64_t allocationSize = 0;
    std::int64_t selfAllocationSize = 0;
};

// A time range the statistics are restricted to (the plugin's range selection,
// both ends inclusive): nodes ending before or starting after it are skipped,
// and records outside it.
struct MemoryRange
{
    TimeNs start = 0;
    TimeNs end = 0;

    bool operator==(const MemoryRange&) const = default;
};

// Rows by device name, then operator name; only rows with a non-zero value.
std::vector<OperatorMemoryRow> operatorMemoryStats(const MemoryRecords& records,
    const std::map<std::int64_t, ThreadTree>& trees, const MemoryAttribution& attribution, bool tbCompat,
    const std::optional<MemoryRange>& range);

} // namespace ks::core
