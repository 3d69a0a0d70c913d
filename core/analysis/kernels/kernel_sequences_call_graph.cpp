#include "core/analysis/kernels/kernel_sequences_call_graph.h"

#include "core/analysis/kernels/kernel_sequences_order.h"

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>
#include <unordered_set>

namespace ks::core::sequences {

namespace {

    constexpr std::int64_t kNullNode = -1;
    constexpr std::int64_t kMissingNode = -2;

    bool keyLess(const ThreadKey& a, const ThreadKey& b)
    {
        // pandas' groupby order: numbers before text (an approximation for mixed columns).
        if (a.pidIsName != b.pidIsName)
            return !a.pidIsName;
        if (a.pid != b.pid)
            return a.pid < b.pid;
        if (a.tidIsName != b.tidIsName)
            return !a.tidIsName;
        return a.tid < b.tid;
    }

    const ThreadKey& keyOf(const RankFrame& frame, const FrameRow& row)
    {
        return frame.trace->tracks[frame.trace->trackOf(row.slice).value].key;
    }

    class Builder
    {
    public:
        Builder(const RankFrame& frame, AnalysisMode mode)
            : m_frame(frame)
            , m_compat(mode == AnalysisMode::HtaCompat)
        {
        }

        Result<CallGraph> run();

    private:
        Error fail(std::string message) const
        {
            return Error { ErrorCode::NotApplicable, std::move(message), {}, {} };
        }

        bool isKernel(const FrameRow& row) const { return m_compat ? row.stream != -1 : row.device; }

        void groupThreads();
        NodeDevice groupDevice(const std::vector<std::uint32_t>& rows) const;
        void label(CallStack& stack) const;
        void addNode(std::int64_t index, CallNode node);
        void addEdge(std::int64_t parent, std::int64_t child, NodeDevice device, std::int64_t rootIndex);
        Result<bool> nest(const CallStack& stack);
        std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> kernelLinks() const;
        Result<bool> connectStacks();
        Result<bool> moveFirstLayer(CallStack& bwd, std::int64_t newParent);
        void updateParent(const std::vector<std::int64_t>& indices, std::int64_t newParent);
        std::int64_t rootOf(std::int64_t index) const;
        Result<bool> computeDepths();
        void computeKernels();
        std::int64_t kernelTotals(std::int64_t index, std::int64_t& durNs);

        const RankFrame& m_frame;
        bool m_compat;
        CallGraph m_graph;
        std::unordered_map<std::int64_t, std::vector<std::uint32_t>> m_rowsOfEvent;
    };

    void Builder::groupThreads()
    {
        std::map<ThreadKey, std::vector<std::uint32_t>, decltype(&keyLess)> groups(&keyLess);
        for (std::uint32_t r = 0; r < m_frame.rows.size(); ++r) {
            const FrameRow& row = m_frame.rows[r];
            m_rowsOfEvent[row.eventIndex].push_back(r);
            groups[keyOf(m_frame, row)].push_back(r);
        }
        std::int64_t nextRoot = -3;
        for (auto& [key, rows] : groups) {
            CallStack stack;
            stack.key = key;
            stack.rows = std::move(rows);
            stack.device = groupDevice(stack.rows);
            if (stack.device == NodeDevice::Gpu)
                continue; // HTA skips GPU streams
            // HTA roots every thread at -|tid|; threads with equal tids share a root.
            stack.rootIndex = m_compat ? -std::abs(key.tid) : nextRoot--;
            label(stack);
            m_graph.stacks.push_back(std::move(stack));
        }
    }

    NodeDevice Builder::groupDevice(const std::vector<std::uint32_t>& rows) const
    {
        if (!m_compat) {
            const FrameRow& first = m_frame.rows[rows.front()];
            return m_frame.trace->tracks[m_frame.trace->trackOf(first.slice).value].kind
                    == TrackKind::GpuStream
                ? NodeDevice::Gpu
                : NodeDevice::Cpu;
        }
        // hta/common/types.py::infer_device_type
        bool allPositive = true, allNone = true, pidZero = true, tidZero = true;
        for (std::uint32_t r : rows) {
            const FrameRow& row = m_frame.rows[r];
            const ThreadKey& key = keyOf(m_frame, row);
            allPositive = allPositive && row.stream > 0;
            allNone = allNone && row.stream == -1;
            pidZero = pidZero && !key.pidIsName && key.pid == 0;
            tidZero = tidZero && !key.tidIsName && key.tid == 0;
        }
        if (allPositive || pidZero || tidZero)
            return NodeDevice::Gpu;
        return allNone ? NodeDevice::Cpu : NodeDevice::Unknown;
    }

