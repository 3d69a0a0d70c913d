// Condenses one rank's A8 graph to its collectives: the collective kernels'
// own operator edges are cut (the join replaces them), then longest paths are
// followed from the rank's start and from each collective's end.

#include "core/analysis/cross_rank/cross_rank_condense.h"

#include <algorithm>
#include <array>
#include <bit>
#include <limits>
#include <optional>
#include <span>
#include <unordered_map>
#include <utility>

namespace ks::core {

namespace {

    constexpr TimeNs kUnreached = std::numeric_limits<TimeNs>::min();
    constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

    // What the time of one graph edge is, for pieces and what-if: the row it is spent in and its bound.
    struct EdgeMeaning
    {
        std::uint32_t row = TimedGraph::kNoRow;
        PathBound bound = PathBound::Cpu;
    };

    EdgeMeaning meaningOf(const CriticalPathGraph& g, const CpEdge& e)
    {
        const RankFrame& frame = *g.frame;
        const auto rowIndex = [&frame](const FrameRow& row) {
            return static_cast<std::uint32_t>(&row - frame.rows.data());
        };
        switch (e.type) {
        case CpEdgeType::KernelLaunchDelay:
            return { g.nodes[e.dst].row, PathBound::LaunchOverhead };
        case CpEdgeType::KernelKernelDelay:
        case CpEdgeType::Operator: {
            const FrameRow* row = e.attributedEvent >= 0 ? frame.rowOfEvent(e.attributedEvent) : nullptr;
            if (!row)
                return {};
            PathBound bound = PathBound::Cpu;
            if (e.type == CpEdgeType::KernelKernelDelay)
                bound = PathBound::KernelGap;
            else if (row->device)
                bound = row->kernelType == KernelType::Communication ? PathBound::GpuCommWait
                                                                     : PathBound::GpuCompute;
            return { rowIndex(*row), bound };
        }
        case CpEdgeType::Dependency:
        case CpEdgeType::SyncDependency:
            break;
        }
        return {};
    }

    // The timed graph with scaled weights and one longest-path pass at a time.
    class Condenser
    {
    public:
        Condenser(const CondenseInput& input, const TimedGraph& g)
            : m_input(input)
            , m_frame(input.frames->ranks[input.rankPos])
            , m_names(*m_frame.trace)
            , m_g(g)
            , m_arcs(g.edges.size())
            , m_dist(g.nodeTs.size(), kUnreached)
            , m_via(g.nodeTs.size(), kNone)
            , m_reached((g.nodeTs.size() + 63) / 64, 0)
        {
            // One factor per (name, bound): the regular expressions run once per name.
            std::vector<double> factor(g.spentIn.size(), 1.0);
            if (input.whatIf && !input.whatIf->empty())
                for (std::size_t k = 0; k < g.spentIn.size(); ++k)
                    factor[k] = input.whatIf->factor(g.spentIn[k].name, g.spentIn[k].bound);
            // A fix's edits of this rank's own events (rows, time windows) decide per edge.
            std::optional<RankEditedFactors> edits;
            if (input.whatIf && input.whatIf->hasEditsFor(m_frame.rank))
                edits.emplace(*input.whatIf, m_frame.rank, m_frame.rows.size());
            for (std::size_t id = 0; id < g.edges.size(); ++id) {
                const TimedGraph::Edge& e = g.edges[id];
                const double f = edits
                    ? edits->factor(e.row, g.spentIn[e.spentIn].bound, g.nodeTs[e.src], factor[e.spentIn])
                    : factor[e.spentIn];
                m_arcs[id] = { e.dst, WhatIfScaling::scaledBy(e.weight, f) };
            }
        }

        // Record the nodes each pass visits into `into` (the first condensing of a graph
        // that is kept): later Condensers on the graph replay them.
        void recordVisits(TimedGraph::PassVisits& into)
        {
            m_record = &into;
            into.offsets.assign(1, 0);
            into.nodes.clear();
            into.lookahead = m_input.lookahead;
        }

        // From the rank's start: every node without a predecessor except the collectives' ends.
        void passFromStart()
        {
            reset();
            noteFarthestUpTo(m_g.nodeTs.size());
            std::vector<bool> isEnd(m_g.nodeTs.size(), false);
            for (const std::uint32_t e : m_g.ends)
                isEnd[e] = true;
            for (std::uint32_t v = 0; v < m_g.nodeTs.size(); ++v)
                if (m_g.isSource[v] && !isEnd[v])
                    touch(v, 0);
            run(0, 0, m_g.nodeTs.size());
        }

