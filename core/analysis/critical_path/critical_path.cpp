#include "core/analysis/critical_path/critical_path.h"

#include "core/analysis/critical_path/critical_path_internal.h"
#include "core/analysis/frame/sync_api.h"
#include "core/analysis/tables/numpy_argsort.h"
#include "core/common/cancelled_error.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <limits>
#include <numeric>
#include <unordered_set>

namespace ks::core {

namespace {

    constexpr std::int64_t kNoWindowEnd = std::numeric_limits<std::int64_t>::max();
    constexpr std::int64_t kToleratedNegativeNs =
        -1000; // -1 µs: what rounding times to the µs can produce (Q1)

    // Runtime calls that wait for the GPU: their span is time spent waiting, not working.
    Error notApplicable(std::string message)
    {
        return Error { ErrorCode::NotApplicable, std::move(message), {}, {} };
    }

    struct Window
    {
        std::int64_t start = 0;
        std::int64_t end = kNoWindowEnd;
    };

    // §11.1: "" spans the whole trace (HTA's stale end column makes the end
    // unbounded); otherwise instances first..last of the rows whose name contains
    // the annotation, in HTA's row order (time order in default mode).
    Result<Window> findWindow(
        const RankFrame& frame, const std::string& annotation, CriticalPathInstance instance, bool compat)
    {
        Window w;
        if (frame.rows.empty())
            return notApplicable("rank " + std::to_string(frame.rank) + " has no events");
        if (annotation.empty()) {
            w.start = std::min_element(
                frame.rows.begin(), frame.rows.end(), [](const FrameRow& a, const FrameRow& b) {
                    return a.ts < b.ts;
                })->ts;
            return w;
        }
        std::vector<const FrameRow*> instances;
        for (const FrameRow& row : frame.rows)
            if (frame.name(row).find(annotation) != std::string_view::npos)
                instances.push_back(&row);
        if (!compat)
            std::stable_sort(instances.begin(), instances.end(),
                [](const FrameRow* a, const FrameRow* b) { return a->ts < b->ts; });
        if (instances.empty())
            return notApplicable(
                "annotation '" + annotation + "' not found on rank " + std::to_string(frame.rank));
        const auto count = static_cast<std::int64_t>(instances.size());
        if (instance.first < 0 || instance.first >= count || instance.last < instance.first)
            return notApplicable("instance " + std::to_string(instance.first) + " of annotation '"
                + annotation + "' not found on rank " + std::to_string(frame.rank) + ": it has "
                + std::to_string(count) + " instances (0.." + std::to_string(count - 1) + ")");
        const std::int64_t last = std::min(instance.last, count - 1);
        w.start = std::numeric_limits<std::int64_t>::max();
        w.end = std::numeric_limits<std::int64_t>::min();
        for (std::int64_t i = instance.first; i <= last; ++i) {
            w.start = std::min(w.start, instances[static_cast<std::size_t>(i)]->ts);
            w.end = std::max(w.end, instances[static_cast<std::size_t>(i)]->end());
        }
        return w;
    }

