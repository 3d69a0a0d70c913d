// TransformerEngine's and Primus Turbo's GEMMs (gemm family) and the MoE token routing (moe family),
// as TraceLens models them (PerfModel/perf_model.py, mapped in torch_op_mapping.py
// op_to_perf_model_class_map):
//   tex_ts::te_gemm_ts (tex_ts_te_gemm_ts, GEMM sheet): A = Input Dims[0], B = [5], D = [10];
//     M, K = transa ? A : Aᵀ, N = transb ? B[1] : B[0] (TE's cublaslt_gemm); FLOPs = 2MNK (+ MN bias);
//     bytes = MK·bpe_A + KN·bpe_B + MN·bpe_D (+ N·bpe_bias)
//   primus_turbo grouped GEMMs (primus_turbo_grouped_gemm, GroupedGemm: GroupedGEMM_fwd):
//     X (M, K) @ W (G, K, N) or (G, N, K), or the zipped form [[(M_i, K)…], [(K, N)…]];
//     FLOPs = 2MKN; bytes = (MK + GKN)·bpe_in + MN·bpe_out, bpe_in = Input type[0], bpe_out = [1]
//   the variable-K ones (primus_turbo_grouped_gemm_variable_k): [[M, K], [M, N]] as one group, or the
//     zipped pairs [[(M_i, K_i)…], [(K_i, N_i)…]]; the sums of 2·M_i·K_i·N_i and
//     (M_i·K_i + K_i·N_i)·bpe_in + M_i·N_i·bpe_out
//   MoEDispatch / MoECombine (MoEComm: MoE_comm_fwd): 0 FLOPs, bytes = tokens·hidden·bpe of
//     Input Dims[0]; no compute precision (no peak); the autograd backward the same (MoE_comm_bwd).
//   AITER's fused MoE (moe_aiter_fused_blockscale, MoE_fused): below.
// Held against the matrix peak of Input type[0]'s precision.

#include "core/analysis/efficiency/model_support.h"

#include <array>
#include <cctype>
#include <cmath>
#include <utility>

namespace ks::core {

namespace {

    using namespace perf_detail;

    // An argument's dims as nested lists (a TensorList's entry is a list of shapes), read from the
    // args' dims text: an int, or a list.
    struct Nested
    {
        bool isInt = false;
        std::int64_t value = 0;
        std::vector<Nested> items;
    };

    bool parseNested(std::string_view text, std::size_t& i, Nested& out, int depth)
    {
        const auto skip = [&] {
            while (i < text.size() && (text[i] == ' ' || text[i] == ','))
                ++i;
        };
        skip();
        if (i >= text.size() || depth > 8)
            return false;
        if (text[i] == '[') {
            ++i;
            for (skip(); i < text.size() && text[i] != ']'; skip()) {
                Nested item;
                if (!parseNested(text, i, item, depth + 1))
                    return false;
                out.items.push_back(std::move(item));
            }
            if (i >= text.size())
                return false;
            ++i;
            return true;
        }
        const std::size_t start = i;
        if (text[i] == '-')
            ++i;
        while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
            ++i;
        const auto n = concreteInt(text.substr(start, i - start));
        if (!n)
            return false;
        out.isInt = true;
        out.value = *n;
        return true;
    }

    // Input Dims as nested lists, one per argument; empty when the text does not parse.
    std::vector<Nested> nestedDims(const OpArgs& args)
    {
        Nested all;
        std::size_t i = 0;
        if (!parseNested(args.dimsText, i, all, 0) || all.isInt)
            return {};
        return std::move(all.items);
    }

    using Pair = std::pair<std::int64_t, std::int64_t>;

    // TraceLens's _collect_2d_shapes: every two-element list of positive ints, depth first.
    void collectPairs(const Nested& n, std::vector<Pair>& out)
    {
        if (n.isInt)
            return;
        if (n.items.size() == 2 && n.items[0].isInt && n.items[1].isInt && n.items[0].value > 0
            && n.items[1].value > 0) {
            out.emplace_back(n.items[0].value, n.items[1].value);
            return;
        }
        for (const Nested& item : n.items)
            collectPairs(item, out);
    }

