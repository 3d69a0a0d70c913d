// Variable-length flash attention: flash_attn::_flash_attn_varlen_forward and _backward, whose
// Q, K, V are (T, H, d) with the sequences of a batch packed along T. TraceLens's
// flash_attention_varlen_forward / flash_attention_varlen_backward (PerfModel/perf_model.py,
// SDPA subclasses with extract_sdpa_varlen_cfg): the trace records neither the sequences'
// lengths, only their count (cu_seqlens has n + 1 entries) and the longest (max_seqlen), so
// TraceLens assumes one sequence of max_seqlen and n − 1 of equal length sharing the rest:
//   FLOPs = f(max_q, max_k) + (n_q − 1)·f(⌊(T_q − max_q)/(n_q − 1)⌋, ⌊(T_k − max_k)/(n_k − 1)⌋)
// with f the SDPA forward (or flash backward) FLOPs of one sequence (attention_formulas.h),
// causal halving f (N_Q must equal N_KV then, else TraceLens raises: mismatched shapes).
//   bytes = bpe·(SDPA forward, or backward, elements of the packed totals T_q, T_k)
// held against the matrix peak of the first input's precision. Differences from TraceLens
// (docs/tracelens-differences.md): bpe is Q's dtype (TraceLens: 2 bytes whatever the dtype),
// and the autograd backward row of a varlen forward splits the sequences as the forward does
// (TraceLens's SDPA.flops_bwd runs on the packed totals, as one sequence of T tokens).

#include "core/analysis/efficiency/attention_formulas.h"
#include "core/analysis/efficiency/model_support.h"

#include <array>
#include <cmath>

namespace ks::core {

namespace {

    using namespace perf_detail;

    // Argument positions of the two ops (flash_attn_interface.py's order, as TraceLens's
    // comments quote it): Q (then K, V), cu_seqlens_q (then _k), max_seqlen_q (then _k) in
    // Concrete Inputs, dropout_p, causal.
    struct VarlenSignature
    {
        std::size_t q;
        std::size_t cuSeqlensQ;
        std::size_t maxSeqlenQ;
        std::size_t dropout;
        std::size_t causal;
        bool backward;
    };

    constexpr VarlenSignature kForward { 0, 3, 5, 7, 9, false };
    constexpr VarlenSignature kBackward { 1, 9, 11, 13, 15, true };

    struct Varlen
    {
        SdpaShape packed; // B = 1, N = the packed token counts T_q, T_k
        double seqsQ = 0, seqsK = 0; // cu_seqlens' lengths − 1
        double maxQ = 0, maxK = 0;
        bool causal = false;
    };

    std::optional<Varlen> readVarlen(const OpArgs& args, const VarlenSignature& sig, SkipReason& why)
    {
        why = SkipReason::MalformedDims;
        const auto sq = shapeOfRank(args, sig.q, 3), sk = shapeOfRank(args, sig.q + 1, 3),
                   sv = shapeOfRank(args, sig.q + 2, 3);
        const auto cuQ = shapeOfRank(args, sig.cuSeqlensQ, 1), cuK = shapeOfRank(args, sig.cuSeqlensQ + 1, 1);
        const auto maxQ = concreteDouble(args.concreteAt(sig.maxSeqlenQ));
        const auto maxK = concreteDouble(args.concreteAt(sig.maxSeqlenQ + 1));
        if (!sq || !sk || !sv || !cuQ || !cuK || !maxQ || !maxK)
            return std::nullopt;
        // (T, H, d): TraceLens's hnd_idx = (1, 0, 2); extract_sdpa_varlen_cfg raises on these.
        const auto& q = *sq;
        const auto& k = *sk;
        const auto& v = *sv;
        if (k[1] != v[1] || k[0] != v[0] || q[2] != k[2]) {
            why = SkipReason::MismatchedShapes;
            return std::nullopt;
        }
        Varlen r;
        r.packed = { 1, double(q[0]), double(q[1]), double(k[0]), double(k[1]), double(q[2]), double(v[2]) };
        r.seqsQ = double((*cuQ)[0]) - 1;
        r.seqsK = double((*cuK)[0]) - 1;
        r.maxQ = *maxQ;
        r.maxK = *maxK;
        r.causal = concreteBool(args.concreteAt(sig.causal)).value_or(false);
        return r;
    }

