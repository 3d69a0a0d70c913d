// CPU-side edges of the critical-path graph: CUDA runtime lock edges (§11.3)
// and call-stack edges (§11.4).

#include "core/analysis/critical_path/critical_path_internal.h"
#include "core/analysis/hta/counters_support.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace ks::core::cp {

namespace {

    // Runtime calls that take the CUDA driver's lock: when several overlap, the
    // one that finishes first held it and the others waited for it.
    bool isLockCall(std::string_view name)
    {
        return name == "cudaHostAlloc" || name == "cudaLaunchKernel" || name == "cudaMemcpyAsync";
    }

    bool isLockNode(const GraphContext& ctx, std::uint32_t node)
    {
        return ctx.lockNodes[node] != 0;
    }

    // Which nodes are lock calls, once per graph (their names are compared once, not per edge).
    void markLockNodes(GraphContext& ctx)
    {
        if (ctx.lockNodes.size() == ctx.graph.nodes.size())
            return;
        ctx.lockNodes.resize(ctx.graph.nodes.size());
        for (std::size_t v = 0; v < ctx.graph.nodes.size(); ++v)
            ctx.lockNodes[v] = isLockCall(ctx.name(ctx.graph.nodes[v].row)) ? 1 : 0;
    }

    // Two nodes whose ordering the lock edges already express.
    bool lockShared(const GraphContext& ctx, std::uint32_t a, std::uint32_t b)
    {
        if (!isLockNode(ctx, a) || !isLockNode(ctx, b))
            return false;
        return !(!ctx.graph.nodes[a].isStart && ctx.graph.nodes[b].isStart);
    }

    using GroupKey = std::tuple<bool, std::int64_t, bool, std::int64_t>; // pid is text, pid, tid is text, tid

    // HTA merges the autograd thread into the forward thread when each is unique.
    std::optional<std::pair<ThreadKey, ThreadKey>> threadMerge(const GraphContext& ctx)
    {
        std::set<std::pair<bool, std::int64_t>> forward, autograd;
        ThreadKey forwardKey, autogradKey;
        for (const std::uint32_t r : ctx.clipped) {
            const std::string_view cat = ctx.category(r);
            if (cat != "cpu_op" && cat != "user_annotation")
                continue;
            const std::string_view name = ctx.name(r);
            const ThreadKey& key = counters::threadKeyOf(ctx.frame, ctx.row(r));
            if (name.find("forward") != std::string_view::npos
                && forward.insert({ key.tidIsName, key.tid }).second)
                forwardKey = key;
            if (name.find("autograd") != std::string_view::npos
                && autograd.insert({ key.tidIsName, key.tid }).second)
                autogradKey = key;
        }
        if (forward.size() != 1 || autograd.size() != 1 || *forward.begin() == *autograd.begin())
            return std::nullopt;
        return std::make_pair(autogradKey, forwardKey);
    }

    // The rows of each CPU thread's call stack, threads in (pid, tid) order as pandas' groupby.
    std::vector<std::vector<std::uint32_t>> cpuThreads(const GraphContext& ctx)
    {
        const auto merge = threadMerge(ctx);
        std::map<GroupKey, std::vector<std::uint32_t>> groups;
        for (const std::uint32_t r : ctx.clipped) {
            if (!ctx.compat && !ctx.isHostRow(r))
                continue; // default mode: device work and sync records are not on CPU stacks
            ThreadKey key = counters::threadKeyOf(ctx.frame, ctx.row(r));
            if (merge && key.tid == merge->first.tid && key.tidIsName == merge->first.tidIsName) {
                key.tid = merge->second.tid;
                key.tidIsName = merge->second.tidIsName;
            }
            groups[{ key.pidIsName, key.pid, key.tidIsName, key.tid }].push_back(r);
        }
        std::vector<std::vector<std::uint32_t>> threads;
        for (auto& [key, rows] : groups) {
            // HTA: a group with any stream > 0 is a GPU stream, one with all streams < 0 a CPU thread,
            // anything else (stream 0, Triton launchers) neither: it gets no call stack.
            const bool cpu = std::all_of(
                rows.begin(), rows.end(), [&ctx](std::uint32_t r) { return ctx.row(r).stream < 0; });
            if (ctx.compat && !cpu)
                continue;
            threads.push_back(std::move(rows));
        }
        return threads;
    }

