#include "core/analysis/cross_rank/cross_rank_path.h"

#include <algorithm>
#include <array>
#include <limits>

namespace ks::core {

namespace {

    constexpr std::array<std::string_view, kPathBoundCount> kBoundNames = {
        "cpu",
        "gpu_compute",
        "gpu_comm_wait",
        "transfer",
        "launch_overhead",
        "kernel_kernel_gap",
    };

    constexpr TimeNs kUnreached = std::numeric_limits<TimeNs>::min();
    constexpr std::uint32_t kNoEdge = std::numeric_limits<std::uint32_t>::max();

    struct JoinEdge
    {
        std::uint32_t src = 0;
        std::uint32_t dst = 0;
        TimeNs weight = 0;
        PathStep::Kind kind = PathStep::Kind::Condensed;
        std::uint32_t rankPos = 0;
        std::uint32_t index = 0; // condensed edge, or collective of rankPos
    };

    // Node numbering: per rank, its start, arrivals, ends and end; then one join
    // node per instance.
    class JoinGraph
    {
    public:
        explicit JoinGraph(const std::vector<CondensedRank>& ranks)
        {
            m_base.reserve(ranks.size() + 1);
            std::uint32_t next = 0;
            for (const CondensedRank& r : ranks) {
                m_base.push_back(next);
                m_collectives.push_back(static_cast<std::uint32_t>(r.collectives.size()));
                next += 2 + 2 * static_cast<std::uint32_t>(r.collectives.size());
            }
            m_joinBase = next;
        }

        std::uint32_t start(std::size_t p) const { return m_base[p]; }

        std::uint32_t arrival(std::size_t p, std::size_t k) const
        {
            return m_base[p] + 1 + static_cast<std::uint32_t>(k);
        }

        std::uint32_t end(std::size_t p, std::size_t k) const
        {
            return m_base[p] + 1 + m_collectives[p] + static_cast<std::uint32_t>(k);
        }

        std::uint32_t rankEnd(std::size_t p) const { return m_base[p] + 1 + 2 * m_collectives[p]; }

        std::uint32_t join(std::uint32_t instance) const { return m_joinBase + instance; }

        std::uint32_t nodeCount(std::size_t instances) const
        {
            return m_joinBase + static_cast<std::uint32_t>(instances);
        }

        // The boundary node of a condensed edge's `from`, the target node of its `to`.
        std::uint32_t fromNode(std::size_t p, std::uint32_t from) const
        {
            return from == CondensedRank::kStart ? start(p) : end(p, from - 1);
        }

        std::uint32_t toNode(std::size_t p, std::uint32_t to) const
        {
            return to == m_collectives[p] ? rankEnd(p) : arrival(p, to);
        }

    private:
        std::vector<std::uint32_t> m_base;
        std::vector<std::uint32_t> m_collectives;
        std::uint32_t m_joinBase = 0;
    };

    // A member's time in the collective, after what-if scaling.
    TimeNs ownTime(const RankCollective& c)
    {
        if (c.transferScale == 1.0)
            return c.end - c.arrival;
        return static_cast<TimeNs>(static_cast<double>(c.end - c.arrival) * c.transferScale);
    }

    std::vector<JoinedCollective> collectInstances(const std::vector<CondensedRank>& ranks)
    {
        std::uint32_t count = 0;
        for (const CondensedRank& r : ranks)
            for (const RankCollective& c : r.collectives)
                count = std::max(count, c.instance + 1);
        std::vector<JoinedCollective> instances(count);
        std::vector<bool> incomplete(count, false);
        for (std::size_t p = 0; p < ranks.size(); ++p) {
            for (std::size_t k = 0; k < ranks[p].collectives.size(); ++k) {
                const RankCollective& c = ranks[p].collectives[k];
                JoinedCollective& joined = instances[c.instance];
                const TimeNs scaled = ownTime(c);
                if (joined.members.empty()) {
                    joined.name = c.name;
                    joined.iteration = c.iteration;
                    joined.transfer = scaled;
                }
                joined.transfer = std::min(joined.transfer, scaled);
                joined.members.push_back({ p, k });
                if (!c.complete)
                    incomplete[c.instance] = true;
            }
        }
        for (std::uint32_t i = 0; i < count; ++i)
            instances[i].joined = !incomplete[i] && instances[i].members.size() >= 2;
        return instances;
    }

    // Kahn's order; shorter than the node count when the graph has a cycle.
    std::vector<std::uint32_t> topologicalOrder(std::uint32_t nodes, const std::vector<JoinEdge>& edges,
        const std::vector<std::uint32_t>& offsets, const std::vector<std::uint32_t>& out)
    {
        std::vector<std::uint32_t> indegree(nodes, 0);
        for (const JoinEdge& e : edges)
            ++indegree[e.dst];
        std::vector<std::uint32_t> order;
        order.reserve(nodes);
        for (std::uint32_t v = 0; v < nodes; ++v)
            if (indegree[v] == 0)
                order.push_back(v);
        for (std::size_t i = 0; i < order.size(); ++i)
            for (std::uint32_t j = offsets[order[i]]; j < offsets[order[i] + 1]; ++j)
                if (--indegree[edges[out[j]].dst] == 0)
                    order.push_back(edges[out[j]].dst);
        return order;
    }