    void Builder::label(CallStack& stack) const
    {
        bool bwd = false;
        for (std::uint32_t r : stack.rows) {
            const std::string_view name = m_frame.name(m_frame.rows[r]);
            if (name.rfind("ProfilerStep#", 0) == 0) {
                stack.label = "main";
                return;
            }
            bwd = bwd || name.find("autograd::") != std::string_view::npos;
        }
        stack.label = bwd ? "bwd" : std::string(m_frame.name(m_frame.rows[stack.rows.front()]));
    }

    void Builder::addNode(std::int64_t index, CallNode node)
    {
        if (index < 0)
            m_graph.rootOrder.push_back(index);
        m_graph.nodes.emplace(index, std::move(node));
    }

    // HTA's _add_edge: a child seen before keeps its first parent; a missing parent
    // is created on the fly (depth 0, not linked to the thread root).
    void Builder::addEdge(std::int64_t parent, std::int64_t child, NodeDevice device, std::int64_t rootIndex)
    {
        if (m_graph.nodes.count(child))
            return;
        auto it = m_graph.nodes.find(parent);
        if (it == m_graph.nodes.end()) {
            addNode(parent, CallNode { rootIndex, 0, device, { child } });
            it = m_graph.nodes.find(parent);
        } else {
            it->second.children.push_back(child);
        }
        addNode(child, CallNode { parent, it->second.depth + 1, device, {} });
    }

    Result<bool> Builder::nest(const CallStack& stack)
    {
        if (!m_graph.nodes.count(stack.rootIndex))
            addNode(stack.rootIndex, CallNode { kNullNode, -1, stack.device, {} });
        std::vector<EndPoint> points;
        for (std::uint32_t r : stack.rows) {
            const FrameRow& row = m_frame.rows[r];
            if (m_compat && row.stream != -1)
                continue;
            points.push_back({ row.eventIndex, row.dur, kOpenEnd, row.ts });
        }
        const std::size_t opens = points.size();
        for (std::size_t i = 0; i < opens; ++i)
            points.push_back({ points[i].index, points[i].dur, kCloseEnd, points[i].time + points[i].dur });
        auto sorted = m_compat ? sortEndPointsLikeHta(std::move(points)) : sortEndPoints(std::move(points));
        if (!sorted)
            return sorted.error();
        std::vector<std::int64_t> open;
        for (const EndPoint& p : sorted.value()) {
            if (p.kind == kOpenEnd) {
                addEdge(
                    open.empty() ? stack.rootIndex : open.back(), p.index, NodeDevice::Cpu, stack.rootIndex);
                open.push_back(p.index);
            } else if (!open.empty()) {
                open.pop_back(); // HTA pops without checking it is the same event
            }
        }
        return true;
    }

    // HTA's _link_cpu_and_gpu, for every thread at once: GPU rows (frame order)
    // go under their launch, bucketed by the thread the launch belongs to.
    std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> Builder::kernelLinks() const
    {
        std::unordered_map<std::int64_t, std::size_t> stackOfEvent;
        for (std::size_t s = 0; s < m_graph.stacks.size(); ++s)
            for (std::uint32_t r : m_graph.stacks[s].rows)
                stackOfEvent.emplace(m_frame.rows[r].eventIndex, s);
        std::vector<std::vector<std::pair<std::int64_t, std::int64_t>>> links(m_graph.stacks.size());
        for (const FrameRow& row : m_frame.rows) {
            const bool launched = m_compat ? row.stream > 0 : row.device;
            if (!launched || row.indexCorrelation <= 0)
                continue;
            if (auto it = stackOfEvent.find(row.indexCorrelation); it != stackOfEvent.end())
                links[it->second].emplace_back(row.indexCorrelation, row.eventIndex);
        }
        return links;
    }