    struct StackEvent
    {
        std::int64_t time;
        std::int64_t dur;
        std::int64_t eventIndex;
        std::uint32_t local; // position in the thread's rows
        bool isStart;
    };

    // HTA's call_stack.compare_events as a less-than: time; same event start
    // first; at equal time ends before starts; outer starts first, inner ends first.
    bool stackEventBefore(const StackEvent& x, const StackEvent& y)
    {
        if (x.eventIndex == y.eventIndex)
            return x.isStart && !y.isStart;
        if (x.time != y.time)
            return x.time < y.time;
        if (x.isStart == y.isStart) {
            if (x.dur != y.dur)
                return x.isStart ? x.dur > y.dur : x.dur < y.dur;
            return x.isStart ? x.eventIndex < y.eventIndex : x.eventIndex > y.eventIndex;
        }
        if (x.dur > 0 && y.dur > 0)
            return !x.isStart;
        if (x.dur == 0 && y.dur == 0)
            return x.eventIndex < y.eventIndex;
        return x.isStart;
    }

    // The nesting of one thread: parent and children (in start order) of each row; -1 is the root.
    struct CallStack
    {
        std::vector<std::int64_t> parent; // local -> local parent or -1
        // Children in compressed rows (one allocation, not one per row): slot s's
        // children are childList[childOffsets[s] .. childOffsets[s + 1]); slot size() is the root.
        std::vector<std::uint32_t> childOffsets;
        std::vector<std::uint32_t> childList;

        std::size_t childCount(std::uint32_t slot) const
        {
            return childOffsets[slot + 1] - childOffsets[slot];
        }

        std::uint32_t child(std::uint32_t slot, std::size_t i) const
        {
            return childList[childOffsets[slot] + i];
        }
    };

    CallStack buildCallStack(const GraphContext& ctx, const std::vector<std::uint32_t>& rows)
    {
        std::vector<StackEvent> events;
        events.reserve(rows.size() * 2);
        for (std::uint32_t i = 0; i < rows.size(); ++i) {
            const FrameRow& row = ctx.row(rows[i]);
            const std::int64_t dur = std::max<std::int64_t>(row.dur, 0);
            events.push_back({ row.ts, dur, row.eventIndex, i, true });
            events.push_back({ row.ts + dur, dur, row.eventIndex, i, false });
        }
        std::stable_sort(events.begin(), events.end(), stackEventBefore);
        CallStack stack;
        stack.parent.assign(rows.size(), -1);
        std::vector<std::uint32_t> parentSlots; // per start in event order: its parent's slot
        std::vector<std::uint32_t> starts; // the locals in that order
        parentSlots.reserve(rows.size());
        starts.reserve(rows.size());
        std::vector<std::uint32_t> open;
        for (const StackEvent& e : events) {
            if (e.isStart) {
                const std::uint32_t parentSlot =
                    open.empty() ? static_cast<std::uint32_t>(rows.size()) : open.back();
                stack.parent[e.local] = open.empty() ? -1 : static_cast<std::int64_t>(open.back());
                parentSlots.push_back(parentSlot);
                starts.push_back(e.local);
                open.push_back(e.local);
            } else if (!open.empty()) {
                open.pop_back(); // HTA pops the innermost open event, whichever it is
            }
        }
        // A stable counting sort by parent: each slot's children stay in start order.
        stack.childOffsets.assign(rows.size() + 2, 0);
        for (const std::uint32_t slot : parentSlots)
            ++stack.childOffsets[slot + 1];
        for (std::size_t slot = 0; slot <= rows.size(); ++slot)
            stack.childOffsets[slot + 1] += stack.childOffsets[slot];
        stack.childList.resize(starts.size());
        std::vector<std::uint32_t> next(stack.childOffsets.begin(), stack.childOffsets.end() - 1);
        for (std::size_t i = 0; i < starts.size(); ++i)
            stack.childList[next[parentSlots[i]]++] = starts[i];
        return stack;
    }

    // Depth-first walk of one thread (§11.4): each event with nodes is linked to
    // the previous node; top-level events are chained with zero weight (Q14).
    class StackWalker
    {
    public:
        StackWalker(GraphContext& ctx, const std::vector<std::uint32_t>& rows, const CallStack& stack)
            : m_ctx(ctx)
            , m_rows(rows)
            , m_stack(stack)
        {
        }

