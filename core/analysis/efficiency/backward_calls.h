#pragma once

#include "core/common/result.h"
#include "core/model/rank_trace.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace ks::core {

// The autograd backward of forward calls, as TraceLens links them (Trace2Tree's
// link_all_fwd_bwd_events and get_subtree_bwd_events): each sequence number's first
// `autograd::engine::evaluate_function: ...` event belongs to the latest-starting event
// with that "Sequence number" on another thread (the leaf forward op); a forward call's
// backward events are those of it and of the ops nested in it. Its backward kernel time
// is the union of the GPU work launched inside those events.
struct BackwardCalls
{
    std::unordered_map<std::uint32_t, TimeNs> kernelTime; // forward slice -> backward kernel time
    std::optional<Error> error; // the file changed since loading (args are re-read)
};

// Only the forward calls given are looked at; one without a backward event is absent.
BackwardCalls backwardCalls(
    const RankTrace& trace, const std::vector<std::uint32_t>& forwardSlices, bool tracelensLinks);

} // namespace ks::core
