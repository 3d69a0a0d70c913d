// AITER's two-stage MoE GEMMs and its MoE routing / sort kernels (moe family), as TraceLens models them
// (PerfModel/extensions/moe_perf_model_extensions.py, mapped by pseudo_ops_perf_utils.py
// get_pseudo_op_mappings). M tokens, K hidden, N intermediate, E experts, topk per token, gated (SwiGLU:
// w1 holds gate and up, 2N rows), E_active = E·(1 − ((E − topk)/E)^M) (uniform routing):
//   up (stage 1, UnfusedMoE_Up):   FLOPs = 2·M·K·N·topk·(gated ? 2 : 1)
//                                  bytes = M·K·bpe_in + E_active·(gated ? 2 : 1)·K·N·bpe_w + M·N·topk·bpe_out
//   down (stage 2, UnfusedMoE_Down): FLOPs = 2·M·N·K·topk
//                                  bytes = M·N·topk·bpe_in + E_active·N·K·bpe_w + M·K·bpe_out
// with bpe from TraceLens's DTYPE_TO_BYTES (in: 2, w: 1, out: 2 when a name is not there); the input's
// precision, matrix units. The ops read their dims from:
//   aiter::moe_cktile2stages_gemm1_ck(x (M, K), w1 (E, 2N or N, K'), out (M, topk, N), ...): out at
//     Input type[2]; gemm2_ck(x (M, topk, N), w2 (E, K, N'), out (M, K), ...): the same.
//   aiter::ck_moe_stage1(x (M, K'), w1 (E, 2N or N, K''), w2 (E, K, N'), sorted ids, expert ids, valid,
//     out (M, topk, N), ...) and ck_moe_stage2(x (M, topk, N'), w1, w2 (E, K, N'), ..., out (M, K), ...):
//     N = N'·(K // w1[-1]) (the FP4/INT4 packing, stage 2's 1 without w1), w = w1's dtype (stage 1),
//     w2's (stage 2). TraceLens writes the output at the input's size; ours at the output's (Input
//     type[6]: an FP8 input still writes BF16), the input's when it has no DTYPE_TO_BYTES size.
//   aiter::biased_grouped_topk_hip (BiasedGroupedTopk) and aiter::moe_sorting_fwd / mxfp4_moe_sort_hip
//     (MoeSortScatterGather), vector units: over the operands (non-empty flat dims), bytes = Σ prod·bpe
//     (operands without a size left out; null when nothing is left); the largest operand's precision;
//     FLOPs: the sort's largest operand; the top-k's [M, topk] (the narrowest 2-D operand with as many
//     rows as the largest 2-D one, the logits [M, E]), else its largest operand.
//   SGLang's Triton fused MoE, sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel(A, B
//     (E, N, K), bias, C, A_scale, B_scale, B_zp, topk_weights, topk_ids (tokens, topk), ...), one grouped
//     GEMM per launch (gate/up or down; moe_triton_invoke_grouped_gemm): M_work = tokens·topk,
//     FLOPs = 2·M_work·N·K, bytes = M_work·K·bpe_A + E_active(tokens)·N·K·bpe_B + M_work·N·bpe_C (C's
//     dtype, A's when not recorded; DTYPE_TO_BYTES, defaults 2, 1, 2); B's precision, matrix units.
//   sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts(ids (M, topk), weights)
//     (sglang_fused_append_shared_experts, MoE_aux): FLOPs = prod(ids); bytes = 2·(prod(ids)·bpe_ids
//     + prod(weights)·bpe_w), 4 bytes for a dtype with no size; the weights' precision, vector units.

#include "core/analysis/efficiency/model_support.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <string>

namespace ks::core {

namespace {

    using namespace perf_detail;

    struct MoeGemm
    {
        double m = 0, k = 0, n = 0, e = 0, topk = 0;
        bool gated = false;

        double activeExperts() const { return e * (1 - std::pow((e - topk) / e, m)); }
    };

    std::string moeParams(const MoeGemm& g)
    {
        const auto i = [](double v) { return std::to_string(std::int64_t(v)); };
        return "tokens=" + i(g.m) + " hidden=" + i(g.k) + " inter=" + i(g.n) + " experts=" + i(g.e)
            + " topk=" + i(g.topk) + (g.gated ? " gated" : "");
    }

