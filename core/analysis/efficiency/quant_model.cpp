// The standalone quantisation ops of AITER, vLLM, SGLang and Primus Turbo (elementwise family), as
// TraceLens models them; each family of ops is the TraceLens class it maps to
// (PerfModel/extensions/pseudo_ops_perf_utils.py get_pseudo_op_mappings, torch_op_mapping.py):
//   per_group_quant (GroupQuant sheet; AITER's dynamic per-token / per-group / per-tensor quant, vLLM's
//     _C::per_token_group_fp8_quant): FLOPs = 2.59375·n_out ("based on the rocprof counter values");
//     bytes = n_out·bpe_out + n_in·bpe_in + n_scales·bpe_scales; the input's precision. TraceLens reads
//     (out, input, scales) at 0, 1, 2 for every op; _C::per_token_group_fp8_quant is (x, x_q, scales):
//     the same bytes and FLOPs, but its precision is then x_q's (fp8), ours x's (the input's). A dtype
//     with no size drops the call (TraceLens's bytes multiply None and raise).
//   vllm_triton_per_token_group_quant_fp8 (vllm::triton_per_token_group_quant_fp8(x, group_size)):
//     M rows of N, g = Concrete Inputs[1] (128 when it is not an int), groups = max(1, ceil(N / g));
//     FLOPs = 6·M·N; bytes = M·N·bpe_x + M·N (FP8 out) + M·groups·4. Ours: N = x's last dim (the kernel
//     groups along it), M the rest; TraceLens's: M, N = x[0], x[1] (a 3-D x loses its last dim).
//   primus_turbo_quantize_fp8 (quantize_fp8_tensorwise(x, scale_inv, amax), UnaryElementwise): FLOPs = n;
//     bytes = n·bpe_x + n (FP8 out).
//   primus_turbo_quantize_mxfp4_dual (quantize_mxfp4_dual(x (M, N), ...), UnaryElementwise): FLOPs = M·N;
//     bytes = M·N·bpe_x + 2·ceil(M·N / 2) (row- and column-wise FP4) + M·ceil(N/32) + N·ceil(M/32) (scales).
//   fused_flatten_mxfp4_quant and its subclasses (GroupQuant sheet; SGLang's flatten and dynamic MXFP4
//     quant, AITER's dynamic_per_group_scaled_quant_fp4 and the fused MXFP4 quant + MoE sort ops), on the
//     BF16 input x of n elements: FLOPs = 2n; bytes = n·bpe_x + n/2 (FP4 out) + scales, one byte per 32
//     elements of a row: ours rows·ceil(row / 32), TraceLens's n // 32 (the same when rows are multiples
//     of 32). A row is x[1:] flattened for the flatten op, x's last dim for the others.
// Every model but per_group_quant keeps a call whose input dtype has no size (bytes null). Held against
// the vector peak of the input's precision.

#include "core/analysis/efficiency/model_support.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace ks::core {

namespace {

    using namespace perf_detail;

    constexpr double kNoSize = std::numeric_limits<double>::quiet_NaN();

    double ceilDiv(double a, double b)
    {
        return std::ceil(a / b);
    }

    // per_group_quant on (out, input, scales) at these arguments (TraceLens's reading: 0, 1, 2).
    ModelResult groupQuant(const OpArgs& args, std::size_t out, std::size_t in, const ModelReading& reading)
    {
        for (std::size_t i = 0; i < 3; ++i)
            if (!shapeOfRank(args, i, -1))
                return SkipReason::MalformedDims;
        double bytes = 0;
        for (std::size_t i = 0; i < 3; ++i) {
            const auto bpe = bytesPerElement(args.type(i), reading.dtypes());
            if (!bpe)
                return SkipReason::UnknownDtype;
            bytes += elementCount(args.shape(i)) * *bpe;
        }
        return estimate(
            2.59375 * elementCount(args.shape(out)), bytes, args.type(in), ComputeUnit::Vector, reading);
    }

    // aiter::dynamic_per_token_scaled_quant(out, input, scales, ...) and the other (out, input, scales) ops.
    ModelResult outFirstQuant(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return groupQuant(args, 0, 1, reading);
    }

    // _C::per_token_group_fp8_quant(x, x_q, scales, group_size, ...): the input first.
    ModelResult inputFirstQuant(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return reading.tracelens ? groupQuant(args, 0, 1, reading) : groupQuant(args, 1, 0, reading);
    }

