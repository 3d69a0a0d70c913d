#include "core/analysis/frame/kernel_type.h"

namespace ks::core {

namespace {

    bool contains(std::string_view s, std::string_view part)
    {
        return s.find(part) != std::string_view::npos;
    }

    // re.match("cuda.*LaunchKernel"): starts with "cuda" and contains LaunchKernel after it.
    bool cudaLaunchKernelPattern(std::string_view s)
    {
        return s.starts_with("cuda") && s.find("LaunchKernel", 4) != std::string_view::npos;
    }

    // Names HTA's pattern for COMPUTATION excludes (anchored with re.match).
    bool excludedFromComputation(std::string_view n)
    {
        return n.starts_with("nccl") || contains(n, "Memcpy") || contains(n, "Memset") || contains(n, "dma")
            || contains(n, "Sync") || n.starts_with("Stream Wait Event") || cudaLaunchKernelPattern(n)
            || n.starts_with("runFunction") || n.starts_with("hip") || n.starts_with("job_exe")
            || n.starts_with("packet") || n.starts_with("pe_exe") || n.starts_with("cpum_exe_subgraph")
            || n.starts_with("hccl") || n.starts_with("collective_subgraph_execution");
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
    if (n.starts_with("nccl") || n.starts_with("hip") || n.starts_with("hccl") || contains(n, "ncclKernel"))
        return KernelType::Communication;
    if (n.starts_with("Memcpy") || n.starts_with("Memset") || n.starts_with("hipMemcpy")
        || n.starts_with("hipMemset") || n.starts_with("dma"))
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
    if (n.starts_with("nccl") || n.starts_with("rccl") || n.starts_with("hccl") || contains(n, "ncclKernel")
        || contains(n, "ncclDevKernel"))
        return KernelType::Communication;
    if (category == "mtia_ccp_events") {
        // MTIA puts transfers and event waits in the same category as kernels.
        if (n.starts_with("dma"))
            return KernelType::Memory;
        if (n.starts_with("event_"))
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
    if (name.starts_with("Memset"))
        return "Memset";
    if (name.starts_with("Memcpy"))
        return std::string(name.substr(0, 11));
    return "Memcpy Unknown";
}

std::string shortenBracketedName(std::string_view name)
{
    std::string stack;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (c == '-' && i + 1 < name.size() && name[i + 1] == '>') {
            ++i; // "->" is removed before matching brackets
            continue;
        }
        if (c == '>' || c == ')') {
            const char open = c == '>' ? '<' : '(';
            while (!stack.empty() && stack.back() != open)
                stack.pop_back();
            if (!stack.empty())
                stack.pop_back();
        } else {
            stack.push_back(c);
        }
    }
    const std::size_t space = stack.rfind(' ');
    return space == std::string::npos ? stack : stack.substr(space + 1);
}

} // namespace ks::core
