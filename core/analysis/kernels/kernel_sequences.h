#pragma once

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/hta_result.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

struct KernelSequenceOptions
{
    AnalysisMode mode = AnalysisMode::Default;
    // Default mode: the operator's exact name, or an ECMAScript regex searched in
    // the name when `regex` is set. HTA-compatible mode: a substring of any name (Q12).
    bool regex = false;
    int minPatternLength = 3; // kernels an operator must launch (HTA's min_pattern_len)
    int topK = 5; // patterns marked in the annotated trace
};

// One pattern of the result, with the events it covers (for the annotated trace).
struct KernelPattern
{
    std::string pattern; // operator name, then its kernels' names in time order, joined by '|'
    std::int64_t count = 0;
    std::int64_t gpuDurationNs = 0;
    std::int64_t cpuDurationNs = 0;
    std::vector<std::uint32_t>
        eventIndices; // ascending: operators, runtime calls and kernels of every occurrence
};

struct KernelSequences
{
    AnalysisOutput output; // HTA's frame: pattern, count, GPU kernel duration (us), CPU op duration (us)
    std::int64_t rank = 0;
    std::vector<KernelPattern> patterns; // in the frame's order (count descending, pattern ascending)
};

// A7 (§10): HTA's get_frequent_cuda_kernel_sequences on one rank. Groups the
// whole kernel sequences launched by each matching operator; in HTA-compatible
// mode with HTA's call graph, its shallowest-match rule and its errors (a
// negative duration left by the ns rounding makes HTA raise: not applicable).
KernelSequences kernelSequences(const FrameSet& frames, std::int64_t rank, const std::string& operatorName,
    const KernelSequenceOptions& options);

// The file name HTA's reference gives a call: get_frequent_cuda_kernel_sequences__aten_linear.json.
std::string kernelSequencesFileName(const std::string& operatorName);

} // namespace ks::core
