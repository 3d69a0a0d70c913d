// Quantised and vendor GEMMs (gemm family, TraceLens's GEMM sheet) as TraceLens models them in
// PerfModel/extensions/perf_model_extensions.py and PerfModel/perf_model.py (mapped in
// pseudo_ops_perf_utils.py get_pseudo_op_mappings and torch_op_mapping.py). All share GEMM's
// formulas (perf_model.py GEMM.flops_func, bytes_func):
//   FLOPs = B · 2·M·N·K;  bytes = B · (M·K·bpe_A + K·N·bpe_B + M·N·bpe_out)
// with bytes unknown (null) when any of the four sizes GEMM.bytes_func takes (bias's included,
// though no model here has a bias) is unknown. Per op, what differs is where M, N, K and the sizes
// are read, and the precision held against the matrix peak:
//   AITER's / vLLM's / SGLang's a8w8 (block-scale, per-token) GEMMs (gemm_a8w8_blockscale):
//     x (M, K) = Input Dims[0], w (N, K) = [1]; bpe_A, bpe_B = Input type[0], [1]; out bf16
//   aiter::gemm_a16w16_atomic_, SGLang's flydsl hgemm (gemm_a16w16_atomic_): as above, out =
//     Input type[3] (bf16 when the call records fewer types)
//   aiter::_gemm_a16w16_asm (gemm_a16w16_asm): out = Input type[2] when it has a size, else [0]
//   aiter::gemm_afp4wfp4_ (gemm_afp4wfp4): x (M, K/2), w (N, K/2) packed FP4: K = 2·x[1],
//     bpe_A = bpe_B = 0.5, out bf16; fp4 precision
//   aiter::batched_gemm_a16wfp4_ (batched_gemm_a16wfp4): x (B, M, K), w (B, N, K/2): N = w[1],
//     bpe_B = 0.5, out bf16; fp4 precision
//   SGLang's batched_gemm_a8w8 (batched_gemm_a8w8): w (B, N, K), x (B, M, K) or (M, B, K)
//     (M = x[1] when x[0] = B, else x[0]); out bf16; the precision of w's dtype
//   vllm::gemm_with_dynamic_quant (vllm_gemm_with_dynamic_quant): A, B the first two 2-D
//     arguments (else arguments 0 and 1): M, K = A, N = B[0]; every size Input type[0]'s
//   bitsandbytes::int8_linear_matmul (aten_scaled_mm, as TraceLens maps it): out 2 bytes for
//     1-byte inputs; N = B[0] by default (the op computes A·Bᵀ, B (N, K)), B[1] as TraceLens
//     reads it (aten::_scaled_mm's B (K, N)) under --tracelens-compat.
//   Primus Turbo's hipblaslt_gemm_fp8 / hipblaslt_gemm_fp4 (perf_model.py, mapped in
//     torch_op_mapping.py) (A, scaleA_inv, B, scaleB_inv, out_dtype, transA, transB, transC, ...):
//     A = Input Dims[0], B = [2]; transA/B/C the Concrete Inputs 5-7 (false when absent); transC
//     swaps A and B and sets transA, transB = !transB, !transA (as the binding does); then
//     M, K = A's (transA: A[1], A[0]), N = B[1] (transB: B[0]). FP8: bpe_A, bpe_B = Input type[0],
//     [2], out 2 bytes for 1-byte inputs (else bpe_A). FP4 (Float4_e2m1fn_x2, two values a byte): K
//     = 2·the packed K; bytes M·K/2·bpe_A + N·K/2·bpe_B + (M + N)·⌈K/32⌉·bpe_scale (the E8M0 block
//     scales, Input type[1], [3], 1 byte when unsized) + M·N·2 (16-bit output)
//   AITER's gemm_a4w4 / _gemm_a4w4_asm (aiter_gemm_a4w4) (A, B, scaleA, scaleB, ...): NT only:
//     M = A[0], K = 2·A[1], N = B[0]; bytes hipblaslt_gemm_fp4's, the scales Input type[2], [3]
// For all three, A's or B's dtype with no size drops the call (TraceLens asserts there).
// Otherwise the precision is Input type[0]'s.

#include "core/analysis/efficiency/model_support.h"

#include <array>
#include <cmath>
#include <optional>
#include <utility>

namespace ks::core {

namespace {

    using namespace perf_detail;

    constexpr std::string_view kBf16 = "c10::bfloat16";

    struct Sizes
    {
        double a = 0, b = 0, out = 0;
    };