        // From collective k's end, far enough to reach the next `lookahead` arrivals.
        // Returns whether the pass reached the end of the order (the rank's end counts).
        bool passFromEnd(std::size_t k)
        {
            reset();
            std::size_t limit = m_g.nodeTs.size();
            const std::size_t lastTarget = k + m_input.lookahead;
            if (lastTarget + 1 < m_g.arrivals.size()) {
                limit = 0;
                for (std::size_t j = k + 1; j <= lastTarget; ++j)
                    limit = std::max<std::size_t>(limit, m_g.arrivals[j] + 1);
            }
            noteFarthestUpTo(limit);
            touch(m_g.ends[k], 0);
            run(k + 1, m_g.ends[k], limit);
            return limit == m_g.nodeTs.size();
        }

        TimeNs dist(std::uint32_t node) const { return m_dist[node]; }

        bool reached(std::uint32_t node) const { return m_dist[node] != kUnreached; }

        // The reached node farthest from the pass's sources, the first reached among
        // equals. Known after a pass that runs to the end of the order only: such a
        // pass notes it as it assigns distances (a node's distance only grows, so
        // the largest assigned is the largest final one, and the first reached of
        // the nodes that end there is the last to win a tie) instead of a scan over
        // every node it reached.
        std::uint32_t farthest() const { return m_farthest; }

        // Calls visit(piece) for each piece of the longest path to `node`, in path order
        // (graph edges of one event and bound merged), without keeping them.
        template <typename Visit>
        void visitPieces(std::uint32_t node, Visit&& visit) const
        {
            visitPiecesOf(pathEdgesTo(node), std::forward<Visit>(visit));
        }

        // The edges of the longest path to `node`, from `node` back to its source.
        std::vector<std::uint32_t> pathEdgesTo(std::uint32_t node) const
        {
            std::vector<std::uint32_t> edges;
            for (std::uint32_t v = node; m_via[v] != kNone; v = m_g.edges[m_via[v]].src)
                edges.push_back(m_via[v]);
            return edges;
        }

        // visitPieces over edges pathEdgesTo gave.
        template <typename Visit>
        void visitPiecesOf(const std::vector<std::uint32_t>& edges, Visit&& visit) const
        {
            PathPiece current;
            NameId currentName;
            bool open = false;
            for (auto it = edges.rbegin(); it != edges.rend(); ++it) {
                const TimeNs w = m_arcs[*it].weight;
                if (w <= 0)
                    continue;
                const TimedGraph::Edge& e = m_g.edges[*it];
                const FrameRow* row = e.row == TimedGraph::kNoRow ? nullptr : &m_frame.rows[e.row];
                const NameId nameId = row ? m_frame.trace->slices.name[row->slice] : NameId {};
                const std::int64_t eventIndex = row ? row->eventIndex : -1;
                const PathBound bound = m_g.spentIn[e.spentIn].bound;
                if (open && current.eventIndex == eventIndex && current.bound == bound
                    && currentName == nameId) {
                    current.duration += w;
                    continue;
                }
                if (open)
                    visit(std::move(current));
                current = { m_names.of(nameId), bound, m_g.nodeTs[e.src], w, eventIndex };
                currentName = nameId;
                open = true;
            }
            if (open)
                visit(std::move(current));
        }

        std::vector<PathPiece> piecesTo(std::uint32_t node) const
        {
            const std::vector<std::uint32_t> edges = pathEdgesTo(node);
            std::vector<PathPiece> pieces;
            // At most a piece an edge: reserved once, since growing by doubling copied the
            // pieces and touched twice their memory (a single rank's path is all of them);
            // the pages a merge leaves unused are never touched.
            pieces.reserve(edges.size());
            visitPiecesOf(edges, [&pieces](PathPiece&& p) { pieces.push_back(std::move(p)); });
            return pieces;
        }

        std::vector<NameTime> nameTimesTo(std::uint32_t node) const
        {
            NameTimes sums;
            visitPieces(node, [&sums](PathPiece&& p) { sums.add(p); });
            return sums.take();
        }

