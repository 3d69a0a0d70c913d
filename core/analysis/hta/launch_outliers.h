#pragma once

#include "core/analysis/frame/hta_frame.h"

#include <cstdint>
#include <vector>

namespace ks::core {

// One launch joined to one piece of device work it started (a graph launch joins
// to each of its kernels). Times in ns; the event indexes let a view select both ends.
struct LaunchRecord
{
    std::int64_t correlation = -1;
    std::uint32_t cpuEventIndex = 0;
    std::uint32_t gpuEventIndex = 0;
    std::int64_t cpuDurationNs = 0;
    std::int64_t gpuDurationNs = 0;
    std::int64_t launchDelayNs = 0; // device start - launch end, clipped at 0
};

// The launches of one rank in the order A6 reports them (§9). HtaCompat keeps
// HTA's launch names and "GPU = stream != -1" test (Q6); default mode every CUDA/HIP launch API.
std::vector<LaunchRecord> kernelLaunches(const RankFrame& frame, const AnalysisOptions& options);

// The three sets HTA plots from the launch statistics (its cutoffs never change the data, §9).
struct LaunchOutliers
{
    std::int64_t rank = 0;
    std::vector<LaunchRecord> shortKernels; // cpu <= runtime cutoff and gpu < cpu
    std::vector<LaunchRecord> runtimeOutliers; // cpu > runtime cutoff
    std::vector<LaunchRecord> launchDelayOutliers; // delay > launch-delay cutoff
};

// Per rank (ascending), with options.launches' cutoffs in µs.
std::vector<LaunchOutliers> launchStatsOutliers(const FrameSet& frames, const AnalysisOptions& options);

} // namespace ks::core
