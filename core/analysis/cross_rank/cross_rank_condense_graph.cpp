// Condenses one rank's A8 graph to its collectives: the collective kernels'
// own operator edges are cut (the join replaces them), then longest paths are
// followed from the rank's start and from each collective's end.

#include "core/analysis/cross_rank/cross_rank_condense.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace ks::core {

namespace {

    constexpr TimeNs kUnreached = std::numeric_limits<TimeNs>::min();
    constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

    // What the time of one graph edge is, for pieces and what-if.
    struct EdgeMeaning
    {
        std::string_view name;
        PathBound bound = PathBound::Cpu;
        std::int64_t eventIndex = -1;
    };

    EdgeMeaning meaningOf(const CriticalPathGraph& g, const CpEdge& e)
    {
        const RankFrame& frame = *g.frame;
        switch (e.type) {
        case CpEdgeType::KernelLaunchDelay: {
            const FrameRow& kernel = frame.rows[g.nodes[e.dst].row];
            return { frame.name(kernel), PathBound::LaunchOverhead, kernel.eventIndex };
        }
        case CpEdgeType::KernelKernelDelay:
        case CpEdgeType::Operator: {
            const FrameRow* row = e.attributedEvent >= 0 ? frame.rowOfEvent(e.attributedEvent) : nullptr;
            if (!row)
                return { {}, PathBound::Cpu, -1 };
            PathBound bound = PathBound::Cpu;
            if (e.type == CpEdgeType::KernelKernelDelay)
                bound = PathBound::KernelGap;
            else if (row->device)
                bound = row->kernelType == KernelType::Communication ? PathBound::GpuCommWait
                                                                     : PathBound::GpuCompute;
            return { frame.name(*row), bound, row->eventIndex };
        }
        case CpEdgeType::Dependency:
        case CpEdgeType::SyncDependency:
            break;
        }
        return { {}, PathBound::Cpu, -1 };
    }

    // The cut graph with scaled weights, its order, and one longest-path pass at a time.
    class Condenser
    {
    public:
        Condenser(const CondenseInput& input, const CriticalPathGraph& g, std::vector<std::uint32_t> arrivals,
            std::vector<std::uint32_t> ends)
            : m_input(input)
            , m_g(g)
            , m_arrivals(std::move(arrivals))
            , m_ends(std::move(ends))
            , m_cut(g.edges.size(), false)
            , m_weight(g.edges.size(), 0)
            , m_dist(g.nodes.size(), kUnreached)
            , m_via(g.nodes.size(), kNone)
        {
            std::unordered_map<std::uint32_t, std::uint32_t> endOfArrival;
            for (std::size_t k = 0; k < m_arrivals.size(); ++k)
                endOfArrival[m_arrivals[k]] = m_ends[k];
            for (std::uint32_t id = 0; id < g.edges.size(); ++id) {
                const CpEdge& e = g.edges[id];
                const auto it = endOfArrival.find(e.src);
                m_cut[id] = e.type == CpEdgeType::Operator && it != endOfArrival.end() && it->second == e.dst;
                const EdgeMeaning m = meaningOf(g, e);
                m_weight[id] =
                    input.whatIf ? input.whatIf->scaled(e.graphWeight, m.name, m.bound) : e.graphWeight;
            }
            order();
        }

        bool acyclic() const { return m_order.size() == m_g.nodes.size(); }

        // From the rank's start: every node without a predecessor except the collectives' ends.
        void passFromStart()
        {
            reset();
            std::vector<bool> isEnd(m_g.nodes.size(), false);
            for (const std::uint32_t e : m_ends)
                isEnd[e] = true;
            for (const std::uint32_t v : m_order)
                if (m_indegree[v] == 0 && !isEnd[v])
                    touch(v, 0);
            relax(0, m_order.size());
        }

        // From collective k's end, far enough to reach the next `lookahead` arrivals.
        // Returns whether the pass reached the end of the order (the rank's end counts).
        bool passFromEnd(std::size_t k)
        {
            reset();
            touch(m_ends[k], 0);
            std::size_t limit = m_order.size();
            const std::size_t lastTarget = k + m_input.lookahead;
            if (lastTarget + 1 < m_arrivals.size()) {
                limit = 0;
                for (std::size_t j = k + 1; j <= lastTarget; ++j)
                    limit = std::max(limit, m_position[m_arrivals[j]] + 1);
            }
            relax(m_position[m_ends[k]], limit);
            return limit == m_order.size();
        }

