// AITER's, vLLM's and SGLang's fused RMS norms (norm family, TraceLens's RMSNorm sheet): RMS norm
// fused with a residual add, an FP8 / MXFP4 quantisation of its output or a zero pad, and the
// q/k pair of MLA. TraceLens's PerfModel/extensions/rmsnorm_perf_model_extensions.py, mapped by
// pseudo_ops_perf_utils.py get_pseudo_op_mappings; each model is the core RMSNorm (always affine,
// not training) on x = Input Dims[x], C = Input Dims[w][0], n = prod(x), M = n // C, plus:
//   RMS:       FLOPs = (n/C)·(2C + 2) + 2n;        bytes = 2n·bpe + C·bpe
//   + FP8 quant (dynamicquant_ck, rmsnorm_quant, *_fp8_group_quant): 2n FLOPs; the output written at
//     1 byte instead of bpe, and M·g FP32 scales (g = 1 per token, or ceil(C / group_size) per group)
//   + residual add (with_add, add_rmsnorm_pad): n FLOPs, the residual read and written (2n·bpe)
//   + pad (add_rmsnorm_pad): the output written M·C_out·bpe, C_out = C rounded up to the pad multiple
//   + MXFP4 quant (fused_rms_mxfp4_quant): 2n FLOPs, output n/2 + n // 32 bytes; optional x2 (a
//     second RMS norm) and res1 (a residual add) as the arguments' ranks say
//   fused q/k (aiter::_fused_qk_rmsnorm_kernel): two RMS norms, q and k, each (n // C)(2C + 2) + 2n
// The "reduced elementwise FLOPs" convention TraceLens can be switched to (1 FLOP per quantised
// element) is not its default and is not reproduced. An unsized dtype drops the call (the core
// Normalization model's bytes raise on None), except the q/k pair, whose bytes are then null.
// Rows group on TraceLens's Normalization parameters (input shape, dtype, strides, C, affine).

#include "core/analysis/efficiency/model_support.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <variant>

namespace ks::core {

namespace {

    using namespace perf_detail;
    using Shape = std::vector<std::int64_t>;

    std::string listText(const Shape& s)
    {
        std::string text = "[";
        for (std::size_t i = 0; i < s.size(); ++i)
            text += (i ? ", " : "") + std::to_string(s[i]);
        return text + "]";
    }

    // One fused RMS norm call as TraceLens's RMSNorm extension reads it.
    struct FusedRms
    {
        std::size_t x = 0; // the input's argument
        double n = 0, c = 0, bpe = 0;

        double m() const { return std::floor(n / c); } // num_elems // num_channels

        double rmsFlops() const { return (n / c) * (2 * c + 2) + 2 * n; }

        double rmsBytes() const { return 2 * n * bpe + c * bpe; }
    };

    // x at argument `x`, its weight (C) at `weight`; nullopt-like failures as skip reasons.
    std::variant<FusedRms, SkipReason> fusedRms(
        const OpArgs& args, std::size_t x, std::size_t weight, const ModelReading& reading)
    {
        const auto sx = shapeOfRank(args, x, -1);
        const auto sw = shapeOfRank(args, weight, -1);
        if (!sx || !sw || sw->empty() || sw->front() <= 0)
            return SkipReason::MalformedDims;
        const auto bpe = bytesPerElement(args.type(x), reading.dtypes());
        if (!bpe)
            return SkipReason::UnknownDtype;
        return FusedRms { x, elementCount(*sx), double(sw->front()), *bpe };
    }

    ModelResult result(const OpArgs& args, const FusedRms& r, double flops, double bytes,
        const ModelReading& reading, const std::string& extra = {})
    {
        const Shape none;
        const auto& stride = r.x < args.strides.size() ? args.strides[r.x] : none;
        const std::string c = std::to_string(std::int64_t(r.c));
        std::string key = "shape=" + listText(args.shape(r.x)) + " dtype=" + std::string(args.type(r.x))
            + " stride=" + listText(stride) + " C=" + c + " affine";
        return estimate(flops, bytes, args.type(r.x), ComputeUnit::Vector, reading,
            "C=" + c + " affine" + extra, std::move(key));
    }

