#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/hta_result.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// A8 critical path (hta-semantics.md §11): the event graph of one rank over an
// annotation instance, its longest path, and the GPU->CPU / GPU->GPU
// synchronization dependencies found on the way.

enum class CpEdgeType : std::uint8_t
{
    Operator,
    Dependency,
    KernelLaunchDelay,
    KernelKernelDelay,
    SyncDependency
};

// HTA's names: "critical_path_operator", "critical_path_dependency", ...
std::string_view cpEdgeTypeName(CpEdgeType type);

// Which annotation instances bound the window: HTA's instance_id (a, b), inclusive.
struct CriticalPathInstance
{
    std::int64_t first = 0;
    std::int64_t last = 0;
};

// A point in time of one event: its start or its end.
struct CpNode
{
    std::uint32_t row = 0; // row of the rank's frame
    std::int64_t eventIndex = 0; // position in traceEvents
    std::int64_t ts = 0; // ns, frame time base
    bool isStart = false;
    bool blocking = false; // a synchronizing runtime call: its span weighs nothing
};

struct CpEdge
{
    std::uint32_t src = 0;
    std::uint32_t dst = 0;
    CpEdgeType type = CpEdgeType::Operator;
    std::int64_t weight = 0; // ns, as computed (HTA's edge object)
    std::int64_t graphWeight = 0; // ns, as the longest path uses it (negatives counted as 0 are 0)
    std::int64_t attributedEvent = -1; // event the span belongs to; -1 when none
    bool inferred = false; // default mode: a sync dependency inferred without a cuda_sync record
};

// The graph of one rank and its longest path. Refers to the FrameSet's rank
// frame, which must outlive it.
struct CriticalPathGraph
{
    AnalysisMode mode = AnalysisMode::Default;
    const RankFrame* frame = nullptr;
    std::int64_t rank = 0;
    std::size_t clippedRows = 0;
    std::int64_t windowStart = 0; // ns
    std::int64_t windowEnd = 0; // ns (INT64_MAX: no end)

    std::vector<CpNode> nodes; // numbered by (ts, event index), start before end
    std::vector<CpEdge> edges; // in first-insertion order; re-adding an edge overwrites it in place
    // Adjacency in compressed rows, edge ids in insertion order (networkx's
    // adjacency order): the out-edges of node v are
    // successorEdges[successorOffsets[v] .. successorOffsets[v + 1]).
    std::vector<std::uint32_t> successorOffsets;
    std::vector<std::uint32_t> successorEdges;
    std::vector<std::uint32_t> predecessorOffsets;
    std::vector<std::uint32_t> predecessorEdges;

    bool success = false;
    // Why the graph is not valid: cycles, same-stream syncs, in default mode a CPU
    // nesting broken by more than 1 µs (HTA-compatible mode zeroes every negative weight).
    std::vector<std::string> problems;
    std::vector<std::string>
        warnings; // what HTA only logs (kernels without an incoming edge, zeroed weights, ...)

    std::vector<std::uint32_t> pathNodes;
    std::vector<std::uint32_t> pathEdges; // edge ids along the path
    std::vector<bool> edgeOnPath; // edge id -> on the path
    std::int64_t pathWeight = 0; // ns, sum of graph weights

    // Every SYNC_DEPENDENCY edge, in graph order (node order, then insertion order).
    std::vector<std::uint32_t> syncEdges() const;

    // Edge ids in networkx's iteration order (node order, then insertion order).
    const std::vector<std::uint32_t>& edgesInGraphOrder() const { return successorEdges; }

    std::span<const std::uint32_t> successorsOf(std::uint32_t node) const;
    std::span<const std::uint32_t> predecessorsOf(std::uint32_t node) const;
    // Builds the adjacency from `edges`; called once the edges are complete.
    void indexAdjacency();
    bool onPath(std::uint32_t edgeId) const;
};

// An explicit window (frame time base, ns): host rows starting in [start, end].
struct CriticalPathWindow
{
    std::int64_t start = 0;
    std::int64_t end = 0;
};

// Builds the graph and its longest path. Errors are "not applicable" reasons
// (rank absent, annotation or instance not found, no kernel launches, HTA's
// "Could not find runtime index"); an invalid graph is a result with success false.
Result<CriticalPathGraph> buildCriticalPath(const FrameSet& frames, std::int64_t rank,
    const std::string& annotation, CriticalPathInstance instance, const AnalysisOptions& options);

// What buildCriticalPath computes: the graph and its longest path, or the
// graph only (still checked: success false for a cycle or a broken nesting;
// the path's fields stay empty). The cross-rank path condenses the graph and
// never reads its longest path.
enum class CriticalPathParts : std::uint8_t
{
    GraphAndPath,
    GraphOnly,
};

// What the graph is built for. `Analysis` is HTA's graph, the single-rank
// critical path's. `Retiming` is the graph the job path re-times for what-ifs,
// one that must keep the recorded timeline's constraints when weights change:
// - a CPU thread's time between two consecutive top-level ops counts as the
//   thread's own (HTA chains them with a zero-weight dependency, Q14): a rank whose
//   data loader stalls between ops is late by the stall, and shortened ops must not
//   move the stall off the path;
// - every kernel keeps a zero-weight edge from its launch, as HTA adds for
//   simulations (CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE): a queued kernel hangs
//   off the kernel before it, and once that chain shrinks it must still not start
//   before the host launched it;
// - every kernel keeps a zero-weight edge from the previous work on its stream: one
//   launched onto an idle stream has only its launch edge, and once the host
//   shrinks it must still not overlap the kernel before it.
enum class GraphPurpose : std::uint8_t
{
    Analysis,
    Retiming,
};

// The same over an explicit window instead of an annotation instance (the
// cross-rank path clips every rank to one iteration or a time range).
Result<CriticalPathGraph> buildCriticalPath(const FrameSet& frames, std::int64_t rank,
    CriticalPathWindow window, const AnalysisOptions& options,
    CriticalPathParts parts = CriticalPathParts::GraphAndPath, GraphPurpose purpose = GraphPurpose::Analysis);

// The result as tables (dict): "summary", "edge_types", "summary_pct_by_bound_type",
// "critical_path_edges", "sync_dependency_edges", "breakdown".
AnalysisOutput criticalPath(const FrameSet& frames, std::int64_t rank, const std::string& annotation,
    CriticalPathInstance instance, const AnalysisOptions& options);
AnalysisOutput criticalPathTables(const CriticalPathGraph& graph);

// HTA's shorten_name: template and call arguments removed, last word kept;
// memory names and names without brackets unchanged.
std::string shortenNameHta(std::string_view name);

} // namespace ks::core
