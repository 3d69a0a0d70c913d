#include "core/analysis/memory/operator_memory_stats.h"

#include <array>
#include <map>

namespace ks::core {

namespace {

    // Self increase, self allocation size, self allocation count, then the same three in total.
    using Metrics = std::array<std::int64_t, 6>;
    using DeviceMetrics = std::map<std::string, Metrics>;

    struct Traversal
    {
        const ThreadTree& tree;
        const std::vector<std::vector<std::uint32_t>>& recordsOfNode;
        const std::vector<char>& entered;
        const MemoryRecords& records;
        bool tbCompat;
        const std::optional<MemoryRange>& range;
        std::map<std::string, std::map<std::string, Metrics>>& byDeviceAndName;
        std::map<std::string, std::int64_t>& calls;

        // The node's totals per device (its own records and its subtree's).
        DeviceMetrics visit(std::uint32_t n)
        {
            const TreeNode& node = tree.nodes[n];
            DeviceMetrics totals;
            if (range && (node.end < range->start || node.start > range->end))
                return totals;
            const bool isOp = node.kind == TreeNodeKind::Operator;
            if (isOp)
                ++calls[std::string(node.name)];
            if (!entered[n])
                return totals; // the plugin stops where no record of the thread went
            if (isOp) {
                for (std::uint32_t r : recordsOfNode[n]) {
                    const MemoryRecord& rec = records.records[r];
                    if (range && (rec.ts < range->start || rec.ts > range->end))
                        continue;
                    const auto device = memoryDeviceName(rec.device, tbCompat);
                    if (!device)
                        continue;
                    Metrics& m = totals[*device];
                    m[0] += rec.bytes;
                    if (rec.bytes > 0) {
                        m[1] += rec.bytes;
                        m[2] += 1;
                    }
                }
                for (auto& [device, m] : totals)
                    for (int i = 0; i < 3; ++i)
                        m[i + 3] = m[i];
            }
            for (std::uint32_t child : node.children)
                for (const auto& [device, m] : visit(child)) {
                    Metrics& t = totals[device];
                    for (int i = 3; i < 6; ++i)
                        t[i] += m[i];
                }
            if (isOp)
                for (const auto& [device, m] : totals) {
                    Metrics& sum = byDeviceAndName[device][std::string(node.name)];
                    for (int i = 0; i < 6; ++i)
                        sum[i] += m[i];
                }
            return totals;
        }
    };

} // namespace

std::vector<OperatorMemoryRow> operatorMemoryStats(const MemoryRecords& records,
    const std::map<std::int64_t, ThreadTree>& trees, const MemoryAttribution& attribution, bool tbCompat,
    const std::optional<MemoryRange>& range)
{
    std::map<std::string, std::map<std::string, Metrics>> byDeviceAndName;
    std::map<std::string, std::int64_t> calls;
    static const std::vector<std::vector<std::uint32_t>> kNoRecords;
    for (const auto& [tid, tree] : trees) {
        const auto of = attribution.recordsOfNode.find(tid);
        const auto en = attribution.entered.find(tid);
        if (of == attribution.recordsOfNode.end()) {
            // No record on this thread: the plugin visits its top-level nodes only (none was entered).
            for (std::uint32_t child : tree.nodes[0].children)
                if (tree.nodes[child].kind == TreeNodeKind::Operator
                    && !(range
                        && (tree.nodes[child].end < range->start || tree.nodes[child].start > range->end)))
                    ++calls[std::string(tree.nodes[child].name)];
            continue;
        }
        Traversal t { tree, of->second, en->second, records, tbCompat, range, byDeviceAndName, calls };
        for (std::uint32_t child : tree.nodes[0].children)
            t.visit(child);
    }
    std::vector<OperatorMemoryRow> rows;
    for (const auto& [device, byName] : byDeviceAndName)
        for (const auto& [name, m] : byName) {
            if (m == Metrics {})
                continue;
            OperatorMemoryRow row;
            row.device = device;
            row.op = name;
            row.calls = calls[name];
            row.selfSizeIncrease = m[0];
            row.selfAllocationSize = m[1];
            row.selfAllocationCount = m[2];
            row.sizeIncrease = m[3];
            row.allocationSize = m[4];
            row.allocationCount = m[5];
            rows.push_back(std::move(row));
        }
    return rows;
}

} // namespace ks::core
