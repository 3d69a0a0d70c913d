#pragma once

#include "core/analysis/frame/analysis_options.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace ks::core {

enum class KernelType : std::uint8_t
{
    Computation,
    Communication,
    Memory,
    Other
};

std::string_view kernelTypeName(KernelType type); // "COMPUTATION", ...

// HTA's get_kernel_type (§2): name patterns only, quirks included (Q7).
KernelType classifyKernelHta(std::string_view name);

// Kinetoscope's rule: category first (memcpy/memset/sync), then communication
// by NCCL/RCCL/HCCL name prefixes or ncclKernel/ncclDevKernel; else compute.
KernelType classifyKernelDefault(std::string_view category, std::string_view name);

inline KernelType classifyKernel(AnalysisMode mode, std::string_view category, std::string_view name)
{
    return mode == AnalysisMode::HtaCompat ? classifyKernelHta(name) : classifyKernelDefault(category, name);
}

// HTA's get_memory_kernel_type: "Memset", "Memcpy HtoD", ..., "Memcpy Unknown".
std::string memoryKernelSubType(std::string_view name);

// The part HTA's two shorten_name functions (trace diff, critical path) share:
// every "->" dropped, what stands inside <...> and (...) dropped with the
// brackets, the last space-separated word kept. Each caller decides first which
// names stay whole.
std::string shortenBracketedName(std::string_view name);

} // namespace ks::core
