// The vendor ops of TraceLens's perf model beyond those tst_efficiency_vendor_attention covers
// (issue 35, last part): the gated activations and Liger's SiLU·mul, the fused RMS norm + quant /
// add / pad extensions, TransformerEngine's te_gemm_ts, Primus Turbo's grouped GEMMs, the MoE token
// routing, SGLang's paged attention (its per-layer name suffix stripped) and Gated Delta Net
// attention. Every expected number is written as the TraceLens formula it comes from (file and
// class cited at each test), in the default reading and in TraceLens's (--tracelens-compat).

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/one_call_trace.h"
#include "tests/support/op_model_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <cmath>

using namespace ks::core;
using ks::test::kernelEvent;
using ks::test::launchEvent;
using ks::test::oneCallEvent;
using namespace ks::test::op_model_names;

namespace {

// A list of `n` JSON strings, empty but for some: { index, text }.
std::string stringList(std::size_t n, const std::vector<std::pair<std::size_t, std::string>>& set)
{
    std::vector<std::string> items(n, "\"\"");
    for (const auto& [i, text] : set)
        items[i] = "\"" + text + "\"";
    std::string out = "[";
    for (std::size_t i = 0; i < n; ++i)
        out += (i ? ", " : "") + items[i];
    return out + "]";
}

// The core RMSNorm's FLOPs, affine (perf_model.py RMSNorm.flops): (n/C)(2C + 2) + 2n.
double rmsFlops(double n, double c)
{
    return (n / c) * (2 * c + 2) + 2 * n;
}

// SGLang's detailed step annotation: 1 context request of 6 new tokens over 10 keys (Σsq² = 36,
// Σsq·sk = 60) and 2 decode requests over 30 keys in all (Σsq² = 2, Σsq·sk = 30).
const std::string kStep =
    "step[MIXED bs=3 c=1 g=2 c_sq=6 c_sk=10 c_sqsq=36 c_sqsk=60 g_sq=2 g_sk=30 g_sqsq=2 g_sqsk=30]";

} // namespace

class TestEfficiencyVendorOps : public QObject
{
    Q_OBJECT

private slots:

    // perf_model_extensions.py aiter_silu_and_mul (and sgl_kernel_silu_and_mul, aiter_gelu_and_mul,
    // aiter_gelu_tanh_and_mul): out = Input Dims[0], input = [1]; FLOPs = f·prod(out), bytes =
    // 2·prod(out)·bpe(input) + prod(out)·bpe(out); the input's precision; UnaryElementwise sheet.
    void gatedActivations()
    {
        const std::pair<const char*, double> ops[] = { { "aiter::silu_and_mul", 5 },
            { "_C::silu_and_mul", 5 }, { "sgl_kernel::silu_and_mul", 5 }, { "aiter::gelu_and_mul", 8 },
            { "aiter::gelu_tanh_and_mul", 10 } };
        const OpArgs args = argsOf("[[4, 8], [4, 16]]", R"(["c10::BFloat16", "float"])");
        const double n = 4 * 8;
        for (const auto& [op, f] : ops)
            for (const ModelReading& reading : { kOurs, kTraceLens }) {
                const auto e = modelled(op, args, reading);
                QCOMPARE(e.flops, f * n);
                QCOMPARE(e.bytes, 2 * n * 4 + n * 2);
                QCOMPARE(e.precision, std::string("fp32"));
                QCOMPARE(findOpModel(op)->family, OpFamily::Elementwise);
            }
    }

