// MLA's KV-cache and query-concat ops (attention family) and AITER's fused RoPE + KV-cache writes for
// MLA (rope family), as TraceLens models them (PerfModel/extensions/perf_model_extensions.py, mapped by
// pseudo_ops_perf_utils.py get_pseudo_op_mappings). No FLOPs but the rotation; bytes read and written:
//   concat_and_cache_mla (_C_cache_ops::concat_and_cache_mla(kv_c (T, D_ckv), k_pe (T, D_pe), kv_cache,
//     slot_mapping, ...), InferenceAttention): FLOPs 0; bytes = T·D_ckv·bpe(kv_c) + T·D_pe·bpe(k_pe)
//     + T·(D_ckv + D_pe)·bpe(kv_cache) (the T slots written, not the paged cache) + 8T (int64 slots);
//     null when a dtype has no size; kv_c's precision.
//   concat_mla_q (_C_cache_ops::concat_mla_q(q_nope, q_pe, q_out)): FLOPs 0; bytes = prod(q_nope)·bpe
//     + prod(q_pe)·bpe + prod(q_out)·bpe, each at its own dtype (q_out q_nope's when not recorded).
//   aiter_fused_qk_rope_cat_and_cache_mla (aiter::fused_qk_rope_cat_and_cache_mla(q_nope (T, QH, D_lora),
//     q_pe (T, QH, D_pe), k_nope (T, KH, D_lora), k_pe, kv_cache, ...), FusedRoPE): the pe slices rotated,
//     FLOPs = 3·T·(QH + KH)·D_pe; bytes = T·(QH + KH)·(D_lora + D_pe)·bpe_in (q, k read)
//     + T·QH·(D_lora + D_pe)·bpe_in (q_out) + T·KH·(D_lora + D_pe)·bpe_kv (the slots written);
//     bpe_in = Input type[0]'s (null bytes without a size), bpe_kv = kv_cache's (Input type[4]), bpe_in
//     when it has none.
//   fused_qk_rope_concat_and_cache_mla (aiter::fused_qk_rope_concat_and_cache_mla(q_nope, q_pe, kv_c (T,
//     D_lora), k_pe, kv_cache, q_out, ...)): the same with KH = 1 (one latent KV head) and q_out at its own
//     dtype (Input type[5], bpe_in when it has none).
// Vector units; no backward.

#include "core/analysis/efficiency/model_support.h"

#include <array>
#include <cmath>

namespace ks::core {

namespace {

    using namespace perf_detail;

    // _C_cache_ops::concat_and_cache_mla(kv_c, k_pe, kv_cache, slot_mapping, kv_cache_dtype, scale).
    ModelResult concatAndCacheMla(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto s = shapesOf(args, { rankAtLeast(0, 0), rankAtLeast(1, 0) });
        if (!s)
            return SkipReason::MalformedDims;
        const auto& [kvc, kpe] = *s;
        // TraceLens's reading of absent dims: T = 0, a width 0
        const double t = kvc.empty() ? 0 : double(kvc[0]);
        const double dckv = kvc.size() > 1 ? double(kvc[1]) : 0;
        const double dpe = kpe.size() > 1 ? double(kpe[1]) : 0;
        const double bytes = t * dckv * sizeOf(args.type(0), reading)
            + t * dpe * sizeOf(args.type(1), reading) + t * (dckv + dpe) * sizeOf(args.type(2), reading)
            + t * 8;
        const auto i = [](double v) { return std::to_string(std::int64_t(v)); };
        return estimate(0, bytes, args.type(0), ComputeUnit::Vector, reading,
            "T=" + i(t) + " D_ckv=" + i(dckv) + " D_pe=" + i(dpe));
    }