    // Host rows starting in the window with a positive duration, and GPU rows
    // whose launch is one of them (Stream Wait Event rows regardless), by event index.
    std::vector<std::uint32_t> clipRows(const cp::GraphContext& ctx, const Window& w)
    {
        std::vector<std::uint32_t> kept;
        // Event indexes the kept host rows launched: a bit per event index a row can have.
        std::uint32_t maxEvent = 0;
        for (const FrameRow& row : ctx.frame.rows)
            maxEvent = std::max(maxEvent, row.eventIndex);
        std::vector<bool> launched(static_cast<std::size_t>(maxEvent) + 1, false);
        std::vector<bool> hostKeptEvent(static_cast<std::size_t>(maxEvent) + 1, false);
        std::vector<char> host(ctx.frame.rows.size(), 0);
        for (std::uint32_t r = 0; r < ctx.frame.rows.size(); ++r) {
            host[r] = ctx.isHostRow(r) ? 1 : 0;
            const FrameRow& row = ctx.row(r);
            if (!host[r] || row.ts < w.start || row.ts > w.end || row.dur <= 0)
                continue;
            kept.push_back(r);
            hostKeptEvent[row.eventIndex] = true;
            if (row.indexCorrelation >= 0 && row.indexCorrelation <= maxEvent)
                launched[static_cast<std::size_t>(row.indexCorrelation)] = true;
        }
        // A call's partner is the last GPU row of its correlation (HTA's join): HTA keeps
        // that one only. By default every GPU row a kept call launched stays, as a graph
        // launch queues several kernels under one correlation id.
        const auto launchedByKeptCall = [&](const FrameRow& row) {
            return !ctx.compat && row.indexCorrelation > 0 && row.indexCorrelation <= maxEvent
                && hostKeptEvent[static_cast<std::size_t>(row.indexCorrelation)];
        };
        const std::size_t hostKept = kept.size();
        for (std::uint32_t r = 0; r < ctx.frame.rows.size(); ++r) {
            if (host[r])
                continue;
            if (launched[ctx.row(r).eventIndex] || launchedByKeptCall(ctx.row(r))
                || ctx.name(r) == "Stream Wait Event")
                kept.push_back(r);
        }
        // By event index (unique per row). Rows in event order (the default mode's)
        // leave two sorted runs, merged; other orders are sorted.
        const auto byEvent = [&ctx](std::uint32_t a, std::uint32_t b) {
            return ctx.row(a).eventIndex < ctx.row(b).eventIndex;
        };
        const auto middle = kept.begin() + static_cast<std::ptrdiff_t>(hostKept);
        if (std::is_sorted(kept.begin(), middle, byEvent) && std::is_sorted(middle, kept.end(), byEvent))
            std::inplace_merge(kept.begin(), middle, kept.end(), byEvent);
        else
            std::sort(kept.begin(), kept.end(), byEvent);
        return kept;
    }

    bool hasNodes(const cp::GraphContext& ctx, std::uint32_t r)
    {
        const std::string_view cat = ctx.category(r);
        if (cat == "cpu_op" || cat == "cuda_runtime" || cat == "cuda_driver")
            return true;
        // cuda_sync records are handled as synchronization points, never as nodes.
        return ctx.isGpuWork(r) && ctx.row(r).indexCorrelation >= 0 && cat != cp::kCudaSyncCategory;
    }

    // §11.2: a start and an end node per event, numbered by (ts, event index), start first.
    void createNodes(cp::GraphContext& ctx)
    {
        // A node to number: sorted by (ts, key), key = event index (high 32 bits),
        // end after start (bit 31), then its place in `rows` (never reached: the
        // event index and the end flag are unique per node). The stable sort by
        // (ts, event index) of the starts then the ends gave this order.
        constexpr std::uint64_t kEndBit = std::uint64_t { 1 } << 31;

        struct Pending
        {
            std::int64_t ts;
            std::uint64_t key;

            bool operator<(const Pending& other) const
            {
                return ts != other.ts ? ts < other.ts : key < other.key;
            }
        };

        const RankTrace& trace = *ctx.frame.trace;
        // Blocking calls by name id (a name never interned is never a row's): HTA's
        // six CUDA names in --hta-compat, CUDA's and HIP's syncs and copies by default.
        std::vector<NameId> blockingIds;
        for (const std::string_view name :
            hostBlockingCallNames(ctx.compat ? AnalysisMode::HtaCompat : AnalysisMode::Default))
            if (const NameId id = trace.strings.find(name); id.valid())
                blockingIds.push_back(id);
        std::vector<std::uint32_t> rows;
        for (const std::uint32_t r : ctx.clipped)
            if (hasNodes(ctx, r))
                rows.push_back(r);
        std::vector<Pending> pending;
        pending.reserve(2 * rows.size());
        for (std::uint32_t i = 0; i < rows.size(); ++i) {
            const FrameRow& row = ctx.row(rows[i]);
            const std::uint64_t event = static_cast<std::uint64_t>(row.eventIndex) << 32;
            pending.push_back({ row.ts, event | i });
            pending.push_back({ row.end(), event | kEndBit | i });
        }
        std::sort(pending.begin(), pending.end());
        CriticalPathGraph& g = ctx.graph;
        g.nodes.reserve(pending.size());
        ctx.reserveEdges(pending.size() + pending.size() / 4); // about one edge per node
        // An event whose end precedes its start (a sub-µs memset whose rounded
        // duration is -1 in HTA-compatible mode) has its end node first: both ids
        // are known only once every node is numbered.
        std::vector<std::int32_t> startOf(ctx.frame.rows.size(), cp::kNoNode);
        std::vector<std::int32_t> endOf(ctx.frame.rows.size(), cp::kNoNode);
        for (const Pending& p : pending) {
            const auto id = static_cast<std::int32_t>(g.nodes.size());
            const std::uint32_t r = rows[static_cast<std::uint32_t>(p.key & (kEndBit - 1))];
            const bool isStart = (p.key & kEndBit) == 0;
            const NameId name = trace.slices.name[ctx.row(r).slice];
            const bool blocking =
                std::find(blockingIds.begin(), blockingIds.end(), name) != blockingIds.end();
            g.nodes.push_back({ r, ctx.row(r).eventIndex, p.ts, isStart, blocking });
            (isStart ? startOf : endOf)[r] = id;
        }
        for (const CpNode& node : g.nodes)
            if (node.isStart)
                ctx.setNodes(node.row, startOf[node.row], endOf[node.row]);
    }