    // perf_model.py liger_silu_mul_function: a BinaryElementwise on (a, b), no output dtype read:
    // FLOPs = prod(broadcast(a, b)); bytes = n_a·bpe_a + n_b·bpe_b + n_out·max(bpe_a, bpe_b).
    void ligerSiluMul()
    {
        const OpArgs args = argsOf("[[4, 8], [8], [4, 8]]", R"(["c10::BFloat16", "float", "c10::Half"])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled("LigerSiLUMulFunction", args, reading);
            QCOMPARE(e.flops, 32.0);
            // argument 2 is not an output for Liger (aten's binary ops would size it at 2 bytes)
            QCOMPARE(e.bytes, 32.0 * 2 + 8 * 4 + 32 * 4);
            QCOMPARE(e.precision, std::string("bf16"));
        }
        QCOMPARE(skipOf("LigerSiLUMulFunction", argsOf("[[4, 8], [3]]", R"(["float", "float"])"), kOurs),
            std::optional(SkipReason::MismatchedShapes));
    }

    // rmsnorm_perf_model_extensions.py aiter_rms_norm, mapped for aiter::rmsnorm2d_fwd_ck.
    void rmsnorm2dFwdCk()
    {
        const OpArgs args = argsOf("[[4, 16], [16], []]", R"(["c10::BFloat16", "c10::BFloat16", "Scalar"])");
        const double n = 64, c = 16;
        const auto e = modelled("aiter::rmsnorm2d_fwd_ck", args, kTraceLens);
        QCOMPARE(e.flops, rmsFlops(n, c));
        QCOMPARE(e.bytes, 2 * n * 2 + c * 2);
        QCOMPARE(e.params, std::string("C=16 affine"));
    }

