// Attention family. TraceLens's SDPA model (PerfModel/perf_model.py, class SDPA),
// from Q (B, H_Q, N_Q, d_qk), K (B, H_KV, N_KV, d_qk), V (B, H_KV, N_KV, d_v):
//   forward FLOPs  = B·H_Q·(2·N_Q·N_KV·d_qk + 2·N_Q·N_KV·d_v)          (softmax left out)
//   forward bytes  = bpe·(B·N_Q·H_Q·d_qk + B·N_KV·H_KV·(d_qk + d_v) + B·N_Q·H_Q·d_v)
//   backward FLOPs = B·H_Q·(flash ? 2·N_Q·N_KV·d_qk : 0)              (recomputing QK^T)
//                  + B·H_Q·2·N_KV·N_Q·d_v + B·N_KV·d_v·(H_Q/H_KV − 1)   (dV, with GQA's reduction)
//                  + B·H_Q·2·N_Q·N_KV·d_v                               (dP)
//                  + B·H_Q·2·N_Q·N_KV·d_qk                              (dQ)
//                  + B·H_Q·2·N_KV·N_Q·d_qk + B·N_KV·d_qk·(H_Q/H_KV − 1) (dK)
//   backward bytes = bpe·(Q + K + V + dO + dQ + dK + dV elements)
// Causal attention halves the FLOPs (TraceLens requires N_Q == N_KV then; otherwise
// the call is counted as mismatched shapes). Held against the matrix peak of Q's
// precision. Differences from TraceLens: bpe is Q's dtype for the forward and for the
// forward ops' backward rows too (TraceLens assumes 2 there), and the aten backward ops, which TraceLens
// lists without a model, use its backward formulas. The formulas are in attention_formulas.h; the
// variable-length ops are in varlen_attention_model.cpp, vLLM's and AITER's inference
// attention (shapes from the step's annotation) in inference_attention_model.cpp.

#include "core/analysis/efficiency/attention_formulas.h"
#include "core/analysis/efficiency/model_support.h"

#include <array>
#include <optional>

namespace ks::core {

namespace {

    using namespace perf_detail;

    enum class Layout : std::uint8_t
    {
        Bhnd, // aten's SDPA ops: (batch, heads, tokens, head dim)
        Bnhd, // flash_attn's ops: (batch, tokens, heads, head dim)
    };

    std::optional<SdpaShape> readShapes(const OpArgs& args, std::size_t q, Layout layout, SkipReason& why)
    {
        const auto sq = shapeOfRank(args, q, 4);
        const auto sk = shapeOfRank(args, q + 1, 4);
        const auto sv = shapeOfRank(args, q + 2, 4);
        if (!sq || !sk || !sv) {
            why = SkipReason::MalformedDims;
            return std::nullopt;
        }
        const std::size_t h = layout == Layout::Bhnd ? 1 : 2;
        const std::size_t n = layout == Layout::Bhnd ? 2 : 1;
        const auto at = [](const std::vector<std::int64_t>& s, std::size_t i) { return double(s[i]); };
        // TraceLens's extract_sdpa_cfg raises on these (perf_model.py, extract_sdpa_cfg).
        if (at(*sq, 0) != at(*sk, 0) || at(*sq, 0) != at(*sv, 0) || at(*sk, h) != at(*sv, h)
            || at(*sk, n) != at(*sv, n) || at(*sq, 3) != at(*sk, 3)) {
            why = SkipReason::MismatchedShapes;
            return std::nullopt;
        }
        return SdpaShape { at(*sq, 0), at(*sq, n), at(*sq, h), at(*sk, n), at(*sk, h), at(*sq, 3),
            at(*sv, 3) };
    }

    constexpr std::size_t kNoArgument = static_cast<std::size_t>(-1);

    // How TraceLens's bytes() of an op sizes an element: SDPA.bytes(bytes_per_element=2) and
    // the overrides calling bytes_bwd(2) assume 2 bytes; flash_attention_backward.bytes reads
    // Q's dtype (perf_model.py).
    enum class TraceLensBpe : std::uint8_t
    {
        Two,
        QDtype,
    };

    // Where an op's inputs are: Q's index, the layout, the Concrete Inputs index of
    // is_causal (and of dropout_p, for the grouping key), backward or not, flash or not.
    struct AttentionSignature
    {
        std::size_t q;
        Layout layout;
        std::size_t causal;
        std::size_t dropout;
        bool backward;
        bool flash;
    };

