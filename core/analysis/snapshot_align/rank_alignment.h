#pragma once

#include "core/analysis/snapshot_align/snapshot_alignment.h"

#include <cstddef>
#include <optional>

namespace ks::core {

struct TraceSet;

// A snapshot aligned with one rank of a loaded trace set: the rank the caller
// named, else the one whose steps fit the snapshot's (chooseSnapshotRank).
// The CLI, the app's Steps tab and the Python module all align this way.
struct RankAlignment
{
    std::size_t rankIndex = 0; // into set.ranks
    bool named = false; // the caller named the rank; else it is choice.best (or the only one)
    RankChoice choice; // how every rank fits (computed when the set holds more than one)
    SnapshotAlignment alignment; // its error says why nothing aligned (also: no rank loaded)
};

// `rank` outside set.ranks is treated as not given.
RankAlignment alignWithRank(const MemorySnapshot& snapshot, const SnapshotSummary& summary,
    const TraceSet& set, std::optional<std::size_t> rank, std::size_t top = 5);

} // namespace ks::core
