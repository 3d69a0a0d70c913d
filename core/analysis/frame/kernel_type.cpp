#include "core/analysis/frame/kernel_type.h"

namespace ks::core {

namespace {

    bool startsWith(std::string_view s, std::string_view prefix)
    {
        return s.substr(0, prefix.size()) == prefix;
    }

    bool contains(std::string_view s, std::string_view part)
    {
        return s.find(part) != std::string_view::npos;
    }

    // re.match("cuda.*LaunchKernel"): starts with "cuda" and contains LaunchKernel after it.
    bool cudaLaunchKernelPattern(std::string_view s)
    {
        return startsWith(s, "cuda") && s.find("LaunchKernel", 4) != std::string_view::npos;
    }

    // Names HTA's pattern for COMPUTATION excludes (anchored with re.match).
    bool excludedFromComputation(std::string_view n)
    {
        return startsWith(n, "nccl") || contains(n, "Memcpy") || contains(n, "Memset") || contains(n, "dma")
            || contains(n, "Sync") || startsWith(n, "Stream Wait Event") || cudaLaunchKernelPattern(n)
            || startsWith(n, "runFunction") || startsWith(n, "hip") || startsWith(n, "job_exe")
            || startsWith(n, "packet") || startsWith(n, "pe_exe") || startsWith(n, "cpum_exe_subgraph")
            || startsWith(n, "hccl") || startsWith(n, "collective_subgraph_execution");
    }

} // namespace

std::string_view kernelTypeName(KernelType type)
{
    switch (type) {
    case KernelType::Computation:
        return "COMPUTATION";
    case KernelType::Communication:
        return "COMMUNICATION";
    case KernelType::Memory:
        return "MEMORY";
    case KernelType::Other:
        return "OTHER";
    }
    return "OTHER";
}

KernelType classifyKernelHta(std::string_view n)
{
    if (startsWith(n, "nccl") || startsWith(n, "hip") || startsWith(n, "hccl") || contains(n, "ncclKernel"))
        return KernelType::Communication;
    if (startsWith(n, "Memcpy") || startsWith(n, "Memset") || startsWith(n, "hipMemcpy")
        || startsWith(n, "hipMemset") || startsWith(n, "dma"))
        return KernelType::Memory;
    if (!excludedFromComputation(n))
        return KernelType::Computation;
    return KernelType::Other;
}

KernelType classifyKernelDefault(std::string_view category, std::string_view n)
{
    if (category == "gpu_memcpy" || category == "Memcpy" || category == "gpu_memset" || category == "Memset")
        return KernelType::Memory;
    if (category == "cuda_sync" || category == "gpu_user_annotation")
        return KernelType::Other;
    if (startsWith(n, "nccl") || startsWith(n, "rccl") || startsWith(n, "hccl") || contains(n, "ncclKernel")
        || contains(n, "ncclDevKernel"))
        return KernelType::Communication;
    if (category == "mtia_ccp_events") {
        // MTIA puts transfers and event waits in the same category as kernels.
        if (startsWith(n, "dma"))
            return KernelType::Memory;
        if (startsWith(n, "event_"))
            return KernelType::Other;
        return KernelType::Computation;
    }
    if (category == "kernel" || category == "Kernel")
        return KernelType::Computation;
    // Not device activity: keep HTA's name rules for anything else that reaches here.
    return classifyKernelHta(n);
}

std::string memoryKernelSubType(std::string_view name)
{
    if (startsWith(name, "Memset"))
        return "Memset";
    if (startsWith(name, "Memcpy"))
        return std::string(name.substr(0, 11));
    return "Memcpy Unknown";
}

} // namespace ks::core