    std::vector<JoinEdge> joinEdges(
        const std::vector<CondensedRank>& ranks, const JoinGraph& graph, CrossRankPath& path)
    {
        std::vector<JoinEdge> edges;
        std::size_t unjoined = 0;
        std::string example;
        for (std::size_t p = 0; p < ranks.size(); ++p) {
            const CondensedRank& r = ranks[p];
            const auto rp = static_cast<std::uint32_t>(p);
            for (std::uint32_t i = 0; i < r.edges.size(); ++i)
                edges.push_back({ graph.fromNode(p, r.edges[i].from), graph.toNode(p, r.edges[i].to),
                    r.edges[i].weight, PathStep::Kind::Condensed, rp, i });
            for (std::uint32_t k = 0; k < r.collectives.size(); ++k) {
                const RankCollective& c = r.collectives[k];
                const JoinedCollective& joined = path.collectives[c.instance];
                if (joined.joined) {
                    edges.push_back(
                        { graph.arrival(p, k), graph.join(c.instance), 0, PathStep::Kind::ToJoin, rp, k });
                    edges.push_back({ graph.join(c.instance), graph.end(p, k), joined.transfer,
                        PathStep::Kind::FromJoin, rp, k });
                } else {
                    edges.push_back(
                        { graph.arrival(p, k), graph.end(p, k), ownTime(c), PathStep::Kind::Own, rp, k });
                    if (unjoined++ == 0)
                        example = "'" + c.name + "' on rank " + std::to_string(r.rank);
                }
            }
        }
        if (unjoined)
            path.notes.push_back(std::to_string(unjoined)
                + " collective instance(s) could not be joined across ranks (a member is missing or it "
                  "never completed there; the first: "
                + example + "): their whole duration stays on that rank's path as gpu_comm_wait");
        return edges;
    }