    // HTA's _connect_stacks: with exactly one "main" and one "bwd" thread (sorted by
    // label, so two "main" threads make the first one the "bwd"), the bwd thread's
    // top-level operators move under the main thread's backward annotations.
    Result<bool> Builder::connectStacks()
    {
        std::vector<std::size_t> labelled;
        for (std::size_t i = 0; i < m_graph.stacks.size(); ++i)
            if (m_graph.stacks[i].label == "main" || m_graph.stacks[i].label == "bwd")
                labelled.push_back(i);
        if (labelled.size() != 2)
            return true;
        std::stable_sort(labelled.begin(), labelled.end(), [this](std::size_t a, std::size_t b) {
            return m_graph.stacks[a].label < m_graph.stacks[b].label;
        });
        CallStack& bwd = m_graph.stacks[labelled[0]];
        const CallStack& main = m_graph.stacks[labelled[1]];
        for (const char* prefix : { "## backward ##", "ProfilerStep#" }) {
            std::vector<std::int64_t> parents;
            for (std::uint32_t r : main.rows)
                if (m_frame.name(m_frame.rows[r]).rfind(prefix, 0) == 0)
                    parents.push_back(m_frame.rows[r].eventIndex);
            if (parents.empty())
                continue;
            for (std::int64_t p : parents)
                if (auto moved = moveFirstLayer(bwd, p); !moved)
                    return moved.error();
            break;
        }
        return true;
    }

    // HTA's update_parent_of_first_layer_nodes. Once the bwd root loses all its
    // children HTA continues from the main thread's root, which can make an
    // annotation its own child: HTA then recurses forever (compat: not applicable).
    Result<bool> Builder::moveFirstLayer(CallStack& bwd, std::int64_t newParent)
    {
        if (!m_graph.nodes.count(newParent))
            return fail(
                "HTA's call graph fails: annotation event " + std::to_string(newParent) + " is not a node");
        const FrameRow& parentRow = m_frame.rows[m_rowsOfEvent.at(newParent).front()];
        auto root = m_graph.nodes.find(bwd.rootIndex);
        if (root == m_graph.nodes.end())
            return m_compat ? Result<bool>(fail("HTA's call graph fails: the backward thread lost its root"))
                            : true;
        std::set<std::int64_t> guarded;
        for (std::int64_t child : root->second.children) {
            auto rows = m_rowsOfEvent.find(child);
            if (rows == m_rowsOfEvent.end())
                continue;
            for (std::uint32_t r : rows->second) {
                const FrameRow& row = m_frame.rows[r];
                if (row.ts >= parentRow.ts && row.end() <= parentRow.end()
                    && (m_compat || child != newParent))
                    guarded.insert(child);
            }
        }
        updateParent({ guarded.begin(), guarded.end() }, newParent);
        if (m_compat && !m_graph.nodes.count(bwd.rootIndex))
            bwd.rootIndex = rootOf(newParent);
        return true;
    }

    void Builder::updateParent(const std::vector<std::int64_t>& indices, std::int64_t newParent)
    {
        CallNode& parent = m_graph.nodes.at(newParent);
        const std::set<std::int64_t> existing(parent.children.begin(), parent.children.end());
        std::vector<std::int64_t> valid;
        for (std::int64_t i : indices)
            if (m_graph.nodes.count(i) && !existing.count(i))
                valid.push_back(i);
        std::set<std::int64_t> oldParents;
        for (std::int64_t i : valid)
            oldParents.insert(m_graph.nodes.at(i).parent);
        for (std::int64_t i : valid)
            m_graph.nodes.at(i).parent = newParent;
        m_graph.nodes.at(newParent).children.insert(
            m_graph.nodes.at(newParent).children.end(), valid.begin(), valid.end());
        const std::set<std::int64_t> moved(valid.begin(), valid.end());
        for (std::int64_t p : oldParents) {
            auto it = m_graph.nodes.find(p);
            if (it == m_graph.nodes.end())
                continue;
            auto& children = it->second.children;
            // Python's list.remove drops the first occurrence of each moved child.
            for (std::int64_t c : moved)
                if (auto at = std::find(children.begin(), children.end(), c); at != children.end())
                    children.erase(at);
            if (children.empty())
                m_graph.nodes.erase(it);
        }
    }

    std::int64_t Builder::rootOf(std::int64_t index) const
    {
        auto it = m_graph.nodes.find(index);
        if (it == m_graph.nodes.end())
            return kNullNode;
        std::int64_t root = it->second.parent;
        while (root >= 0) {
            auto up = m_graph.nodes.find(root);
            if (up == m_graph.nodes.end())
                break;
            root = up->second.parent;
        }
        return root;
    }