    // Negative edges that weigh 0 in the graph, for the note that says so.
    struct ZeroedEdges
    {
        std::size_t count = 0;
        std::int64_t mostNegative = 0; // ns
        std::uint32_t example = 0; // edge id of the most negative one

        void add(const CpEdge& e, std::uint32_t id)
        {
            if (count++ == 0 || e.weight < mostNegative) {
                mostNegative = e.weight;
                example = id;
            }
        }
    };

    std::string microsecondsText(std::int64_t ns)
    {
        if (ns % 1000 == 0)
            return std::to_string(ns / 1000);
        char text[32];
        std::snprintf(text, sizeof text, "%.3f", static_cast<double>(ns) / 1000.0);
        return text;
    }

    // "3 negative launch delays count as 0 in the graph (the most negative: ...): why".
    std::string zeroedNote(const CriticalPathGraph& g, const ZeroedEdges& zeroed, std::string_view one,
        std::string_view many, std::string_view why)
    {
        const CpEdge& e = g.edges[zeroed.example];
        const bool single = zeroed.count == 1;
        return std::to_string(zeroed.count) + " " + std::string(single ? one : many)
            + (single ? " counts" : " count")
            + " as 0 in the graph (the most negative: " + microsecondsText(zeroed.mostNegative) + " us, "
            + std::string(cpEdgeTypeName(e.type)) + " from event " + std::to_string(g.nodes[e.src].eventIndex)
            + " to event " + std::to_string(g.nodes[e.dst].eventIndex) + "): " + std::string(why);
    }

    bool isDelay(const CpEdge& e)
    {
        return e.type == CpEdgeType::KernelKernelDelay || e.type == CpEdgeType::KernelLaunchDelay;
    }