        TimeNs dist(std::uint32_t node) const { return m_dist[node]; }

        // The reached node farthest from the pass's sources.
        std::uint32_t farthest() const
        {
            std::uint32_t best = kNone;
            for (const std::uint32_t v : m_touched)
                if (best == kNone || m_dist[v] > m_dist[best])
                    best = v;
            return best;
        }

        // Calls visit(piece) for each piece of the longest path to `node`, in path order
        // (graph edges of one event and bound merged), without keeping them.
        template <typename Visit>
        void visitPieces(std::uint32_t node, Visit&& visit) const
        {
            std::vector<std::uint32_t> edges;
            for (std::uint32_t v = node; m_via[v] != kNone; v = m_g.edges[m_via[v]].src)
                edges.push_back(m_via[v]);
            PathPiece current;
            bool open = false;
            for (auto it = edges.rbegin(); it != edges.rend(); ++it) {
                const TimeNs w = m_weight[*it];
                if (w <= 0)
                    continue;
                const EdgeMeaning m = meaningOf(m_g, m_g.edges[*it]);
                if (open && current.eventIndex == m.eventIndex && current.bound == m.bound
                    && current.name == m.name) {
                    current.duration += w;
                    continue;
                }
                if (open)
                    visit(std::move(current));
                current = { std::string(m.name), m.bound, m_g.nodes[m_g.edges[*it].src].ts, w, m.eventIndex };
                open = true;
            }
            if (open)
                visit(std::move(current));
        }

        std::vector<PathPiece> piecesTo(std::uint32_t node) const
        {
            std::vector<PathPiece> pieces;
            visitPieces(node, [&pieces](PathPiece&& p) { pieces.push_back(std::move(p)); });
            return pieces;
        }

        std::vector<NameTime> nameTimesTo(std::uint32_t node) const
        {
            NameTimes sums;
            visitPieces(node, [&sums](PathPiece&& p) { sums.add(p); });
            return sums.take();
        }

    private:
        void order()
        {
            m_indegree.assign(m_g.nodes.size(), 0);
            for (std::uint32_t id = 0; id < m_g.edges.size(); ++id)
                if (!m_cut[id])
                    ++m_indegree[m_g.edges[id].dst];
            std::vector<std::uint32_t> indegree = m_indegree;
            for (std::uint32_t v = 0; v < m_g.nodes.size(); ++v)
                if (indegree[v] == 0)
                    m_order.push_back(v);
            for (std::size_t i = 0; i < m_order.size(); ++i)
                for (const std::uint32_t id : m_g.successorsOf(m_order[i]))
                    if (!m_cut[id] && --indegree[m_g.edges[id].dst] == 0)
                        m_order.push_back(m_g.edges[id].dst);
            m_position.assign(m_g.nodes.size(), 0);
            for (std::size_t i = 0; i < m_order.size(); ++i)
                m_position[m_order[i]] = i;
        }

        void reset()
        {
            for (const std::uint32_t v : m_touched) {
                m_dist[v] = kUnreached;
                m_via[v] = kNone;
            }
            m_touched.clear();
        }

        void touch(std::uint32_t v, TimeNs d)
        {
            if (m_dist[v] == kUnreached)
                m_touched.push_back(v);
            m_dist[v] = d;
        }

        void relax(std::size_t from, std::size_t to)
        {
            for (std::size_t i = from; i < to; ++i) {
                const std::uint32_t v = m_order[i];
                if (m_dist[v] == kUnreached)
                    continue;
                for (const std::uint32_t id : m_g.successorsOf(v)) {
                    if (m_cut[id])
                        continue;
                    const std::uint32_t dst = m_g.edges[id].dst;
                    if (m_position[dst] >= to)
                        continue;
                    const TimeNs d = m_dist[v] + m_weight[id];
                    if (m_dist[dst] == kUnreached || d > m_dist[dst]) {
                        touch(dst, d);
                        m_via[dst] = id;
                    }
                }
            }
        }

