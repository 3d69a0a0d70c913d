#include "core/analysis/kernels/tensor_cores.h"

#include <algorithm>
#include <iterator>
#include <span>

namespace ks::core {

namespace {

    bool containsAny(std::string_view name, std::span<const std::string_view> parts)
    {
        return std::any_of(parts.begin(), parts.end(),
            [name](std::string_view p) { return name.find(p) != std::string_view::npos; });
    }

} // namespace

bool usesTensorCores(std::string_view kernelName)
{
    // The TensorBoard plugin's list (after NVIDIA's PyProf), then what newer libraries
    // and GPUs name their matrix-unit kernels: Hopper's GMMA and warp-specialised
    // kernels, TF32 and BF16 GEMMs, flash and fused attention, AMD's MFMA.
    static constexpr std::string_view kParts[] { "h884", "s884", "h1688", "s1688", "hmma", "i8816", "16816",
        "dgrad_1x1_stride_2x2", "first_layer_wgrad_kernel", "conv1x1", "conv2d_c1_k1", "direct_group", "xmma",
        "c1688", "1688", "imma", "wmma", "gmma", "tensorop", "TensorOp", "tensorcore", "bf16gemm", "tf32",
        "flash", "mfma", "MFMA", "_MI4x", "_MI8x", "_MI16x", "_MI32x", "attn_fwd", "fmha" };
    return containsAny(kernelName, kParts);
}

bool eligibleForTensorCores(std::string_view opName)
{
    // The plugin's list (the ops autocast runs in reduced precision), matched whole as
    // it does...
    static constexpr std::string_view kOps[] { "aten::prelu", "aten::addmm", "aten::addmm_", "aten::addmv",
        "aten::addr", "aten::matmul", "aten::mm", "aten::mv", "aten::linear", "aten::addbmm", "aten::baddbmm",
        "aten::bmm", "aten::chain_matmul", "aten::linalg_multi_dot", "aten::_thnn_fused_lstm_cell",
        "aten::_thnn_fused_gru_cell", "aten::lstm_cell", "aten::gru_cell", "aten::rnn_tanh_cell",
        "aten::rnn_relu_cell", "aten::einsum", "aten::tensordot" };
    // ...and by family: every convolution and its backward, attention, and the
    // autograd nodes of the GEMMs (PyTorch numbers them: MmBackward0).
    static constexpr std::string_view kFamilies[] { "aten::conv", "aten::_convolution",
        "aten::cudnn_convolution", "aten::_scaled_dot_product", "aten::scaled_dot_product",
        "aten::_flash_attention", "aten::_efficient_attention", "CudnnConvolution", "ConvolutionBackward",
        "MmBackward", "BmmBackward", "AddmmBackward", "AddbmmBackward", "AddmvBackward", "MvBackward" };
    return std::find(std::begin(kOps), std::end(kOps), opName) != std::end(kOps)
        || std::any_of(std::begin(kFamilies), std::end(kFamilies),
            [opName](std::string_view f) { return opName.starts_with(f); });
}

bool TensorCoreKernels::operator()(const FrameRow& row)
{
    const NameId name = m_frame.trace->slices.name[row.slice];
    const auto [it, fresh] = m_byName.try_emplace(name, false);
    if (fresh)
        it->second = usesTensorCores(m_frame.name(row));
    return it->second;
}

void TensorCoreShare::add(const TensorCoreShare& other)
{
    computeKernelTime += other.computeKernelTime;
    tensorCoreTime += other.tensorCoreTime;
}

std::optional<double> TensorCoreShare::pct() const
{
    if (computeKernelTime <= 0)
        return std::nullopt;
    return 100.0 * static_cast<double>(tensorCoreTime) / static_cast<double>(computeKernelTime);
}

std::map<std::int64_t, TensorCoreShare> tensorCoreShareByIteration(const RankFrame& frame)
{
    std::map<std::int64_t, TensorCoreShare> byIteration;
    TensorCoreKernels onTensorCores(frame);
    for (const FrameRow& row : frame.rows)
        if (row.device && row.kernelType == KernelType::Computation) {
            TensorCoreShare& share = byIteration[row.iteration];
            share.computeKernelTime += row.dur;
            if (onTensorCores(row))
                share.tensorCoreTime += row.dur;
        }
    return byIteration;
}

TensorCoreShare tensorCoreShare(const RankFrame& frame)
{
    TensorCoreShare whole;
    for (const auto& [iteration, share] : tensorCoreShareByIteration(frame))
        whole.add(share);
    return whole;
}

} // namespace ks::core