    double dtypeBytes(const OpArgs& args, std::size_t i, double fallback)
    {
        return moeBytesPerElement(args.type(i)).value_or(fallback);
    }

    ModelResult up(const OpArgs& args, const MoeGemm& g, double bpeIn, double bpeW, double bpeOut,
        const ModelReading& reading)
    {
        const double gate = g.gated ? 2 : 1;
        const double flops = 2 * g.m * g.k * g.n * g.topk * gate;
        const double bytes =
            g.m * g.k * bpeIn + g.activeExperts() * gate * g.k * g.n * bpeW + g.m * g.n * g.topk * bpeOut;
        return estimate(flops, bytes, args.type(0), ComputeUnit::Matrix, reading, moeParams(g));
    }

    ModelResult down(const OpArgs& args, const MoeGemm& g, double bpeIn, double bpeW, double bpeOut,
        const ModelReading& reading)
    {
        const double flops = 2 * g.m * g.n * g.k * g.topk;
        const double bytes =
            g.m * g.n * g.topk * bpeIn + g.activeExperts() * g.n * g.k * bpeW + g.m * g.k * bpeOut;
        return estimate(flops, bytes, args.type(0), ComputeUnit::Matrix, reading, moeParams(g));
    }

    bool positive(const MoeGemm& g)
    {
        return g.e > 0 && g.m >= 0;
    }

    // aiter::moe_cktile2stages_gemm1_ck(x (M, K), w1 (E, ·, ·), out (M, topk, N), ...).
    ModelResult cktileGemm1(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 0, 2), w1 = shapeOfRank(args, 1, 3), out = shapeOfRank(args, 2, 3);
        if (!x || !w1 || !out)
            return SkipReason::MalformedDims;
        MoeGemm g { double((*x)[0]), double((*x)[1]), double((*out)[2]), double((*w1)[0]),
            double((*out)[1]) };
        g.gated = double((*w1)[1]) == 2 * g.n;
        if (!positive(g))
            return SkipReason::MalformedDims;
        return up(args, g, dtypeBytes(args, 0, 2), dtypeBytes(args, 1, 1), dtypeBytes(args, 2, 2), reading);
    }