    ModelResult quantGemm(double batch, double m, double n, double k, const Sizes& s,
        std::string_view precisionDtype, const ModelReading& reading)
    {
        const double flops = batch * 2 * m * n * k;
        double bytes = batch * (m * k * s.a + k * n * s.b + m * n * s.out);
        if (std::isnan(s.a) || std::isnan(s.b) || std::isnan(s.out))
            bytes = std::numeric_limits<double>::quiet_NaN(); // GEMM.bytes_func: None
        const auto i = [](double v) { return std::to_string(std::int64_t(v)); };
        std::string params = "M=" + i(m) + " N=" + i(n) + " K=" + i(k);
        if (batch != 1)
            params = "B=" + i(batch) + " " + params;
        return estimate(flops, bytes, precisionDtype, ComputeUnit::Matrix, reading, std::move(params));
    }

    // x = Input Dims[0] with at least 2 dims, w = [1] with at least `wRank`.
    bool twoOperands(
        const OpArgs& args, std::size_t wRank, std::vector<std::int64_t>& x, std::vector<std::int64_t>& w)
    {
        const auto sx = shapeOfRank(args, 0, -1);
        const auto sw = shapeOfRank(args, 1, -1);
        if (!sx || !sw || sx->size() < 2 || sw->size() < wRank)
            return false;
        x = *sx;
        w = *sw;
        return true;
    }

    // extensions/perf_model_extensions.py gemm_a8w8_blockscale: M, K from x, N from w; out bf16.
    ModelResult a8w8(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        std::vector<std::int64_t> x, w;
        if (!twoOperands(args, 1, x, w))
            return SkipReason::MalformedDims;
        const Sizes s { sizeOf(args.type(0), reading), sizeOf(args.type(1), reading),
            sizeOf(kBf16, reading) };
        return quantGemm(1, double(x[0]), double(w[0]), double(x[1]), s, args.type(0), reading);
    }

    // extensions/perf_model_extensions.py gemm_a16w16_atomic_: out dtype Input type[3], bf16 without.
    ModelResult a16w16Atomic(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        std::vector<std::int64_t> x, w;
        if (!twoOperands(args, 1, x, w))
            return SkipReason::MalformedDims;
        const std::string_view out = args.types.size() > 3 ? args.type(3) : kBf16;
        const Sizes s { sizeOf(args.type(0), reading), sizeOf(args.type(1), reading), sizeOf(out, reading) };
        return quantGemm(1, double(x[0]), double(w[0]), double(x[1]), s, args.type(0), reading);
    }

    // extensions/perf_model_extensions.py gemm_a16w16_asm: out dtype Input type[2] when sized, else [0].
    ModelResult a16w16Asm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        std::vector<std::int64_t> x, w;
        if (!twoOperands(args, 1, x, w))
            return SkipReason::MalformedDims;
        const bool outSized = args.types.size() > 2 && !std::isnan(sizeOf(args.type(2), reading));
        const std::string_view out = outSized ? args.type(2) : args.type(0);
        const Sizes s { sizeOf(args.type(0), reading), sizeOf(args.type(1), reading), sizeOf(out, reading) };
        return quantGemm(1, double(x[0]), double(w[0]), double(x[1]), s, args.type(0), reading);
    }

    // extensions/perf_model_extensions.py gemm_afp4wfp4: packed FP4 operands, K = 2·x[1].
    ModelResult afp4wfp4(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        std::vector<std::int64_t> x, w;
        if (!twoOperands(args, 1, x, w))
            return SkipReason::MalformedDims;
        const Sizes s { 0.5, 0.5, sizeOf(kBf16, reading) };
        return quantGemm(1, double(x[0]), double(w[0]), 2 * double(x[1]), s, "fp4", reading);
    }

    // extensions/perf_model_extensions.py batched_gemm_a16wfp4: x (B, M, K), w (B, N, K/2).
    ModelResult batchedA16wfp4(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        std::vector<std::int64_t> x, w;
        if (!twoOperands(args, 2, x, w) || x.size() < 3)
            return SkipReason::MalformedDims;
        const Sizes s { sizeOf(args.type(0), reading), 0.5, sizeOf(kBf16, reading) };
        return quantGemm(double(x[0]), double(x[1]), double(w[1]), double(x[2]), s, "fp4", reading);
    }

    // extensions/perf_model_extensions.py batched_gemm_a8w8: w (B, N, K); x (B, M, K) or (M, B, K).
    ModelResult batchedA8w8(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        std::vector<std::int64_t> x, w;
        if (!twoOperands(args, 2, x, w) || x.size() < 3)
            return SkipReason::MalformedDims;
        const double b = double(w[0]);
        const double m = double(x[0]) == b ? double(x[1]) : double(x[0]);
        const Sizes s { sizeOf(args.type(0), reading), sizeOf(args.type(1), reading),
            sizeOf(kBf16, reading) };
        return quantGemm(b, m, double(w[1]), double(x[2]), s, args.type(1), reading);
    }