        void walk()
        {
            struct Frame
            {
                std::uint32_t slot;
                std::size_t next;
            };

            const auto root = static_cast<std::uint32_t>(m_rows.size());
            std::vector<Frame> frames { { root, 0 } };
            while (!frames.empty()) {
                Frame& top = frames.back();
                if (top.next < m_stack.childCount(top.slot)) {
                    const std::uint32_t child = m_stack.child(top.slot, top.next++);
                    enter(child);
                    frames.push_back({ child, 0 });
                    continue;
                }
                if (top.slot != root)
                    exit(top.slot);
                frames.pop_back();
            }
        }

    private:
        std::int64_t parentEvent(std::uint32_t local) const
        {
            const std::int64_t p = m_stack.parent[local];
            return p < 0 ? -1 : m_ctx.row(m_rows[static_cast<std::size_t>(p)]).eventIndex;
        }

        void enter(std::uint32_t local)
        {
            const std::int32_t start = m_ctx.startNode(m_rows[local]);
            if (start == kNoNode)
                return;
            const auto s = static_cast<std::uint32_t>(start);
            if (m_previous != kNoNode && !lockShared(m_ctx, static_cast<std::uint32_t>(m_previous), s)) {
                // A top-level gap is HTA's weightless dependency, the thread's own time when re-timed.
                const bool freeGap = m_depth == 0 && m_ctx.purpose == GraphPurpose::Analysis;
                const CpEdgeType type = freeGap ? CpEdgeType::Dependency : CpEdgeType::Operator;
                const std::uint32_t e = m_ctx.addEdge(static_cast<std::uint32_t>(m_previous), s, type);
                m_ctx.attributeEdge(e, m_previousParent);
            }
            ++m_depth;
            m_previous = start;
            m_previousParent = parentEvent(local);
        }

        void exit(std::uint32_t local)
        {
            const std::int32_t end = m_ctx.endNode(m_rows[local]);
            if (end == kNoNode)
                return;
            const auto e = static_cast<std::uint32_t>(end);
            --m_depth;
            if (m_previous != kNoNode && !lockShared(m_ctx, static_cast<std::uint32_t>(m_previous), e)) {
                const bool blocking = m_ctx.graph.nodes[e].blocking;
                const std::uint32_t id =
                    m_ctx.addEdge(static_cast<std::uint32_t>(m_previous), e, CpEdgeType::Operator, blocking);
                m_ctx.attributeEdge(id, m_previousParent);
            }
            m_previous = end;
            m_previousParent = parentEvent(local);
        }

        GraphContext& m_ctx;
        const std::vector<std::uint32_t>& m_rows;
        const CallStack& m_stack;
        std::int32_t m_previous = kNoNode;
        std::int64_t m_previousParent = -1;
        int m_depth = 0;
    };

} // namespace

void addRuntimeLockEdges(GraphContext& ctx)
{
    markLockNodes(ctx);
    CriticalPathGraph& g = ctx.graph;
    std::vector<std::uint32_t> pending;
    std::int32_t previous = kNoNode;
    for (std::uint32_t id = 0; id < g.nodes.size(); ++id) {
        if (!isLockNode(ctx, id))
            continue;
        if (g.nodes[id].isStart) {
            pending.push_back(id);
            previous = static_cast<std::int32_t>(id);
            continue;
        }
        while (!pending.empty()) {
            const std::uint32_t start = pending.back();
            pending.pop_back();
            if (g.nodes[start].row == g.nodes[id].row)
                ctx.attributeEdge(ctx.addEdge(start, id, CpEdgeType::Operator), -1);
            else
                ctx.addEdge(start, id, CpEdgeType::Dependency);
        }
        if (previous != kNoNode && !g.nodes[static_cast<std::uint32_t>(previous)].isStart)
            ctx.addEdge(static_cast<std::uint32_t>(previous), id, CpEdgeType::Dependency);
        previous = static_cast<std::int32_t>(id);
    }
}

void addCallStackEdges(GraphContext& ctx)
{
    markLockNodes(ctx);
    for (const std::vector<std::uint32_t>& rows : cpuThreads(ctx)) {
        const CallStack stack = buildCallStack(ctx, rows);
        StackWalker(ctx, rows, stack).walk();
    }
}

} // namespace ks::core::cp
