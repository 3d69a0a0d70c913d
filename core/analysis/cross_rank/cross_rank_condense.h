#pragma once

// One rank's part of the cross-rank path: its collectives and the longest
// paths between them (CondensedRank). Only this is kept per rank, so a large
// job needs memory for its collectives, not for all of its events.

#include "core/analysis/critical_path/critical_path.h"
#include "core/analysis/cross_rank/cross_rank_collectives.h"
#include "core/analysis/cross_rank/cross_rank_path.h"
#include "core/analysis/cross_rank/what_if.h"

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

namespace ks::core {

// One rank's event graph reduced to what condensing reads (the
// insights' what-ifs re-time this instead of building the event graph again,
// and the path's pieces are named from it). The collectives' own operator
// edges are cut (the join replaces them) and left out; nodes are numbered in
// the topological order the longest-path passes visit them (so node v's
// successors are all after v), and each node's out-edges keep the event
// graph's order, so passes relax them as they would on the graph. Per edge its
// weight, the row its time is spent in and the (name, bound) a what-if factor
// is looked up by: about 25 bytes an edge and 9 a node, where the event graph
// and its build need several hundred bytes a row.
struct TimedGraph
{
    static constexpr std::uint32_t kNoRow = 0xffffffffu;

    struct Edge
    {
        std::uint32_t src = 0;
        std::uint32_t dst = 0;
        TimeNs weight = 0; // the graph weight, before any what-if
        std::uint32_t spentIn = 0; // index into spentIn
        std::uint32_t row = kNoRow; // frame row the time belongs to, kNoRow when none
    };

    // What a what-if factor depends on: the name the time is spent in and its bound.
    struct SpentIn
    {
        std::string name;
        PathBound bound = PathBound::Cpu;
    };

    bool acyclic = true; // false: the cut graph has a cycle, and only the collectives are filled
    std::vector<TimeNs> nodeTs; // frame time base
    std::vector<bool> isSource; // no uncut in-edge
    std::vector<std::uint32_t> successorOffsets; // node v's out-edges: edges[offsets[v] .. offsets[v + 1])
    std::vector<Edge> edges;
    std::vector<SpentIn> spentIn;
    std::vector<RankCollective> collectives; // in arrival order, transferScale without a what-if
    std::vector<std::uint32_t> arrivals; // node of collective k's start
    std::vector<std::uint32_t> ends; // node of collective k's end

    // The nodes each longest-path pass visits, in visit order (pass 0 from the
    // rank's start, pass k + 1 from collective k's end). Which nodes a pass
    // reaches does not depend on the weights: the first condensing of a kept
    // graph records them and the what-ifs replay them instead of searching the
    // order for reached nodes again. About 3-4 entries a node (the passes
    // overlap by the lookahead); empty: not recorded.
    struct PassVisits
    {
        std::vector<std::uint32_t> offsets; // pass p: nodes[offsets[p] .. offsets[p + 1])
        std::vector<std::uint32_t> nodes;
        std::size_t lookahead = 0; // the passes' (CondenseInput::lookahead): another one replays none
    };

    PassVisits passVisits;
};

struct CondenseInput
{
    const FrameSet* frames = nullptr;
    std::size_t rankPos = 0; // index into frames->ranks
    const std::vector<PathCollectiveSlice>* collectives = nullptr; // that rank's
    const std::vector<std::string>* instanceNames = nullptr;
    CriticalPathWindow window; // frame time base
    const WhatIfScaling* whatIf = nullptr;
    // From a collective's end, paths are followed to the next `lookahead`
    // arrivals only (a longer reach is dominated by the collectives between).
    std::size_t lookahead = 16;
    // Name the pieces of every condensed edge while condensing (what the join
    // used to get). Off: edges carry weights only and resolveEdgePieces names
    // the few the path and the straggler explanations use; the answer is the
    // same (tst_cross_rank_path compares both), the memory linear.
    bool piecesForEveryEdge = false;
    const CancelToken* cancel = nullptr; // polled while the event graph is built
    // Where set, a rank with an event graph leaves its timed graph there (see
    // TimedGraph), so that what-ifs re-time it instead of building it again.
    std::shared_ptr<const TimedGraph>* keepTimed = nullptr;
    // Where set, the collectives a timed graph's arrivals and ends stand for, in
    // place of the graph's own (same count and order): a rank's path alone from the
    // graph its job kept, with the rank-alone match's instances (rankAlonePath).
    const std::vector<RankCollective>* relabelled = nullptr;
};

// The rank's A8 graph (default mode) condensed; a rank without one (no GPU
// launches, CPU-only ranks such as gloo jobs) gets the serial model: the main
// thread's time between its collectives, said in the notes.
CondensedRank condenseRank(const CondenseInput& input);

// Fills the pieces (or name times) of the edges named, rank being
// what condenseRank(input) returned: the serial model has them already; a
// graph rank's event graph is built again and only the passes those edges came
// from are run. False (the pieces stay empty) when the graph came out other
// than at condensing time (the frames changed under it).
// Which edges of a rank to name: `pieces` for the path's, name times only for
// edges that are compared (indexes into CondensedRank::edges).
struct EdgesToName
{
    std::vector<std::uint32_t> pieces;
    std::vector<std::uint32_t> nameTimes;

    bool empty() const { return pieces.empty() && nameTimes.empty(); }
};

bool resolveEdgePieces(const CondenseInput& input, CondensedRank& rank, const EdgesToName& edges);

// The parts, for tests and the two models.
CondensedRank condenseGraph(const CondenseInput& input, const CriticalPathGraph& graph);
CondensedRank condenseSerial(const CondenseInput& input);

// The event graph of input's rank as a timed graph (its collectives' scales without a what-if).
TimedGraph timedGraphOf(const CondenseInput& input, const CriticalPathGraph& graph);
// What condenseGraph gives for the graph the timed graph `g` came from, with input's what-if.
CondensedRank condenseTimed(const CondenseInput& input, const TimedGraph& g);
// resolveEdgePieces on the timed graph `g` the rank was condensed from (no event graph built).
bool resolveTimedPieces(
    const CondenseInput& input, const TimedGraph& g, CondensedRank& rank, const EdgesToName& edges);

// The what-if factor of a collective's own time: transfer when it is joined,
// gpu_comm_wait when not.
double collectiveScale(const CondenseInput& input, const RankCollective& c);

// The collectives of the rank that start inside the window, in arrival order.
std::vector<RankCollective> collectivesInWindow(const CondenseInput& input);

} // namespace ks::core