    private:
        // Pass `pass` (0: the start's, k + 1: collective k's end's) over [from, to): replayed
        // where the graph recorded its visits, else found with the bitmap (and recorded).
        void run(std::size_t pass, std::size_t from, std::size_t to)
        {
            const TimedGraph::PassVisits& replay = m_g.passVisits;
            if (!m_record && pass + 1 < replay.offsets.size() && replay.lookahead == m_input.lookahead) {
                m_replayed = { replay.nodes.data() + replay.offsets[pass],
                    replay.nodes.data() + replay.offsets[pass + 1] };
                if (to == m_g.nodeTs.size())
                    replayPass<true>(to);
                else
                    replayPass<false>(to);
                return;
            }
            relax(from, to);
            if (m_record) {
                m_record->nodes.insert(m_record->nodes.end(), m_visited.begin(), m_visited.end());
                m_record->offsets.push_back(static_cast<std::uint32_t>(m_record->nodes.size()));
            }
        }

        void reset()
        {
            for (const std::uint32_t v : m_touched) {
                m_dist[v] = kUnreached;
                m_via[v] = kNone;
                m_reached[v / 64] = 0;
            }
            for (const std::uint32_t v : m_replayed) { // what a replay reached besides its sources
                m_dist[v] = kUnreached;
                m_via[v] = kNone;
            }
            m_touched.clear();
            m_visited.clear();
            m_replayed = {};
        }

        void touch(std::uint32_t v, TimeNs d)
        {
            if (m_dist[v] == kUnreached) {
                if (m_noteFarthest)
                    m_reachRank[v] = static_cast<std::uint32_t>(m_touched.size());
                m_touched.push_back(v);
                m_reached[v / 64] |= std::uint64_t { 1 } << (v % 64);
            }
            m_dist[v] = d;
            if (m_noteFarthest)
                noteDistance(v, d);
        }

        // A pass to `to`: it notes its farthest node when it runs to the end of the order.
        void noteFarthestUpTo(std::size_t to)
        {
            m_noteFarthest = to == m_g.nodeTs.size();
            m_farthest = kNone;
            if (m_noteFarthest && m_reachRank.empty())
                m_reachRank.assign(m_g.nodeTs.size(), 0);
        }

        // Node v was given distance d (its largest so far).
        void noteDistance(std::uint32_t v, TimeNs d)
        {
            if (m_farthest == kNone || d > m_dist[m_farthest]
                || (d == m_dist[m_farthest] && m_reachRank[v] < m_reachRank[m_farthest]))
                m_farthest = v;
        }

        // The recorded visits of a pass, in order: the same relaxations as relax()
        // makes (reachability does not depend on the weights), without searching
        // for the reached nodes. Every node a relaxation reaches is visited by the
        // pass (it lies before `to`), so reset() clears them through m_replayed;
        // only a pass to the end of the order notes the order they are first reached
        // in (farthest() breaks ties by it).
        template <bool kNoteReached>
        void replayPass(std::size_t to)
        {
            for (const std::uint32_t v : m_replayed) {
                const TimeNs dv = m_dist[v];
                const std::uint32_t last = m_g.successorOffsets[v + 1];
                for (std::uint32_t id = m_g.successorOffsets[v]; id < last; ++id) {
                    const Arc arc = m_arcs[id];
                    if (arc.dst >= to)
                        continue;
                    const TimeNs d = dv + arc.weight;
                    TimeNs& current = m_dist[arc.dst];
                    if (current == kUnreached) {
                        if constexpr (kNoteReached) {
                            m_reachRank[arc.dst] = static_cast<std::uint32_t>(m_touched.size());
                            m_touched.push_back(arc.dst);
                        }
                    } else if (d <= current) {
                        continue;
                    }
                    current = d;
                    m_via[arc.dst] = id;
                    if constexpr (kNoteReached)
                        noteDistance(arc.dst, d);
                }
            }
        }

        // The first reached node at or after v, `to` when none before it.
        std::size_t nextReached(std::size_t v, std::size_t to) const
        {
            if (v >= to)
                return to;
            std::size_t word = v / 64;
            std::uint64_t bits = m_reached[word] & (~std::uint64_t { 0 } << (v % 64));
            while (bits == 0) {
                if (++word * 64 >= to)
                    return to;
                bits = m_reached[word];
            }
            return std::min(to, word * 64 + static_cast<std::size_t>(std::countr_zero(bits)));
        }

