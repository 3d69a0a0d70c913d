#include "core/analysis/memory/operator_tree.h"

#include <algorithm>
#include <optional>
#include <string>

namespace ks::core {

namespace {

    bool startsWith(std::string_view s, std::string_view prefix)
    {
        return s.substr(0, prefix.size()) == prefix;
    }

    bool endsWith(std::string_view s, std::string_view suffix)
    {
        return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
    }

    bool isCollectiveAnnotation(std::string_view name)
    {
        // The plugin's GlooOpNameSet / NcclOpNameSet: c10d's collective names.
        static constexpr std::string_view kPrefixes[] = { "gloo:", "nccl:" };
        return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
            [&](std::string_view p) { return startsWith(name, p); });
    }

    // Which node a slice becomes, if any (the plugin's event_parser and node.py).
    std::optional<TreeNodeKind> nodeKind(std::string_view category, std::string_view name)
    {
        const bool op = category == "cpu_op" || category == "operator";
        const bool annotation = category == "user_annotation";
        if ((op || annotation) && startsWith(name, "ProfilerStep#"))
            return TreeNodeKind::ProfilerStep;
        if (category == "python_function")
            return startsWith(name, "nn.Module: ") ? std::optional(TreeNodeKind::Module) : std::nullopt;
        if (category == "python")
            return TreeNodeKind::Other;
        if (!op && !annotation)
            return std::nullopt;
        if ((startsWith(name, "enumerate(DataLoader)#") && endsWith(name, ".__next__"))
            || startsWith(name, "enumerate(DataPipe)#") || startsWith(name, "Optimizer.step"))
            return TreeNodeKind::Other;
        if (annotation)
            return isCollectiveAnnotation(name) ? std::optional(TreeNodeKind::Other) : std::nullopt;
        if (name == "DataParallel.forward" || name == "DistributedDataParallel.forward"
            || startsWith(name, "Optimizer."))
            return TreeNodeKind::ExcludedOperator;
        return TreeNodeKind::Operator;
    }

    struct Candidate
    {
        TreeNode node;
        std::uint32_t eventIndex = 0;
    };

    // An operator whose only child is an operator of the same name takes the
    // child's children (the plugin's remove_dup_nodes), repeatedly.
    void mergeSameNameChildren(ThreadTree& tree)
    {
        std::vector<std::uint32_t> stack { 0 };
        while (!stack.empty()) {
            const std::uint32_t n = stack.back();
            stack.pop_back();
            TreeNode& node = tree.nodes[n];
            while (node.children.size() == 1) {
                const TreeNode& child = tree.nodes[node.children[0]];
                if (!(node.operatorType && child.operatorType && node.name == child.name))
                    break;
                std::vector<std::uint32_t> grandChildren = child.children;
                node.children = std::move(grandChildren);
            }
            for (std::uint32_t c : node.children) {
                tree.nodes[c].parent = n;
                stack.push_back(c);
            }
        }
    }

    ThreadTree buildTree(std::vector<Candidate>& candidates)
    {
        std::stable_sort(candidates.begin(), candidates.end(), [](const Candidate& a, const Candidate& b) {
            if (a.node.start != b.node.start)
                return a.node.start < b.node.start;
            if (a.node.end != b.node.end)
                return a.node.end > b.node.end;
            return a.eventIndex < b.eventIndex;
        });
        ThreadTree tree;
        TreeNode root;
        root.kind = TreeNodeKind::Root;
        root.name = "CallTreeRoot";
        root.start = std::numeric_limits<TimeNs>::min();
        root.end = std::numeric_limits<TimeNs>::max();
        tree.nodes.push_back(root);
        std::vector<std::uint32_t> open { 0 };
        for (Candidate& c : candidates) {
            while (true) {
                const std::uint32_t tail = open.back();
                if (c.node.start < tree.nodes[tail].end) {
                    if (c.node.end <= tree.nodes[tail].end) {
                        const auto index = static_cast<std::uint32_t>(tree.nodes.size());
                        c.node.parent = tail;
                        tree.nodes.push_back(std::move(c.node));
                        tree.nodes[tail].children.push_back(index);
                        open.push_back(index);
                    } else {
                        ++tree.droppedOverlaps;
                    }
                    break;
                }
                open.pop_back();
            }
        }
        mergeSameNameChildren(tree);
        TreeNode& r = tree.nodes[0];
        if (!r.children.empty()) {
            r.start = tree.nodes[r.children.front()].start;
            r.end = tree.nodes[r.children.back()].end;
        }
        return tree;
    }

} // namespace

std::map<std::int64_t, ThreadTree> operatorTrees(const RankTrace& trace)
{
    std::map<std::int64_t, std::vector<Candidate>> byTid;
    for (const Track& track : trace.tracks) {
        if (track.kind != TrackKind::CpuThread || track.key.tidIsName)
            continue;
        for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s) {
            const std::string_view name = trace.sliceName(s);
            const auto kind = nodeKind(trace.sliceCategory(s), name);
            if (!kind)
                continue;
            Candidate c;
            c.node.start = trace.slices.start[s];
            c.node.end = trace.slices.end(s);
            c.node.name = name;
            c.node.kind = *kind;
            const std::string_view category = trace.sliceCategory(s);
            c.node.operatorType = category == "cpu_op" || category == "operator";
            c.eventIndex = trace.slices.eventIndex[s];
            byTid[track.key.tid].push_back(std::move(c));
        }
    }
    std::map<std::int64_t, ThreadTree> trees;
    for (auto& [tid, candidates] : byTid)
        trees.emplace(tid, buildTree(candidates));
    return trees;
}

} // namespace ks::core
