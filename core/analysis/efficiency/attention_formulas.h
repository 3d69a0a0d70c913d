#pragma once

// TraceLens's SDPA formulas (PerfModel/perf_model.py, class SDPA: flops_func, bytes_func,
// flops_bwd_func, bytes_bwd_func), shared by the fixed-length attention ops
// (attention_model.cpp) and the variable-length ones (varlen_attention_model.cpp).

#include <cstdint>

namespace ks::core::perf_detail {

// One attention problem: Q (B, H_Q, N_Q, d_qk), K (B, H_KV, N_KV, d_qk), V (B, H_KV, N_KV, d_v).
struct SdpaShape
{
    double b = 0, nq = 0, hq = 0, nkv = 0, hkv = 0, dqk = 0, dv = 0;
};

// QKᵀ and PV (softmax left out, as TraceLens's flops_func).
inline double sdpaForwardFlops(const SdpaShape& s)
{
    return s.b * s.hq * (2 * s.nq * s.nkv * s.dqk) + s.b * s.hq * (2 * s.nq * s.dv * s.nkv);
}

// Q, K, V read and O written.
inline double sdpaForwardElements(const SdpaShape& s)
{
    return s.b * s.nq * s.hq * s.dqk + s.b * s.nkv * s.hkv * s.dqk + s.b * s.nkv * s.hkv * s.dv
        + s.b * s.nq * s.hq * s.dv;
}

// dV, dP, dQ, dK (+ QKᵀ recomputed for flash), with GQA's head reduction.
inline double sdpaBackwardFlops(const SdpaShape& s, bool flash)
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

// Q, K, V and dO read, dQ, dK, dV written.
inline double sdpaBackwardElements(const SdpaShape& s)
{
    const double q = s.b * s.nq * s.hq * s.dqk, k = s.b * s.nkv * s.hkv * s.dqk;
    const double v = s.b * s.nkv * s.hkv * s.dv, dout = s.b * s.nq * s.hq * s.dv;
    return 2 * (q + k + v) + dout;
}

} // namespace ks::core::perf_detail