    // aiter::moe_cktile2stages_gemm2_ck(x (M, topk, N), w2 (E, K, ·), out (M, K), ...).
    ModelResult cktileGemm2(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 0, 3), w2 = shapeOfRank(args, 1, 3);
        if (!x || !w2)
            return SkipReason::MalformedDims;
        const MoeGemm g { double((*x)[0]), double((*w2)[1]), double((*x)[2]), double((*w2)[0]),
            double((*x)[1]) };
        if (!positive(g))
            return SkipReason::MalformedDims;
        return down(args, g, dtypeBytes(args, 0, 2), dtypeBytes(args, 1, 1), dtypeBytes(args, 2, 2), reading);
    }

    // The output's size: ours its own dtype's (Input type[6], the input's without a size), TraceLens's the
    // input's.
    double ckOutBytes(const OpArgs& args, double bpeIn, const ModelReading& reading)
    {
        return reading.tracelens ? bpeIn : dtypeBytes(args, 6, bpeIn);
    }

    // aiter::ck_moe_stage1(x, w1, w2 (E, K, N'), sorted_ids, expert_ids, num_valid, out (M, topk, N), ...).
    ModelResult ckStage1(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 0, -1), w1 = shapeOfRank(args, 1, -1), w2 = shapeOfRank(args, 2, 3);
        const auto out = shapeOfRank(args, 6, -1);
        if (!x || x->empty() || !w1 || w1->size() < 2 || w1->back() <= 0 || !w2 || !out || out->size() < 2)
            return SkipReason::MalformedDims;
        MoeGemm g { double((*x)[0]), double((*w2)[1]), 0, double((*w2)[0]), double((*out)[1]) };
        g.n = double((*w2)[2] * ((*w2)[1] / w1->back())); // FP4/INT4 packing
        g.gated = double((*w1)[1]) == 2 * g.n;
        if (!positive(g))
            return SkipReason::MalformedDims;
        const double bpeIn = dtypeBytes(args, 0, 2);
        return up(args, g, bpeIn, dtypeBytes(args, 1, 1), ckOutBytes(args, bpeIn, reading), reading);
    }

    // aiter::ck_moe_stage2(x (M, topk, N'), w1, w2 (E, K, N'), sorted_ids, expert_ids, num_valid, out, ...).
    ModelResult ckStage2(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 0, 3), w1 = shapeOfRank(args, 1, -1), w2 = shapeOfRank(args, 2, 3);
        if (!x || !w1 || !w2 || (!w1->empty() && w1->back() <= 0))
            return SkipReason::MalformedDims;
        const std::int64_t packing = w1->empty() ? 1 : (*w2)[1] / w1->back();
        const MoeGemm g { double((*x)[0]), double((*w2)[1]), double((*x)[2] * packing), double((*w2)[0]),
            double((*x)[1]) };
        if (!positive(g))
            return SkipReason::MalformedDims;
        const double bpeIn = dtypeBytes(args, 0, 2);
        return down(args, g, bpeIn, dtypeBytes(args, 2, 1), ckOutBytes(args, bpeIn, reading), reading);
    }

    struct Operand
    {
        std::vector<std::int64_t> shape;
        std::string_view type;
        double elements = 0;
    };

    // TraceLens's operands: every non-empty flat list of dims, with its dtype.
    std::vector<Operand> operandsOf(const OpArgs& args)
    {
        std::vector<Operand> out;
        for (std::size_t i = 0; i < args.dims.size(); ++i)
            if (args.hasDims(i) && !args.dims[i]->empty())
                out.push_back({ *args.dims[i], args.type(i), elementCount(*args.dims[i]) });
        return out;
    }

    // The first operand with the most elements (Python's max).
    const Operand* largest(const std::vector<Operand>& ops)
    {
        const Operand* best = nullptr;
        for (const Operand& o : ops)
            if (!best || o.elements > best->elements)
                best = &o;
        return best;
    }

    // Σ prod·bpe over the operands with a size; NaN (TraceLens's None) when that is 0.
    ModelResult routing(const std::vector<Operand>& ops, double flops, const ModelReading& reading)
    {
        double bytes = 0;
        for (const Operand& o : ops)
            if (const auto bpe = bytesPerElement(o.type, reading.dtypes()))
                bytes += o.elements * *bpe;
        const Operand* big = largest(ops);
        return estimate(flops, bytes > 0 ? bytes : std::numeric_limits<double>::quiet_NaN(),
            big ? big->type : std::string_view(), ComputeUnit::Vector, reading);
    }

    // aiter::moe_sorting_fwd / aiter::mxfp4_moe_sort_hip: 1 FLOP per element of the largest operand.
    ModelResult moeSort(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto ops = operandsOf(args);
        const Operand* big = largest(ops);
        return routing(ops, big ? big->elements : 0, reading);
    }

    // aiter::biased_grouped_topk_hip(gating_output (M, E), correction_bias, topk_weights (M, topk),
    // topk_ids (M, topk), ...): 1 FLOP per selected expert.
    ModelResult biasedGroupedTopk(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto ops = operandsOf(args);
        std::vector<Operand> twoD;
        for (const Operand& o : ops)
            if (o.shape.size() == 2)
                twoD.push_back(o);
        // the narrowest 2-D operand with the logits' rows, the first of them (Python's min)
        const Operand* logits = largest(twoD);
        const Operand* picked = nullptr;
        for (const Operand& o : twoD)
            if (o.shape[0] == logits->shape[0] && o.shape[1] < logits->shape[1]
                && (!picked || o.shape[1] < picked->shape[1]))
                picked = &o;
        const Operand* big = largest(ops);
        const double flops = picked ? picked->elements : (big ? big->elements : 0);
        return routing(ops, flops, reading);
    }

    // sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel: B at 1, C at 3, topk_ids at 8.
    ModelResult tritonFusedMoeKernel(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto b = shapeOfRank(args, 1, 3), ids = shapeOfRank(args, 8, 2);
        if (args.dims.size() < 9 || !b || !ids)
            return SkipReason::MalformedDims; // TraceLens raises
        const double e = double((*b)[0]), n = double((*b)[1]), k = double((*b)[2]);
        const double tokens = double((*ids)[0]), topk = double((*ids)[1]);
        const double work = tokens * topk;
        const double active = e > 0 ? e * (1 - std::pow((e - topk) / e, tokens)) : 0;
        const double bpeIn = dtypeBytes(args, 0, 2);
        const std::size_t out = args.types.size() > 3 && !args.type(3).empty() ? 3 : 0;
        const double bytes =
            work * k * bpeIn + active * n * k * dtypeBytes(args, 1, 1) + work * n * dtypeBytes(args, out, 2);
        const auto i = [](double v) { return std::to_string(std::int64_t(v)); };
        return estimate(2 * work * n * k, bytes, args.type(1), ComputeUnit::Matrix, reading,
            "tokens=" + i(tokens) + " topk=" + i(topk) + " N=" + i(n) + " K=" + i(k) + " experts=" + i(e));
    }

    // Whether two shapes broadcast together (numpy's rule, aligned on the right).
    bool broadcastable(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b)
    {
        for (std::size_t i = 1; i <= std::min(a.size(), b.size()); ++i) {
            const std::int64_t x = a[a.size() - i], y = b[b.size() - i];
            if (x != y && x != 1 && y != 1)
                return false;
        }
        return true;
    }

    // sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts(ids, weights, ...).
    ModelResult appendSharedExperts(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto ids = shapeOfRank(args, 0, -1);
        if (!ids)
            return SkipReason::MalformedDims;
        // the weights' shape the ids' when absent or empty, as TraceLens reads it
        const auto weights = present(args, 1) ? shapeOfRank(args, 1, -1) : ids;
        if (!weights)
            return SkipReason::MalformedDims;
        if (!broadcastable(*ids, *weights))
            return SkipReason::MismatchedShapes; // BinaryElementwise raises
        const std::string_view idsType = args.types.empty() ? std::string_view("int") : args.type(0);
        const std::string_view weightsType = args.types.size() > 1 ? args.type(1) : std::string_view("float");
        const auto sizeOr4 = [&](std::string_view type) {
            return bytesPerElement(type, reading.dtypes()).value_or(4);
        };
        const double nIds = elementCount(*ids), nWeights = elementCount(*weights);
        return estimate(nIds, 2 * (nIds * sizeOr4(idsType) + nWeights * sizeOr4(weightsType)), weightsType,
            ComputeUnit::Vector, reading);
    }

    // aiter::topk_softplus(topk_weights (M, topk), topk_indices (M, topk), gating_output (M, E), ...), the
    // fused router scoring (perf_model_extensions.py topk_softplus, MoE_aux): FLOPs = 6·M·E; bytes =
    // M·E·bpe + E·4 (the fp32 correction bias) + 2·M·topk·4 (fp32 weights, int32 indices), null when the
    // gating dtype (Input type[2], bf16 when not recorded) has no size; its precision, vector units.
    ModelResult topkSoftplus(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto weights = shapeOfRank(args, 0, 2);
        const auto gating = shapeOfRank(args, 2, 2);
        if (!weights || !gating)
            return SkipReason::MalformedDims;
        const std::string_view dtype =
            args.types.size() > 2 ? args.type(2) : std::string_view("c10::BFloat16");
        const double m = double((*gating)[0]), e = double((*gating)[1]), topk = double((*weights)[1]);
        const double bytes = m * e * sizeOf(dtype, reading) + e * 4 + 2 * m * topk * 4;
        const auto i = [](double v) { return std::to_string(std::int64_t(v)); };
        return estimate(
            6 * m * e, bytes, dtype, ComputeUnit::Vector, reading, "E=" + i(e) + " topk=" + i(topk));
    }

    constexpr std::array kModels {
        OpModel { "aiter::moe_cktile2stages_gemm1_ck", OpFamily::Moe, cktileGemm1 },
        OpModel { "aiter::moe_cktile2stages_gemm2_ck", OpFamily::Moe, cktileGemm2 },
        OpModel { "aiter::ck_moe_stage1", OpFamily::Moe, ckStage1 },
        OpModel { "aiter::ck_moe_stage2", OpFamily::Moe, ckStage2 },
        OpModel { "aiter::biased_grouped_topk_hip", OpFamily::Moe, biasedGroupedTopk },
        OpModel { "aiter::topk_softplus", OpFamily::Moe, topkSoftplus },
        OpModel { "aiter::moe_sorting_fwd", OpFamily::Moe, moeSort },
        OpModel { "aiter::mxfp4_moe_sort_hip", OpFamily::Moe, moeSort },
        OpModel { "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel", OpFamily::Moe,
            tritonFusedMoeKernel },
        OpModel { "sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts", OpFamily::Moe,
            appendSharedExperts },
    };

} // namespace

std::span<const OpModel> moeModels()
{
    return kModels;
}

} // namespace ks::core
