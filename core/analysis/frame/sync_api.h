#pragma once

#include "core/analysis/frame/analysis_options.h"

#include <cstdint>
#include <span>
#include <string_view>

namespace ks::core {

// What a host runtime call waits for, read from its name: the one place the
// synchronising calls of CUDA's runtime and driver and of HIP are named (the
// critical path's blocking spans and inferred sync edges, the sync
// dependencies' kinds, the insights' host-sync rule all ask here).
enum class SyncCall : std::uint8_t
{
    None, // does not wait for the GPU
    DeviceSync, // cudaDeviceSynchronize, cuCtxSynchronize, hipDeviceSynchronize: every stream
    StreamSync, // cudaStreamSynchronize, cuStreamSynchronize, hipStreamSynchronize
    EventSync, // cudaEventSynchronize, cuEventSynchronize, hipEventSynchronize
    EventQuery, // cudaEventQuery, cuEventQuery, hipEventQuery: returns at once, polled in a loop
    Copy, // cudaMemcpy, hipMemcpy: the host waits for the copy
    AsyncCopy, // cudaMemcpyAsync, hipMemcpyAsync: waits when the host memory is pageable
};

SyncCall syncCallOf(std::string_view name);

// The calls whose span is the host waiting (the critical path gives it no weight:
// the GPU work it waits for carries the time), for a lookup by interned name.
// HTA 0.6.1 knows six CUDA runtime names; by default every call syncCallOf names.
std::span<const std::string_view> hostBlockingCallNames(AnalysisMode mode);

} // namespace ks::core
