#pragma once

// The TensorBoard plugin's operator tree of a thread (spec TB.5), which its
// memory statistics and the attribution of [memory] records follow: the
// operators, ProfilerStep#N, nn.Module frames, DataLoader and Optimizer spans
// of each CPU thread, nested by containment, a node that overlaps its would-be
// parent dropped, and an operator whose only child has its name merged with it.
// Threads are keyed by tid alone, as the plugin keys them.

#include "core/model/rank_trace.h"

#include <cstdint>
#include <map>
#include <string_view>
#include <vector>

namespace ks::core {

enum class TreeNodeKind : std::uint8_t
{
    Root, // the plugin's CallTreeRoot
    Operator, // counted in the statistics (the plugin's is_operator_node)
    ExcludedOperator, // a cpu_op the plugin does not count: DataParallel.forward, Optimizer.*
    ProfilerStep,
    Module, // python_function "nn.Module: ..." (the plugin's ModuleNode)
    Other, // DataLoader, Optimizer.step, cat python, collective user annotations
};

struct TreeNode
{
    TimeNs start = 0;
    TimeNs end = 0;
    std::string_view name;
    TreeNodeKind kind = TreeNodeKind::Other;
    bool operatorType = false; // cat cpu_op / operator (the plugin merges only these)
    std::uint32_t parent = 0; // node index; the root is its own parent
    std::vector<std::uint32_t> children;
};

// Node 0 is the root; the root spans its first child's start to its last child's end.
struct ThreadTree
{
    std::vector<TreeNode> nodes;
    std::uint32_t droppedOverlaps = 0; // nodes the plugin logs "should not intersect" for and drops

    bool empty() const { return nodes.size() <= 1; }
};

// One tree per numeric tid with at least one node.
std::map<std::int64_t, ThreadTree> operatorTrees(const RankTrace& trace);

} // namespace ks::core
