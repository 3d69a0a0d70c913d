#pragma once

// The memory analysis of the context's rank, computed once per context (the
// memory rules and memory_pressure read it).

#include "core/insights/insights_context.h"

namespace ks::core {

const RankMemory& memoryOfRank(InsightsContext& context);

} // namespace ks::core