    // _C_cache_ops::concat_mla_q(q_nope, q_pe, q_out).
    ModelResult concatMlaQ(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto s = shapesOf(args, { rankAtLeast(0, 0), rankAtLeast(1, 0) });
        if (!s)
            return SkipReason::MalformedDims;
        const auto& [nope, pe] = *s;
        const bool hasOut = args.dims.size() > 2;
        const auto out = hasOut ? shapeOf(args, rankAtLeast(2, 0)) : nope;
        if (!out)
            return SkipReason::MalformedDims;
        const std::string_view outType = args.types.size() > 2 ? args.type(2) : args.type(0);
        const double bytes = elementCount(nope) * sizeOf(args.type(0), reading)
            + elementCount(pe) * sizeOf(args.type(1), reading)
            + elementCount(*out) * sizeOf(outType, reading);
        return estimate(0, bytes, args.type(0), ComputeUnit::Vector, reading);
    }

    // Input type[i]'s size when it has a non-empty dtype with one, else `fallback`.
    double sizeOr(const OpArgs& args, std::size_t i, double fallback, const ModelReading& reading)
    {
        if (args.types.size() <= i || args.type(i).empty())
            return fallback;
        const double bpe = sizeOf(args.type(i), reading);
        return std::isnan(bpe) ? fallback : bpe;
    }

    // The fused RoPE + MLA cache write: T tokens, QH query heads, KH latent KV heads.
    ModelResult ropeCatAndCache(const OpArgs& args, double kh, double bpeOut, const ModelReading& reading)
    {
        const auto& q = args.shape(0); // (T, QH, D_lora): ropeCatShapes checked it
        const double t = double(q[0]), qh = double(q[1]), lora = double(q[2]);
        const double pe = double(args.shape(1)[2]);
        const double bpeIn = sizeOf(args.type(0), reading);
        const double bpeKv = sizeOr(args, 4, bpeIn, reading);
        const double width = lora + pe;
        const double bytes = std::isnan(bpeIn)
            ? bpeIn
            : t * (qh + kh) * width * bpeIn + t * qh * width * bpeOut + t * kh * width * bpeKv;
        const auto i = [](double v) { return std::to_string(std::int64_t(v)); };
        return estimate(3 * t * (qh + kh) * pe, bytes, args.type(0), ComputeUnit::Vector, reading,
            "T=" + i(t) + " QH=" + i(qh) + " KH=" + i(kh) + " D_lora=" + i(lora) + " D_pe=" + i(pe));
    }

    bool ropeCatShapes(const OpArgs& args)
    {
        return shapesOf(args, { rankIs(0, 3), rankAtLeast(1, 3) }).has_value();
    }

    // aiter::fused_qk_rope_cat_and_cache_mla(q_nope, q_pe, k_nope, k_pe, kv_cache, slot_mapping, ...).
    ModelResult fusedQkRopeCatAndCacheMla(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto k = shapeOf(args, rankAtLeast(2, 2));
        if (!ropeCatShapes(args) || !k)
            return SkipReason::MalformedDims;
        return ropeCatAndCache(args, double((*k)[1]), sizeOf(args.type(0), reading), reading);
    }

    // aiter::fused_qk_rope_concat_and_cache_mla(q_nope, q_pe, kv_c, k_pe, kv_cache, q_out, ...).
    ModelResult fusedQkRopeConcatAndCacheMla(
        std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        if (!ropeCatShapes(args))
            return SkipReason::MalformedDims;
        const double bpeIn = sizeOf(args.type(0), reading);
        return ropeCatAndCache(args, 1, sizeOr(args, 5, bpeIn, reading), reading);
    }

    constexpr std::array kModels {
        OpModel { "_C_cache_ops::concat_and_cache_mla", OpFamily::Attention, concatAndCacheMla },
        OpModel { "_C_cache_ops::concat_mla_q", OpFamily::Attention, concatMlaQ },
        OpModel { "aiter::fused_qk_rope_cat_and_cache_mla", OpFamily::Rope, fusedQkRopeCatAndCacheMla },
        OpModel { "aiter::fused_qk_rope_concat_and_cache_mla", OpFamily::Rope, fusedQkRopeConcatAndCacheMla },
    };

} // namespace

std::span<const OpModel> mlaCacheModels()
{
    return kModels;
}

} // namespace ks::core