    // aiter_rmsnorm2d_fwd_with_dynamicquant_ck(out, input, yscale, weight, eps, flag): RMS + 2n FLOPs;
    // bytes = n·bpe + C·bpe + n (FP8 out) + M·4 (one FP32 scale per token).
    void rmsnormDynamicQuantCk()
    {
        const OpArgs args = argsOf("[[4, 16], [4, 16], [4, 1], [16], [], []]",
            R"(["c10::Float8_e4m3fnuz", "c10::BFloat16", "float", "c10::BFloat16", "Scalar", "Scalar"])");
        const double n = 64, c = 16, m = 4;
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled("aiter::rmsnorm2d_fwd_with_dynamicquant_ck", args, reading);
            QCOMPARE(e.flops, rmsFlops(n, c) + 2 * n);
            QCOMPARE(e.bytes, n * 2 + c * 2 + n * 1 + m * 4);
            QCOMPARE(e.precision, std::string("bf16"));
            QCOMPARE(e.groupKey, std::string("shape=[4, 16] dtype=c10::BFloat16 stride=[] C=16 affine"));
        }
    }

    // aiter_rmsnorm_quant(out, input, scale, weight, eps, group_size, ...): RMS + 2n FLOPs; bytes =
    // n·bpe + C·bpe + n + M·ceil(C / group_size)·4; a group size that is not a positive int: C.
    void rmsnormQuant()
    {
        const std::string dims = "[[4, 100], [4, 100], [4, 4], [100], [], [], [], []]";
        const std::string types = R"(["c10::Float8_e4m3fn", "c10::BFloat16", "float", "c10::BFloat16", )"
                                  R"("Scalar", "Scalar", "Scalar", "Scalar"])";
        const double n = 400, c = 100, m = 4;
        const auto grouped =
            modelled("aiter::rmsnorm_quant", argsOf(dims, types, stringList(8, { { 5, "32" } })), kOurs);
        QCOMPARE(grouped.flops, rmsFlops(n, c) + 2 * n);
        QCOMPARE(grouped.bytes, n * 2 + c * 2 + n + m * std::ceil(c / 32) * 4);
        QCOMPARE(grouped.params, std::string("C=100 affine group=32"));
        const auto whole =
            modelled("aiter::rmsnorm_quant", argsOf(dims, types, stringList(8, {})), kTraceLens);
        QCOMPARE(whole.bytes, n * 2 + c * 2 + n + m * 1 * 4);
    }

    // vllm_rocm_aiter_rmsnorm_fp8_group_quant(x, weight, eps, group_size) and the with_add form
    // (x, residual, weight, eps, group_size): + n FLOPs and the residual read and written.
    void vllmFp8GroupQuant()
    {
        const double n = 2 * 256, c = 256, m = 2, groups = std::ceil(c / 128);
        const auto plain = modelled("vllm::rocm_aiter_rmsnorm_fp8_group_quant",
            argsOf("[[2, 256], [256], [], []]", R"(["c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])",
                stringList(4, { { 2, "1e-06" }, { 3, "128" } })),
            kTraceLens);
        QCOMPARE(plain.flops, rmsFlops(n, c) + 2 * n);
        QCOMPARE(plain.bytes, n * 2 + c * 2 + n * 1 + m * groups * 4);
        const auto added = modelled("vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant",
            argsOf("[[2, 256], [2, 256], [256], [], []]",
                R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])",
                stringList(5, { { 4, "128" } })),
            kOurs);
        QCOMPARE(added.flops, rmsFlops(n, c) + n + 2 * n);
        QCOMPARE(added.bytes, n * 2 + n * 2 + c * 2 + n * 1 + n * 2 + m * groups * 4);
        // TraceLens's int(Concrete Inputs[3]) raises without a group size: no row
        QCOMPARE(skipOf("vllm::rocm_aiter_rmsnorm_fp8_group_quant",
                     argsOf("[[2, 256], [256], [], []]",
                         R"(["c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])"),
                     kOurs),
            std::optional(SkipReason::MalformedDims));
    }

    // vllm_rocm_aiter_triton_add_rmsnorm_pad(x, weight, eps, residual, x_pad_to_multiple), also mapped
    // for aiter::fused_add_rmsnorm_pad_: FLOPs = n + RMS; bytes = 2n·bpe + C·bpe + M·C_out·bpe + M·C·bpe.
    void addRmsnormPad()
    {
        const OpArgs args = argsOf("[[64, 2880], [2880], [], [64, 2880], []]",
            R"(["c10::BFloat16", "c10::BFloat16", "Scalar", "c10::BFloat16", "Scalar"])",
            stringList(5, { { 2, "1e-05" }, { 4, "256" } }));
        const double n = 64 * 2880, c = 2880, m = 64, out = std::ceil(c / 256) * 256;
        for (const char* op :
            { "vllm::rocm_aiter_triton_add_rmsnorm_pad", "aiter::fused_add_rmsnorm_pad_" }) {
            const auto e = modelled(op, args, kTraceLens);
            QCOMPARE(e.flops, n + rmsFlops(n, c));
            QCOMPARE(e.bytes, 2 * n * 2 + c * 2 + m * out * 2 + m * c * 2);
            QCOMPARE(e.params, std::string("C=2880 affine pad=256"));
        }
    }

    // fused_rms_mxfp4_quant(x1, x1_weight, x1_eps, x2?, x2_weight?, x2_eps, res1?, ...): x2 when
    // Input Dims[3] has rank 2, res1 when [6] has. FLOPs = RMS(x1) + int(RMS(x1)·M·N2 / n) + (res1 ?
    // M·C : 0) + 2n; bytes = n·bpe + C·bpe + (x2: 2·M·N2·bpe + N2·bpe) + (res1: 2n·bpe) + n/2 + n // 32.
    void rmsMxfp4Quant()
    {
        const double n = 8 * 64, c = 64, m = 8, n2 = 16;
        const auto plain = modelled("sglang_profiler::fused_mxfp4_quant_fused_rms_mxfp4_quant",
            argsOf("[[8, 64], [64], [], [], [], [], []]", R"(["c10::BFloat16", "c10::BFloat16"])"),
            kTraceLens);
        QCOMPARE(plain.flops, rmsFlops(n, c) + 2 * n);
        QCOMPARE(plain.bytes, n * 2 + c * 2 + n * 0.5 + std::floor(n / 32));
        const auto full = modelled("aiter::_fuse_rmsnorm_fp4_quant",
            argsOf("[[8, 64], [64], [], [8, 16], [16], [], [8, 64]]",
                R"(["c10::BFloat16", "c10::BFloat16", "Scalar", "c10::BFloat16", "c10::BFloat16", "Scalar", )"
                R"("c10::BFloat16"])"),
            kOurs);
        QCOMPARE(full.flops, rmsFlops(n, c) + std::floor(rmsFlops(n, c) * (m * n2) / n) + m * c + 2 * n);
        QCOMPARE(full.bytes,
            n * 2 + c * 2 + (m * n2 * 2 + n2 * 2 + m * n2 * 2) + 2 * n * 2 + n * 0.5 + std::floor(n / 32));
        QCOMPARE(full.params, std::string("C=64 affine x2 res1"));
    }

    // aiter_fused_qk_rmsnorm(q, q_weight, q_eps, k, k_weight, k_eps): two RMS norms, each
    // (n // C)(2C + 2) + 2n FLOPs and 2n·bpe + C·bpe bytes.
    void fusedQkRmsnorm()
    {
        const OpArgs args = argsOf("[[5, 2048], [2048], [], [5, 512], [512], [], [], []]",
            R"(["c10::BFloat16", "c10::BFloat16", "Scalar", "float", "float", "Scalar", "", ""])");
        const double nq = 5 * 2048, cq = 2048, nk = 5 * 512, ck = 512;
        const auto e = modelled("aiter::_fused_qk_rmsnorm_kernel", args, kTraceLens);
        QCOMPARE(e.flops,
            std::floor(nq / cq) * (2 * cq + 2) + 2 * nq + std::floor(nk / ck) * (2 * ck + 2) + 2 * nk);
        QCOMPARE(e.bytes, 2 * nq * 2 + cq * 2 + 2 * nk * 4 + ck * 4);
        QCOMPARE(e.precision, std::string("bf16"));
        QCOMPARE(e.params, std::string("C_q=2048 C_k=512"));
    }

    // perf_model.py tex_ts_te_gemm_ts: A = Input Dims[0], B = [5], D = [10]; transa = Concrete[4] == "1":
    // M, K = A[0], A[1] (else A[1], A[0]); N = transb ? B[1] : B[0]. FLOPs 2MNK (+ MN with a bias);
    // bytes MK·bpe_A + KN·bpe_B + MN·bpe_D (+ N·bpe_bias).
    void teGemmTs()
    {
        std::string dims =
            "[[256, 64], [], [], [], [], [32, 64], [], [], [], [], [32, 256], [], [], [], [256], ";
        dims += "[], [], [], [1024], [], [], []]";
        std::vector<std::string> typeList(22, "");
        typeList[0] = typeList[5] = "c10::Float8_e4m3fnuz";
        typeList[10] = typeList[14] = "c10::BFloat16";
        typeList[18] = "unsigned char";
        std::string types = "[";
        for (std::size_t i = 0; i < typeList.size(); ++i)
            types += (i ? ", \"" : "\"") + typeList[i] + "\"";
        types += "]";
        // transa = 1: M = 256, K = 64; transb = 0: N = B[0] = 32
        const OpArgs args = argsOf(dims, types, stringList(22, { { 4, "1" }, { 9, "0" } }));
        const double m = 256, k = 64, n = 32;
        // ours: the bias tensor (Input Dims[14]) counts, sized at its dtype
        const auto ours = modelled("tex_ts::te_gemm_ts", args, kOurs);
        QCOMPARE(ours.flops, 2 * m * n * k + m * n);
        QCOMPARE(ours.bytes, m * k * 1 + k * n * 1 + m * n * 2 + n * 2);
        QCOMPARE(ours.precision, std::string("fp8"));
        QCOMPARE(ours.unit, ComputeUnit::Matrix);
        QCOMPARE(ours.params, std::string("M=256 N=32 K=64 bias"));
        // TraceLens: bias = Concrete Inputs[14] != "" (never, for a tensor)
        const auto tl = modelled("tex_ts::te_gemm_ts", args, kTraceLens);
        QCOMPARE(tl.flops, 2 * m * n * k);
        QCOMPARE(tl.bytes, m * k * 1 + k * n * 1 + m * n * 2);
        QCOMPARE(tl.params, std::string("M=256 N=32 K=64"));
    }

    // perf_model.py primus_turbo_grouped_gemm (GroupedGemm): FLOPs = 2MKN; bytes = (MK + GKN)·bpe_in +
    // MN·bpe_out, bpe_in = Input type[0]'s, bpe_out = Input type[1]'s.
    void primusGroupedGemm()
    {
        const double m = 96, k = 64, n = 32, g = 4;
        const double flops = 2 * m * k * n, bytes = (m * k + g * k * n) * 2 + m * n * 2;
        const char* ops[] = { "primus_turbo::grouped_gemm", "primus_turbo::grouped_gemm_impl",
            "primus_turbo_cpp_extension::grouped_gemm", "primus_turbo_cpp_extension::ck_grouped_gemm" };
        for (const char* op : ops)
            for (const std::string dims :
                { "[[96, 64], [4, 64, 32], [4]]", "[[96, 64], [4, 32, 64], [4]]" }) {
                const auto e = modelled(
                    op, argsOf(dims, R"(["c10::BFloat16", "c10::BFloat16", "long int"])"), kTraceLens);
                QCOMPARE(e.flops, flops);
                QCOMPARE(e.bytes, bytes);
                QCOMPARE(e.params, std::string("M=96 K=64 N=32 G=4"));
                QCOMPARE(e.unit, ComputeUnit::Matrix);
            }
        // zipped TensorLists: M = Σ M_i, G = the groups
        const auto zipped = modelled("primus_turbo::grouped_gemm",
            argsOf("[[[10, 64], [30, 64]], [[64, 32], [64, 32]]]", R"(["TensorList", "TensorList"])"), kOurs);
        QCOMPARE(zipped.flops, 2.0 * 40 * 64 * 32);
        QVERIFY(std::isnan(zipped.bytes)); // a TensorList has no element size
        QCOMPARE(zipped.params, std::string("M=40 K=64 N=32 G=2"));
        const auto mixed = modelled("primus_turbo::grouped_gemm",
            argsOf("[[[10, 64], [30, 64]], [[64, 32], [64, 32]]]", R"(["float", "c10::BFloat16"])"), kOurs);
        QCOMPARE(mixed.bytes, (40.0 * 64 + 2 * 64 * 32) * 4 + 40 * 32 * 2);
    }

    // perf_model.py primus_turbo_grouped_gemm_variable_k: the sums over groups of 2·M_i·K_i·N_i and
    // (M_i·K_i + K_i·N_i)·bpe_in + M_i·N_i·bpe_out; the compact [[M, K], [M, N]] form is one group.
    void primusGroupedGemmVariableK()
    {
        const auto compact = modelled("primus_turbo::grouped_gemm_variable_k",
            argsOf("[[64, 128], [64, 32]]", R"(["c10::BFloat16", "c10::BFloat16"])"), kTraceLens);
        QCOMPARE(compact.flops, 2.0 * 64 * 128 * 32);
        QCOMPARE(compact.bytes, (64.0 * 128 + 128 * 32) * 2 + 64 * 32 * 2);
        const auto zipped = modelled("primus_turbo_cpp_extension::ck_grouped_gemm_variable_k",
            argsOf("[[[8, 16], [4, 32]], [[16, 24], [32, 24]]]", R"(["float", "float"])"), kOurs);
        QCOMPARE(zipped.flops, 2.0 * 8 * 16 * 24 + 2.0 * 4 * 32 * 24);
        QCOMPARE(zipped.bytes, ((8.0 * 16 + 16 * 24) + 8 * 24) * 4 + ((4.0 * 32 + 32 * 24) + 4 * 24) * 4);
        QCOMPARE(zipped.params, std::string("M=12 K=16 N=24 G=2"));
        QCOMPARE(skipOf("primus_turbo::grouped_gemm_variable_k",
                     argsOf("[[[8, 16]], [[17, 24]]]", R"(["float", "float"])"), kOurs),
            std::optional(SkipReason::MismatchedShapes));
    }

    // perf_model.py MoEComm (moe_dispatch, moe_combine): 0 FLOPs, tokens·hidden·bpe bytes, no compute
    // precision; the autograd backward the same.
    void moeDispatchCombine()
    {
        const OpArgs args = argsOf("[[128, 1024], [128, 8]]", R"(["c10::BFloat16", "long int"])");
        for (const char* op : { "MoEDispatch", "MoECombine" }) {
            const OpModel* model = findOpModel(op);
            QVERIFY(model && model->backward);
            QCOMPARE(model->family, OpFamily::Moe);
            const auto e = modelled(op, args, kTraceLens);
            QCOMPARE(e.flops, 0.0);
            QCOMPARE(e.bytes, 128.0 * 1024 * 2);
            QCOMPARE(e.precision, std::string());
            const auto grad = std::get<PerfEstimate>(model->backward(op, args, kOurs));
            QCOMPARE(grad.bytes, e.bytes);
        }
        QCOMPARE(opFamilyFromName("moe"), std::optional(OpFamily::Moe));
    }

    // TraceLens's normalize_sglang_profiler_op_names: `^(sglang_profiler::.+?)_\d+$` loses its suffix.
    void sglangProfilerNamesLoseTheirLayerSuffix()
    {
        QCOMPARE(canonicalOpName("sglang_profiler::attention_paged_attention_ragged_12"),
            std::string_view("sglang_profiler::attention_paged_attention_ragged"));
        QCOMPARE(canonicalOpName("sglang_profiler::a_1_2"), std::string_view("sglang_profiler::a_1"));
        QCOMPARE(canonicalOpName("sglang_profiler::_12"), std::string_view("sglang_profiler::_12"));
        QCOMPARE(canonicalOpName("sglang_profiler::op_"), std::string_view("sglang_profiler::op_"));
        QCOMPARE(canonicalOpName("aiter::rmsnorm_3"), std::string_view("aiter::rmsnorm_3"));
        QVERIFY(findOpModel("sglang_profiler::attention_paged_attention_ragged_0") != nullptr);
    }

    // attention_perf_model_extensions.py aiter_paged_attention_ragged: Q = Input Dims[2] (N_Q, H_Q, d_qk),
    // H_KV = Input Dims[3][-2], d_v = Input Dims[4][-1], the stats of the step annotation
    // (InferenceAttention.flops_func, bytes_func; cached K/V at Q's dtype in TraceLens's reading).
    void sglangPagedAttentionRagged()
    {
        const std::string args =
            R"({"Input Dims": [[8, 8, 64], [1024], [8, 8, 64], [50, 16, 2, 64], [50, 16, 2, 64], [], [4], [40], [3]], )"
            R"("Input type": ["c10::BFloat16", "unsigned char", "c10::BFloat16", "c10::Float8_e4m3fnuz", )"
            R"("c10::Float8_e4m3fnuz", "Scalar", "int", "int", "int"], "Input Strides": [], "Concrete Inputs": []})";
        const std::vector<std::string> events {
            oneCallEvent("user_annotation", kStep, 0, 100, "{}"),
            oneCallEvent("cpu_op", "sglang_profiler::attention_paged_attention_ragged_3", 10, 20, args),
            launchEvent(11, 1),
            kernelEvent(40, 10, 1),
            oneCallEvent("cpu_op", "sglang_profiler::attention_paged_attention_ragged_4", 50, 20, args),
            launchEvent(51, 2),
            kernelEvent(60, 10, 2),
        };
        const double hq = 8, hkv = 2, d = 64;
        const double cSq = 6, cSk = 10, cSqSq = 36, cSqSk = 60, gSq = 2, gSk = 30, gSqSk = 30;
        const double flops = hq * (2 * cSqSk * d) * 2 - hq * (cSqSq * d) * 2 + hq * (2 * gSqSk * d) * 2;
        const double current = (cSq + gSq) * (hq * d + hq * d + hkv * d + hkv * d);
        const double cached = ((cSk - cSq) + (gSk - gSq)) * (hkv * d + hkv * d);
        QTemporaryDir dir;
        const TraceSet set = ks::tests::loadRanks(dir, { ks::tests::kinetoDocument(0, events) });
        for (const bool compat : { false, true }) {
            EfficiencyOptions options;
            options.tracelensCompat = compat;
            const EfficiencyReport report = efficiencyReport(set, options);
            QCOMPARE(report.rows.size(), std::size_t(1)); // both layers in one row, under the stripped name
            const EfficiencyRow& row = report.rows.front();
            QCOMPARE(row.name, std::string("sglang_profiler::attention_paged_attention_ragged"));
            QCOMPARE(row.calls, std::int64_t(2));
            QCOMPARE(row.flops, flops);
            // cached K/V: the fp8 key cache's 1 byte (ours), Q's 2 bytes (TraceLens's)
            QCOMPARE(row.bytes, current * 2 + cached * (compat ? 2 : 1));
            QCOMPARE(row.precision, std::string("bf16"));
            QCOMPARE(row.kernelTimeUsSum, 20.0);
            QCOMPARE(row.params,
                std::string("c_sq=6 c_sk=10 c_sqsq=36 c_sqsk=60 g_sq=2 g_sk=30 g_sqsq=2 g_sqsk=30"));
        }
    }

    // attention_perf_model_extensions.py gdn_attention_core: H_K = H_V // 2, d_k = ((D − H_V·d_v) // 2) //
    // H_K, tokens = c_sq + g_sq; FLOPs = tokens·H_V·7·d_v·d_k; bytes = tokens·H_V·(d_k + 2·d_v + 2)·bpe,
    // bpe 2 in TraceLens's reading (bytes_per_element=2), mixed_qkv's dtype in ours.
    void gdnAttention()
    {
        const double hv = 8, dv = 32, hk = hv / 2, dk = 16;
        const double width = 2 * hk * dk + hv * dv; // 2·H_K·d_k + H_V·d_v
        OpArgs a =
            argsOf("[[8, " + std::to_string(std::int64_t(width)) + "], [8, 8], [8, 8], [8, 8, 32], []]",
                R"(["float", "float", "float", "float", ""])");
        a.annotation = kStep;
        const double tokens = 6 + 2;
        for (const char* op : { "vllm::gdn_attention_core", "aiter::linear_attention_with_output_base" }) {
            const auto ours = modelled(op, a, kOurs);
            QCOMPARE(ours.flops, tokens * hv * 7 * dv * dk);
            QCOMPARE(ours.bytes, tokens * hv * (dk + 2 * dv + 2) * 4);
            QCOMPARE(ours.precision, std::string("fp32"));
            QCOMPARE(modelled(op, a, kTraceLens).bytes, tokens * hv * (dk + 2 * dv + 2) * 2);
        }
        a.annotation.clear();
        QCOMPARE(skipOf("vllm::gdn_attention_core", a, kOurs), std::optional(SkipReason::NoStepAnnotation));
    }

    // moe_perf_model_extensions.py moe_aiter_fused_blockscale (FusedMoE.flops_func, bytes_func): K = w2[1],
    // N = w2[2]·(K // w1[2]), gated = w1[1] == 2N, E_active = E·(1 − ((E − topk)/E)^M).
    void aiterFusedMoe()
    {
        const double m = 4, k = 64, n = 32, e = 8, topk = 2;
        const OpArgs args = argsOf("[[4, 64], [4, 64], [8, 64, 64], [8, 64, 32], [4, 2], [4, 2]]",
            R"(["c10::BFloat16", "c10::Float8_e4m3fnuz", "c10::Float8_e4m3fnuz", "c10::Float8_e4m3fnuz", )"
            R"("float", "int"])",
            stringList(15, { { 8, "2" } }));
        const double active = e * (1 - std::pow((e - topk) / e, m));
        for (const char* op : { "aiter::fmoe_fp8_blockscale_g1u1", "aiter::fmoe_g1u1" }) {
            const auto r = modelled(op, args, kTraceLens);
            QCOMPARE(r.flops, 2 * m * k * n * topk * 2 + 2 * m * k * n * topk + m * k * (2 * topk - 1));
            QCOMPARE(r.bytes, m * k * 1 + active * n * k * 1 * 2 + active * n * k * 1 + m * k * 2);
            QCOMPARE(r.precision, std::string("fp8"));
            QCOMPARE(r.params, std::string("tokens=4 hidden=64 inter=32 experts=8 topk=2 gated"));
            QCOMPARE(findOpModel(op)->family, OpFamily::Moe);
        }
        // topk (Concrete Inputs[8]) missing: TraceLens raises, no row
        QCOMPARE(skipOf("aiter::fmoe_g1u1",
                     argsOf("[[4, 64], [4, 64], [8, 64, 64], [8, 64, 32]]", R"(["", "", "", ""])"), kOurs),
            std::optional(SkipReason::MalformedDims));
    }

    // perf_model.py CrossEntropy (cross_entropy_fwd): FLOPs = 5·batch·vocab; bytes = prod(logits)·bpe +
    // batch·8 + batch·4; bpe 2 when the dtype has no size.
    void crossEntropyFunction()
    {
        const double batch = 16, vocab = 1000;
        const auto e = modelled("CrossEntropyFunction",
            argsOf("[[16, 1, 1000], [16, 1]]", R"(["c10::BFloat16", "long int"])"), kTraceLens);
        QCOMPARE(e.flops, 5 * batch * vocab);
        QCOMPARE(e.bytes, batch * vocab * 2 + batch * 8 + batch * 4);
        QCOMPARE(e.precision, std::string("bf16"));
        QCOMPARE(findOpModel("CrossEntropyFunction")->family, OpFamily::Reduce);
        const auto unsized =
            modelled("CrossEntropyFunction", argsOf("[[16, 1000], [16]]", R"(["", ""])"), kOurs);
        QCOMPARE(unsized.bytes, batch * vocab * 2 + batch * 8 + batch * 4);
    }

    // perf_model.py CausalConv1d (causal_conv1d_fwd): FLOPs = 2·batch·C·L·k; bytes = (2·batch·C·L + C·k +
    // (bias ? C : 0))·bpe.
    void causalConv1d()
    {
        const double batch = 2, c = 64, length = 128, k = 4;
        const auto biased = modelled("DaoAILab::_causal_conv1d_fwd_cpp",
            argsOf("[[2, 64, 128], [64, 4], [64]]", R"(["float", "float", "float"])"), kOurs);
        QCOMPARE(biased.flops, 2 * batch * c * length * k);
        QCOMPARE(biased.bytes, (2 * batch * c * length + c * k + c) * 4);
        QCOMPARE(biased.unit, ComputeUnit::Matrix);
        const auto plain = modelled("DaoAILab::_causal_conv1d_fwd_cpp",
            argsOf("[[2, 64, 128], [64, 4], []]", R"(["c10::BFloat16", "c10::BFloat16", ""])"), kTraceLens);
        QCOMPARE(plain.bytes, (2 * batch * c * length + c * k) * 2);
    }
};

KS_TEST_MAIN(tst_efficiency_vendor_ops, TestEfficiencyVendorOps)
#include "tst_efficiency_vendor_ops.moc"