        // Nodes are numbered in topological order: one sweep over the reached
        // nodes of [from, to) in that order. A collective's end has no uncut
        // in-edge, so every end sits near the start of the order and a pass
        // from one spans most of the graph while it reaches a small part: the
        // bitmap skips the rest 64 nodes at a time.
        void relax(std::size_t from, std::size_t to)
        {
            for (std::size_t v = nextReached(from, to); v < to; v = nextReached(v + 1, to)) {
                if (m_record)
                    m_visited.push_back(static_cast<std::uint32_t>(v));
                const TimeNs dv = m_dist[v]; // successors come after v: it does not change here
                const std::uint32_t last = m_g.successorOffsets[v + 1];
                for (std::uint32_t id = m_g.successorOffsets[v]; id < last; ++id) {
                    const Arc arc = m_arcs[id];
                    if (arc.dst >= to)
                        continue;
                    const TimeNs d = dv + arc.weight;
                    if (m_dist[arc.dst] == kUnreached || d > m_dist[arc.dst]) {
                        touch(arc.dst, d);
                        m_via[arc.dst] = id;
                    }
                }
            }
        }

        const CondenseInput& m_input;
        const RankFrame& m_frame;
        mutable PathNames m_names; // what piecesTo names pieces with, one per name

        // What a pass reads of an edge, packed: its head and its scaled weight.
        struct Arc
        {
            std::uint32_t dst = 0;
            TimeNs weight = 0;
        };

        const TimedGraph& m_g;
        std::vector<Arc> m_arcs; // per edge
        std::vector<TimeNs> m_dist;
        std::vector<std::uint32_t> m_via;
        std::vector<std::uint32_t> m_touched; // in the order first reached
        std::vector<std::uint64_t> m_reached; // bit per node: touched in this pass
        bool m_noteFarthest = false; // this pass runs to the end of the order
        std::uint32_t m_farthest = kNone;
        std::vector<std::uint32_t> m_reachRank; // per node: its place in m_touched, in a pass noting farthest
        TimedGraph::PassVisits* m_record = nullptr;
        std::vector<std::uint32_t> m_visited; // this pass's, while recording
        std::span<const std::uint32_t> m_replayed;
    };

    // Longest-path weights only: a whole trace has thousands of collectives and
    // each pass reaches up to `lookahead` arrivals, so naming every reached path
    // would keep collectives x lookahead x path length pieces, nearly all of them
    // dropped by the join. Pieces are named later for the edges the answer uses
    // (resolveGraphPieces), unless the input asks for all of them.
    void addEdgesOfPass(const Condenser& c, std::uint32_t from, const std::vector<std::uint32_t>& arrivals,
        bool reachesEnd, bool withPieces, CondensedRank& out)
    {
        auto pieces = [&](std::uint32_t node) {
            return withPieces ? c.piecesTo(node) : std::vector<PathPiece> {};
        };
        for (std::uint32_t k = 0; k < arrivals.size(); ++k)
            if (c.reached(arrivals[k]) && k + 1 != from)
                out.edges.push_back({ from, k, c.dist(arrivals[k]), pieces(arrivals[k]), {} });
        if (!reachesEnd)
            return;
        const std::uint32_t last = c.farthest();
        if (last != kNone)
            out.edges.push_back({ from, out.rankEnd(), c.dist(last), pieces(last), {} });
    }

    // The rank's collectives in the graph and their arrival and end nodes.
    void addBoundaries(const CondenseInput& input, const CriticalPathGraph& g, TimedGraph& out)
    {
        const RankFrame& frame = input.frames->ranks[input.rankPos];
        std::unordered_map<std::uint32_t, const PathCollectiveSlice*> bySlice;
        for (const PathCollectiveSlice& c : *input.collectives)
            bySlice[c.slice] = &c;
        std::vector<std::uint32_t> endNodeOfRow(frame.rows.size(), kNone);
        for (std::uint32_t v = 0; v < g.nodes.size(); ++v)
            if (!g.nodes[v].isStart)
                endNodeOfRow[g.nodes[v].row] = v;
        for (std::uint32_t v = 0; v < g.nodes.size(); ++v) { // nodes are in time order: arrival order
            const CpNode& node = g.nodes[v];
            if (!node.isStart)
                continue;
            const FrameRow& row = frame.rows[node.row];
            const auto it = bySlice.find(row.slice);
            if (it == bySlice.end() || endNodeOfRow[node.row] == kNone)
                continue;
            out.collectives.push_back({ it->second->instance, (*input.instanceNames)[it->second->instance],
                row.ts, row.end(), row.eventIndex, row.iteration, it->second->complete });
            out.arrivals.push_back(v);
            out.ends.push_back(endNodeOfRow[node.row]);
        }
    }