    // How TraceLens's class for the op reads it where that differs from the signature: the
    // index it takes Q from (unset: the signature's), its bytes per element (unset: 2 forward,
    // Q's dtype backward), whether its param_details carry a dtype (dtype_A_B, its compute
    // precision; the aiter and flash_attn_3 classes have none, so TraceLens gives no Compute Spec).
    struct TraceLensQuirks
    {
        std::optional<std::size_t> q;
        std::optional<TraceLensBpe> bpe;
        bool precision = true;
    };

    ModelResult attention(const OpArgs& args, const AttentionSignature& sig, const ModelReading& reading,
        const TraceLensQuirks& quirks = {})
    {
        SkipReason why = SkipReason::MalformedDims;
        const std::size_t q = reading.tracelens ? quirks.q.value_or(sig.q) : sig.q;
        const auto s = readShapes(args, q, sig.layout, why);
        if (!s)
            return why;
        const bool causal = concreteBool(args.concreteAt(sig.causal)).value_or(false);
        if (causal && s->nq != s->nkv)
            return SkipReason::MismatchedShapes;
        const TraceLensBpe tracelensBpe =
            quirks.bpe.value_or(sig.backward ? TraceLensBpe::QDtype : TraceLensBpe::Two);
        const double bpe =
            reading.tracelens && tracelensBpe == TraceLensBpe::Two ? 2.0 : sizeOf(args.type(q), reading);
        double flops = sig.backward ? sdpaBackwardFlops(*s, sig.flash) : sdpaForwardFlops(*s);
        if (causal)
            flops /= 2;
        const double bytes = bpe * (sig.backward ? sdpaBackwardElements(*s) : sdpaForwardElements(*s));
        std::string params = std::string("causal=") + (causal ? "True" : "False");
        if (const auto dropout = args.concreteAt(sig.dropout); !dropout.empty())
            params += " dropout=" + std::string(dropout);
        const std::string_view dtype = reading.tracelens && !quirks.precision ? "" : args.type(q);
        return estimate(flops, bytes, dtype, ComputeUnit::Matrix, reading, std::move(params));
    }