    // §11.6 and Q1: which negative weights count as 0 in the graph (the edge keeps
    // its value), which invalidate it; synchronization between two events of one
    // stream and cycles invalidate it too.
    //  - HTA-compatible: HTA (without CRITICAL_PATH_STRICT_NEGATIVE_WEIGHT_CHECKS)
    //    sets every weight of -1 µs or less to 0, whatever the edge; a weight
    //    between -1 µs and 0 (fractional µs, when HTA did not round) stays.
    //  - default: a negative kernel-kernel or launch delay is overlapping GPU work
    //    or a CPU/GPU clock offset, not time spent: 0. Any other edge at most 1 µs
    //    negative is the trace's µs rounding: 0; more negative is a broken nesting
    //    (a child ending after its parent) and invalidates the graph.
    bool validateGraph(cp::GraphContext& ctx)
    {
        CriticalPathGraph& g = ctx.graph;
        bool valid = true;
        ZeroedEdges zeroedHta, zeroedDelays, zeroedRounding;
        for (const std::uint32_t id : g.edgesInGraphOrder()) {
            CpEdge& e = g.edges[id];
            if (e.weight < 0) {
                if (ctx.compat) {
                    if (e.weight <= kToleratedNegativeNs) {
                        e.graphWeight = 0;
                        zeroedHta.add(e, id);
                    }
                } else if (isDelay(e)) {
                    e.graphWeight = 0;
                    zeroedDelays.add(e, id);
                } else if (e.weight >= kToleratedNegativeNs) {
                    e.graphWeight = 0;
                    zeroedRounding.add(e, id);
                } else {
                    g.problems.push_back("edge from event " + std::to_string(g.nodes[e.src].eventIndex)
                        + " to event " + std::to_string(g.nodes[e.dst].eventIndex)
                        + " has a negative weight (" + std::to_string(e.weight) + " ns)");
                    valid = false;
                }
            }
            if (e.type == CpEdgeType::SyncDependency) {
                const std::int64_t srcStream = ctx.row(g.nodes[e.src].row).stream;
                const std::int64_t dstStream = ctx.row(g.nodes[e.dst].row).stream;
                if (srcStream != -1 && srcStream == dstStream) {
                    g.problems.push_back("synchronization edge between events "
                        + std::to_string(g.nodes[e.src].eventIndex) + " and "
                        + std::to_string(g.nodes[e.dst].eventIndex) + " on the same stream "
                        + std::to_string(srcStream));
                    valid = false;
                }
            }
        }
        if (zeroedHta.count)
            g.warnings.push_back(zeroedNote(g, zeroedHta, "edge of -1 us or less", "edges of -1 us or less",
                "HTA ignores negative weights from its us rounding; the edges keep their weight"));
        if (zeroedDelays.count)
            g.warnings.push_back(zeroedNote(g, zeroedDelays, "negative kernel-kernel or launch delay",
                "negative kernel-kernel or launch delays",
                "the GPU work overlaps the previous work on its stream, or the GPU clock runs ahead of the "
                "CPU's"));
        if (zeroedRounding.count)
            g.warnings.push_back(zeroedNote(g, zeroedRounding, "edge at most 1 us negative",
                "edges at most 1 us negative", "the trace's timestamps are rounded to the us"));
        return valid;
    }

    // networkx's topological_sort: Kahn by generations, sources in node order,
    // children in adjacency order. Shorter than the node count when there is a cycle.
    std::vector<std::uint32_t> topologicalOrder(const CriticalPathGraph& g)
    {
        std::vector<std::uint32_t> indegree(g.nodes.size());
        for (std::uint32_t v = 0; v < g.nodes.size(); ++v)
            indegree[v] = static_cast<std::uint32_t>(g.predecessorsOf(v).size());
        std::vector<std::uint32_t> order;
        order.reserve(g.nodes.size());
        std::vector<std::uint32_t> generation;
        for (std::uint32_t v = 0; v < g.nodes.size(); ++v)
            if (indegree[v] == 0)
                generation.push_back(v);
        std::vector<std::uint32_t> next;
        while (!generation.empty()) {
            next.clear();
            for (const std::uint32_t v : generation) {
                order.push_back(v);
                for (const std::uint32_t e : g.successorsOf(v))
                    if (--indegree[g.edges[e].dst] == 0)
                        next.push_back(g.edges[e].dst);
            }
            generation.swap(next);
        }
        return order;
    }

    // networkx's dag_longest_path: first best predecessor, negative distances
    // restart at the node, the path ends at the first node of maximal distance.
    void longestPath(CriticalPathGraph& g, const std::vector<std::uint32_t>& order)
    {
        constexpr std::uint32_t kSelf = std::numeric_limits<std::uint32_t>::max();
        std::vector<std::int64_t> dist(g.nodes.size(), 0);
        std::vector<std::uint32_t> via(g.nodes.size(), kSelf); // edge id of the best predecessor
        for (const std::uint32_t v : order) {
            bool any = false;
            std::int64_t best = 0;
            std::uint32_t bestEdge = kSelf;
            for (const std::uint32_t e : g.predecessorsOf(v)) {
                const std::int64_t d = dist[g.edges[e].src] + g.edges[e].graphWeight;
                if (!any || d > best) {
                    any = true;
                    best = d;
                    bestEdge = e;
                }
            }
            if (any && best >= 0) {
                dist[v] = best;
                via[v] = bestEdge;
            }
        }
        std::uint32_t end = order.front();
        for (const std::uint32_t v : order)
            if (dist[v] > dist[end])
                end = v;
        g.pathWeight = dist[end];
        for (std::uint32_t v = end; via[v] != kSelf; v = g.edges[via[v]].src)
            g.pathEdges.push_back(via[v]);
        std::reverse(g.pathEdges.begin(), g.pathEdges.end());
        g.pathNodes.push_back(g.pathEdges.empty() ? end : g.edges[g.pathEdges.front()].src);
        g.edgeOnPath.assign(g.edges.size(), false);
        for (const std::uint32_t e : g.pathEdges) {
            g.pathNodes.push_back(g.edges[e].dst);
            g.edgeOnPath[e] = true;
        }
    }

} // namespace

namespace cp {

