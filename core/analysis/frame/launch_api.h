#pragma once

#include "core/analysis/frame/analysis_options.h"
#include "core/model/ids.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

class StringPool;

// What a runtime call enqueues on a stream, read from its name. This is the one place
// launch names are classified: launch statistics, queue length, the critical path's
// launch edges, aten-op delays and the insights all ask here.
enum class LaunchKind : std::uint8_t
{
    None, // not a launch
    Kernel, // one kernel: cudaLaunchKernel(ExC), cuLaunchKernel(Ex), cudaLaunchCooperativeKernel, hip*Launch*
    Graph, // a CUDA or HIP graph: several kernels, all with the launch's correlation id
    Memory // a copy or a set: cudaMemcpy*, cudaMemset*, cuMemcpy*, cuMemset*, hipMemcpy*, hipMemset*
};

// Which of HTA 0.6.1's lists an analysis reproduces in HTA-compatible mode: HTA names
// launches differently in each of its calls (hta-semantics §8, §9, §20; Q6, Q19).
enum class HtaLaunchList : std::uint8_t
{
    LaunchStats, // get_cuda_kernel_launch_stats: cudaLaunchKernel(ExC), MTIA, the CUDA async copies and sets
    StreamLaunches, // get_runtime_launch_events_mask: queue length and the critical path
    AtenOpKernels // get_aten_op_kernels_and_delay: (cuda.*LaunchKernel)|(cuLaunchKernel)|(^runFunction)
};

// Kinetoscope's rule: every CUDA runtime and driver and HIP launch API, graph launches
// included, and MTIA's runFunction launch (a kernel).
LaunchKind launchKindOf(std::string_view name);

// HTA 0.6.1's answer for one of its lists (None for the names it does not know).
LaunchKind htaLaunchKindOf(std::string_view name, HtaLaunchList list);

// Whether a copy or set blocks the host until its work is done (cudaMemcpy, cudaMemset,
// hipMemcpy, cuMemcpyHtoD_v2: no Async, no WithStream): it enqueues work, but the host
// does not run ahead of it.
bool isBlockingMemoryCall(std::string_view name);

// The list an analysis asks for in its mode. By default every list is Kinetoscope's rule,
// except that the stream launches (the queue length, the critical path's launch edges)
// leave out blocking copies and sets: the host waits for them, so the critical path and
// the queue model them as synchronisations.
inline LaunchKind launchKindOf(std::string_view name, AnalysisMode mode, HtaLaunchList list)
{
    if (mode == AnalysisMode::HtaCompat)
        return htaLaunchKindOf(name, list);
    const LaunchKind kind = launchKindOf(name);
    return list == HtaLaunchList::StreamLaunches && kind == LaunchKind::Memory && isBlockingMemoryCall(name)
        ? LaunchKind::None
        : kind;
}

// A regular expression matching the names of kernel and graph launches (not copies), for
// rules written as what-if expressions.
std::string kernelLaunchNamePattern();

// The launch kind of every name of one rank's string pool, computed once: analyses
// compare name ids per row instead of texts.
class LaunchNames
{
public:
    LaunchNames(const StringPool& strings, AnalysisMode mode, HtaLaunchList list);

    LaunchKind kindOf(NameId name) const
    {
        return name.value < m_kinds.size() ? m_kinds[name.value] : LaunchKind::None;
    }

    bool any() const { return m_any; }

private:
    std::vector<LaunchKind> m_kinds;
    bool m_any = false;
};

} // namespace ks::core
