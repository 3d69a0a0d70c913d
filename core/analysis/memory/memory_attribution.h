#pragma once

// Which operator each [memory] record happened in (spec TB.6): by time, on the
// record's thread, the innermost node of the thread's operator tree containing
// it ([start, end)), found by the plugin's walk over the records in time order.
// The plugin counts a record only when that innermost node is an operator; by
// default Kinetoscope also gives a record inside a module or step frame that is
// itself inside an operator to that operator.

#include "core/analysis/memory/memory_records.h"
#include "core/analysis/memory/operator_tree.h"

#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

namespace ks::core {

inline constexpr std::uint32_t kNoNode = 0xFFFFFFFFu;

struct RecordOperator
{
    std::int64_t tid = -1; // the tree the node is in
    std::uint32_t node = kNoNode; // the operator node that counts the record, or none
    std::string_view opName; // allocations only, as the plugin sets it ("" = <unknown>)
    std::string_view parentName; // the node above the operator (a module, a step, the root)
    std::string_view nodeName; // the operator's name, frees included
};

struct MemoryAttribution
{
    std::vector<RecordOperator> ofRecord; // parallel to MemoryRecords::records
    // Per tree, per node: the records (indices into records) it counts.
    std::map<std::int64_t, std::vector<std::vector<std::uint32_t>>> recordsOfNode;
    // Per tree, per node: whether the walk entered it (the statistics descend only into these).
    std::map<std::int64_t, std::vector<char>> entered;
    std::size_t attributed = 0;
};

MemoryAttribution attributeRecords(
    const MemoryRecords& records, const std::map<std::int64_t, ThreadTree>& trees, bool tbCompat);

} // namespace ks::core
