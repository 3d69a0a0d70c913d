// AITER's mHC (manifold-constrained hyper-connection) ops, family `mhc` (TraceLens's "mHC" sheet), as
// TraceLens models them: PerfModel/extensions/perf_model_extensions.py, the "mHC family" block
// (_MHCBase, mhc_post, mhc_pre_gemm_sqrsum, mhc_pre_big_fuse_rmsnorm, mhc_fused_post_pre_gemm_sqrsum),
// mapped by name in extensions/pseudo_ops_perf_utils.py get_pseudo_op_mappings. The residual stream is
// n copies of the hidden state: M tokens, n streams (hc_mult), C hidden per stream, K = n·C, hc3 = n² + 2n
// projection rows (pre | post | res mixes), split_k the GEMM's K-split partials.
//   aiter::mhc_post(out (M, n, C), x (M, C), residual (M, n, C), post_mix (M, n, 1), comb_mix (M, n, n)):
//     out = post·x + combᵀ·residual.  FLOPs = 2·M·n·C·(n + 1)
//     bytes = (M·C + 2·M·n·C)·bpe + M·n·s_post + M·n²·s_comb
//   aiter::mhc_pre_gemm_sqrsum(out (split_k, M, hc3), sqrsum (split_k, M), x (M, n, C), fn (hc3, K)): the
//     projection GEMM and each token's sum of squares.  FLOPs = 2·M·hc3·K (matrix units)
//     bytes = M·n·C·bpe + hc3·K·s_fn + split_k·M·hc3·s_out + split_k·M·s_sqrsum
//   aiter::mhc_pre_big_fuse_rmsnorm(post_mix (M, n, 1), comb_mix (M, n, n), out (M, C), gemm_out
//     (split_k, M, hc3), gemm_sqrsum (split_k, M), hc_scale, hc_base (hc3), residual (M, n, C), norm_weight
//     (C), ...): reduce the partials into the mixes, apply the pre mix, RMS-normalise.
//     FLOPs = 2·M·C·n + 5·M·C
//     bytes = (M·n·C + M·C)·bpe + C·s_weight + split_k·M·hc3·s_gemm [+ split_k·M·s_sqrsum] + M·n·s_post
//             + M·n²·s_comb
//   aiter::mhc_fused_post_pre_gemm_sqrsum(gemm_out (split_k, M, hc3), gemm_sqrsum (split_k, M),
//     next_residual (M, n, C), layer_input (M, C), residual_in (M, n, C), post_mix, comb_mix, fn (hc3, K),
//     ...): mhc_post, then the next layer's mhc_pre_gemm_sqrsum on its result (matrix units).
//     FLOPs = 2·M·n·C·(n + 1) + 2·M·hc3·K
//     bytes = (M·C + 3·M·n·C)·bpe + M·n·s_post + M·n²·s_comb + hc3·K·s_fn + split_k·M·(hc3·s_out + s_sqrsum)
//     (next_residual written and read back, as TraceLens counts it).
// bpe is the activations' dtype (mhc_post: x's, Input type[1]; pre_gemm: x's, [2]; big_fuse: the
// residual's, [7]; fused: layer_input's, [3]; bf16 when the call records fewer types, as TraceLens's
// default), which is also the precision; bytes null when it has no size. The s_ are the fp32 side tensors
// (mixes, fn, partials, square sums, norm weight): TraceLens counts each at 4 bytes (the norm weight at
// bpe); ours at its recorded dtype (4 when it has none), and big_fuse also reads the square-sum partials
// TraceLens leaves out. TraceLens reads the dims without checking them (an IndexError drops the call);
// here a missing or wrongly ranked operand is "malformed input dims".

#include "core/analysis/efficiency/model_support.h"

#include <array>
#include <string>

namespace ks::core {

namespace {

    using namespace perf_detail;

    // The activations' dtype: Input type[i], bf16 when the call records no more than i types
    // (TraceLens's `types[i] if len(types) > i else "c10::BFloat16"`).
    std::string_view activationType(const OpArgs& args, std::size_t i)
    {
        return args.types.size() > i ? args.type(i) : std::string_view("c10::BFloat16");
    }

    // A side tensor's bytes per element: TraceLens's fixed size (4: it takes them for fp32); ours its
    // recorded dtype's size, the fixed one when it has none (a tensor the trace types otherwise).
    double sideSize(const OpArgs& args, std::size_t i, const ModelReading& reading, double fixed = 4)
    {
        if (reading.tracelens)
            return fixed;
        const auto bpe = bytesPerElement(args.type(i), reading.dtypes());
        return bpe ? *bpe : fixed;
    }

    std::string mhcParams(double n, double splitK = 0)
    {
        const auto i = [](double v) { return std::to_string(std::int64_t(v)); };
        return "streams=" + i(n) + (splitK > 0 ? " split_k=" + i(splitK) : std::string());
    }

    // The post step's bytes beyond the activations: the post (M, n) and combine (M, n, n) mixes.
    double mixBytes(const OpArgs& args, std::size_t post, std::size_t comb, double m, double n,
        const ModelReading& reading)
    {
        return m * n * sideSize(args, post, reading) + m * n * n * sideSize(args, comb, reading);
    }