    // A quantisation group size from Concrete Inputs[i]; TraceLens's int() of the string.
    std::optional<double> groupSize(const OpArgs& args, std::size_t i)
    {
        const auto g = concreteInt(args.concreteAt(i));
        return g ? std::optional<double>(double(*g)) : std::nullopt;
    }

    double groupsOf(double c, double size)
    {
        return std::ceil(c / size);
    }

    // aiter::rmsnorm2d_fwd_with_dynamicquant_ck(out, input, yscale, weight, eps, flag):
    // aiter_rmsnorm2d_fwd_with_dynamicquant_ck, one FP32 scale per token.
    ModelResult dynamicQuantCk(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto r = fusedRms(args, 1, 3, reading);
        if (const auto* why = std::get_if<SkipReason>(&r))
            return *why;
        const auto& m = std::get<FusedRms>(r);
        return result(args, m, m.rmsFlops() + 2 * m.n, m.n * m.bpe + m.c * m.bpe + m.n + m.m() * 4, reading);
    }

    // aiter::rmsnorm_quant(out, input, scale, weight, eps, group_size, ...): aiter_rmsnorm_quant;
    // a group size that is not a positive int is one group of C.
    ModelResult rmsnormQuant(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto r = fusedRms(args, 1, 3, reading);
        if (const auto* why = std::get_if<SkipReason>(&r))
            return *why;
        const auto& m = std::get<FusedRms>(r);
        const double size = std::max(groupSize(args, 5).value_or(0), 0.0);
        const double groups = groupsOf(m.c, size > 0 ? size : m.c);
        return result(args, m, m.rmsFlops() + 2 * m.n, m.n * m.bpe + m.c * m.bpe + m.n + m.m() * groups * 4,
            reading, " group=" + std::to_string(std::int64_t(size)));
    }

    // vllm::rocm_aiter_rmsnorm_fp8_group_quant(x, weight, eps, group_size):
    // vllm_rocm_aiter_rmsnorm_fp8_group_quant; group_size must be an int (TraceLens raises otherwise).
    ModelResult fp8GroupQuant(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto r = fusedRms(args, 0, 1, reading);
        if (const auto* why = std::get_if<SkipReason>(&r))
            return *why;
        const auto& m = std::get<FusedRms>(r);
        const auto size = groupSize(args, 3);
        if (!size || *size <= 0)
            return SkipReason::MalformedDims;
        const double groups = groupsOf(m.c, *size);
        return result(args, m, m.rmsFlops() + 2 * m.n, m.n * m.bpe + m.c * m.bpe + m.n + m.m() * groups * 4,
            reading, " group=" + std::to_string(std::int64_t(*size)));
    }

    // vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant(x, residual, weight, eps, group_size).
    ModelResult addFp8GroupQuant(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto r = fusedRms(args, 0, 2, reading);
        if (const auto* why = std::get_if<SkipReason>(&r))
            return *why;
        const auto& m = std::get<FusedRms>(r);
        const auto size = groupSize(args, 4);
        if (!size || *size <= 0)
            return SkipReason::MalformedDims;
        const double groups = groupsOf(m.c, *size);
        // x, the residual and the weight read; FP8 out, the updated residual and the scales written
        const double bytes = 3 * m.n * m.bpe + m.c * m.bpe + m.n + m.m() * groups * 4;
        return result(args, m, m.rmsFlops() + m.n + 2 * m.n, bytes, reading,
            " group=" + std::to_string(std::int64_t(*size)));
    }

    // vllm::rocm_aiter_triton_add_rmsnorm_pad / aiter::fused_add_rmsnorm_pad_(x, weight, eps, residual,
    // x_pad_to_multiple): vllm_rocm_aiter_triton_add_rmsnorm_pad.
    ModelResult addRmsnormPad(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto r = fusedRms(args, 0, 1, reading);
        if (const auto* why = std::get_if<SkipReason>(&r))
            return *why;
        const auto& m = std::get<FusedRms>(r);
        const auto pad = groupSize(args, 4);
        if (!pad)
            return SkipReason::MalformedDims;
        const double out = *pad > 0 ? groupsOf(m.c, *pad) * *pad : m.c;
        const double bytes = 2 * m.n * m.bpe + m.c * m.bpe + m.m() * out * m.bpe + m.m() * m.c * m.bpe;
        return result(
            args, m, m.n + m.rmsFlops(), bytes, reading, " pad=" + std::to_string(std::int64_t(*pad)));
    }

