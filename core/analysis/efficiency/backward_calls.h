#pragma once

#include "core/analysis/efficiency/args_texts.h"
#include "core/analysis/efficiency/op_kernel_time.h"
#include "core/analysis/efficiency/perf_model.h"
#include "core/model/rank_trace.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
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
};

// The slices BackwardCalls reads the sequence numbers of: the evaluate_function events and every
// slice inside a forward call (the leaf forward op of a sequence number is nested in the call that
// owns it).
struct BackwardLinks
{
    std::vector<std::uint32_t> forwardSlices;
    std::vector<std::uint32_t> evaluate; // the evaluate_function events, by start
    std::vector<std::vector<std::uint32_t>> inside; // per forward slice: the slices of its subtree
    std::vector<std::uint32_t> candidates; // the evaluate events and the subtrees, sorted, no repeats
};

BackwardLinks backwardLinks(const RankTrace& trace, const std::vector<std::uint32_t>& forwardSlices);
void addWanted(const BackwardLinks& links, ArgsWanted& wanted);

// Only the forward calls of `links` are looked at; one without a backward event is absent.
BackwardCalls backwardCalls(
    const RankTrace& trace, const BackwardLinks& links, const RankArgsTexts& args, bool tracelensLinks);

// The other direction, for a backward op recorded under its own name whose model reads its forward
// call's args (OpModel::forwardOp: apex's ConvBias_Backward reads its ConvBias_): per backward call,
// the args text of the forward call of that name with its "Sequence number". Ours: the latest such
// call starting before the backward call (sequence numbers count per forward thread and a trace holds
// no forward thread to tell them apart by: a forward op's "Fwd thread id" is 0). TraceLens's
// (`reading.tracelens`): ConvBias_.fwd_pass_cache, filled as it walks the calls in the file's order
// with every forward call its model accepts, so the last such call before the backward in the file,
// on any thread. A backward call without one is absent (TraceLens's model then raises: no row).
struct ForwardCalls
{
    std::unordered_map<std::uint32_t, const std::string*> argsOf; // backward slice -> its forward call's args
};

// `calls`: the rank's modelled calls (the forward calls are looked for among them, wherever they
// are); `backwardSlices`: the calls of forwardOp models to match. The links name the slices whose
// text ForwardCalls reads.
struct ForwardLinks
{
    std::vector<std::pair<std::uint32_t, std::string_view>> backwards; // backward slice, its forward op
    std::vector<std::uint32_t> forwards; // the calls of those forward ops, sorted
};

ForwardLinks forwardLinks(const RankTrace& trace, const std::vector<ModelledCall>& calls,
    const std::vector<std::uint32_t>& backwardSlices);
void addWanted(const ForwardLinks& links, ArgsWanted& wanted);

// `args` must hold the text of every slice of `links` (and lives as long as the result).
ForwardCalls forwardCalls(const RankTrace& trace, const std::vector<ModelledCall>& calls,
    const ForwardLinks& links, const RankArgsTexts& args, const ModelReading& reading);

} // namespace ks::core
