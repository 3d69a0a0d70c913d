#pragma once

// The one rule for which kernels ran on Tensor Cores (or AMD's matrix cores) and
// which ops could have: the TensorBoard plugin's overview tells them apart by
// name, and so do we. The rank overview's `tensor_core_pct`, the kernel
// breakdown's column of the same name and the `tensor_core_unused` insight all
// ask here, so they never disagree on what a Tensor Core kernel is.

#include "core/analysis/frame/hta_frame.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace ks::core {

// A kernel name with the MMA shape or instruction cuBLAS, cuDNN and CUTLASS put in
// the names of their Tensor Core kernels (AMD: MFMA, Tensile's matrix-instruction
// tiles, the matrix-core attention kernels).
bool usesTensorCores(std::string_view kernelName);

// An op whose work Tensor Cores can do: GEMMs, convolutions, attention (the
// plugin's list, in substance), by the op's name.
bool eligibleForTensorCores(std::string_view opName);

// usesTensorCores asked once per kernel name of one rank: a rank launches the same
// few kernels a million times.
class TensorCoreKernels
{
public:
    explicit TensorCoreKernels(const RankFrame& frame)
        : m_frame(frame)
    {
    }

    bool operator()(const FrameRow& row);

private:
    const RankFrame& m_frame;
    std::unordered_map<NameId, bool> m_byName;
};

// Compute kernel time and the part of it on Tensor Cores.
struct TensorCoreShare
{
    TimeNs computeKernelTime = 0;
    TimeNs tensorCoreTime = 0;

    void add(const TensorCoreShare& other);
    // Empty without compute kernels: a CPU-only step has no share, not 0 %.
    std::optional<double> pct() const;
};

// Per iteration (the rows' ProfilerStep; kNoIteration for kernels outside every
// step), the share of the rank's compute kernels that ran on Tensor Cores.
std::map<std::int64_t, TensorCoreShare> tensorCoreShareByIteration(const RankFrame& frame);

// The whole rank's share (every iteration and the kernels outside them).
TensorCoreShare tensorCoreShare(const RankFrame& frame);

} // namespace ks::core
