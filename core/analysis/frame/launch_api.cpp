#include "core/analysis/frame/launch_api.h"

#include "core/model/string_pool.h"

#include <algorithm>
#include <array>

namespace ks::core {

namespace {

    constexpr std::string_view kMtiaLaunch = "runFunction - job_prep_and_submit_for_execution";

    // Kinetoscope's launch APIs by prefix, so that the variants a runtime adds
    // (cudaLaunchKernel_ptsz, cuLaunchKernelEx, hipExtModuleLaunchKernel, ...) count
    // without a new release. One table: the what-if pattern below is written from it.
    constexpr std::array<std::string_view, 7> kKernelPrefixes = { "cudaLaunch", "cuLaunch", "hipLaunch",
        "hipExtLaunch", "hipModuleLaunch", "hipExtModuleLaunch", "hipHccModuleLaunch" };
    constexpr std::array<std::string_view, 3> kGraphPrefixes = { "cudaGraphLaunch", "cuGraphLaunch",
        "hipGraphLaunch" };
    constexpr std::array<std::string_view, 6> kMemoryPrefixes = { "cudaMemcpy", "cudaMemset", "cuMemcpy",
        "cuMemset", "hipMemcpy", "hipMemset" };

    bool startsWithAny(std::string_view name, const auto& prefixes)
    {
        return std::any_of(
            prefixes.begin(), prefixes.end(), [name](std::string_view p) { return name.starts_with(p); });
    }

    bool isOneOf(std::string_view name, std::initializer_list<std::string_view> names)
    {
        return std::find(names.begin(), names.end(), name) != names.end();
    }

    LaunchKind htaLaunchStats(std::string_view name)
    {
        if (isOneOf(name, { "cudaLaunchKernel", "cudaLaunchKernelExC", kMtiaLaunch }))
            return LaunchKind::Kernel;
        return isOneOf(name, { "cudaMemsetAsync", "cudaMemcpyAsync" }) ? LaunchKind::Memory
                                                                       : LaunchKind::None;
    }

    LaunchKind htaStreamLaunches(std::string_view name)
    {
        if (isOneOf(name,
                { "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
                    "hipLaunchKernel", "hipExtModuleLaunchKernel", kMtiaLaunch }))
            return LaunchKind::Kernel;
        return isOneOf(name,
                   { "cudaMemcpyAsync", "cudaMemsetAsync", "hipMemcpyAsync", "hipMemsetAsync",
                       "hipMemcpyWithStream" })
            ? LaunchKind::Memory
            : LaunchKind::None;
    }

    // re.match over (cuda.*LaunchKernel)|(cuLaunchKernel)|(^runFunction): a prefix match.
    LaunchKind htaAtenOpKernels(std::string_view name)
    {
        const bool cuda = name.starts_with("cuda") && name.find("LaunchKernel", 4) != std::string_view::npos;
        return cuda || name.starts_with("cuLaunchKernel") || name.starts_with("runFunction")
            ? LaunchKind::Kernel
            : LaunchKind::None;
    }

} // namespace

LaunchKind launchKindOf(std::string_view name)
{
    if (name == kMtiaLaunch)
        return LaunchKind::Kernel;
    if (startsWithAny(name, kGraphPrefixes))
        return LaunchKind::Graph;
    if (startsWithAny(name, kKernelPrefixes))
        // A host function on a stream launches no GPU work.
        return name.find("HostFunc") == std::string_view::npos ? LaunchKind::Kernel : LaunchKind::None;
    return startsWithAny(name, kMemoryPrefixes) ? LaunchKind::Memory : LaunchKind::None;
}

bool isBlockingMemoryCall(std::string_view name)
{
    return launchKindOf(name) == LaunchKind::Memory && name.find("Async") == std::string_view::npos
        && name.find("WithStream") == std::string_view::npos;
}

LaunchKind htaLaunchKindOf(std::string_view name, HtaLaunchList list)
{
    switch (list) {
    case HtaLaunchList::LaunchStats:
        return htaLaunchStats(name);
    case HtaLaunchList::StreamLaunches:
        return htaStreamLaunches(name);
    case HtaLaunchList::AtenOpKernels:
        return htaAtenOpKernels(name);
    }
    return LaunchKind::None;
}

std::string kernelLaunchNamePattern()
{
    // Host functions enqueue no GPU work (launchKindOf says None for them).
    std::string pattern = "^(?!.*HostFunc)(";
    for (const std::string_view p : kKernelPrefixes)
        pattern += std::string(p) + "|";
    for (const std::string_view p : kGraphPrefixes)
        pattern += std::string(p) + "|";
    pattern.back() = ')';
    return pattern;
}

LaunchNames::LaunchNames(const StringPool& strings, AnalysisMode mode, HtaLaunchList list)
{
    m_kinds.resize(strings.size(), LaunchKind::None);
    for (std::uint32_t i = 0; i < m_kinds.size(); ++i) {
        m_kinds[i] = launchKindOf(strings.view(NameId { i }), mode, list);
        m_any = m_any || m_kinds[i] != LaunchKind::None;
    }
}

} // namespace ks::core
