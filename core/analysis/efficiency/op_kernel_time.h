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

std::vector<ModelledCall> modelledCalls(const RankTrace& trace);

} // namespace ks::core