    GraphContext::GraphContext(const FrameSet& frameSet, const RankFrame& rankFrame, CriticalPathGraph& g)
        : frames(frameSet)
        , frame(rankFrame)
        , graph(g)
        , compat(frameSet.mode == AnalysisMode::HtaCompat)
        , m_startNode(rankFrame.rows.size(), kNoNode)
        , m_endNode(rankFrame.rows.size(), kNoNode)
    {
    }

    std::optional<std::uint32_t> GraphContext::rowOfEvent(std::int64_t eventIndex) const
    {
        const FrameRow* row = frame.rowOfEvent(eventIndex);
        if (!row)
            return std::nullopt;
        return static_cast<std::uint32_t>(row - frame.rows.data());
    }

    bool GraphContext::isHostRow(std::uint32_t r) const
    {
        if (compat)
            return row(r).stream == -1;
        return !row(r).device && category(r) != kCudaSyncCategory;
    }

    bool GraphContext::isGpuWork(std::uint32_t r) const
    {
        return compat ? row(r).stream != -1 : row(r).device;
    }

    void GraphContext::setNodes(std::uint32_t r, std::int32_t start, std::int32_t end)
    {
        m_startNode[r] = start;
        m_endNode[r] = end;
    }

    std::int32_t GraphContext::endNodeOfEvent(std::int64_t eventIndex) const
    {
        const auto r = rowOfEvent(eventIndex);
        return r ? m_endNode[*r] : kNoNode;
    }

    std::uint32_t GraphContext::addEdge(
        std::uint32_t src, std::uint32_t dst, CpEdgeType type, bool zeroWeight)
    {
        const bool weightless =
            zeroWeight || type == CpEdgeType::Dependency || type == CpEdgeType::SyncDependency;
        const std::int64_t weight = weightless ? 0 : graph.nodes[dst].ts - graph.nodes[src].ts;
        const auto [id, inserted] =
            m_edgeIds.findOrInsert(src, dst, static_cast<std::uint32_t>(graph.edges.size()));
        if (inserted) {
            graph.edges.push_back({ src, dst, type, weight, weight, -1 });
        } else {
            // The attribution of the replaced edge stays, as HTA keeps it in a separate map.
            CpEdge& e = graph.edges[id];
            e.type = type;
            e.weight = weight;
            e.graphWeight = weight;
            e.inferred = false;
        }
        return id;
    }

    void EdgeIdIndex::reserve(std::size_t n)
    {
        if (2 * n > m_keys.size())
            grow(2 * n);
    }

    std::size_t EdgeIdIndex::slotOf(std::uint64_t key) const
    {
        // Fibonacci hashing: the high bits of the product, as many as the capacity needs.
        const std::uint64_t h = key * 0x9e3779b97f4a7c15ULL;
        return static_cast<std::size_t>(h >> 32) & (m_keys.size() - 1);
    }

    void EdgeIdIndex::grow(std::size_t capacity)
    {
        std::size_t size = 16;
        while (size < capacity)
            size *= 2;
        std::vector<std::uint64_t> keys(size, kEmpty);
        std::vector<std::uint32_t> ids(size, 0);
        keys.swap(m_keys);
        ids.swap(m_ids);
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (keys[i] == kEmpty)
                continue;
            std::size_t slot = slotOf(keys[i]);
            while (m_keys[slot] != kEmpty)
                slot = (slot + 1) & (m_keys.size() - 1);
            m_keys[slot] = keys[i];
            m_ids[slot] = ids[i];
        }
    }

    std::pair<std::uint32_t, bool> EdgeIdIndex::findOrInsert(
        std::uint32_t src, std::uint32_t dst, std::uint32_t fresh)
    {
        if (2 * (m_size + 1) > m_keys.size())
            grow(2 * (m_size + 1));
        const std::uint64_t key = (static_cast<std::uint64_t>(src) << 32) | dst;
        std::size_t slot = slotOf(key);
        while (m_keys[slot] != kEmpty) {
            if (m_keys[slot] == key)
                return { m_ids[slot], false };
            slot = (slot + 1) & (m_keys.size() - 1);
        }
        m_keys[slot] = key;
        m_ids[slot] = fresh;
        ++m_size;
        return { fresh, true };
    }