    // Interns (name, bound) pairs as TimedGraph::spentIn indexes.
    class SpentInIndex
    {
    public:
        explicit SpentInIndex(std::vector<TimedGraph::SpentIn>& table)
            : m_table(table)
        {
        }

        // The name of frame row `row` (none for kNoRow): looked up by its interned id, not its text.
        std::uint32_t of(const RankFrame& frame, std::uint32_t row, PathBound bound)
        {
            const NameId id =
                row == TimedGraph::kNoRow ? NameId {} : frame.trace->slices.name[frame.rows[row].slice];
            const std::uint64_t key = (std::uint64_t { id.value } << 8) | static_cast<std::uint64_t>(bound);
            const auto [it, fresh] = m_byKey.try_emplace(key, static_cast<std::uint32_t>(m_table.size()));
            if (fresh)
                m_table.push_back(
                    { row == TimedGraph::kNoRow ? std::string {} : std::string(frame.name(frame.rows[row])),
                        bound });
            return it->second;
        }

    private:
        std::vector<TimedGraph::SpentIn>& m_table;
        std::unordered_map<std::uint64_t, std::uint32_t> m_byKey; // (name id, bound) -> index
    };

} // namespace

TimedGraph timedGraphOf(const CondenseInput& input, const CriticalPathGraph& g)
{
    const RankFrame& frame = input.frames->ranks[input.rankPos];
    TimedGraph out;
    addBoundaries(input, g, out);
    const std::size_t n = g.nodes.size();
    // The collectives' own operator edges are cut: the join replaces them.
    std::vector<std::uint32_t> endOfArrival(n, kNone);
    for (std::size_t k = 0; k < out.arrivals.size(); ++k)
        endOfArrival[out.arrivals[k]] = out.ends[k];
    std::vector<char> cut(g.edges.size(), 0);
    for (std::uint32_t id = 0; id < g.edges.size(); ++id) {
        const CpEdge& e = g.edges[id];
        cut[id] =
            e.type == CpEdgeType::Operator && endOfArrival[e.src] != kNone && endOfArrival[e.src] == e.dst;
    }
    // Kahn's order over the uncut edges, sources in node order, successors in adjacency order.
    std::vector<std::uint32_t> indegree(n, 0);
    for (std::uint32_t id = 0; id < g.edges.size(); ++id)
        if (!cut[id])
            ++indegree[g.edges[id].dst];
    std::vector<std::uint32_t> order;
    order.reserve(n);
    std::vector<bool> isSource(n, false);
    for (std::uint32_t v = 0; v < n; ++v)
        if (indegree[v] == 0) {
            order.push_back(v);
            isSource[v] = true;
        }
    for (std::size_t i = 0; i < order.size(); ++i)
        for (const std::uint32_t id : g.successorsOf(order[i]))
            if (!cut[id] && --indegree[g.edges[id].dst] == 0)
                order.push_back(g.edges[id].dst);
    if (order.size() != n) {
        out.acyclic = false;
        return out;
    }
    std::vector<std::uint32_t> position(n, 0);
    for (std::uint32_t i = 0; i < n; ++i)
        position[order[i]] = i;
    indegree = {};
    for (std::uint32_t& v : out.arrivals)
        v = position[v];
    for (std::uint32_t& v : out.ends)
        v = position[v];
    out.nodeTs.reserve(n);
    out.isSource.reserve(n);
    out.successorOffsets.reserve(n + 1);
    out.successorOffsets.push_back(0);
    out.edges.reserve(g.edges.size());
    SpentInIndex spentIn(out.spentIn);
    for (std::uint32_t p = 0; p < n; ++p) {
        const std::uint32_t v = order[p];
        out.nodeTs.push_back(g.nodes[v].ts);
        out.isSource.push_back(isSource[v]);
        for (const std::uint32_t id : g.successorsOf(v)) {
            if (cut[id])
                continue;
            const CpEdge& e = g.edges[id];
            const EdgeMeaning m = meaningOf(g, e);
            out.edges.push_back(
                { p, position[e.dst], e.graphWeight, spentIn.of(frame, m.row, m.bound), m.row });
        }
        out.successorOffsets.push_back(static_cast<std::uint32_t>(out.edges.size()));
    }
    return out;
}

namespace {