    // fused_rms_mxfp4_quant(x1, x1_weight, x1_eps, x2?, x2_weight?, x2_eps, res1?, ...): x2 present when
    // Input Dims[3] has rank 2 (N2 = its dim 1), res1 when Input Dims[6] has.
    ModelResult rmsMxfp4Quant(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto r = fusedRms(args, 0, 1, reading);
        if (const auto* why = std::get_if<SkipReason>(&r))
            return *why;
        const auto& m = std::get<FusedRms>(r);
        const bool x2 = args.hasDims(3) && args.dims[3]->size() == 2;
        const bool res1 = args.hasDims(6) && args.dims[6]->size() == 2;
        const double n2 = x2 ? double((*args.dims[3])[1]) : 0;
        double flops = m.rmsFlops();
        double bytes = m.n * m.bpe + m.c * m.bpe;
        if (x2) {
            // TraceLens's int(): the x2 norm's FLOPs scaled from x1's, truncated
            flops += std::floor(m.rmsFlops() * (m.m() * n2) / std::max(m.n, 1.0));
            bytes += 2 * m.m() * n2 * m.bpe + n2 * m.bpe;
        }
        if (res1) {
            flops += m.m() * m.c;
            bytes += 2 * m.n * m.bpe;
        }
        flops += 2 * m.n;
        bytes += m.n * 0.5 + std::floor(m.n / 32);
        return result(args, m, flops, bytes, reading, std::string(x2 ? " x2" : "") + (res1 ? " res1" : ""));
    }

    // aiter::_fused_qk_rmsnorm_kernel(q, q_weight, q_eps, k, k_weight, k_eps, ...): aiter_fused_qk_rmsnorm.
    ModelResult fusedQkRmsnorm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto q = shapeOfRank(args, 0, -1);
        if (!q)
            return SkipReason::MalformedDims;
        const auto channels = [&](std::size_t i) {
            return present(args, i) ? double(args.shape(i)[0]) : 0.0;
        };
        const double qc = channels(1), kc = channels(4);
        const double nq = elementCount(*q), nk = elementCount(args.shape(3));
        const auto rmsFlops = [](double n, double c) {
            return n == 0 || c == 0 ? 0.0 : std::floor(n / c) * (2 * c + 2) + n * 2;
        };
        const std::string_view dtypeK = args.types.size() > 3 ? args.type(3) : args.type(0);
        const double bpeQ = sizeOf(args.type(0), reading), bpeK = sizeOf(dtypeK, reading);
        const double bytes = 2 * nq * bpeQ + qc * bpeQ + 2 * nk * bpeK + kc * bpeK;
        const std::string params =
            "C_q=" + std::to_string(std::int64_t(qc)) + " C_k=" + std::to_string(std::int64_t(kc));
        return estimate(
            rmsFlops(nq, qc) + rmsFlops(nk, kc), bytes, args.type(0), ComputeUnit::Vector, reading, params);
    }

    constexpr std::array kModels {
        OpModel { "aiter::rmsnorm2d_fwd_with_dynamicquant_ck", OpFamily::Norm, dynamicQuantCk },
        OpModel { "aiter::rmsnorm_quant", OpFamily::Norm, rmsnormQuant },
        OpModel { "vllm::rocm_aiter_rmsnorm_fp8_group_quant", OpFamily::Norm, fp8GroupQuant },
        OpModel { "vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant", OpFamily::Norm, addFp8GroupQuant },
        OpModel { "vllm::rocm_aiter_triton_add_rmsnorm_pad", OpFamily::Norm, addRmsnormPad },
        OpModel { "aiter::fused_add_rmsnorm_pad_", OpFamily::Norm, addRmsnormPad },
        OpModel { "sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant", OpFamily::Norm, rmsMxfp4Quant },
        OpModel { "aiter::_fuse_rmsnorm_fp4_quant", OpFamily::Norm, rmsMxfp4Quant },
        OpModel { "aiter::_fused_qk_rmsnorm_kernel", OpFamily::Norm, fusedQkRmsnorm },
    };

} // namespace

std::span<const OpModel> rmsnormQuantModels()
{
    return kModels;
}

} // namespace ks::core