    // A flat list of positive ints of rank `rank` (at least `rank` when atLeast).
    std::optional<std::vector<std::int64_t>> positiveInts(const Nested& n, std::size_t rank, bool atLeast)
    {
        if (n.isInt || n.items.size() < rank || (!atLeast && n.items.size() != rank))
            return std::nullopt;
        std::vector<std::int64_t> out;
        for (const Nested& item : n.items) {
            if (!item.isInt)
                return std::nullopt;
            out.push_back(item.value);
        }
        for (std::size_t i = 0; i < rank; ++i)
            if (out[i] <= 0)
                return std::nullopt;
        return out;
    }

    struct Group
    {
        double m = 0, k = 0, n = 0;
    };

    // bpe_in = Input type[0]'s, bpe_out = Input type[1]'s (the input's when there is none).
    std::pair<double, double> groupedSizes(const OpArgs& args, const ModelReading& reading)
    {
        const double in = sizeOf(args.type(0), reading);
        return { in, args.types.size() > 1 ? sizeOf(args.type(1), reading) : in };
    }

    std::string groupsText(double m, double k, double n, double g)
    {
        const auto i = [](double v) { return std::to_string(std::int64_t(v)); };
        return "M=" + i(m) + " K=" + i(k) + " N=" + i(n) + " G=" + i(g);
    }

    // primus_turbo::grouped_gemm and its _impl / cpp-extension / CK forms.
    ModelResult groupedGemm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto dims = nestedDims(args);
        if (dims.size() < 2)
            return SkipReason::MalformedDims;
        double m = 0, k = 0, n = 0, g = 0;
        const auto a = positiveInts(dims[0], 2, true), b = positiveInts(dims[1], 3, false);
        if (a && b
            && ((*b)[1] == (*a)[1] || (*b)[2] == (*a)[1])) { // compact: [[M, K], [G, K, N] or [G, N, K]]
            m = double((*a)[0]);
            k = double((*a)[1]);
            g = double((*b)[0]);
            n = double((*b)[1] == (*a)[1] ? (*b)[2] : (*b)[1]);
        } else { // zipped: [[(M_i, K)…], [(K, N)…]], K and N the same for every group
            std::vector<Pair> lhs, rhs;
            collectPairs(dims[0], lhs);
            collectPairs(dims[1], rhs);
            if (lhs.empty() || lhs.size() != rhs.size())
                return SkipReason::MalformedDims;
            k = double(lhs[0].second);
            n = double(rhs[0].second);
            for (std::size_t i = 0; i < lhs.size(); ++i) {
                if (double(lhs[i].second) != k || double(rhs[i].first) != k || double(rhs[i].second) != n)
                    return SkipReason::MismatchedShapes;
                m += double(lhs[i].first);
            }
            g = double(lhs.size());
        }
        const auto [bpeIn, bpeOut] = groupedSizes(args, reading);
        return estimate(2 * m * k * n, (m * k + g * k * n) * bpeIn + m * n * bpeOut, args.type(0),
            ComputeUnit::Matrix, reading, groupsText(m, k, n, g));
    }

    // primus_turbo::grouped_gemm_variable_k and its _impl / cpp-extension / CK forms.
    ModelResult groupedGemmVariableK(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto dims = nestedDims(args);
        if (dims.size() < 2)
            return SkipReason::MalformedDims;
        std::vector<Group> groups;
        const auto a = positiveInts(dims[0], 2, false), b = positiveInts(dims[1], 2, false);
        if (a && b) { // compact: [[M, K], [M, N]], one group of the totals
            groups.push_back({ double((*a)[0]), double((*a)[1]), double((*b)[1]) });
        } else {
            std::vector<Pair> lhs, rhs;
            collectPairs(dims[0], lhs);
            collectPairs(dims[1], rhs);
            if (lhs.empty() || lhs.size() != rhs.size())
                return SkipReason::MalformedDims;
            for (std::size_t i = 0; i < lhs.size(); ++i) {
                if (lhs[i].second != rhs[i].first)
                    return SkipReason::MismatchedShapes;
                groups.push_back({ double(lhs[i].first), double(lhs[i].second), double(rhs[i].second) });
            }
        }
        const auto [bpeIn, bpeOut] = groupedSizes(args, reading);
        double flops = 0, bytes = 0, m = 0;
        for (const Group& gr : groups) {
            flops += 2 * gr.m * gr.k * gr.n;
            bytes += (gr.m * gr.k + gr.k * gr.n) * bpeIn + gr.m * gr.n * bpeOut;
            m += gr.m;
        }
        return estimate(flops, bytes, args.type(0), ComputeUnit::Matrix, reading,
            groupsText(m, groups.front().k, groups.front().n, double(groups.size())));
    }