    // condenseTimed, recording the passes' visits into `record` where given.
    CondensedRank condenseWith(
        const CondenseInput& input, const TimedGraph& g, TimedGraph::PassVisits* record)
    {
        const RankFrame& frame = input.frames->ranks[input.rankPos];
        CondensedRank out;
        out.rank = frame.rank;
        out.windowStart = input.window.start;
        out.windowEnd = input.window.end;
        out.collectives = input.relabelled ? *input.relabelled : g.collectives;
        for (RankCollective& c : out.collectives)
            c.transferScale = collectiveScale(input, c);

        if (!g.acyclic) {
            out.notes.push_back("rank " + std::to_string(out.rank) + ": the event graph has a cycle");
            return out;
        }
        Condenser c(input, g);
        if (record)
            c.recordVisits(*record);
        c.passFromStart();
        addEdgesOfPass(c, CondensedRank::kStart, g.arrivals, true, input.piecesForEveryEdge, out);
        for (std::size_t k = 0; k < g.ends.size(); ++k) {
            const bool reachesEnd = c.passFromEnd(k);
            addEdgesOfPass(c, out.endOfCollective(k), g.arrivals, reachesEnd, input.piecesForEveryEdge, out);
        }
        return out;
    }

} // namespace

CondensedRank condenseTimed(const CondenseInput& input, const TimedGraph& g)
{
    return condenseWith(input, g, nullptr);
}

CondensedRank condenseGraph(const CondenseInput& input, const CriticalPathGraph& graph)
{
    TimedGraph timed = timedGraphOf(input, graph);
    // A kept graph is condensed again by every what-if: it keeps its passes' visits.
    TimedGraph::PassVisits visits;
    CondensedRank out = condenseWith(input, timed, input.keepTimed ? &visits : nullptr);
    if (input.keepTimed) {
        timed.passVisits = std::move(visits);
        *input.keepTimed = std::make_shared<const TimedGraph>(std::move(timed));
    }
    return out;
}

bool resolveTimedPieces(
    const CondenseInput& input, const TimedGraph& g, CondensedRank& rank, const EdgesToName& edges)
{
    if (g.collectives.size() != rank.collectives.size())
        return false; // not the graph the rank was condensed from
    if (!g.acyclic)
        return false;
    Condenser c(input, g);
    // Every edge once, by source: one pass per source, as condenseTimed ran it.
    std::vector<std::pair<std::uint32_t, bool>> todo; // edge, pieces (else name times only)
    for (const std::uint32_t e : edges.pieces)
        todo.emplace_back(e, true);
    for (const std::uint32_t e : edges.nameTimes)
        todo.emplace_back(e, false);
    std::sort(todo.begin(), todo.end(), [&rank](const auto& x, const auto& y) {
        const std::uint32_t fx = rank.edges[x.first].from, fy = rank.edges[y.first].from;
        return fx != fy ? fx < fy : x.first != y.first ? x.first < y.first : x.second > y.second;
    });
    std::uint32_t passOf = kNone;
    std::uint32_t previous = kNone;
    for (const auto& [index, withPieces] : todo) {
        if (index == previous)
            continue; // pieces were named (they answer name times too)
        previous = index;
        CondensedEdge& e = rank.edges[index];
        if (e.from != passOf) {
            passOf = e.from;
            if (e.from == CondensedRank::kStart)
                c.passFromStart();
            else
                c.passFromEnd(e.from - 1);
        }
        const std::uint32_t target = e.to == rank.rankEnd() ? c.farthest() : g.arrivals[e.to];
        if (target == kNone || c.dist(target) != e.weight)
            return false;
        if (withPieces)
            e.pieces = c.piecesTo(target);
        else
            e.nameTimes = c.nameTimesTo(target);
    }
    return true;
}

} // namespace ks::core
