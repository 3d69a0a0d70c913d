#pragma once

#include "core/analysis/hta_result.h"
#include "core/model/trace_set.h"

#include <cstddef>

namespace ks::core {

// X2: the same collective on every rank. Communication kernels are matched
// across ranks by name and order (the n-th instance of a name on each rank;
// collectives of one process group run in the same order everywhere). For each
// instance: when the first and the last rank arrived (the skew is time the
// early ranks spend waiting), which rank came last, and how long all ranks
// were inside together (the transfer). Rows sorted by skew, largest first.
AnalysisOutput collectiveSkew(const TraceSet& traces, std::size_t top = 20);

} // namespace ks::core
