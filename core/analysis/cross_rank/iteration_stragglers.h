#pragma once

// The `stragglers` table of a job summary: per iteration, the rank the others
// waited for and the wait it caused, from the collectives' stored arrivals and
// ends alone, picked as the folder's stragglers.h picks it on the job's path (a
// member's wait is its duration minus the instance's shortest, so no clock
// alignment; the rank that arrived last has the shortest; per iteration, the rank
// that caused the most wait, at the instance where it caused the most). Why the
// rank was late (its path before the collective) needs its events.

#include "core/analysis/cross_rank/collective_match.h"
#include "core/analysis/cross_rank/rank_collectives.h"
#include "core/analysis/tables/hta_result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

struct IterationStraggler
{
    std::int64_t iteration = -1; // -1: collectives outside any ProfilerStep
    std::int64_t rank = 0;
    TimeNs waitCaused = 0; // Σ over the iteration's instances it arrived last at of the others' waits
    std::size_t collectives = 0; // instances of the iteration it arrived last at
    std::string collective; // where it caused the most wait
    TimeNs aheadOfNext = 0; // there: the next-latest member's duration minus its own
};

// `ranks` are the slices matchCollectives matched (each member's rankIndex and
// slice index them; a slice's iteration is the summary's), `rankNumbers` their
// ranks. An instance's iteration is its lowest-ranked member's, as the job path's.
std::vector<IterationStraggler> iterationStragglers(const CollectiveMatch& match,
    const std::vector<RankCollectives>& ranks, const std::vector<std::int64_t>& rankNumbers);

// The folder's `stragglers` columns the arrivals answer (iteration, rank,
// wait_caused_ms, collectives_last, collective) and ahead_of_next_ms; not
// applicable with no instance on two ranks.
AnalysisOutput iterationStragglersTable(const std::vector<IterationStraggler>& found);

} // namespace ks::core