    // tex_ts::te_gemm_ts(A, A_scale_inv, A_fp8, A_type, transa, B, B_scale_inv, B_fp8, B_type, transb,
    //     D, D_scale, D_type, D_amax, bias, bias_type, pre_gelu_out, grad, workspace, ...).
    // The bias: ours its tensor (Input Dims[14] non-empty, sized by its dtype). TraceLens's reading
    // tests Concrete Inputs[14] != "", never true for a tensor, and sizes the bias with Input type[18]
    // (the workspace's), its bytes null when that has no size.
    ModelResult teGemmTs(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto a = shapeOfRank(args, 0, 2), b = shapeOfRank(args, 5, 2);
        if (!a || !b || args.types.size() <= (reading.tracelens ? 18U : 10U))
            return SkipReason::MalformedDims; // TraceLens reads Input type[18]: an IndexError without it
        const bool transA = args.concreteAt(4) == "1", transB = args.concreteAt(9) == "1";
        const double m = double(transA ? (*a)[0] : (*a)[1]), k = double(transA ? (*a)[1] : (*a)[0]);
        const double n = double(transB ? (*b)[1] : (*b)[0]);
        const bool bias = reading.tracelens ? !args.concreteAt(14).empty() : present(args, 14);
        const double bpeA = sizeOf(args.type(0), reading), bpeB = sizeOf(args.type(5), reading);
        const double bpeD = sizeOf(args.type(10), reading);
        const double bpeBias = reading.tracelens ? sizeOf(args.type(18), reading)
                                                 : (bias ? sizeOf(args.type(14), reading) : 0.0);
        const double flops = 2 * m * n * k + (bias ? m * n : 0);
        double bytes = m * k * bpeA + k * n * bpeB + m * n * bpeD + (bias ? n : 0) * bpeBias;
        if (std::isnan(bpeBias)) // GEMM.bytes_func: None when any size is
            bytes = bpeBias;
        const auto i = [](double v) { return std::to_string(std::int64_t(v)); };
        return estimate(flops, bytes, args.type(0), ComputeUnit::Matrix, reading,
            "M=" + i(m) + " N=" + i(n) + " K=" + i(k) + (bias ? " bias" : ""));
    }