    void GraphContext::attributeEdge(std::uint32_t edgeId, std::int64_t sourceParentEvent)
    {
        CpEdge& e = graph.edges[edgeId];
        if (e.type != CpEdgeType::Operator && e.type != CpEdgeType::KernelKernelDelay)
            return;
        const CpNode& src = graph.nodes[e.src];
        const CpNode& dst = graph.nodes[e.dst];
        if (e.type == CpEdgeType::KernelKernelDelay || src.isStart)
            e.attributedEvent = src.eventIndex;
        else if (!dst.isStart)
            e.attributedEvent = dst.eventIndex;
        else
            e.attributedEvent = sourceParentEvent; // between two children: the parent's time
    }

    std::vector<std::uint32_t> sortOrder(const std::vector<std::int64_t>& keys, bool compat)
    {
        if (compat) {
            std::vector<double> asDouble(keys.begin(), keys.end());
            return numpyArgsort<std::uint32_t>(asDouble);
        }
        std::vector<std::uint32_t> order(keys.size());
        std::iota(order.begin(), order.end(), 0U);
        std::stable_sort(order.begin(), order.end(),
            [&keys](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; });
        return order;
    }

} // namespace cp

std::string_view cpEdgeTypeName(CpEdgeType type)
{
    switch (type) {
    case CpEdgeType::Operator:
        return "critical_path_operator";
    case CpEdgeType::Dependency:
        return "critical_path_dependency";
    case CpEdgeType::KernelLaunchDelay:
        return "critical_path_kernel_launch_delay";
    case CpEdgeType::KernelKernelDelay:
        return "critical_path_kernel_kernel_delay";
    case CpEdgeType::SyncDependency:
        return "critical_path_sync_dependency";
    }
    return "";
}

namespace {

    // Counting sort of edge ids by one end, stable: ids stay in insertion order per node.
    void compressedRows(const std::vector<CpEdge>& edges, std::size_t nodes, bool bySource,
        std::vector<std::uint32_t>& offsets, std::vector<std::uint32_t>& ids)
    {
        offsets.assign(nodes + 1, 0);
        for (const CpEdge& e : edges)
            ++offsets[(bySource ? e.src : e.dst) + 1];
        for (std::size_t v = 0; v < nodes; ++v)
            offsets[v + 1] += offsets[v];
        ids.resize(edges.size());
        std::vector<std::uint32_t> next(offsets.begin(), offsets.end() - 1);
        for (std::uint32_t id = 0; id < edges.size(); ++id)
            ids[next[bySource ? edges[id].src : edges[id].dst]++] = id;
    }

} // namespace

void CriticalPathGraph::indexAdjacency()
{
    compressedRows(edges, nodes.size(), true, successorOffsets, successorEdges);
    compressedRows(edges, nodes.size(), false, predecessorOffsets, predecessorEdges);
}

std::span<const std::uint32_t> CriticalPathGraph::successorsOf(std::uint32_t node) const
{
    return { successorEdges.data() + successorOffsets[node],
        successorOffsets[node + 1] - successorOffsets[node] };
}

std::span<const std::uint32_t> CriticalPathGraph::predecessorsOf(std::uint32_t node) const
{
    return { predecessorEdges.data() + predecessorOffsets[node],
        predecessorOffsets[node + 1] - predecessorOffsets[node] };
}

std::vector<std::uint32_t> CriticalPathGraph::syncEdges() const
{
    std::vector<std::uint32_t> ids;
    for (const std::uint32_t id : edgesInGraphOrder())
        if (edges[id].type == CpEdgeType::SyncDependency)
            ids.push_back(id);
    return ids;
}

bool CriticalPathGraph::onPath(std::uint32_t edgeId) const
{
    return edgeId < edgeOnPath.size() && edgeOnPath[edgeId];
}

namespace {

    Result<CriticalPathGraph> buildGraph(const FrameSet& frames, const RankFrame& frame, const Window& window,
        const AnalysisOptions& options, CriticalPathParts parts, GraphPurpose purpose);

} // namespace

