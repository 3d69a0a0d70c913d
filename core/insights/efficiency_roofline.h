#pragma once

// The efficiency analysis as low_efficiency reads it: per rank and op
// family, the kernel time of the modelled calls, their time at the roofline, and
// the kernels they launched (what the what-if shrinks on the critical path).

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/insights/efficiency_seam.h"
#include "core/model/trace_set.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// Kernel names a family's what-if pattern holds at most, the heaviest first:
// a family of thousands of distinct kernels would make a pattern std::regex
// cannot compile, and the rest barely move the path.
inline constexpr std::size_t kMaxWhatIfKernelNames = 48;

// "^(a|b|...)$" matching exactly the kMaxWhatIfKernelNames names with the most
// kernel time (all of them when fewer): what a family's what-if scales.
std::string whatIfNamesPattern(const std::map<std::string_view, TimeNs>& timeByName);

// Rows with a roofline (a known device) only; `set` is the one the report was computed on.
std::vector<OpFamilyRoofline> rooflineByFamily(const TraceSet& set, const EfficiencyReport& report);

// What low_efficiency gets from the efficiency analysis: the families, or why there are none.
struct FamilyRooflines
{
    std::vector<OpFamilyRoofline> families;
    std::optional<std::string> notApplicable; // "unknown device ...", "no input shapes recorded ..."
};

// The efficiency analysis of each rank of `frames`, scoped as the frames are:
// the calls that start inside the rank's rows (a window the frames were
// restricted to) and, when given, in `iterations`; against the device
// `device` chooses (a --device name or --peaks file, else the trace's own).
FamilyRooflines rooflineOfFrames(const FrameSet& frames,
    const std::optional<std::vector<std::int64_t>>& iterations, const RooflineDevice& device);

} // namespace ks::core