    // MoEDispatch / MoECombine(tokens (T, hidden), ...): TraceLens's MoEComm.
    ModelResult moeComm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 0, -1);
        if (!x)
            return SkipReason::MalformedDims;
        if (x->size() < 2) // no (tokens, hidden): TraceLens's bytes are None, its FLOPs 0
            return estimate(0, std::numeric_limits<double>::quiet_NaN(), "", ComputeUnit::Vector, reading);
        const double bytes = double((*x)[0]) * double((*x)[1]) * sizeOf(args.type(0), reading);
        return estimate(0, bytes, "", ComputeUnit::Vector, reading,
            "tokens=" + std::to_string((*x)[0]) + " hidden=" + std::to_string((*x)[1]));
    }

    // aiter::fmoe_fp8_blockscale_g1u1 / aiter::fmoe_g1u1(out (M, K), input, w1 (E, N·(gated+1), K'),
    //     w2 (E, K, N'), ..., topk at Concrete Inputs[8], ...): TraceLens's moe_aiter_fused_blockscale
    // (FusedMoE, MoE_fused). K = w2[1], N = w2[2]·(K // w1[2]) (INT4 packing), gated = w1[1] == 2N,
    // E_active = E·(1 − ((E − topk)/E)^M) (uniform routing):
    //   FLOPs = 2MKN·topk·(gated ? 2 : 1) + 2MKN·topk + MK·(2·topk − 1)
    //   bytes = MK·bpe_in + E_active·NK·bpe_w·((gated ? 2 : 1) + 1) + MK·bpe_out
    // bpe from DTYPE_TO_BYTES (in: input 1's, 1 when absent; w: input 2's, 1; out: input 0's, 2);
    // precision: the input's (input 1).
    ModelResult fusedMoeBlockscale(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto out = shapeOfRank(args, 0, -1);
        const auto w1 = shapeOfRank(args, 2, 3), w2 = shapeOfRank(args, 3, 3);
        const auto topk = concreteInt(args.concreteAt(8));
        if (!out || out->empty() || !w1 || !w2 || (*w1)[2] <= 0 || (*w1)[0] <= 0 || !topk)
            return SkipReason::MalformedDims; // TraceLens raises without topk
        const double m = double(out->front()), e = double((*w1)[0]), k = double((*w2)[1]);
        const double n = double((*w2)[2] * ((*w2)[1] / (*w1)[2]));
        const bool gated = double((*w1)[1]) == 2 * n;
        const double t = double(*topk);
        const double flops = 2 * m * k * n * t * (gated ? 2 : 1) + 2 * m * k * n * t + m * k * (2 * t - 1);
        const double active = e * (1 - std::pow((e - t) / e, m));
        const double bpeIn = moeBytesPerElement(args.type(1)).value_or(1);
        const double bpeW = moeBytesPerElement(args.type(2)).value_or(1);
        const double bpeOut = moeBytesPerElement(args.type(0)).value_or(2);
        const double bytes = m * k * bpeIn + active * n * k * bpeW * ((gated ? 2 : 1) + 1) + m * k * bpeOut;
        const auto i = [](double v) { return std::to_string(std::int64_t(v)); };
        return estimate(flops, bytes, args.type(1), ComputeUnit::Matrix, reading,
            "tokens=" + i(m) + " hidden=" + i(k) + " inter=" + i(n) + " experts=" + i(e) + " topk=" + i(t)
                + (gated ? " gated" : ""));
    }

    constexpr std::array kModels {
        OpModel { "aiter::fmoe_fp8_blockscale_g1u1", OpFamily::Moe, fusedMoeBlockscale },
        OpModel { "aiter::fmoe_g1u1", OpFamily::Moe, fusedMoeBlockscale },
        OpModel { "tex_ts::te_gemm_ts", OpFamily::Gemm, teGemmTs },
        OpModel { "primus_turbo::grouped_gemm", OpFamily::Gemm, groupedGemm },
        OpModel { "primus_turbo::grouped_gemm_impl", OpFamily::Gemm, groupedGemm },
        OpModel { "primus_turbo_cpp_extension::grouped_gemm", OpFamily::Gemm, groupedGemm },
        OpModel { "primus_turbo_cpp_extension::ck_grouped_gemm", OpFamily::Gemm, groupedGemm },
        OpModel { "primus_turbo::grouped_gemm_variable_k", OpFamily::Gemm, groupedGemmVariableK },
        OpModel { "primus_turbo::grouped_gemm_variable_k_impl", OpFamily::Gemm, groupedGemmVariableK },
        OpModel {
            "primus_turbo_cpp_extension::grouped_gemm_variable_k", OpFamily::Gemm, groupedGemmVariableK },
        OpModel {
            "primus_turbo_cpp_extension::ck_grouped_gemm_variable_k", OpFamily::Gemm, groupedGemmVariableK },
        OpModel { "MoEDispatch", OpFamily::Moe, moeComm, moeComm },
        OpModel { "MoECombine", OpFamily::Moe, moeComm, moeComm },
    };

} // namespace

std::span<const OpModel> groupedGemmModels()
{
    return kModels;
}

} // namespace ks::core
