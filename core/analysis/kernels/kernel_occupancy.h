#pragma once

// The PyTorch TensorBoard plugin's per-kernel launch figures, read from the args
// Kineto writes on CUDA kernels: "blocks per SM", "warps per SM", "est. achieved
// occupancy %", "grid" and "block". Est. SM efficiency is the plugin's
// min(blocks per SM, 1): a grid with fewer blocks than the GPU has SMs leaves SMs
// idle. Shared by the kernel breakdown's columns, the timeline's counter track and
// the `low_sm_efficiency` rule, so all three read a kernel alike. A kernel without
// an arg has no value for it (never 0): averages leave it out.

#include "core/common/result.h"
#include "core/model/rank_trace.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

struct KernelOccupancy
{
    std::uint32_t slice = 0; // row of RankTrace::slices
    std::optional<double> blocksPerSm;
    std::optional<double> warpsPerSm;
    std::optional<double> occupancyPct; // "est. achieved occupancy %"
    std::string grid; // "[a,b,c]" as written (spaces dropped), "" when absent
    std::string block;

    // min(blocks per SM, 1); none without a positive "blocks per SM" (the plugin skips those).
    std::optional<double> smEfficiency() const;

    bool any() const { return blocksPerSm || warpsPerSm || occupancyPct; }
};

// The figures of one kernel's args object text.
KernelOccupancy parseKernelOccupancy(std::string_view argsText);

// The figures of the given slices that carry at least one of them, in file order.
// From the store (the loader keeps these args, KernelLaunchArgs); never fails today, a
// Result so that callers keep one error path.
Result<std::vector<KernelOccupancy>> readKernelOccupancy(
    const RankTrace& trace, std::vector<std::uint32_t> slices);

// "kernel" or "Kernel": the only category Kineto gives these args (copies and sets have none).
bool isKernelCategory(std::string_view category);

// Kernel-time-weighted means of a group of kernels (the plugin's kernel view):
// each figure over the kernels that carry it, none when no kernel does.
class OccupancyMean
{
public:
    void add(const KernelOccupancy& k, double durationNs);
    void add(const OccupancyMean& other);
    std::optional<double> smEfficiencyPct() const; // 100 x mean of min(blocks per SM, 1)
    std::optional<double> occupancyPct() const;

private:
    double m_efficiency = 0; // sum of efficiency x duration
    double m_efficiencyNs = 0;
    double m_occupancy = 0;
    double m_occupancyNs = 0;
};

} // namespace ks::core