    // HTA's _compute_depth from every root: root -1, its children 0, ... A node
    // reached twice means the graph has a cycle, where HTA recurses forever.
    Result<bool> Builder::computeDepths()
    {
        std::unordered_set<std::int64_t> seen;
        for (std::int64_t root : m_graph.rootOrder) {
            if (!m_graph.nodes.count(root) || root == kMissingNode)
                continue;
            std::vector<std::pair<std::int64_t, std::int64_t>> todo { { root, -1 } };
            while (!todo.empty()) {
                const auto [index, depth] = todo.back();
                todo.pop_back();
                auto it = m_graph.nodes.find(index);
                if (it == m_graph.nodes.end())
                    continue;
                if (!seen.insert(index).second)
                    return fail("HTA's call graph has a cycle (HTA raises RecursionError)");
                it->second.depth = depth;
                for (std::int64_t c : it->second.children)
                    todo.emplace_back(c, depth + 1);
            }
        }
        return true;
    }

    std::int64_t Builder::kernelTotals(std::int64_t index, std::int64_t& durNs)
    {
        auto it = m_graph.nodes.find(index);
        if (it == m_graph.nodes.end())
            return 0;
        std::int64_t count = 0;
        std::int64_t dur = 0;
        if (it->second.device == NodeDevice::Gpu) {
            auto rows = m_rowsOfEvent.find(index);
            if (rows != m_rowsOfEvent.end() && isKernel(m_frame.rows[rows->second.front()])) {
                count = 1;
                dur = m_frame.rows[rows->second.front()].dur;
            }
        } else {
            const std::vector<std::int64_t> children = it->second.children;
            for (std::int64_t c : children) {
                std::int64_t d = 0;
                count += kernelTotals(c, d);
                dur += d;
            }
        }
        if (index >= 0)
            m_graph.rowStacks[index] = RowStack { it->second.depth, count, dur };
        durNs = dur;
        return count;
    }

    void Builder::computeKernels()
    {
        for (const auto& [index, node] : m_graph.nodes)
            if (index >= 0)
                m_graph.rowStacks[index] = RowStack { node.depth, 0, 0 };
        for (std::int64_t root : m_graph.rootOrder) {
            if (!m_graph.nodes.count(root) || root == kMissingNode)
                continue;
            std::int64_t dur = 0;
            kernelTotals(root, dur);
        }
    }

    Result<CallGraph> Builder::run()
    {
        groupThreads();
        const auto links = kernelLinks();
        for (std::size_t s = 0; s < m_graph.stacks.size(); ++s) {
            const CallStack& stack = m_graph.stacks[s];
            if (auto nested = nest(stack); !nested)
                return nested.error();
            for (const auto& [launch, gpu] : links[s])
                addEdge(launch, gpu, NodeDevice::Gpu, stack.rootIndex);
        }
        if (auto connected = connectStacks(); !connected)
            return connected.error();
        if (m_graph.stacks.empty())
            return std::move(m_graph);
        if (auto depths = computeDepths(); !depths)
            return depths.error();
        computeKernels();
        return std::move(m_graph);
    }

} // namespace

RowStack CallGraph::rowStack(std::int64_t eventIndex) const
{
    auto it = rowStacks.find(eventIndex);
    return it == rowStacks.end() ? RowStack {} : it->second;
}

std::vector<std::int64_t> CallGraph::descendants(std::int64_t index) const
{
    std::vector<std::int64_t> out;
    auto start = nodes.find(index);
    if (start == nodes.end() || start->second.device != NodeDevice::Cpu)
        return out;
    std::unordered_set<std::int64_t> seen;
    std::vector<std::int64_t> todo { index };
    while (!todo.empty()) {
        const std::int64_t i = todo.back();
        todo.pop_back();
        auto it = nodes.find(i);
        if (it == nodes.end() || !seen.insert(i).second)
            continue;
        out.push_back(i);
        for (auto c = it->second.children.rbegin(); c != it->second.children.rend(); ++c)
            todo.push_back(*c);
    }
    return out;
}

const CallStack* CallGraph::stackOf(const ThreadKey& key) const
{
    for (const CallStack& s : stacks)
        if (s.key == key)
            return &s;
    return nullptr;
}

Result<CallGraph> buildCallGraph(const RankFrame& frame, AnalysisMode mode)
{
    return Builder(frame, mode).run();
}

} // namespace ks::core::sequences
