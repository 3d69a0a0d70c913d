#pragma once

// The efficiency analysis (issue 21) as low_efficiency reads it: per rank and op
// family, the kernel time of the modelled calls, their time at the roofline, and
// the kernels they launched (what the what-if shrinks on the critical path).

#include "core/analysis/efficiency/efficiency.h"
#include "core/insights/efficiency_seam.h"
#include "core/model/trace_set.h"

#include <vector>

namespace ks::core {

// Rows with a roofline (a known device) only; `set` is the one the report was computed on.
std::vector<OpFamilyRoofline> rooflineByFamily(const TraceSet& set, const EfficiencyReport& report);

// The efficiency report of the frames' ranks against the device their traces name,
// turned into roofline results; empty when the device is unknown or no shapes were recorded.
std::vector<OpFamilyRoofline> rooflineOfTraces(const TraceSet& set);

} // namespace ks::core
