#pragma once

// The efficiency report one view of a load asks for: of some ranks, iterations
// or a window, against the device the traces name. The Efficiency view, the
// Overview's MFU and `overview`'s MFU line ask alike, so that TraceAnalyses
// computes one report where their requests are the same.

#include "core/analysis/efficiency/efficiency.h"
#include "core/session/frame_scope.h"

#include <cstdint>
#include <optional>
#include <vector>

namespace ks::core {

struct EfficiencyRequest
{
    EfficiencyOptions options;
    DeviceChoice device; // what options.device came from, and why when none
};

EfficiencyRequest efficiencyRequest(const TraceSet& set, std::vector<std::int64_t> ranks = {},
    std::vector<std::int64_t> iterations = {}, std::optional<AnalysisWindow> window = std::nullopt);

} // namespace ks::core
