#pragma once

#include <array>
#include <string_view>

namespace ks::core {

// Runtime calls that enqueue work on a stream, as HTA lists them
// (TraceSymbolTable.get_runtime_launch_events_mask): the launches of the queue
// length counter and of the critical path's launch edges.
inline constexpr std::array<std::string_view, 12> kHtaStreamLaunchNames = {
    "cudaLaunchKernel",
    "cudaLaunchKernelExC",
    "cuLaunchKernel",
    "cuLaunchKernelEx",
    "cudaMemcpyAsync",
    "cudaMemsetAsync",
    "hipLaunchKernel",
    "hipExtModuleLaunchKernel",
    "hipMemcpyAsync",
    "hipMemsetAsync",
    "hipMemcpyWithStream",
    "runFunction - job_prep_and_submit_for_execution",
};

} // namespace ks::core
