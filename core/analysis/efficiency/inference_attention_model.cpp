// Inference attention over a batch packed along the tokens: vLLM's
// vllm::unified_attention_with_output and AITER's varlen/prefill ops. Their tensors hold every
// request's tokens in one dimension, so the FLOPs come from the step annotation around the call
// (ChunkStats, iteration_annotation.h), not from the shapes. TraceLens's InferenceAttention
// (PerfModel/extensions/attention_perf_model_extensions.py: get_param_details, flops_func,
// bytes_func), mapped by pseudo_ops_perf_utils.py's get_pseudo_op_mappings:
//   Q = Input Dims[0] (N_Q, H_Q, d_qk), K = Input Dims[1] (…, H_KV, d_v: its last three)
//   FLOPs = H_Q·(2·c_sqsk − c_sqsq)·(d_qk + d_v)      context: QKᵀ and PV, causal within the chunk
//         + H_Q·2·g_sqsk·(d_qk + d_v)                 generation
//   bytes = (c_sq + g_sq)·(H_Q·(d_qk + d_v) + H_KV·(d_qk + d_v))·bpe_Q       Q, O, the step's K, V
//         + ((c_sk − c_sq) + (g_sk − g_sq))·H_KV·(d_qk + d_v)·bpe_KV          the cached K, V
// bpe_Q from Q's dtype, bpe_KV from K's (Input type[1]); held against the matrix peak of Q's
// precision. A call outside a step annotation with the sums, or whose sums have no query token,
// gets no estimate (TraceLens's no_perf_param_details and its NotImplementedError), counted
// as "no step annotation". Differences from TraceLens (docs/tracelens-differences.md): d_v is
// V's head dimension (Input Dims[2]) — TraceLens's base class takes K's, which differs for MLA
// shapes — and an unsized Q dtype leaves the bytes null (TraceLens assumes 2 bytes).

#include "core/analysis/efficiency/iteration_annotation.h"
#include "core/analysis/efficiency/model_support.h"

#include <array>
#include <string>

namespace ks::core {

namespace {

    using namespace perf_detail;

    // TraceLens's name2bpe(dtype) or fallback, as InferenceAttention.bytes sizes Q and K/V.
    double sizeOrFallback(std::string_view dtype, double fallback, const ModelReading& reading)
    {
        const auto bpe = bytesPerElement(dtype, reading.dtypes());
        return bpe ? *bpe : fallback;
    }

    std::string paramsOf(const ChunkStats& s)
    {
        const auto n = [](double v) { return std::to_string(std::int64_t(v)); };
        return "c_sq=" + n(s.cSq) + " c_sk=" + n(s.cSk) + " c_sqsq=" + n(s.cSqSq) + " c_sqsk=" + n(s.cSqSk)
            + " g_sq=" + n(s.gSq) + " g_sk=" + n(s.gSk) + " g_sqsq=" + n(s.gSqSq) + " g_sqsk=" + n(s.gSqSk);
    }

    // `vFromV`: TraceLens's subclass reads d_v from V (Input Dims[2][-1]) as ours does for every op
    // (aiter_fmha_v3_varlen_fwd, aiter_mha_batch_prefill); the base class reads K's last dim.
    ModelResult inferenceAttention(const OpArgs& args, bool vFromV, const ModelReading& reading)
    {
        const auto stats = chunkStatsOf(args.annotation);
        if (!stats)
            return SkipReason::NoStepAnnotation;
        const auto q = shapeOfRank(args, 0, 3);
        const auto k = shapeOfRank(args, 1, -1);
        if (!q || !k || k->size() < 3 || args.types.empty())
            return SkipReason::MalformedDims;
        const double hq = double((*q)[1]), dqk = double((*q)[2]);
        const double hkv = double((*k)[k->size() - 2]);
        double dv = double(k->back());
        if ((vFromV || !reading.tracelens) && args.hasDims(2) && !args.dims[2]->empty())
            dv = double(args.dims[2]->back());
        // flops() raises "decode phase requires custom annotations" when no query token is counted.
        if (stats->cSq == 0 && stats->gSq == 0)
            return SkipReason::NoStepAnnotation;
        const double flops = hq * (2 * stats->cSqSk * dqk) + hq * (2 * stats->cSqSk * dv)
            - hq * (stats->cSqSq * dqk) - hq * (stats->cSqSq * dv) + hq * (2 * stats->gSqSk * dqk)
            + hq * (2 * stats->gSqSk * dv);
        const std::string_view dtypeQ = args.type(0);
        const std::string_view dtypeKv = args.types.size() > 1 ? args.type(1) : dtypeQ;
        // TraceLens: name2bpe(dtype_Q) or 2; ours: no size, no bytes.
        const double bpe = reading.tracelens ? sizeOrFallback(dtypeQ, 2, reading) : sizeOf(dtypeQ, reading);
        const double bpeKv = sizeOrFallback(dtypeKv, bpe, reading);
        const double tokens = stats->cSq + stats->gSq;
        const double cached = (stats->cSk - stats->cSq) + (stats->gSk - stats->gSq);
        const double bytes = tokens * (hq * dqk + hq * dv + hkv * dqk + hkv * dv) * bpe
            + cached * (hkv * dqk + hkv * dv) * bpeKv;
        return estimate(flops, bytes, dtypeQ, ComputeUnit::Matrix, reading, paramsOf(*stats));
    }

    // vllm::unified_attention_with_output(query, key, value, output, layer_name, ...) and
    // aiter::mha_varlen_fwd(q, k, v, cu_seqlens_q, ...): the base class.
    ModelResult baseInferenceAttention(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return inferenceAttention(a, false, reading);
    }

    // aiter::fmha_v3_varlen_fwd, aiter::mha_batch_prefill(q, k, v, ...).
    ModelResult inferenceAttentionVFromV(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return inferenceAttention(a, true, reading);
    }

    constexpr std::array kModels {
        OpModel { "vllm::unified_attention_with_output", OpFamily::Attention, baseInferenceAttention, nullptr,
            true },
        OpModel { "aiter::mha_varlen_fwd", OpFamily::Attention, baseInferenceAttention, nullptr, true },
        OpModel { "aiter::fmha_v3_varlen_fwd", OpFamily::Attention, inferenceAttentionVFromV, nullptr, true },
        OpModel { "aiter::mha_batch_prefill", OpFamily::Attention, inferenceAttentionVFromV, nullptr, true },
    };

} // namespace

std::span<const OpModel> inferenceAttentionModels()
{
    return kModels;
}

} // namespace ks::core