    // perf_model.py vllm_gemm_with_dynamic_quant: the first two 2-D arguments, sized at Input type[0].
    ModelResult gemmWithDynamicQuant(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        std::optional<std::vector<std::int64_t>> a, b;
        for (std::size_t i = 0; i < args.dims.size() && !b; ++i) {
            const auto s = shapeOfRank(args, i, 2);
            if (!s)
                continue;
            if (a)
                b = s;
            else
                a = s;
        }
        if (!a)
            a = shapeOfRank(args, 0, 2);
        if (!b)
            b = shapeOfRank(args, 1, 2);
        if (!a || !b || args.types.size() < 2)
            return SkipReason::MalformedDims;
        const double bpe = sizeOf(args.type(0), reading);
        return quantGemm(
            1, double((*a)[0]), double((*b)[0]), double((*a)[1]), { bpe, bpe, bpe }, args.type(0), reading);
    }

    // perf_model.py aten_scaled_mm, which TraceLens maps bitsandbytes::int8_linear_matmul(A, B) to.
    ModelResult int8LinearMatmul(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto sa = shapeOfRank(args, 0, 2);
        const auto sb = shapeOfRank(args, 1, 2);
        if (!sa || !sb)
            return SkipReason::MalformedDims;
        if (!reading.tracelens && (*sb)[1] != (*sa)[1])
            return SkipReason::MismatchedShapes;
        const double bpe = sizeOf(args.type(0), reading);
        const double out = bpe == 1 ? 2 : (bpe == 2 || bpe == 4 ? bpe : std::nan(""));
        const double n = double(reading.tracelens ? (*sb)[1] : (*sb)[0]);
        return quantGemm(1, double((*sa)[0]), n, double((*sa)[1]), { bpe, bpe, out }, args.type(0), reading);
    }

    // hipblaslt_gemm_fp{8,4}'s M, N and (packed, for FP4) K: perf_model.py get_param_details.
    struct HipblasltShape
    {
        double m = 0, n = 0, k = 0;
    };

    std::optional<HipblasltShape> hipblasltShape(const OpArgs& args)
    {
        auto a = shapeOfRank(args, 0, 2);
        auto b = shapeOfRank(args, 2, 2);
        if (!a || !b)
            return std::nullopt;
        bool transA = concreteBool(args.concreteAt(5)).value_or(false);
        bool transB = concreteBool(args.concreteAt(6)).value_or(false);
        if (concreteBool(args.concreteAt(7)).value_or(false)) { // transC: Cᵀ = Bᵀ·Aᵀ
            std::swap(a, b);
            const bool wasA = transA;
            transA = !transB;
            transB = !wasA;
        }
        return HipblasltShape { double(transA ? (*a)[1] : (*a)[0]), double(transB ? (*b)[0] : (*b)[1]),
            double(transA ? (*a)[0] : (*a)[1]) };
    }

    // perf_model.py hipblaslt_gemm_fp8.bytes: out 2 bytes for 1-byte inputs, else bpe_A.
    ModelResult hipblasltFp8(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto s = hipblasltShape(args);
        if (!s)
            return SkipReason::MalformedDims;
        const double a = sizeOf(args.type(0), reading);
        const double b = sizeOf(args.type(2), reading);
        if (std::isnan(a) || std::isnan(b))
            return SkipReason::UnknownDtype;
        return quantGemm(1, s->m, s->n, s->k, { a, b, a == 1 ? 2 : a }, args.type(0), reading);
    }

    // perf_model.py hipblaslt_gemm_fp4.bytes: packed operands, E8M0 scales per 32 of K, 16-bit out.
    ModelResult mxfp4Gemm(double m, double n, double kPacked, const OpArgs& args, std::size_t typeA,
        std::size_t typeB, std::size_t scaleA, std::size_t scaleB, const ModelReading& reading)
    {
        const double a = sizeOf(args.type(typeA), reading);
        const double b = sizeOf(args.type(typeB), reading);
        if (std::isnan(a) || std::isnan(b))
            return SkipReason::UnknownDtype;
        const auto scaleSize = [&](std::size_t i) {
            const double bpe = sizeOf(args.type(i), reading);
            return std::isnan(bpe) || bpe == 0 ? 1.0 : bpe; // name2bpe(...) or 1
        };
        const double k = 2 * kPacked;
        const double scalesPerRow = std::ceil(k / 32);
        PerfEstimate e =
            std::get<PerfEstimate>(quantGemm(1, m, n, k, { a, b, 2 }, args.type(typeA), reading));
        e.bytes = m * kPacked * a + n * kPacked * b + m * scalesPerRow * scaleSize(scaleA)
            + n * scalesPerRow * scaleSize(scaleB) + m * n * 2;
        return e;
    }

