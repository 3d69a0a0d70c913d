#pragma once

// Shared state of the critical-path graph construction, split over
// critical_path.cpp (window, nodes, longest path), critical_path_cpu.cpp
// (runtime lock and call-stack edges) and critical_path_gpu.cpp (kernel and
// synchronization edges). Not a public header.

#include "core/analysis/critical_path/critical_path.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ks::core::cp {

constexpr std::int32_t kNoNode = -1;
constexpr std::string_view kCudaSyncCategory = "cuda_sync";

// Edge id by (source, target) node: open addressing in two flat arrays, as
// the build adds about one edge a node and a node-based map allocated one
// entry per edge.
class EdgeIdIndex
{
public:
    void reserve(std::size_t n);
    // The id of the edge src -> dst, and false; or, when there is none yet, `fresh` (now its id) and true.
    std::pair<std::uint32_t, bool> findOrInsert(std::uint32_t src, std::uint32_t dst, std::uint32_t fresh);

private:
    static constexpr std::uint64_t kEmpty = ~std::uint64_t { 0 }; // no node pair has both ids at the maximum

    void grow(std::size_t capacity);
    std::size_t slotOf(std::uint64_t key) const;

    std::vector<std::uint64_t> m_keys; // (src << 32) | dst, kEmpty where free; size a power of two
    std::vector<std::uint32_t> m_ids;
    std::size_t m_size = 0;
};

// The graph under construction plus the lookups every phase needs.
class GraphContext
{
public:
    GraphContext(const FrameSet& frames, const RankFrame& frame, CriticalPathGraph& graph);

    const FrameSet& frames;
    const RankFrame& frame;
    CriticalPathGraph& graph;
    const bool compat;
    GraphPurpose purpose = GraphPurpose::Analysis; // Retiming: the job path's graph (critical_path.h)
    std::vector<std::uint32_t> clipped; // frame rows in the window, by event index
    std::vector<char> lockNodes; // per node: a call that takes the CUDA driver's lock (once nodes exist)

    const FrameRow& row(std::uint32_t r) const { return frame.rows[r]; }

    std::string_view name(std::uint32_t r) const { return frame.name(frame.rows[r]); }

    std::string_view category(std::uint32_t r) const { return frame.category(frame.rows[r]); }

    std::optional<std::uint32_t> rowOfEvent(std::int64_t eventIndex) const;

    // "CPU row" of the window split: HTA tests stream == -1 (Q3); default mode
    // takes every row that is neither device work nor a cuda_sync record.
    bool isHostRow(std::uint32_t r) const;
    // GPU work that gets nodes and kernel edges: HTA's stream != -1, or device activity.
    bool isGpuWork(std::uint32_t r) const;

    void setNodes(std::uint32_t r, std::int32_t start, std::int32_t end);

    std::int32_t startNode(std::uint32_t r) const { return m_startNode[r]; }

    std::int32_t endNode(std::uint32_t r) const { return m_endNode[r]; }

    std::int32_t endNodeOfEvent(std::int64_t eventIndex) const;

    // networkx DiGraph.add_edge: a second edge between the same nodes replaces
    // the first in place (same adjacency position).
    std::uint32_t addEdge(std::uint32_t src, std::uint32_t dst, CpEdgeType type, bool zeroWeight = false);

    void reserveEdges(std::size_t n)
    {
        m_edgeIds.reserve(n);
        graph.edges.reserve(n);
    }

    // HTA's _attribute_edge: spans and kernel-kernel gaps belong to an event.
    void attributeEdge(std::uint32_t edgeId, std::int64_t sourceParentEvent);

private:
    std::vector<std::int32_t> m_startNode;
    std::vector<std::int32_t> m_endNode;
    EdgeIdIndex m_edgeIds;
};

void addRuntimeLockEdges(GraphContext& ctx);
void addCallStackEdges(GraphContext& ctx);
// Error: HTA's assertions (no queue-length series; a launch without nodes).
std::optional<Error> addKernelEdges(GraphContext& ctx);

// numpy's unstable argsort for HTA-compatible tie order, a stable sort otherwise.
std::vector<std::uint32_t> sortOrder(const std::vector<std::int64_t>& keys, bool compat);

} // namespace ks::core::cp
