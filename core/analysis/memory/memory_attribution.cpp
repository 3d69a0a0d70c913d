#include "core/analysis/memory/memory_attribution.h"

#include <utility>

namespace ks::core {

namespace {

    bool counted(const TreeNode& node)
    {
        return node.kind == TreeNodeKind::Operator;
    }

    // The plugin's find_memory_nodes for one thread: records in time order
    // against the tree, resuming where the previous record was found.
    void walkThread(const ThreadTree& tree, const std::vector<std::uint32_t>& recordIndices,
        const MemoryRecords& records, bool tbCompat, std::int64_t tid, MemoryAttribution& out)
    {
        auto& ofNode = out.recordsOfNode[tid];
        ofNode.resize(tree.nodes.size());
        auto& entered = out.entered[tid];
        entered.assign(tree.nodes.size(), 0);
        std::vector<std::pair<std::uint32_t, std::size_t>> stack; // (parent, child index)
        std::uint32_t current = 0;
        bool exhausted = tree.empty();
        std::size_t childIndex = 0;
        entered[0] = 1;
        std::size_t i = 0;
        while (i < recordIndices.size()) {
            const std::uint32_t r = recordIndices[i];
            const TimeNs ts = records.records[r].ts;
            if (exhausted) {
                ++i;
                continue;
            }
            const TreeNode& node = tree.nodes[current];
            if (ts < node.start) {
                ++i; // before the thread's first node: no node will hold it
                continue;
            }
            if (ts >= node.end) {
                if (stack.empty()) {
                    exhausted = true;
                } else {
                    current = stack.back().first;
                    childIndex = stack.back().second + 1;
                    stack.pop_back();
                }
                continue;
            }
            while (childIndex < tree.nodes[current].children.size()) {
                const std::uint32_t child = tree.nodes[current].children[childIndex];
                if (ts < tree.nodes[child].start)
                    break;
                if (ts >= tree.nodes[child].end) {
                    ++childIndex;
                    continue;
                }
                entered[child] = 1;
                stack.emplace_back(current, childIndex);
                current = child;
                childIndex = 0;
            }
            std::uint32_t holder = kNoNode;
            if (counted(tree.nodes[current]))
                holder = current;
            else if (!tbCompat)
                for (std::size_t k = stack.size(); k-- > 0 && holder == kNoNode;)
                    if (counted(tree.nodes[stack[k].first]))
                        holder = stack[k].first;
            if (holder != kNoNode) {
                ofNode[holder].push_back(r);
                RecordOperator& ro = out.ofRecord[r];
                ro.tid = tid;
                ro.node = holder;
                ro.nodeName = tree.nodes[holder].name;
                if (records.records[r].isAllocation()) {
                    ro.opName = tree.nodes[holder].name;
                    const std::uint32_t parent = tree.nodes[holder].parent;
                    if (holder != 0)
                        ro.parentName = tree.nodes[parent].name;
                }
                ++out.attributed;
            }
            ++i;
        }
    }

} // namespace

MemoryAttribution attributeRecords(
    const MemoryRecords& records, const std::map<std::int64_t, ThreadTree>& trees, bool tbCompat)
{
    MemoryAttribution out;
    out.ofRecord.resize(records.records.size());
    std::map<std::int64_t, std::vector<std::uint32_t>> byTid;
    for (std::uint32_t r = 0; r < records.records.size(); ++r) {
        const ThreadKey& key = records.records[r].thread;
        if (!key.tidIsName) // the plugin looks a string tid up among int keys: no tree
            byTid[key.tid].push_back(r);
    }
    for (const auto& [tid, indices] : byTid) {
        const auto it = trees.find(tid);
        if (it != trees.end())
            walkThread(it->second, indices, records, tbCompat, tid, out);
    }
    return out;
}

} // namespace ks::core
