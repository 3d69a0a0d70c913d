#pragma once

#include "core/analysis/hta_result.h"
#include "core/model/trace_set.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ks::core {

// X2: the same collective on every rank. Communication kernels are matched
// across ranks by name and order (the n-th instance of a name on each rank;
// collectives of one process group run in the same order everywhere). For each
// instance: when the first and the last rank arrived (the skew is time the
// early ranks spend waiting), which rank came last, and how long all ranks
// were inside together (the transfer). Rows sorted by skew, largest first.
AnalysisOutput collectiveSkew(const TraceSet& traces, std::size_t top = 20);

// One rank's arrival at one instance of a collective.
struct RankArrival
{
    std::int64_t rank = 0;
    TimeNs start = 0;
    TimeNs end = 0;
};

// (name, ordinal: the n-th instance of that name on a rank) -> every rank's arrival.
using CollectiveInstances = std::map<std::pair<std::string, std::int64_t>, std::vector<RankArrival>>;

// X2 over instances gathered elsewhere (a job summary's collectives table);
// first arrivals are reported relative to `origin`.
AnalysisOutput collectiveSkewOf(const CollectiveInstances& instances, TimeNs origin, std::size_t top = 20);

// One rank's instance of a collective.
struct CollectiveArrival
{
    std::size_t rankIndex = 0; // position in the list of ranks given
    std::uint32_t slice = 0;
    TimeNs start = 0;
    TimeNs end = 0;
};

// The same collective as `slice` of ranks[rankIndex] on every rank (itself
// included), matched by name and order as above; empty when the slice is not a
// communication kernel on a GPU stream.
std::vector<CollectiveArrival> sameCollectiveOnRanks(
    const std::vector<const RankTrace*>& ranks, std::size_t rankIndex, std::uint32_t slice);

} // namespace ks::core
