#pragma once

// The memory analysis of the context's rank, computed once per context (the
// memory rules and memory_pressure read it).

#include "core/insights/insights_context.h"

namespace ks::core {

const RankMemory& memoryOfRank(InsightsContext& context);

// What memoryOfRank computes for `frame` under `options`: the memory analysis the
// rules read, without HTA #223's category tables.
std::shared_ptr<const RankMemory> insightsMemoryOf(const RankFrame& frame, const AnalysisOptions& options);

} // namespace ks::core
