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
// precision. Differences from TraceLens: bpe is Q's dtype for the forward too
// (TraceLens assumes 2), and the aten backward ops, which TraceLens lists without a
// model, use its backward formulas.

#include "core/analysis/efficiency/model_support.h"

#include <array>

namespace ks::core {

namespace {

    using namespace perf_detail;

    enum class Layout : std::uint8_t
    {
        Bhnd, // aten's SDPA ops: (batch, heads, tokens, head dim)
        Bnhd, // flash_attn's ops: (batch, tokens, heads, head dim)
    };

    struct Sdpa
    {
        double b = 0, nq = 0, hq = 0, nkv = 0, hkv = 0, dqk = 0, dv = 0;
    };

    std::optional<Sdpa> readShapes(const OpArgs& args, std::size_t q, Layout layout, SkipReason& why)
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
        if (at(*sq, 0) != at(*sk, 0) || at(*sq, 0) != at(*sv, 0) || at(*sk, h) != at(*sv, h)
            || at(*sk, n) != at(*sv, n) || at(*sq, 3) != at(*sk, 3)) {
            why = SkipReason::MismatchedShapes;
            return std::nullopt;
        }
        return Sdpa { at(*sq, 0), at(*sq, n), at(*sq, h), at(*sk, n), at(*sk, h), at(*sq, 3), at(*sv, 3) };
    }

    double forwardFlops(const Sdpa& s)
    {
        return s.b * s.hq * (2 * s.nq * s.nkv * s.dqk) + s.b * s.hq * (2 * s.nq * s.dv * s.nkv);
    }

    double forwardElements(const Sdpa& s)
    {
        return s.b * s.nq * s.hq * s.dqk + s.b * s.nkv * s.hkv * s.dqk + s.b * s.nkv * s.hkv * s.dv
            + s.b * s.nq * s.hq * s.dv;
    }

    double backwardFlops(const Sdpa& s, bool flash)
    {
        // Integer division, as TraceLens's H_Q // H_KV.
        const double groups = s.hkv > 0 ? double(std::int64_t(s.hq) / std::int64_t(s.hkv)) : 1;
        double flops = flash ? s.b * s.hq * (2 * s.nq * s.nkv * s.dqk) : 0;
        flops += s.b * s.hq * (2 * s.nkv * s.nq * s.dv) + s.b * s.nkv * s.dv * (groups - 1);
        flops += s.b * s.hq * (2 * s.nq * s.nkv * s.dv);
        flops += s.b * s.hq * (2 * s.nq * s.nkv * s.dqk);
        flops += s.b * s.hq * (2 * s.nkv * s.nq * s.dqk) + s.b * s.nkv * s.dqk * (groups - 1);
        return flops;
    }

    double backwardElements(const Sdpa& s)
    {
        const double q = s.b * s.nq * s.hq * s.dqk, k = s.b * s.nkv * s.hkv * s.dqk;
        const double v = s.b * s.nkv * s.hkv * s.dv, dout = s.b * s.nq * s.hq * s.dv;
        return 2 * (q + k + v) + dout;
    }

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

    ModelResult attention(const OpArgs& args, const AttentionSignature& sig, const ModelReading& reading)
    {
        SkipReason why = SkipReason::MalformedDims;
        const auto s = readShapes(args, sig.q, sig.layout, why);
        if (!s)
            return why;
        const bool causal = concreteBool(args.concreteAt(sig.causal)).value_or(false);
        if (causal && s->nq != s->nkv)
            return SkipReason::MismatchedShapes;
        // TraceLens's forward assumes 2 bytes per element whatever Q's dtype.
        const double bpe = reading.tracelens && !sig.backward ? 2.0 : sizeOf(args.type(sig.q), reading);
        double flops = sig.backward ? backwardFlops(*s, sig.flash) : forwardFlops(*s);
        if (causal)
            flops /= 2;
        const double bytes = bpe * (sig.backward ? backwardElements(*s) : forwardElements(*s));
        std::string params = std::string("causal=") + (causal ? "True" : "False");
        if (const auto dropout = args.concreteAt(sig.dropout); !dropout.empty())
            params += " dropout=" + std::string(dropout);
        return estimate(flops, bytes, args.type(sig.q), ComputeUnit::Matrix, reading, std::move(params));
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
    // the backward formulas on the forward call's shapes.
    ModelResult sdpaFlashGrad(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bhnd, 4, 3, true, true }, reading);
    }

    ModelResult sdpaEfficientGrad(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bhnd, 6, 5, true, false }, reading);
    }

    ModelResult flashAttnGrad(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return attention(a, { 0, Layout::Bnhd, 5, 3, true, true }, reading);
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
        OpModel { "sglang::store_cache", OpFamily::Attention, sglangStoreCache },
    };

} // namespace

std::span<const OpModel> attentionModels()
{
    return kModels;
}

} // namespace ks::core
