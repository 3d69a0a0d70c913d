#pragma once

// One rank's part of the cross-rank path: its collectives and the longest
// paths between them (CondensedRank). Only this is kept per rank, so a large
// job needs memory for its collectives, not for all of its events.

#include "core/analysis/critical_path/critical_path.h"
#include "core/analysis/cross_rank/cross_rank_collectives.h"
#include "core/analysis/cross_rank/cross_rank_path.h"
#include "core/analysis/cross_rank/what_if.h"

#include <cstddef>
#include <vector>

namespace ks::core {

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
bool resolveGraphPieces(const CondenseInput& input, const CriticalPathGraph& graph, CondensedRank& rank,
    const EdgesToName& edges);
CondensedRank condenseSerial(const CondenseInput& input);

// The what-if factor of a collective's own time: transfer when it is joined,
// gpu_comm_wait when not.
double collectiveScale(const CondenseInput& input, const RankCollective& c);

// The collectives of the rank that start inside the window, in arrival order.
std::vector<RankCollective> collectivesInWindow(const CondenseInput& input);

} // namespace ks::core