    ModelResult hipblasltFp4(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto s = hipblasltShape(args);
        if (!s)
            return SkipReason::MalformedDims;
        return mxfp4Gemm(s->m, s->n, s->k, args, 0, 2, 1, 3, reading);
    }

    // perf_model.py aiter_gemm_a4w4: A (M, K/2), B (N, K/2), scales at Input type[2], [3].
    ModelResult aiterA4w4(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto a = shapeOfRank(args, 0, 2);
        const auto b = shapeOfRank(args, 1, 2);
        if (!a || !b)
            return SkipReason::MalformedDims;
        return mxfp4Gemm(double((*a)[0]), double((*b)[0]), double((*a)[1]), args, 0, 1, 2, 3, reading);
    }

    constexpr std::array kModels {
        OpModel { "aiter::gemm_a8w8_blockscale_ck", OpFamily::Gemm, a8w8 },
        OpModel { "aiter::gemm_a8w8_blockscale_cktile", OpFamily::Gemm, a8w8 },
        OpModel { "aiter::gemm_a8w8_blockscale_bpreshuffle_ck", OpFamily::Gemm, a8w8 },
        OpModel { "aiter::gemm_a8w8_blockscale_bpreshuffle_cktile", OpFamily::Gemm, a8w8 },
        OpModel { "aiter::_gemm_a8w8_blockscale_bpreshuffle_asm", OpFamily::Gemm, a8w8 },
        OpModel { "aiter::flatmm_a8w8_blockscale_asm", OpFamily::Gemm, a8w8 },
        OpModel { "aiter::gfx950_a8w8_blockscale_asm", OpFamily::Gemm, a8w8 },
        OpModel { "aiter::gemm_a8w8_ck", OpFamily::Gemm, a8w8 },
        OpModel { "aiter::gemm_a8w8_bpreshuffle_ck", OpFamily::Gemm, a8w8 },
        OpModel { "aiter::gemm_a8w8_bpreshuffle", OpFamily::Gemm, a8w8 },
        OpModel { "vllm::rocm_aiter_triton_gemm_a8w8_blockscale", OpFamily::Gemm, a8w8 },
        OpModel { "vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm", OpFamily::Gemm, a8w8 },
        OpModel { "sglang_profiler::fp8_utils_gemm_a8w8_blockscale", OpFamily::Gemm, a8w8 },
        OpModel { "sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale", OpFamily::Gemm, a8w8 },
        OpModel { "aiter::gemm_a16w16_atomic_", OpFamily::Gemm, a16w16Atomic },
        OpModel { "sglang_profiler::gemm_kernels_flydsl_hgemm", OpFamily::Gemm, a16w16Atomic },
        OpModel { "aiter::_gemm_a16w16_asm", OpFamily::Gemm, a16w16Asm },
        OpModel { "aiter::gemm_afp4wfp4_", OpFamily::Gemm, afp4wfp4 },
        OpModel { "aiter::batched_gemm_a16wfp4_", OpFamily::Gemm, batchedA16wfp4 },
        OpModel { "sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_quant_"
                  "batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_quant",
            OpFamily::Gemm, batchedA8w8 },
        OpModel { "vllm::gemm_with_dynamic_quant", OpFamily::Gemm, gemmWithDynamicQuant },
        OpModel { "bitsandbytes::int8_linear_matmul", OpFamily::Gemm, int8LinearMatmul },
        OpModel { "primus_turbo_cpp_extension::hipblaslt_gemm_fp8", OpFamily::Gemm, hipblasltFp8 },
        OpModel { "primus_turbo::hipblaslt_gemm_fp8", OpFamily::Gemm, hipblasltFp8 },
        OpModel { "primus_turbo_cpp_extension::hipblaslt_gemm_fp4", OpFamily::Gemm, hipblasltFp4 },
        OpModel { "primus_turbo::hipblaslt_gemm_fp4", OpFamily::Gemm, hipblasltFp4 },
        OpModel { "aiter::gemm_a4w4", OpFamily::Gemm, aiterA4w4 },
        OpModel { "aiter::_gemm_a4w4_asm", OpFamily::Gemm, aiterA4w4 },
    };

} // namespace

std::span<const OpModel> quantGemmModels()
{
    return kModels;
}

} // namespace ks::core