    // aten::_scaled_dot_product_flash_attention(q, k, v, dropout_p, is_causal, return_debug_mask, scale)
    ModelResult sdpaFlash(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bhnd, 4, 3, false, true }, reading);
    }

    // _efficient_attention / _cudnn_attention(q, k, v, attn_bias, compute_log_sumexp, dropout_p, is_causal,
    // ...)
    ModelResult sdpaEfficient(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bhnd, 6, 5, false, false }, reading);
    }

    // The autograd backward of the forward ops (TraceLens's SDPA_bwd rows of the forward op):
    // the backward formulas on the forward call's shapes. TraceLens sizes their elements at 2
    // bytes: TreePerf's compute_perf_metrics calls perf_model.bytes_bwd() with no argument, and
    // none of these classes overrides SDPA.bytes_bwd(bytes_per_element=2); ours read Q's dtype.
    const TraceLensQuirks kForwardGradQuirks { std::nullopt, TraceLensBpe::Two };

    ModelResult sdpaFlashGrad(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bhnd, 4, 3, true, true }, reading, kForwardGradQuirks);
    }

    ModelResult sdpaEfficientGrad(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bhnd, 6, 5, true, false }, reading, kForwardGradQuirks);
    }

    ModelResult flashAttnGrad(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bnhd, 5, 3, true, true }, reading, kForwardGradQuirks);
    }

    // _scaled_dot_product_flash_attention_backward(grad_out, q, k, v, out, logsumexp, cum_seq_q,
    //     cum_seq_k, max_q, max_k, dropout_p, is_causal, philox_seed, philox_offset, scale)
    ModelResult sdpaFlashBackward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 1, Layout::Bhnd, 11, 10, true, true }, reading);
    }

    // _scaled_dot_product_efficient_attention_backward(grad_out, q, k, v, attn_bias, out, logsumexp,
    //     philox_seed, philox_offset, dropout_p, grad_input_mask, is_causal, scale)
    ModelResult sdpaEfficientBackward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 1, Layout::Bhnd, 11, 9, true, false }, reading);
    }

    // _scaled_dot_product_cudnn_attention_backward(grad_out, q, k, v, out, logsumexp, philox_seed,
    //     philox_offset, attn_bias, cum_seq_q, cum_seq_k, max_q, max_k, dropout_p, is_causal, scale)
    ModelResult sdpaCudnnBackward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 1, Layout::Bhnd, 14, 13, true, false }, reading);
    }

    // flash_attn::_flash_attn_forward(q, k, v, dropout_p, softmax_scale, causal, ...), (B, N, H, d)
    ModelResult flashAttnForward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bnhd, 5, 3, false, true }, reading);
    }

    // flash_attn::_flash_attn_backward(dout, q, k, v, out, softmax_lse, dq, dk, dv, dropout_p, softmax_scale,
    // causal, ...) TraceLens reads causal at index 10 (softmax_scale) there; the schema puts it at 11.
    ModelResult flashAttnBackward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 1, Layout::Bnhd, 11, 9, true, true }, reading);
    }

    // AITER's and flash_attn_3's ops (TraceLens's aiter__* and flash_attn_v3_forward classes, each an
    // SDPA with its own get_param_details; perf_model.py): (B, N, H, d) tensors, the forward
    // and backward formulas above. TraceLens gives them no dtype, so no Compute Spec, and sizes
    // every element at 2 bytes (SDPA.bytes(2), bytes_bwd(2)); ours read Q's dtype for both.
    const TraceLensQuirks kVendorQuirks { std::nullopt, TraceLensBpe::Two, false };

    // aiter::mha_fwd, aiter::fmha_v3_fwd, aiter::_flash_attn_forward(q, k, v, dropout_p,
    // softmax_scale, causal, ...): TraceLens's _parse_aiter_mha_fwd_args and aiter__flash_attn_forward.
    ModelResult aiterMhaForward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bnhd, 5, 3, false, true }, reading, kVendorQuirks);
    }

    ModelResult aiterMhaForwardGrad(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bnhd, 5, 3, true, true }, reading, kVendorQuirks);
    }

    // aiter::mha_bwd(dout, q, k, v, out, softmax_lse, dropout_p, softmax_scale, is_causal, ...)
    ModelResult aiterMhaBackward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 1, Layout::Bnhd, 8, 6, true, true }, reading, kVendorQuirks);
    }

    // aiter::_flash_attn_backward(dout, q, k, v, out, softmax_lse, dq, dk, dv, dbias, dropout_p,
    // softmax_scale, causal, ...). TraceLens's aiter__flash_attn_backward reads dropout_p (10) and
    // causal (12) at their places but Q, K, V from Input Dims 0-2: dout as Q, Q as K, K as V. With
    // GQA its K and "V" heads differ and extract_sdpa_cfg raises (no row); ours read Q at 1.
    ModelResult aiterFlashBackward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(
            a, { 1, Layout::Bnhd, 12, 10, true, true }, reading, { 0, TraceLensBpe::Two, false });
    }

    // aiter::wrapper_fmha_v3_fwd: TraceLens's aiter__fmha_v3_forward reads Q, K, V at 1-3,
    // dropout_p at 4 and causal at 6.
    ModelResult aiterFmhaV3WrapperForward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 1, Layout::Bnhd, 6, 4, false, true }, reading, kVendorQuirks);
    }

    ModelResult aiterFmhaV3WrapperForwardGrad(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 1, Layout::Bnhd, 6, 4, true, true }, reading, kVendorQuirks);
    }

    // aiter::wrapper_fmha_v3_bwd: aiter__fmha_v3_backward, Q, K, V at 1-3, dropout_p 7, causal 9.
    ModelResult aiterFmhaV3WrapperBackward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 1, Layout::Bnhd, 9, 7, true, true }, reading, kVendorQuirks);
    }

    // flash_attn_3::fwd(q, k, v, ...): flash_attn_v3_forward, causal at Concrete Inputs 24, no
    // dropout (TraceLens sets 0).
    ModelResult flashAttn3Forward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bnhd, 24, kNoArgument, false, true }, reading, kVendorQuirks);
    }

    ModelResult flashAttn3ForwardGrad(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bnhd, 24, kNoArgument, true, true }, reading, kVendorQuirks);
    }

    // EvoformerAttention(Q, K, V, res_mask, pair_bias), Q (B, N_seq, N_res, H, d): TraceLens's
    // evoformer_attention, attention over N_res for each (B, N_seq) slice, K and V shaped as Q,
    // never causal, not flash (its backward recomputes nothing); the mask and bias reads are left
    // out, as there.
    ModelResult evoformer(const OpArgs& args, bool backward, const ModelReading& reading)
    {
        const auto q = shapeOfRank(args, 0, 5);
        if (!q)
            return SkipReason::MalformedDims;
        const auto at = [&q](std::size_t i) { return double((*q)[i]); };
        const SdpaShape s { at(0) * at(1), at(2), at(3), at(2), at(3), at(4), at(4) };
        // SDPA.bytes(2) and bytes_bwd(2) in TraceLens; Q's dtype in ours.
        const double bpe = reading.tracelens ? 2.0 : sizeOf(args.type(0), reading);
        const double flops = backward ? sdpaBackwardFlops(s, false) : sdpaForwardFlops(s);
        const double bytes = bpe * (backward ? sdpaBackwardElements(s) : sdpaForwardElements(s));
        return estimate(flops, bytes, args.type(0), ComputeUnit::Matrix, reading, "causal=False");
    }

    ModelResult evoformerForward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return evoformer(a, false, reading);
    }

    ModelResult evoformerGrad(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return evoformer(a, true, reading);
    }

    // sglang::store_cache(k, v, k_cache, v_cache, indices, ...): writes the step's K and V
    // into the paged cache. TraceLens's sglang_store_cache: no FLOPs; bytes = 4·prod(k)·bpe
    // (K and V read, then written); the vector peak of k's precision.
    ModelResult sglangStoreCache(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        const auto k = shapeOfRank(a, 0, -1);
        if (!k || k->empty())
            return SkipReason::MalformedDims;
        const double n = elementCount(*k);
        return estimate(0, 4 * n * sizeOf(a.type(0), reading), a.type(0), ComputeUnit::Vector, reading);
    }

    constexpr std::array kModels {
        OpModel {
            "aten::_scaled_dot_product_flash_attention", OpFamily::Attention, sdpaFlash, sdpaFlashGrad },
        OpModel { "aten::_scaled_dot_product_efficient_attention", OpFamily::Attention, sdpaEfficient,
            sdpaEfficientGrad },
        OpModel { "aten::_scaled_dot_product_cudnn_attention", OpFamily::Attention, sdpaEfficient,
            sdpaEfficientGrad },
        OpModel {
            "aten::_scaled_dot_product_flash_attention_backward", OpFamily::Attention, sdpaFlashBackward },
        OpModel { "aten::_scaled_dot_product_efficient_attention_backward", OpFamily::Attention,
            sdpaEfficientBackward },
        OpModel {
            "aten::_scaled_dot_product_cudnn_attention_backward", OpFamily::Attention, sdpaCudnnBackward },
        OpModel { "flash_attn::_flash_attn_forward", OpFamily::Attention, flashAttnForward, flashAttnGrad },
        OpModel { "FlashAttnFunc", OpFamily::Attention, flashAttnForward, flashAttnGrad },
        OpModel { "flash_attn::_flash_attn_backward", OpFamily::Attention, flashAttnBackward },
        OpModel { "aiter::mha_fwd", OpFamily::Attention, aiterMhaForward, aiterMhaForwardGrad },
        OpModel { "aiter::fmha_v3_fwd", OpFamily::Attention, aiterMhaForward, aiterMhaForwardGrad },
        OpModel { "aiter::_flash_attn_forward", OpFamily::Attention, aiterMhaForward, aiterMhaForwardGrad },
        OpModel { "aiter::mha_bwd", OpFamily::Attention, aiterMhaBackward },
        OpModel { "aiter::_flash_attn_backward", OpFamily::Attention, aiterFlashBackward },
        OpModel { "aiter::wrapper_fmha_v3_fwd", OpFamily::Attention, aiterFmhaV3WrapperForward,
            aiterFmhaV3WrapperForwardGrad },
        OpModel { "aiter::wrapper_fmha_v3_bwd", OpFamily::Attention, aiterFmhaV3WrapperBackward },
        OpModel { "flash_attn_3::fwd", OpFamily::Attention, flashAttn3Forward, flashAttn3ForwardGrad },
        OpModel { "EvoformerAttention", OpFamily::Attention, evoformerForward, evoformerGrad },
        OpModel { "sglang::store_cache", OpFamily::Attention, sglangStoreCache },
    };

} // namespace

std::span<const OpModel> attentionModels()
{
    return kModels;
}

} // namespace ks::core
