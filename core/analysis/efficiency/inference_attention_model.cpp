// Inference attention over a batch packed along the tokens: vLLM's
// vllm::unified_attention_with_output, AITER's varlen, prefill and paged-decode ops and SGLang's TileLang
// sparse MLA (tilelang_sparse_fwd, its d_v at tilelangSparseFwd). Their
// tensors hold every request's tokens in one dimension, so the FLOPs come from the step annotation
// around the call (ChunkStats, iteration_annotation.h), not from the shapes. TraceLens's
// InferenceAttention
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

#include <algorithm>
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

    // What InferenceAttention's flops() and bytes() read beyond the stats.
    struct InferenceShape
    {
        double hq = 0, hkv = 0, dqk = 0, dv = 0;
        std::string_view dtypeQ, dtypeKv;
        double window = 0; // a sliding window (pa_decode_gluon), <= 0: none
    };

    // InferenceAttention.flops / bytes (flops_func, bytes_func, _cap_gen_kv).
    ModelResult inferenceEstimate(
        const ChunkStats& stats, const InferenceShape& s, const ModelReading& reading)
    {
        // flops() raises "decode phase requires custom annotations" when no query token is counted.
        if (stats.cSq == 0 && stats.gSq == 0)
            return SkipReason::NoStepAnnotation;
        // _cap_gen_kv: a decode token attends to at most W keys, Σ min(ctx_i, W) taken as min(Σ, g_sq·W).
        const auto capped = [&](double value) {
            return s.window > 0 && stats.gSq != 0 ? std::min(value, stats.gSq * s.window) : value;
        };
        const double flops = s.hq * (2 * stats.cSqSk * s.dqk) + s.hq * (2 * stats.cSqSk * s.dv)
            - s.hq * (stats.cSqSq * s.dqk) - s.hq * (stats.cSqSq * s.dv)
            + s.hq * (2 * capped(stats.gSqSk) * s.dqk) + s.hq * (2 * capped(stats.gSqSk) * s.dv);
        // TraceLens: name2bpe(dtype_Q) or 2; ours: no size, no bytes.
        const double bpe =
            reading.tracelens ? sizeOrFallback(s.dtypeQ, 2, reading) : sizeOf(s.dtypeQ, reading);
        const double bpeKv = sizeOrFallback(s.dtypeKv, bpe, reading);
        const double tokens = stats.cSq + stats.gSq;
        const double cached = (stats.cSk - stats.cSq) + (capped(stats.gSk) - stats.gSq);
        const double bytes = tokens * (s.hq * s.dqk + s.hq * s.dv + s.hkv * s.dqk + s.hkv * s.dv) * bpe
            + cached * (s.hkv * s.dqk + s.hkv * s.dv) * bpeKv;
        return estimate(flops, bytes, s.dtypeQ, ComputeUnit::Matrix, reading, paramsOf(stats));
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
        InferenceShape s;
        s.hq = double((*q)[1]);
        s.dqk = double((*q)[2]);
        s.hkv = double((*k)[k->size() - 2]);
        s.dv = double(k->back());
        if ((vFromV || !reading.tracelens) && args.hasDims(2) && !args.dims[2]->empty())
            s.dv = double(args.dims[2]->back());
        s.dtypeQ = args.type(0);
        s.dtypeKv = args.types.size() > 1 ? args.type(1) : s.dtypeQ;
        return inferenceEstimate(*stats, s, reading);
    }

    // sglang_profiler::tilelang_kernel_tilelang_sparse_fwd(q (N_Q, H_Q, d_qk), kv (N_KV, H_KV, d_qk),
    // indices, sm_scale, d_v): SGLang's TileLang sparse MLA kernel, TraceLens's mla_tilelang_sparse_fwd:
    // the base class's formulas from the step annotation (K = kv, at its dtype), d_v its d_v argument
    // (Concrete Inputs 4; 512 when not recorded). TraceLens reads that argument from the event's top level
    // (event["Concrete Inputs"]), which no event has: d_v is always 512 under --tracelens-compat.
    ModelResult tilelangSparseFwd(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto stats = chunkStatsOf(args.annotation);
        if (!stats)
            return SkipReason::NoStepAnnotation;
        const auto q = shapeOfRank(args, 0, 3);
        const auto kv = shapeOfRank(args, 1, -1);
        if (!q || !kv || kv->size() < 3 || args.types.empty())
            return SkipReason::MalformedDims;
        InferenceShape s;
        s.hq = double((*q)[1]);
        s.dqk = double((*q)[2]);
        s.hkv = double((*kv)[kv->size() - 2]);
        s.dv = reading.tracelens ? 512 : double(concreteInt(args.concreteAt(4)).value_or(512));
        s.dtypeQ = args.type(0);
        s.dtypeKv = args.types.size() > 1 ? args.type(1) : s.dtypeQ;
        return inferenceEstimate(*stats, s, reading);
    }

    // aiter::pa_decode_gluon(q, …, k_cache [blocks, H_KV, …], …, sliding_window at Concrete 19):
    // TraceLens's pa_decode_gluon, a decode-only kernel: the context sums set to 0, d_v = d_qk,
    // the KV at the cache's dtype (Input type[2]), the decode keys capped by the window.
    ModelResult paDecodeGluon(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        auto stats = chunkStatsOf(args.annotation);
        if (!stats)
            return SkipReason::NoStepAnnotation;
        const auto q = shapeOfRank(args, 0, -1);
        const auto cache = shapeOfRank(args, 2, -1);
        if (!q || q->size() < 3 || !cache || cache->size() < 2 || args.types.empty())
            return SkipReason::MalformedDims;
        stats->cSq = stats->cSk = stats->cSqSq = stats->cSqSk = 0;
        InferenceShape s;
        s.hq = double((*q)[1]);
        s.dqk = s.dv = double((*q)[2]);
        s.hkv = double((*cache)[1]);
        s.dtypeQ = args.type(0);
        s.dtypeKv = args.types.size() > 2 ? args.type(2) : s.dtypeQ;
        s.window = double(concreteInt(args.concreteAt(19)).value_or(0));
        return inferenceEstimate(*stats, s, reading);
    }

    // aiter::pa_sparse_prefill_opus_fwd(q (N_Q, H_Q, d), …, kv_indices_prefix (P1) at 2, …,
    // kv_indices_extend (P2) at 5): TraceLens's pa_sparse_prefill_opus_fwd, no annotation: the
    // (query token, KV slot) pairs are P1 + P2, one latent KV head.
    //   FLOPs = pairs·H_Q·2·(d + d);  bytes = 2·N_Q·H_Q·d·bpe_Q + pairs·d·bpe_KV (K's dtype)
    ModelResult paSparsePrefill(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto q = shapeOfRank(args, 0, -1);
        const auto prefix = shapeOfRank(args, 2, -1), extend = shapeOfRank(args, 5, -1);
        if (!q || q->size() < 3 || !prefix || prefix->empty() || !extend || extend->empty()
            || args.types.empty())
            return SkipReason::MalformedDims;
        const double nq = double((*q)[0]), hq = double((*q)[1]), d = double((*q)[2]);
        const double pairs = double((*prefix)[0]) + double((*extend)[0]);
        const std::string_view dtypeQ = args.type(0);
        const std::string_view dtypeKv = args.types.size() > 1 ? args.type(1) : dtypeQ;
        const double bpe = reading.tracelens ? sizeOrFallback(dtypeQ, 2, reading) : sizeOf(dtypeQ, reading);
        const double bpeKv = sizeOrFallback(dtypeKv, bpe, reading);
        const double bytes = 2 * nq * hq * d * bpe + pairs * d * bpeKv;
        // get_compute_precision: Q's dtype, bf16 when there is none.
        return estimate(pairs * hq * 2 * (d + d), bytes, dtypeQ.empty() ? "c10::BFloat16" : dtypeQ,
            ComputeUnit::Matrix, reading, "pairs=" + std::to_string(std::int64_t(pairs)));
    }

    // sglang_profiler::attention_paged_attention_ragged (AITER's paged_attention_ragged under SGLang's
    // profiler: out, workspace, query (N_Q, H_Q, d_qk), key_cache (…, H_KV, d), value_cache (…, d_v), …):
    // TraceLens's aiter_paged_attention_ragged. Q = Input Dims[2], H_KV = Input Dims[3][-2], d_v =
    // Input Dims[4][-1], Q's dtype Input type[2]. TraceLens sizes the cached K/V at Q's dtype (its
    // param_details have no dtype_KV); ours at the key cache's (Input type[3]), as for the other ops.
    ModelResult pagedAttentionRagged(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto stats = chunkStatsOf(args.annotation);
        if (!stats)
            return SkipReason::NoStepAnnotation;
        const auto q = shapeOfRank(args, 2, 3);
        const auto k = shapeOfRank(args, 3, -1), v = shapeOfRank(args, 4, -1);
        if (!q || !k || k->size() < 2 || !v || v->empty() || args.types.size() < 3)
            return SkipReason::MalformedDims;
        InferenceShape s;
        s.hq = double((*q)[1]);
        s.dqk = double((*q)[2]);
        s.hkv = double((*k)[k->size() - 2]);
        s.dv = double(v->back());
        s.dtypeQ = args.type(2);
        s.dtypeKv = reading.tracelens || args.types.size() < 4 ? s.dtypeQ : args.type(3);
        return inferenceEstimate(*stats, s, reading);
    }

    // vllm::gdn_attention_core / aiter::linear_attention_with_output_base(mixed_qkv (T, 2·H_K·d_k +
    // H_V·d_v), b (T, H_V), a (T, H_V), core_attn_out (T, H_V, d_v), layer_name): Gated Delta Net's
    // recurrent linear attention, TraceLens's gdn_attention_core (attention_perf_model_extensions.py).
    // H_K = H_V // 2, d_k = ((D − H_V·d_v) // 2) // H_K, tokens = c_sq + g_sq of the step annotation:
    //   FLOPs = tokens·H_V·7·d_v·d_k;  bytes = tokens·H_V·(d_k + 2·d_v + 2)·bpe
    // bpe: mixed_qkv's dtype; TraceLens's 2 whatever the dtype (bytes(bytes_per_element=2)).
    ModelResult gdnAttention(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto stats = chunkStatsOf(args.annotation);
        if (!stats)
            return SkipReason::NoStepAnnotation;
        const auto qkv = shapeOfRank(args, 0, 2), b = shapeOfRank(args, 1, 2), out = shapeOfRank(args, 3, 3);
        if (!qkv || !b || !out || (*b)[1] < 2)
            return SkipReason::MalformedDims;
        const std::int64_t hv = (*b)[1], dv = (*out)[2], hk = hv / 2;
        const std::int64_t dk = ((*qkv)[1] - hv * dv) / 2 / hk; // Python's //, positive operands
        const double tokens = stats->cSq + stats->gSq;
        if (tokens == 0 || dk <= 0)
            return SkipReason::NoStepAnnotation; // flops() raises without a query token
        const double bpe = reading.tracelens ? 2.0 : sizeOf(args.type(0), reading);
        const double flops = tokens * double(hv) * 7 * double(dv) * double(dk);
        const double bytes = tokens * double(hv) * double(dk + 2 * dv + 2) * bpe;
        return estimate(flops, bytes, args.type(0), ComputeUnit::Matrix, reading,
            "tokens=" + std::to_string(std::int64_t(tokens)) + " H_V=" + std::to_string(hv)
                + " d_k=" + std::to_string(dk) + " d_v=" + std::to_string(dv));
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
        OpModel { "aiter::pa_decode_gluon", OpFamily::Attention, paDecodeGluon, nullptr, true },
        OpModel { "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd", OpFamily::Attention,
            tilelangSparseFwd, nullptr, true },
        OpModel { "aiter::pa_sparse_prefill_opus_fwd", OpFamily::Attention, paSparsePrefill },
        OpModel { "sglang_profiler::attention_paged_attention_ragged", OpFamily::Attention,
            pagedAttentionRagged, nullptr, true },
        OpModel { "vllm::gdn_attention_core", OpFamily::Attention, gdnAttention, nullptr, true },
        OpModel {
            "aiter::linear_attention_with_output_base", OpFamily::Attention, gdnAttention, nullptr, true },
    };

} // namespace

std::span<const OpModel> inferenceAttentionModels()
{
    return kModels;
}

} // namespace ks::core