    // One sequence's FLOPs; nullopt where TraceLens's flops_func raises (causal, N_Q != N_KV).
    std::optional<double> sequenceFlops(const Varlen& v, double nq, double nkv, bool backward)
    {
        SdpaShape s = v.packed;
        s.nq = nq;
        s.nkv = nkv;
        if (v.causal && nq != nkv)
            return std::nullopt;
        const double flops = backward ? sdpaBackwardFlops(s, true) : sdpaForwardFlops(s);
        return v.causal ? flops / 2 : flops;
    }

    // TraceLens's split: the longest sequence, then n − 1 of the rest's floor mean (Python's //).
    std::optional<double> splitFlops(const Varlen& v, bool backward)
    {
        auto flops = sequenceFlops(v, v.maxQ, v.maxK, backward);
        if (!flops || v.seqsQ <= 1)
            return flops;
        if (v.seqsK <= 1) // TraceLens divides by n_k − 1 = 0 and raises
            return std::nullopt;
        const double restQ = std::floor((v.packed.nq - v.maxQ) / (v.seqsQ - 1));
        const double restK = std::floor((v.packed.nkv - v.maxK) / (v.seqsK - 1));
        const auto rest = sequenceFlops(v, restQ, restK, backward);
        if (!rest)
            return std::nullopt;
        return *flops + (v.seqsQ - 1) * *rest;
    }

    std::string paramsOf(const OpArgs& args, const VarlenSignature& sig, bool causal)
    {
        return std::string("causal=") + (causal ? "True" : "False")
            + " dropout=" + std::string(args.concreteAt(sig.dropout))
            + " max_seqlen_q=" + std::string(args.concreteAt(sig.maxSeqlenQ))
            + " max_seqlen_k=" + std::string(args.concreteAt(sig.maxSeqlenQ + 1));
    }

    // The op's own numbers (forward or backward op), or with `gradOfForward` those of the
    // autograd backward of a varlen forward call (the backward rows).
    ModelResult varlen(
        const OpArgs& args, const VarlenSignature& sig, bool gradOfForward, const ModelReading& reading)
    {
        SkipReason why = SkipReason::MalformedDims;
        const auto v = readVarlen(args, sig, why);
        if (!v)
            return why;
        const bool backward = sig.backward || gradOfForward;
        std::optional<double> flops;
        if (gradOfForward && reading.tracelens) {
            // TraceLens's SDPA.flops_bwd on the packed totals, one sequence of T tokens.
            flops = sequenceFlops(*v, v->packed.nq, v->packed.nkv, true);
        } else {
            flops = splitFlops(*v, backward);
        }
        if (!flops)
            return SkipReason::MismatchedShapes;
        const double bpe = reading.tracelens ? 2.0 : sizeOf(args.type(sig.q), reading);
        const double bytes =
            bpe * (backward ? sdpaBackwardElements(v->packed) : sdpaForwardElements(v->packed));
        // TraceLens's precision is dtype_A_B[0]: the first input (dout for the backward op).
        const std::string_view dtype = reading.tracelens ? args.type(0) : args.type(sig.q);
        return estimate(*flops, bytes, dtype, ComputeUnit::Matrix, reading, paramsOf(args, sig, v->causal));
    }

    ModelResult varlenForward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return varlen(a, kForward, false, reading);
    }

    ModelResult varlenForwardGrad(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return varlen(a, kForward, true, reading);
    }

    ModelResult varlenBackward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return varlen(a, kBackward, false, reading);
    }

    constexpr std::array kModels {
        OpModel {
            "flash_attn::_flash_attn_varlen_forward", OpFamily::Attention, varlenForward, varlenForwardGrad },
        OpModel { "flash_attn::_flash_attn_varlen_backward", OpFamily::Attention, varlenBackward },
    };

} // namespace

std::span<const OpModel> varlenAttentionModels()
{
    return kModels;
}

} // namespace ks::core