        const CondenseInput& m_input;
        const CriticalPathGraph& m_g;
        std::vector<std::uint32_t> m_arrivals; // node of collective k's start
        std::vector<std::uint32_t> m_ends;
        std::vector<bool> m_cut;
        std::vector<TimeNs> m_weight;
        std::vector<std::uint32_t> m_indegree;
        std::vector<std::uint32_t> m_order;
        std::vector<std::size_t> m_position;
        std::vector<TimeNs> m_dist;
        std::vector<std::uint32_t> m_via;
        std::vector<std::uint32_t> m_touched;
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
            if (c.dist(arrivals[k]) != kUnreached && k + 1 != from)
                out.edges.push_back({ from, k, c.dist(arrivals[k]), pieces(arrivals[k]), {} });
        if (!reachesEnd)
            return;
        const std::uint32_t last = c.farthest();
        if (last != kNone)
            out.edges.push_back({ from, out.rankEnd(), c.dist(last), pieces(last), {} });
    }

    // The rank's collectives in the graph and their arrival and end nodes.
    struct Boundaries
    {
        std::vector<RankCollective> collectives;
        std::vector<std::uint32_t> arrivals;
        std::vector<std::uint32_t> ends;
    };

    Boundaries boundariesOf(const CondenseInput& input, const CriticalPathGraph& g)
    {
        const RankFrame& frame = input.frames->ranks[input.rankPos];
        std::unordered_map<std::uint32_t, const PathCollectiveSlice*> bySlice;
        for (const PathCollectiveSlice& c : *input.collectives)
            bySlice[c.slice] = &c;
        std::unordered_map<std::uint32_t, std::uint32_t> endNodeOfRow;
        for (std::uint32_t v = 0; v < g.nodes.size(); ++v)
            if (!g.nodes[v].isStart)
                endNodeOfRow[g.nodes[v].row] = v;
        Boundaries b;
        for (std::uint32_t v = 0; v < g.nodes.size(); ++v) { // nodes are in time order: arrival order
            const CpNode& node = g.nodes[v];
            if (!node.isStart)
                continue;
            const FrameRow& row = frame.rows[node.row];
            const auto it = bySlice.find(row.slice);
            if (it == bySlice.end() || !endNodeOfRow.count(node.row))
                continue;
            b.collectives.push_back({ it->second->instance, (*input.instanceNames)[it->second->instance],
                row.ts, row.end(), row.eventIndex, row.iteration, it->second->complete });
            b.collectives.back().transferScale = collectiveScale(input, b.collectives.back());
            b.arrivals.push_back(v);
            b.ends.push_back(endNodeOfRow[node.row]);
        }
        return b;
    }

} // namespace

CondensedRank condenseGraph(const CondenseInput& input, const CriticalPathGraph& g)
{
    const RankFrame& frame = input.frames->ranks[input.rankPos];
    CondensedRank out;
    out.rank = frame.rank;
    out.windowStart = input.window.start;
    out.windowEnd = input.window.end;
    Boundaries b = boundariesOf(input, g);
    out.collectives = std::move(b.collectives);

    Condenser c(input, g, b.arrivals, b.ends);
    if (!c.acyclic()) {
        out.notes.push_back("rank " + std::to_string(out.rank) + ": the event graph has a cycle");
        return out;
    }
    c.passFromStart();
    addEdgesOfPass(c, CondensedRank::kStart, b.arrivals, true, input.piecesForEveryEdge, out);
    for (std::size_t k = 0; k < b.ends.size(); ++k) {
        const bool reachesEnd = c.passFromEnd(k);
        addEdgesOfPass(c, out.endOfCollective(k), b.arrivals, reachesEnd, input.piecesForEveryEdge, out);
    }
    return out;
}

bool resolveGraphPieces(
    const CondenseInput& input, const CriticalPathGraph& g, CondensedRank& rank, const EdgesToName& edges)
{
    const Boundaries b = boundariesOf(input, g);
    if (b.collectives.size() != rank.collectives.size())
        return false; // not the graph the rank was condensed from
    Condenser c(input, g, b.arrivals, b.ends);
    if (!c.acyclic())
        return false;
    // Every edge once, by source: one pass per source, as condenseGraph ran it.
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
        const std::uint32_t target = e.to == rank.rankEnd() ? c.farthest() : b.arrivals[e.to];
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
