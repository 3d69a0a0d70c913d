#pragma once

#include "core/analysis/efficiency/perf_model.h"
#include "core/model/rank_trace.h"

#include <cstdint>
#include <vector>

namespace ks::core {

// The calls of modelled ops on one rank and their kernel time: the length of the
// union of the intervals of the GPU work launched from inside the call (by it or by
// ops nested in it, as TraceLens collects a call's kernels from its subtree).
struct ModelledCall
{
    std::uint32_t slice = 0;
    const OpModel* model = nullptr;
    TimeNs kernelTime = 0; // 0: it launched nothing
};

// A launch's GPU work is the GPU slices sharing its correlation id. With
// `tracelensLinks`, as TraceLens links them (Trace2Tree's add_gpu_ops_to_tree): a
// cudaGraphLaunch / hipGraphLaunch keeps every GPU slice of its correlation id, any other
// launch only those its ac2g flow starts point to (a ROCm memset whose flow was written
// without an "s" point counts for no op). A rank without a single ac2g flow keeps the
// correlation ids, where TraceLens would link nothing. With it too, a call's launches are
// those of TraceLens's host tree (an op that overruns the op around it is left out of it:
// no GPU work; its launches count for the op around it), not of the spans that contain them.
std::vector<ModelledCall> modelledCalls(const RankTrace& trace, bool tracelensLinks = false);

// The GPU busy time of each group of CPU slices: the length of the union of the GPU
// work launched inside any slice of the group (the backward events of a forward call).
std::vector<TimeNs> busyTimeOfGroups(const RankTrace& trace,
    const std::vector<std::vector<std::uint32_t>>& groups, bool tracelensLinks = false);

} // namespace ks::core