Result<CriticalPathGraph> buildCriticalPath(const FrameSet& frames, std::int64_t rank,
    const std::string& annotation, CriticalPathInstance instance, const AnalysisOptions& options)
{
    const auto frameIt = std::find_if(
        frames.ranks.begin(), frames.ranks.end(), [rank](const RankFrame& f) { return f.rank == rank; });
    if (frameIt == frames.ranks.end())
        return notApplicable("rank " + std::to_string(rank) + " is not in the trace");
    const bool compat = frames.mode == AnalysisMode::HtaCompat;
    // MTIA runtime calls overlap across threads and are not CUDA launches: the
    // graph's model does not hold (HTA fails on them too, see addKernelEdges).
    if (!compat && frames.deviceType == "MTIA")
        return notApplicable("the critical path models CUDA and ROCm runtimes; rank " + std::to_string(rank)
            + " is an MTIA trace");
    auto window = findWindow(*frameIt, annotation, instance, compat);
    if (!window)
        return window.error();
    return buildGraph(
        frames, *frameIt, window.value(), options, CriticalPathParts::GraphAndPath, GraphPurpose::Analysis);
}

Result<CriticalPathGraph> buildCriticalPath(const FrameSet& frames, std::int64_t rank,
    CriticalPathWindow window, const AnalysisOptions& options, CriticalPathParts parts, GraphPurpose purpose)
{
    const auto frameIt = std::find_if(
        frames.ranks.begin(), frames.ranks.end(), [rank](const RankFrame& f) { return f.rank == rank; });
    if (frameIt == frames.ranks.end())
        return notApplicable("rank " + std::to_string(rank) + " is not in the trace");
    if (frames.mode == AnalysisMode::Default && frames.deviceType == "MTIA")
        return notApplicable("the critical path models CUDA and ROCm runtimes; rank " + std::to_string(rank)
            + " is an MTIA trace");
    if (frameIt->rows.empty())
        return notApplicable("rank " + std::to_string(rank) + " has no events");
    return buildGraph(frames, *frameIt, Window { window.start, window.end }, options, parts, purpose);
}

namespace {

    Result<CriticalPathGraph> buildGraph(const FrameSet& frames, const RankFrame& frame, const Window& window,
        const AnalysisOptions& options, CriticalPathParts parts, GraphPurpose purpose)
    {
        const std::int64_t rank = frame.rank;
        CriticalPathGraph graph;
        graph.mode = frames.mode;
        graph.frame = &frame;
        graph.rank = rank;
        graph.windowStart = window.start;
        graph.windowEnd = window.end;
        cp::GraphContext ctx(frames, frame, graph);
        ctx.purpose = purpose;
        ctx.clipped = clipRows(ctx, window);
        graph.clippedRows = ctx.clipped.size();
        // Each stage walks every clipped row: a superseded request stops between them.
        if (options.cancelled())
            return cancelledError();
        createNodes(ctx);
        cp::addRuntimeLockEdges(ctx);
        if (options.cancelled())
            return cancelledError();
        cp::addCallStackEdges(ctx);
        if (auto error = cp::addKernelEdges(ctx))
            return *error;
        if (options.cancelled())
            return cancelledError();
        if (graph.nodes.empty())
            return notApplicable(
                "no CPU operator, runtime call or GPU kernel in the window on rank " + std::to_string(rank));
        graph.indexAdjacency();

        graph.success = validateGraph(ctx);
        if (graph.success) {
            const std::vector<std::uint32_t> order = topologicalOrder(graph);
            if (order.size() != graph.nodes.size()) {
                graph.problems.emplace_back("the graph has a cycle");
                graph.success = false;
            } else if (parts == CriticalPathParts::GraphAndPath) {
                longestPath(graph, order);
            }
        }
        return graph;
    }

} // namespace

AnalysisOutput criticalPath(const FrameSet& frames, std::int64_t rank, const std::string& annotation,
    CriticalPathInstance instance, const AnalysisOptions& options)
{
    auto graph = buildCriticalPath(frames, rank, annotation, instance, options);
    if (!graph)
        return AnalysisOutput::notApplicable(graph.error().message);
    return criticalPathTables(graph.value());
}

} // namespace ks::core