    // vllm::triton_per_token_group_quant_fp8(x, group_size).
    ModelResult tritonGroupQuantFp8(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 0, -1);
        if (!x)
            return SkipReason::MalformedDims;
        double m = 1, n = 1;
        if (reading.tracelens && x->size() >= 2) {
            m = double((*x)[0]);
            n = double((*x)[1]);
        } else if (!x->empty()) {
            n = double(x->back());
            m = elementCount(*x) / std::max(n, 1.0);
            if (n == 0)
                m = 0;
        }
        const double group = double(concreteInt(args.concreteAt(1)).value_or(128));
        if (group <= 0)
            return SkipReason::MalformedDims; // TraceLens divides by it
        const double groups = std::max(1.0, ceilDiv(n, group));
        const double bytes = m * n * sizeOf(args.type(0), reading) + m * n + m * groups * 4;
        return estimate(6 * m * n, bytes, args.type(0), ComputeUnit::Vector, reading,
            "group=" + std::to_string(std::int64_t(group)));
    }

    // primus_turbo quantize_fp8_tensorwise(x, scale_inv, amax).
    ModelResult quantizeFp8(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 0, -1);
        if (!x)
            return SkipReason::MalformedDims;
        const double n = elementCount(*x);
        return estimate(n, n * sizeOf(args.type(0), reading) + n, args.type(0), ComputeUnit::Vector, reading);
    }

    // primus_turbo quantize_mxfp4_dual(x (M, N), dest_dtype, ...).
    ModelResult quantizeMxfp4Dual(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 0, 2);
        if (!x)
            return SkipReason::MalformedDims; // TraceLens unpacks M, N
        const double m = double((*x)[0]), n = double((*x)[1]);
        const double fp4 = 2 * std::floor((m * n + 1) / 2);
        const double scales = m * ceilDiv(n, 32) + n * ceilDiv(m, 32);
        return estimate(m * n, m * n * sizeOf(args.type(0), reading) + fp4 + scales, args.type(0),
            ComputeUnit::Vector, reading);
    }

    // An MXFP4 quant of the tensor at argument `in`; `flatten`: its rows are dim 0 (the rest flattened),
    // else its last dim is a row.
    ModelResult mxfp4Quant(const OpArgs& args, std::size_t in, bool flatten, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, in, -1);
        if (!x || x->empty())
            return SkipReason::MalformedDims;
        const double n = elementCount(*x);
        double scales = std::floor(n / 32);
        if (!reading.tracelens) {
            const double row =
                flatten ? (x->size() > 1 ? n / std::max(double(x->front()), 1.0) : n) : double(x->back());
            scales = row > 0 ? (n / row) * ceilDiv(row, 32) : 0;
        }
        const double bpe = sizeOf(args.type(in), reading);
        return estimate(2 * n, std::isnan(bpe) ? kNoSize : n * bpe + n * 0.5 + scales, args.type(in),
            ComputeUnit::Vector, reading);
    }

    // sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant(x (M, N1, N2)).
    ModelResult flattenMxfp4Quant(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return mxfp4Quant(args, 0, true, reading);
    }

    // sglang_profiler::quant_dynamic_mxfp4_quant(x (M, N)).
    ModelResult dynamicMxfp4Quant(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return mxfp4Quant(args, 0, false, reading);
    }

    // aiter::dynamic_per_group_scaled_quant_fp4(out, input, scales, ...).
    ModelResult perGroupQuantFp4(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return mxfp4Quant(args, 1, false, reading);
    }

    // aiter::fused_dynamic_mx{,fp4}_quant_moe_sort_hip(out_fp4, out_scales, input, sorted_ids, ...).
    ModelResult mxfp4QuantMoeSort(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return mxfp4Quant(args, 2, false, reading);
    }

    constexpr std::array kModels {
        OpModel { "aiter::dynamic_per_token_scaled_quant", OpFamily::Elementwise, outFirstQuant },
        OpModel { "aiter::dynamic_per_group_scaled_quant", OpFamily::Elementwise, outFirstQuant },
        OpModel { "aiter::dynamic_per_tensor_quant", OpFamily::Elementwise, outFirstQuant },
        OpModel { "_C::per_token_group_fp8_quant", OpFamily::Elementwise, inputFirstQuant },
        OpModel { "vllm::triton_per_token_group_quant_fp8", OpFamily::Elementwise, tritonGroupQuantFp8 },
        OpModel { "primus_turbo_cpp_extension::quantize_fp8_tensorwise", OpFamily::Elementwise, quantizeFp8 },
        OpModel { "primus_turbo::quantize_fp8_tensorwise", OpFamily::Elementwise, quantizeFp8 },
        OpModel {
            "primus_turbo_cpp_extension::quantize_mxfp4_dual", OpFamily::Elementwise, quantizeMxfp4Dual },
        OpModel { "primus_turbo::quantize_mxfp4_dual", OpFamily::Elementwise, quantizeMxfp4Dual },
        OpModel { "primus::quantize_mxfp4_dual", OpFamily::Elementwise, quantizeMxfp4Dual },
        OpModel { "sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant", OpFamily::Elementwise,
            flattenMxfp4Quant },
        OpModel { "sglang_profiler::quant_dynamic_mxfp4_quant", OpFamily::Elementwise, dynamicMxfp4Quant },
        OpModel { "aiter::dynamic_per_group_scaled_quant_fp4", OpFamily::Elementwise, perGroupQuantFp4 },
        OpModel { "aiter::fused_dynamic_mx_quant_moe_sort_hip", OpFamily::Elementwise, mxfp4QuantMoeSort },
        OpModel { "aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", OpFamily::Elementwise, mxfp4QuantMoeSort },
    };

} // namespace

std::span<const OpModel> quantModels()
{
    return kModels;
}

} // namespace ks::core
