#pragma once

// The seam between the insights engine and the efficiency analysis (the
// roofline per op family): low_efficiency reads these results and nothing
// else, so wiring the analysis in is filling InsightsContext::roofline.

#include "core/analysis/efficiency/efficiency.h"
#include "core/insights/finding.h"
#include "core/model/event_tables.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

// One op family (GEMM, attention, elementwise, ...) on one rank, as the
// efficiency analysis measures it against its roofline.
struct OpFamilyRoofline
{
    std::int64_t rank = 0;
    std::string family; // "GEMM"
    std::string namePattern; // regular expression over kernel names: what the what-if shrinks
    TimeNs measuredNs = 0; // the family's kernel time
    TimeNs rooflineNs = 0; // the time at its roofline (> 0)
    RankWhere where; // its slowest kernels: events and time ranges (the trace's clock)
};

class InsightsContext;
struct RuleOutcome;

// low_efficiency on one rank's context: a finding per family of that rank at
// least `minRatio` times slower than its roofline whose what-if (its kernels
// scaled to the roofline time) gives back at least `minGainPct` %.
RuleOutcome lowEfficiencyFindings(InsightsContext& context, const std::vector<OpFamilyRoofline>& families,
    double minRatio, double minGainPct);

} // namespace ks::core
