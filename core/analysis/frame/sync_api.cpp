#include "core/analysis/frame/sync_api.h"

#include <algorithm>
#include <array>
#include <utility>

namespace ks::core {

namespace {

    constexpr std::array<std::pair<std::string_view, SyncCall>, 17> kSyncCalls = { {
        { "cudaDeviceSynchronize", SyncCall::DeviceSync },
        { "cuCtxSynchronize", SyncCall::DeviceSync },
        { "hipDeviceSynchronize", SyncCall::DeviceSync },
        { "cudaStreamSynchronize", SyncCall::StreamSync },
        { "cuStreamSynchronize", SyncCall::StreamSync },
        { "hipStreamSynchronize", SyncCall::StreamSync },
        { "cudaEventSynchronize", SyncCall::EventSync },
        { "cuEventSynchronize", SyncCall::EventSync },
        { "hipEventSynchronize", SyncCall::EventSync },
        { "cudaEventQuery", SyncCall::EventQuery },
        { "cuEventQuery", SyncCall::EventQuery },
        { "hipEventQuery", SyncCall::EventQuery },
        { "cudaMemcpy", SyncCall::Copy },
        { "hipMemcpy", SyncCall::Copy },
        { "cudaMemcpyAsync", SyncCall::AsyncCopy },
        { "hipMemcpyAsync", SyncCall::AsyncCopy },
        { "hipMemcpyWithStream", SyncCall::AsyncCopy },
    } };

    // HTA 0.6.1's critical path: the spans of these six weigh nothing.
    constexpr std::array<std::string_view, 6> kHtaBlockingCalls = { "cudaDeviceSynchronize",
        "cudaStreamSynchronize", "cudaEventQuery", "cudaEventSynchronize", "cudaMemcpy", "cudaMemcpyAsync" };

    constexpr auto kSyncCallNames = [] {
        std::array<std::string_view, kSyncCalls.size()> names {};
        for (std::size_t i = 0; i < kSyncCalls.size(); ++i)
            names[i] = kSyncCalls[i].first;
        return names;
    }();

} // namespace

SyncCall syncCallOf(std::string_view name)
{
    if (!name.starts_with("cu") && !name.starts_with("hip"))
        return SyncCall::None; // most rows: no scan
    const auto it = std::find_if(
        kSyncCalls.begin(), kSyncCalls.end(), [name](const auto& entry) { return entry.first == name; });
    return it == kSyncCalls.end() ? SyncCall::None : it->second;
}

std::span<const std::string_view> hostBlockingCallNames(AnalysisMode mode)
{
    if (mode == AnalysisMode::HtaCompat)
        return kHtaBlockingCalls;
    return kSyncCallNames;
}

} // namespace ks::core