    // The pieces a path edge contributes, in order.
    void appendSegments(const std::vector<CondensedRank>& ranks, const PathStep& e, const PathStep* previous,
        CrossRankPath& path)
    {
        const CondensedRank& r = ranks[e.rankPos];
        switch (e.kind) {
        case PathStep::Kind::Condensed:
            for (const PathPiece& piece : r.edges[e.index].pieces) {
                path.segments.push_back({ r.rank, piece, path.length });
                path.length += piece.duration;
            }
            return;
        case PathStep::Kind::ToJoin:
            return;
        case PathStep::Kind::FromJoin: {
            const RankCollective& c = r.collectives[e.index];
            if (previous && previous->kind == PathStep::Kind::ToJoin && previous->rankPos != e.rankPos)
                path.hops.push_back(
                    { ranks[previous->rankPos].rank, r.rank, c.instance, c.name, path.length });
            PathPiece piece { c.name, PathBound::Transfer, c.end - e.weight, e.weight, c.eventIndex };
            path.segments.push_back({ r.rank, std::move(piece), path.length });
            path.length += e.weight;
            return;
        }
        case PathStep::Kind::Own: {
            const RankCollective& c = r.collectives[e.index];
            PathPiece piece { c.name, PathBound::GpuCommWait, c.arrival, e.weight, c.eventIndex };
            path.segments.push_back({ r.rank, std::move(piece), path.length });
            path.length += e.weight;
            return;
        }
        }
    }

} // namespace

std::string_view pathBoundName(PathBound bound)
{
    return kBoundNames[static_cast<std::size_t>(bound)];
}

bool pathBoundFromName(std::string_view name, PathBound& bound)
{
    for (std::size_t i = 0; i < kBoundNames.size(); ++i)
        if (kBoundNames[i] == name) {
            bound = static_cast<PathBound>(i);
            return true;
        }
    return false;
}

void NameTimes::add(const PathPiece& piece)
{
    if (piece.name.empty())
        return;
    auto [it, fresh] = m_index.try_emplace(piece.name.str(), m_times.size());
    if (fresh)
        m_times.push_back({ piece.name.str(), 0, 0, -1 });
    NameTime& t = m_times[it->second];
    t.total += piece.duration;
    if (piece.duration > t.longest) {
        t.longest = piece.duration;
        t.longestEvent = piece.eventIndex;
    }
}

std::vector<NameTime> NameTimes::take()
{
    m_index.clear();
    return std::move(m_times);
}

std::vector<NameTime> nameTimesOf(const CondensedEdge& edge)
{
    if (edge.pieces.empty())
        return edge.nameTimes;
    NameTimes sums;
    for (const PathPiece& p : edge.pieces)
        sums.add(p);
    return sums.take();
}

std::array<TimeNs, kPathBoundCount> CrossRankPath::timeByBound(std::int64_t rank) const
{
    std::array<TimeNs, kPathBoundCount> sums {};
    for (const PathSegment& s : segments)
        if (s.rank == rank)
            sums[static_cast<std::size_t>(s.piece.bound)] += s.piece.duration;
    return sums;
}

CrossRankPath findJoinedPath(const std::vector<CondensedRank>& ranks)
{
    CrossRankPath path;
    path.collectives = collectInstances(ranks);
    if (ranks.empty()) {
        path.notes.emplace_back("no rank to join");
        return path;
    }
    const JoinGraph graph(ranks);
    const std::uint32_t nodes = graph.nodeCount(path.collectives.size());
    const std::vector<JoinEdge> edges = joinEdges(ranks, graph, path);

    std::vector<std::uint32_t> offsets(nodes + 1, 0), out(edges.size());
    for (const JoinEdge& e : edges)
        ++offsets[e.src + 1];
    for (std::uint32_t v = 0; v < nodes; ++v)
        offsets[v + 1] += offsets[v];
    {
        std::vector<std::uint32_t> next(offsets.begin(), offsets.end() - 1);
        for (std::uint32_t i = 0; i < edges.size(); ++i)
            out[next[edges[i].src]++] = i;
    }
    const std::vector<std::uint32_t> order = topologicalOrder(nodes, edges, offsets, out);
    if (order.size() != nodes) {
        path.notes.emplace_back("the ranks' collectives form a cycle (members order their collectives "
                                "differently): no cross-rank path");
        return path;
    }

    // Every rank starts at 0; other nodes are reached only through edges.
    std::vector<TimeNs> dist(nodes, kUnreached);
    std::vector<std::uint32_t> via(nodes, kNoEdge);
    for (std::size_t p = 0; p < ranks.size(); ++p)
        dist[graph.start(p)] = 0;
    for (const std::uint32_t v : order) {
        if (dist[v] == kUnreached)
            continue;
        for (std::uint32_t j = offsets[v]; j < offsets[v + 1]; ++j) {
            const JoinEdge& e = edges[out[j]];
            if (dist[v] + e.weight > dist[e.dst]) {
                dist[e.dst] = dist[v] + e.weight;
                via[e.dst] = out[j];
            }
        }
    }

    std::size_t last = 0;
    for (std::size_t p = 1; p < ranks.size(); ++p)
        if (dist[graph.rankEnd(p)] > dist[graph.rankEnd(last)])
            last = p;
    if (dist[graph.rankEnd(last)] == kUnreached) {
        path.notes.emplace_back("no rank's end is reachable from its start");
        return path;
    }
    for (std::uint32_t v = graph.rankEnd(last); via[v] != kNoEdge; v = edges[via[v]].src) {
        const JoinEdge& e = edges[via[v]];
        path.steps.push_back({ e.kind, e.rankPos, e.index, e.weight });
    }
    std::reverse(path.steps.begin(), path.steps.end());
    path.length = dist[graph.rankEnd(last)];

    path.arrivalEdge.resize(ranks.size());
    for (std::size_t p = 0; p < ranks.size(); ++p) {
        path.arrivalEdge[p].assign(ranks[p].collectives.size(), -1);
        for (std::size_t k = 0; k < ranks[p].collectives.size(); ++k) {
            const std::uint32_t e = via[graph.arrival(p, k)];
            if (e != kNoEdge && edges[e].kind == PathStep::Kind::Condensed)
                path.arrivalEdge[p][k] = static_cast<std::int32_t>(edges[e].index);
        }
    }
    path.ok = true;
    return path;
}

std::vector<std::uint32_t> pathEdgesOfRank(const CrossRankPath& path, std::size_t rankPos)
{
    std::vector<std::uint32_t> out;
    for (const PathStep& step : path.steps)
        if (step.kind == PathStep::Kind::Condensed && step.rankPos == rankPos)
            out.push_back(step.index);
    return out;
}

void layOutSegments(const std::vector<CondensedRank>& ranks, CrossRankPath& path)
{
    path.segments.clear();
    path.hops.clear();
    path.length = 0;
    std::size_t unnamed = 0;
    // Reserved at once: the segments of a long path are tens of MB, and growing by
    // doubling copied them and touched twice their memory.
    std::size_t count = 0;
    for (const PathStep& step : path.steps)
        count += step.kind == PathStep::Kind::Condensed ? ranks[step.rankPos].edges[step.index].pieces.size()
            : step.kind == PathStep::Kind::ToJoin       ? 0
                                                        : 1;
    path.segments.reserve(count);
    const PathStep* previous = nullptr;
    for (const PathStep& step : path.steps) {
        if (step.kind == PathStep::Kind::Condensed && step.weight > 0
            && ranks[step.rankPos].edges[step.index].pieces.empty())
            ++unnamed;
        appendSegments(ranks, step, previous, path);
        previous = &step;
    }
    if (unnamed)
        path.notes.push_back(std::to_string(unnamed)
            + " edge(s) of the path have no pieces named (the trace changed since it was condensed?): "
              "their time is missing from the segments");
}

CrossRankPath joinCondensedRanks(const std::vector<CondensedRank>& ranks)
{
    CrossRankPath path = findJoinedPath(ranks);
    if (path.ok)
        layOutSegments(ranks, path);
    return path;
}

} // namespace ks::core