    // mhc_post.get_param_details: M, C from x (Input Dims[1]), n from out's dim 1.
    ModelResult mhcPost(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto s = shapesOf(args, { rankIs(0, 3), rankIs(1, 2) });
        if (!s)
            return SkipReason::MalformedDims;
        const auto& [out, x] = *s;
        const double m = double(x[0]), c = double(x[1]), n = double(out[1]);
        const std::string_view dtype = activationType(args, 1);
        const double bpe = sizeOf(dtype, reading);
        const double bytes = (m * c + 2 * m * n * c) * bpe + mixBytes(args, 3, 4, m, n, reading);
        return estimate(2 * m * n * c * (n + 1), bytes, dtype, ComputeUnit::Vector, reading, mhcParams(n));
    }

    // mhc_pre_gemm_sqrsum.get_param_details: M, n, C from x (Input Dims[2]), hc3, K from fn ([3]),
    // split_k from out ([0]).
    ModelResult mhcPreGemmSqrsum(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto s = shapesOf(args, { rankIs(0, 3), rankIs(2, 3), rankIs(3, 2) });
        if (!s)
            return SkipReason::MalformedDims;
        const auto& [out, x, fn] = *s;
        const double m = double(x[0]), n = double(x[1]), c = double(x[2]);
        const double hc3 = double(fn[0]), k = double(fn[1]), splitK = double(out[0]);
        const std::string_view dtype = activationType(args, 2);
        const double bytes = m * n * c * sizeOf(dtype, reading) + hc3 * k * sideSize(args, 3, reading)
            + splitK * m * hc3 * sideSize(args, 0, reading) + splitK * m * sideSize(args, 1, reading);
        return estimate(2 * m * hc3 * k, bytes, dtype, ComputeUnit::Matrix, reading, mhcParams(n, splitK));
    }

    // mhc_pre_big_fuse_rmsnorm.get_param_details: M, C from out (Input Dims[2]), n from post_mix's dim 1,
    // hc3 from hc_base ([6]), split_k from gemm_out ([3]), the dtype the residual's ([7]).
    ModelResult mhcPreBigFuseRmsnorm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto s =
            shapesOf(args, { rankAtLeast(0, 2), rankIs(2, 2), rankAtLeast(3, 1), rankAtLeast(6, 1) });
        if (!s)
            return SkipReason::MalformedDims;
        const auto& [postMix, out, gemmOut, hcBase] = *s;
        const double m = double(out[0]), c = double(out[1]), n = double(postMix[1]);
        const double hc3 = double(hcBase[0]), splitK = double(gemmOut[0]);
        const std::string_view dtype = activationType(args, 7);
        const double bpe = sizeOf(dtype, reading);
        // TraceLens reads the norm weight at the residual's size and no square-sum partials.
        const double sqrsum = reading.tracelens ? 0 : splitK * m * sideSize(args, 4, reading);
        const double bytes = (m * n * c + m * c) * bpe + c * sideSize(args, 8, reading, bpe)
            + splitK * m * hc3 * sideSize(args, 3, reading) + sqrsum + mixBytes(args, 0, 1, m, n, reading);
        return estimate(
            2 * m * c * n + 5 * m * c, bytes, dtype, ComputeUnit::Vector, reading, mhcParams(n, splitK));
    }

    // mhc_fused_post_pre_gemm_sqrsum.get_param_details: M, C from layer_input (Input Dims[3]), n from
    // next_residual's dim 1, hc3, K from fn ([7]), split_k from gemm_out ([0]).
    ModelResult mhcFusedPostPreGemmSqrsum(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto s = shapesOf(args, { rankIs(0, 3), rankIs(2, 3), rankIs(3, 2), rankIs(7, 2) });
        if (!s)
            return SkipReason::MalformedDims;
        const auto& [gemmOut, next, layerInput, fn] = *s;
        const double m = double(layerInput[0]), c = double(layerInput[1]), n = double(next[1]);
        const double hc3 = double(fn[0]), k = double(fn[1]), splitK = double(gemmOut[0]);
        const std::string_view dtype = activationType(args, 3);
        const double bpe = sizeOf(dtype, reading);
        const double bytes = (m * c + 3 * m * n * c) * bpe + mixBytes(args, 5, 6, m, n, reading)
            + hc3 * k * sideSize(args, 7, reading)
            + splitK * m * (hc3 * sideSize(args, 0, reading) + sideSize(args, 1, reading));
        const double flops = 2 * m * n * c * (n + 1) + 2 * m * hc3 * k;
        return estimate(flops, bytes, dtype, ComputeUnit::Matrix, reading, mhcParams(n, splitK));
    }

    constexpr std::array kModels {
        OpModel { "aiter::mhc_post", OpFamily::Mhc, mhcPost },
        OpModel { "aiter::mhc_pre_gemm_sqrsum", OpFamily::Mhc, mhcPreGemmSqrsum },
        OpModel { "aiter::mhc_pre_big_fuse_rmsnorm", OpFamily::Mhc, mhcPreBigFuseRmsnorm },
        OpModel { "aiter::mhc_fused_post_pre_gemm_sqrsum", OpFamily::Mhc, mhcFusedPostPreGemmSqrsum },
    };

} // namespace

std::span<const OpModel> mhcModels()
{
    return kModels;
}

} // namespace ks::core
