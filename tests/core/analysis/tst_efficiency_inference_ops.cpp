// The inference ops of TraceLens's perf model added after tst_efficiency_quant_ops: MLA's KV-cache
// write and query concat, AITER's fused RoPE + MLA cache writes and its two-channel cached RoPE, and
// AITER's two-stage MoE GEMMs, its MoE routing / sort kernels and SGLang's Triton MoE ops.
// Every expected number is computed by hand from the TraceLens formula cited at each test, in the
// default reading and in TraceLens's (--tracelens-compat), and a trace checks the row a launched
// kernel gives.

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
using namespace ks::test::op_model_names;
using ks::test::oneCallEvent;
using ks::test::oneCallRow;

namespace {

const char* const kRopeCat = "aiter::fused_qk_rope_cat_and_cache_mla";
const char* const kRopeConcat = "aiter::fused_qk_rope_concat_and_cache_mla";

} // namespace

class TestEfficiencyInferenceOps : public QObject
{
    Q_OBJECT

private slots:

    // perf_model_extensions.py concat_and_cache_mla(kv_c (T, D_ckv), k_pe (T, D_pe), kv_cache, slots):
    // FLOPs 0; bytes T·D_ckv·bpe + T·D_pe·bpe + T·(D_ckv + D_pe)·bpe(cache) + 8T; kv_c's precision.
    void concatAndCacheMla()
    {
        // 16 tokens of 512 + 64 into an FP8 (uint8) paged cache
        const OpArgs args = argsOf("[[16, 512], [16, 64], [100, 16, 576], [16], [], []]",
            R"(["c10::BFloat16", "c10::BFloat16", "unsigned char", "long int", "", "float"])",
            R"(["", "", "", "", "fp8", ""])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled("_C_cache_ops::concat_and_cache_mla", args, reading);
            QCOMPARE(e.flops, 0.0);
            QCOMPARE(e.bytes, 27776.0); // 16·512·2 + 16·64·2 + 16·576·1 + 16·8
            QCOMPARE(e.precision, std::string("bf16"));
            QCOMPARE(e.unit, ComputeUnit::Vector);
            QCOMPARE(e.params, std::string("T=16 D_ckv=512 D_pe=64"));
            QCOMPARE(findOpModel("_C_cache_ops::concat_and_cache_mla")->family, OpFamily::Attention);
        }
        // no size for the cache's dtype: bytes null (TraceLens's None), the row kept
        const OpArgs unsized = argsOf("[[16, 512], [16, 64], [100, 16, 576], [16]]",
            R"(["c10::BFloat16", "c10::BFloat16", "bool", "long int"])");
        QVERIFY(!modelled("_C_cache_ops::concat_and_cache_mla", unsized, kTraceLens).bytesKnown());
        QCOMPARE(modelled("_C_cache_ops::concat_and_cache_mla", unsized, kOurs).bytes, 27776.0);
        QCOMPARE(skipOf("_C_cache_ops::concat_and_cache_mla", argsOf("[[16, 512]]", R"(["c10::BFloat16"])"),
                     kOurs),
            std::optional(SkipReason::MalformedDims));
    }

    // perf_model_extensions.py concat_mla_q(q_nope, q_pe, q_out): FLOPs 0; the three tensors' bytes,
    // q_out q_nope's when the call records only two.
    void concatMlaQ()
    {
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled("_C_cache_ops::concat_mla_q",
                argsOf("[[16, 8, 512], [16, 8, 64], [16, 8, 576]]",
                    R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"])"),
                reading);
            QCOMPARE(e.flops, 0.0);
            QCOMPARE(e.bytes, 294912.0); // (65536 + 8192 + 73728)·2
            QCOMPARE(e.precision, std::string("bf16"));
            const auto two = modelled("_C_cache_ops::concat_mla_q",
                argsOf("[[16, 8, 512], [16, 8, 64]]", R"(["c10::BFloat16", "c10::BFloat16"])"), reading);
            QCOMPARE(two.bytes, 278528.0); // (65536 + 8192 + 65536)·2
        }
    }

    // perf_model_extensions.py aiter_fused_qk_rope_cat_and_cache_mla: T, QH, D_lora = q_nope, D_pe =
    // q_pe[2], KH = k_nope[1]; FLOPs 3·T·(QH + KH)·D_pe; bytes T·(QH + KH)·(D_lora + D_pe)·bpe_in +
    // T·QH·(D_lora + D_pe)·bpe_in + T·KH·(D_lora + D_pe)·bpe(kv_cache).
    void fusedQkRopeCatAndCacheMla()
    {
        const OpArgs args = argsOf("[[4, 16, 128], [4, 16, 64], [4, 1, 128], [4, 1, 64], [50, 1, 192], [4]]",
            R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::Float8_e4m3fn", "long int"])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled(kRopeCat, args, reading);
            QCOMPARE(e.flops, 13056.0); // 3·4·17·64
            QCOMPARE(e.bytes, 51456.0); // 4·17·192·2 + 4·16·192·2 + 4·1·192·1
            QCOMPARE(e.precision, std::string("bf16"));
            QCOMPARE(e.params, std::string("T=4 QH=16 KH=1 D_lora=128 D_pe=64"));
            QCOMPARE(findOpModel(kRopeCat)->family, OpFamily::Rope);
            // the cache's dtype has no size: the input's
            const auto kvUnsized = modelled(kRopeCat,
                argsOf("[[4, 16, 128], [4, 16, 64], [4, 1, 128], [4, 1, 64], [50, 1, 192]]",
                    R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "mystery"])"),
                reading);
            QCOMPARE(kvUnsized.bytes, 52224.0); // 26112 + 24576 + 4·192·2
            QCOMPARE(skipOf(kRopeCat, argsOf("[[4, 2048], [4, 16, 64], [4, 1, 128]]", R"(["c10::BFloat16"])"),
                         reading),
                std::optional(SkipReason::MalformedDims));
        }
        // the input's dtype has no size: bytes null
        QVERIFY(!modelled(
            kRopeCat, argsOf("[[4, 16, 128], [4, 16, 64], [4, 1, 128], [4, 1, 64]]", R"(["mystery"])"), kOurs)
                     .bytesKnown());
    }

    // perf_model_extensions.py fused_qk_rope_concat_and_cache_mla: KH = 1 (kv_c, k_pe are 2-D) and
    // q_out (Input type[5]) at its own dtype, the input's when there is none.
    void fusedQkRopeConcatAndCacheMla()
    {
        const std::string dims = "[[4, 16, 128], [4, 16, 64], [4, 128], [4, 64], [50, 1, 192], [4, 16, 192]]";
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto fp8Out = modelled(kRopeConcat,
                argsOf(dims,
                    R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::Float8_e4m3fn", "c10::Float8_e4m3fn"])"),
                reading);
            QCOMPARE(fp8Out.flops, 13056.0); // 3·4·(16 + 1)·64
            QCOMPARE(fp8Out.bytes, 39168.0); // 4·17·192·2 + 4·16·192·1 + 4·192·1
            const auto noOutType = modelled(kRopeConcat,
                argsOf(dims,
                    R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::Float8_e4m3fn"])"),
                reading);
            QCOMPARE(noOutType.bytes, 51456.0); // q_out at bf16
        }
    }

    // perf_model_extensions.py aiter_rope_cached_positions_2c_fwd_impl (FusedRoPE): n = prod(in_x) +
    // prod(in_y) (Input Dims[2], [3]); FLOPs 3n; bytes 2n·bpe(Input type[0]), 2 bytes in TraceLens's
    // reading when the dtype has no size (FusedRoPE's `or 2`), null in ours.
    void ropeCachedPositions2c()
    {
        const char* op = "aiter::rope_cached_positions_2c_fwd_impl";
        const std::string dims =
            "[[2, 8, 16, 64], [2, 8, 4, 64], [2, 8, 16, 64], [2, 8, 4, 64], [4096, 1, 1, "
            "32], [4096, 1, 1, 32], [2, 8], [], [], []]";
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled(op,
                argsOf(dims,
                    R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "float", "float", "long int", "Scalar", "Scalar", "Scalar"])"),
                reading);
            QCOMPARE(e.flops, 61440.0); // 3·(16384 + 4096)
            QCOMPARE(e.bytes, 81920.0); // 2·20480·2
            QCOMPARE(e.precision, std::string("bf16"));
            QCOMPARE(findOpModel(op)->family, OpFamily::Rope);
        }
        const OpArgs unsized = argsOf(dims, R"(["mystery", "mystery", "mystery", "mystery"])");
        QVERIFY(!modelled(op, unsized, kOurs).bytesKnown());
        QCOMPARE(modelled(op, unsized, kTraceLens).bytes, 81920.0);
        QCOMPARE(modelled(op, unsized, kTraceLens).flops, 61440.0);
    }

    // A cache write in a trace: one row with its kernel's time, the same in both modes.
    void cacheOpRow()
    {
        const std::string call =
            R"({"Input Dims": [[16, 512], [16, 64], [100, 16, 576], [16]], )"
            R"("Input type": ["c10::BFloat16", "c10::BFloat16", "unsigned char", "long int"], )"
            R"("Input Strides": [], "Concrete Inputs": []})";
        for (const bool compat : { false, true }) {
            const EfficiencyRow row = oneCallRow("_C_cache_ops::concat_and_cache_mla", call, compat);
            QCOMPARE(row.family, OpFamily::Attention);
            QCOMPARE(row.flops, 0.0);
            QCOMPARE(row.bytes, 27776.0);
            QCOMPARE(row.kernelTimeUsSum, 10.0);
            QCOMPARE(row.calls, std::int64_t(1));
        }
    }

    // moe_perf_model_extensions.py moe_aiter_unfused_up / _down (UnfusedMoE_Up / _Down) for the CK-tile
    // two-stage GEMMs; E_active = E·(1 − ((E − topk)/E)^M); DTYPE_TO_BYTES sizes.
    void cktileMoeGemms()
    {
        // M 8, K 64, N 32, E 4, topk 2: E_active = 4·(1 − 0.5⁸) = 3.984375
        const OpArgs gemm1 = argsOf("[[8, 64], [4, 64, 64], [8, 2, 32], [100], [10], [1]]",
            R"(["c10::BFloat16", "c10::Float8_e4m3fnuz", "c10::BFloat16", "int", "int", "int"])");
        const OpArgs gemm2 = argsOf("[[8, 2, 32], [4, 64, 32], [8, 64], [100], [10], [1]]",
            R"(["c10::BFloat16", "c10::Float8_e4m3fnuz", "c10::BFloat16", "int", "int", "int"])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto up = modelled("aiter::moe_cktile2stages_gemm1_ck", gemm1, reading);
            QCOMPARE(up.flops, 131072.0); // 2·8·64·32·2·2 (gated: w1[1] = 2N)
            QCOMPARE(up.bytes, 18368.0); // 8·64·2 + 3.984375·2·64·32·1 + 8·32·2·2
            QCOMPARE(up.precision, std::string("bf16"));
            QCOMPARE(up.unit, ComputeUnit::Matrix);
            QCOMPARE(up.params, std::string("tokens=8 hidden=64 inter=32 experts=4 topk=2 gated"));
            const auto down = modelled("aiter::moe_cktile2stages_gemm2_ck", gemm2, reading);
            QCOMPARE(down.flops, 65536.0); // 2·8·32·64·2
            QCOMPARE(down.bytes, 10208.0); // 8·32·2·2 + 3.984375·32·64·1 + 8·64·2
            QCOMPARE(down.params, std::string("tokens=8 hidden=64 inter=32 experts=4 topk=2"));
            QCOMPARE(findOpModel("aiter::moe_cktile2stages_gemm2_ck")->family, OpFamily::Moe);
            QCOMPARE(skipOf("aiter::moe_cktile2stages_gemm1_ck", argsOf("[[8, 64], [4, 64]]", "[]"), reading),
                std::optional(SkipReason::MalformedDims));
        }
    }

    // moe_aiter_ck_stage1 / _stage2: N = w2[2]·(w2[1] // w1[-1]) (packing), topk = out[1] (stage 1) or
    // x[1] (stage 2); TraceLens writes the output at the input's size, ours at out's (Input type[6]).
    void ckMoeStages()
    {
        const std::string tail = R"(, [100], [10], [1], )";
        const OpArgs stage1 = argsOf("[[8, 64], [4, 64, 64], [4, 64, 32]" + tail + "[8, 2, 32]]",
            R"(["c10::Float8_e4m3fnuz", "c10::Float8_e4m3fnuz", "c10::Float8_e4m3fnuz", "int", "int", "int", "c10::BFloat16"])");
        const OpArgs stage2 = argsOf("[[8, 2, 32], [4, 64, 64], [4, 64, 32]" + tail + "[8, 64]]",
            R"(["c10::Float8_e4m3fnuz", "c10::Float8_e4m3fnuz", "c10::Float8_e4m3fnuz", "int", "int", "int", "c10::BFloat16"])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto up = modelled("aiter::ck_moe_stage1", stage1, reading);
            QCOMPARE(up.flops, 131072.0);
            // 8·64·1 + 3.984375·2·64·32·1 + 8·32·2·(2 ours, 1 TraceLens)
            QCOMPARE(up.bytes, reading.tracelens ? 17344.0 : 17856.0);
            QCOMPARE(up.precision, std::string("fp8"));
            const auto down = modelled("aiter::ck_moe_stage2", stage2, reading);
            QCOMPARE(down.flops, 65536.0);
            // 8·32·2·1 + 3.984375·32·64·1 + 8·64·(2 ours, 1 TraceLens)
            QCOMPARE(down.bytes, reading.tracelens ? 9184.0 : 9696.0);
            // stage 2 without w1: no packing
            const auto noW1 = modelled("aiter::ck_moe_stage2",
                argsOf("[[8, 2, 32], [], [4, 64, 32]" + tail + "[8, 64]]",
                    R"(["c10::Float8_e4m3fnuz", "", "c10::Float8_e4m3fnuz", "int", "int", "int", "c10::BFloat16"])"),
                reading);
            QCOMPARE(noW1.bytes, down.bytes);
        }
        // MXFP4: w1 (E, 2N, K/2), w2 (E, K, N/2): packing 2, N = 32; 0.5 bytes per FP4 element
        const OpArgs fp4 = argsOf("[[8, 32], [4, 64, 32], [4, 64, 16]" + tail + "[8, 2, 32]]",
            R"(["c10::Float4_e2m1fn_x2", "c10::Float4_e2m1fn_x2", "c10::Float4_e2m1fn_x2", "int", "int", "int", "c10::BFloat16"])");
        const auto ours = modelled("aiter::ck_moe_stage1", fp4, kOurs);
        QCOMPARE(ours.flops, 131072.0);
        QCOMPARE(ours.bytes, 9440.0); // 8·64·0.5 + 3.984375·2·64·32·0.5 + 8·32·2·2
        QCOMPARE(ours.params, std::string("tokens=8 hidden=64 inter=32 experts=4 topk=2 gated"));
        QCOMPARE(modelled("aiter::ck_moe_stage1", fp4, kTraceLens).bytes, 8672.0); // out at 0.5
    }

    // moe_perf_model_extensions.py BiasedGroupedTopk: FLOPs prod([M, topk]); bytes Σ prod·bpe over the
    // non-empty operands; the largest operand's precision.
    void biasedGroupedTopk()
    {
        const char* op = "aiter::biased_grouped_topk_hip";
        const OpArgs args = argsOf("[[8, 16], [16], [8, 2], [8, 2], [], [], [], []]",
            R"(["c10::BFloat16", "c10::BFloat16", "float", "int", "Scalar", "Scalar", "Scalar", "Scalar"])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled(op, args, reading);
            QCOMPARE(e.flops, 16.0); // [8, 2]
            QCOMPARE(e.bytes, 416.0); // 128·2 + 16·2 + 16·4 + 16·4
            QCOMPARE(e.precision, std::string("bf16"));
            QCOMPARE(e.unit, ComputeUnit::Vector);
            // no 2-D operand: the largest operand's elements
            QCOMPARE(modelled(op, argsOf("[[32], [4]]", R"(["c10::BFloat16", "int"])"), reading).flops, 32.0);
        }
        // an operand without a size is left out of the bytes: bool has one only in our table
        const OpArgs mask = argsOf("[[8, 16], [8, 2], [8]]", R"(["c10::BFloat16", "int", "bool"])");
        QCOMPARE(modelled(op, mask, kOurs).bytes, 328.0); // 256 + 64 + 8
        QCOMPARE(modelled(op, mask, kTraceLens).bytes, 320.0);
    }

    // moe_perf_model_extensions.py MoeSortScatterGather: FLOPs the largest operand's elements; bytes Σ
    // prod·bpe; null when no operand has a size.
    void moeSorting()
    {
        const OpArgs args = argsOf("[[8, 2], [8, 2], [64], [64], [16], [2], [8, 64], [], []]",
            R"(["int", "float", "int", "float", "int", "int", "c10::BFloat16", "Scalar", "Scalar"])");
        for (const char* op : { "aiter::moe_sorting_fwd", "aiter::mxfp4_moe_sort_hip" })
            for (const ModelReading& reading : { kOurs, kTraceLens }) {
                const auto e = modelled(op, args, reading);
                QCOMPARE(e.flops, 512.0); // [8, 64]
                QCOMPARE(e.bytes, 1736.0); // 16·4 + 16·4 + 64·4 + 64·4 + 16·4 + 2·4 + 512·2
                QCOMPARE(e.precision, std::string("bf16"));
                QCOMPARE(findOpModel(op)->family, OpFamily::Moe);
                const auto unsized = modelled(op, argsOf("[[8, 2]]", R"(["mystery"])"), reading);
                QCOMPARE(unsized.flops, 16.0);
                QVERIFY(!unsized.bytesKnown());
            }
    }

    // moe_perf_model_extensions.py moe_triton_invoke_grouped_gemm: B (E, N, K) at 1, C at 3, topk_ids
    // (tokens, topk) at 8; M_work = tokens·topk; FLOPs 2·M_work·N·K; bytes M_work·K·bpe_A +
    // E_active·N·K·bpe_B + M_work·N·bpe_C (DTYPE_TO_BYTES); B's precision.
    void sglangTritonFusedMoe()
    {
        const char* op = "sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel";
        const std::string dims = "[[4, 64], [8, 32, 64], [], [8, 32], [], [8], [], [4, 2], [4, 2], [40]]";
        // tokens 4, topk 2, E 8: E_active = 8·(1 − 0.75⁴) = 5.46875
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled(op,
                argsOf(dims,
                    R"(["c10::BFloat16", "c10::Float8_e4m3fn", "", "c10::BFloat16", "", "float", "", "float", "int", "int"])"),
                reading);
            QCOMPARE(e.flops, 32768.0); // 2·8·32·64
            QCOMPARE(e.bytes, 12736.0); // 8·64·2 + 5.46875·32·64·1 + 8·32·2
            QCOMPARE(e.precision, std::string("fp8"));
            QCOMPARE(e.unit, ComputeUnit::Matrix);
            QCOMPARE(e.params, std::string("tokens=4 topk=2 N=32 K=64 experts=8"));
            QCOMPARE(findOpModel(op)->family, OpFamily::Moe);
            // an FP8 C
            const auto fp8Out = modelled(op,
                argsOf(dims, R"(["c10::BFloat16", "c10::Float8_e4m3fn", "", "c10::Float8_e4m3fn"])"),
                reading);
            QCOMPARE(fp8Out.bytes, 12480.0); // C at 1 byte
            // SGLang's layer suffix is dropped before mapping
            QCOMPARE(findOpModel("sglang_profiler::fused_moe_triton_kernels_invoke_fused_moe_kernel_3"),
                findOpModel(op));
            QCOMPARE(
                skipOf(op, argsOf("[[4, 64], [8, 32, 64], [], [8, 32], [], [8], [], [4, 2]]", "[]"), reading),
                std::optional(SkipReason::MalformedDims));
        }
    }

    // moe_perf_model_extensions.py sglang_fused_append_shared_experts (a BinaryElementwise): FLOPs
    // prod(ids); bytes 2·(prod(ids)·bpe_ids + prod(weights)·bpe_w), 4 for a dtype with no size.
    void sglangAppendSharedExperts()
    {
        const char* op = "sglang_profiler::fused_moe_triton_kernels_fused_append_shared_experts";
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled(op, argsOf("[[4, 3], [4, 3]]", R"(["int", "float"])"), reading);
            QCOMPARE(e.flops, 12.0);
            QCOMPARE(e.bytes, 192.0); // 2·(12·4 + 12·4)
            QCOMPARE(e.precision, std::string("fp32"));
            QCOMPARE(e.unit, ComputeUnit::Vector);
            // no weights recorded: the ids' shape, float
            QCOMPARE(modelled(op, argsOf("[[4, 3]]", R"(["int"])"), reading).bytes, 192.0);
            QCOMPARE(skipOf(op, argsOf("[[4, 3], [4, 2]]", R"(["int", "float"])"), reading),
                std::optional(SkipReason::MismatchedShapes));
        }
        // bool ids: 1 byte in our table, none in TraceLens's (4)
        const OpArgs boolIds = argsOf("[[4, 3], [4, 3]]", R"(["bool", "float"])");
        QCOMPARE(modelled(op, boolIds, kOurs).bytes, 120.0); // 2·(12 + 48)
        QCOMPARE(modelled(op, boolIds, kTraceLens).bytes, 192.0);
    }

    // A MoE stage in a trace: its row in both modes, the output's bytes as each reads them.
    // perf_model_extensions.py topk_softplus(topk_weights (M, topk), topk_indices, gating_output (M, E)):
    // FLOPs 6·M·E; bytes M·E·bpe(type[2]) + E·4 + 2·M·topk·4 (null when the gating dtype is unsized).
    void topkSoftplus()
    {
        const OpArgs args =
            argsOf("[[32, 8], [32, 8], [32, 64], [64]]", R"(["float", "int", "c10::BFloat16", "float"])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled("aiter::topk_softplus", args, reading);
            QCOMPARE(e.flops, 12288.0); // 6·32·64
            QCOMPARE(e.bytes, 6400.0); // 32·64·2 + 64·4 + 2·32·8·4
            QCOMPARE(e.precision, std::string("bf16"));
            QCOMPARE(e.unit, ComputeUnit::Vector);
            QCOMPARE(e.params, std::string("E=64 topk=8"));
            QCOMPARE(findOpModel("aiter::topk_softplus")->family, OpFamily::Moe);
        }
        // no gating dtype recorded: bf16
        QCOMPARE(
            modelled("aiter::topk_softplus", argsOf("[[32, 8], [32, 8], [32, 64]]", "[]"), kTraceLens).bytes,
            6400.0);
        // a gating dtype TraceLens cannot size: the row keeps its FLOPs without bytes; ours sizes bool
        const OpArgs unsized = argsOf("[[32, 8], [32, 8], [32, 64]]", R"(["float", "int", "bool"])");
        QVERIFY(!modelled("aiter::topk_softplus", unsized, kTraceLens).bytesKnown());
        QCOMPARE(modelled("aiter::topk_softplus", unsized, kTraceLens).flops, 12288.0);
        QCOMPARE(modelled("aiter::topk_softplus", unsized, kOurs).bytes, 4352.0); // 2048 + 256 + 2048
        QCOMPARE(skipOf("aiter::topk_softplus", argsOf("[[32, 8], [32, 8]]", "[]"), kOurs),
            std::optional(SkipReason::MalformedDims));
    }

    // attention_perf_model_extensions.py mla_tilelang_sparse_fwd: InferenceAttention's formulas from the
    // step annotation with K = kv (Input Dims[1]), d_v = the d_v argument (Concrete Inputs 4) by default,
    // 512 as TraceLens reads it (from the event's top level, never there).
    //   FLOPs = H_Q·(2·c_sqsk − c_sqsq)·(d_qk + d_v);  bytes = c_sq·(H_Q + H_KV)·(d_qk + d_v)·2 (no cache)
    void tilelangSparseFwd()
    {
        const char* op = "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd";
        // q (16, 16, 576), kv (16, 1, 576), indices (16, 1, 2048); d_v 128
        OpArgs a = argsOf("[[16, 16, 576], [16, 1, 576], [16, 1, 2048], [], []]",
            R"(["c10::BFloat16", "c10::BFloat16", "int", "Scalar", "Scalar"])",
            R"(["", "", "", "0.04", "128"])");
        a.annotation = "execute_16_context_1(sq16sk16sqsq256sqsk256)_generation_0(sq0sk0sqsq0sqsk0)";
        const auto ours = modelled(op, a, kOurs);
        QCOMPARE(ours.flops, 2883584.0); // 16·(2·256 − 256)·(576 + 128)
        QCOMPARE(ours.bytes, 382976.0); // 16·(16 + 1)·(576 + 128)·2
        QCOMPARE(ours.precision, std::string("bf16"));
        QCOMPARE(ours.unit, ComputeUnit::Matrix);
        const auto tracelens = modelled(op, a, kTraceLens);
        QCOMPARE(tracelens.flops, 4456448.0); // 16·256·(576 + 512)
        QCOMPARE(tracelens.bytes, 591872.0); // 16·17·(576 + 512)·2
        // without the d_v argument: 512 in both readings; the SGLang layer suffix is dropped
        OpArgs noDv = argsOf(
            "[[16, 16, 576], [16, 1, 576], [16, 1, 2048]]", R"(["c10::BFloat16", "c10::BFloat16", "int"])");
        noDv.annotation = a.annotation;
        QCOMPARE(modelled("sglang_profiler::tilelang_kernel_tilelang_sparse_fwd_12", noDv, kOurs).flops,
            4456448.0);
        QVERIFY(findOpModel(op)->readsAnnotation);
        QCOMPARE(findOpModel(op)->family, OpFamily::Attention);
        // outside a step annotation: no row
        noDv.annotation.clear();
        QCOMPARE(skipOf(op, noDv, kOurs), std::optional(SkipReason::NoStepAnnotation));
    }

    // custom_collectives_perf_model_extensions.py: the HBM traffic of one GPU, no precision. All-reduces
    // (inp = Input Dims[1]): 0 FLOPs, 2·n·bpe; reduce-scatter / all-gather: (n_inp + n_out)·bpe; the fused
    // all-reduce + add + RMS norm: n + ⌊n/N⌋·(2N + 2) + 2n FLOPs, (4·n + N)·bpe.
    void customCollectives()
    {
        const std::string bf16 = R"("c10::BFloat16")";
        const OpArgs allReduce = argsOf("[[], [4, 7168], [4, 7168], [], []]",
            R"(["Scalar", )" + bf16 + ", " + bf16 + R"(, "Scalar", "Scalar"])");
        const OpArgs scatter =
            argsOf("[[], [8, 7168], [4, 7168]]", R"(["Scalar", )" + bf16 + ", " + bf16 + "]");
        const OpArgs gather =
            argsOf("[[], [4, 7168], [8, 7168]]", R"(["Scalar", )" + bf16 + ", " + bf16 + "]");
        const OpArgs regGather =
            argsOf("[[256, 16], [32, 16], []]", "[" + bf16 + ", " + bf16 + R"(, "Scalar"])");
        const OpArgs fusedCpp = argsOf("[[1], [], [4, 64], [4, 64], [4, 64], [4, 64], [64], [], [], []]",
            R"(["long int", "", )" + bf16 + ", " + bf16 + ", " + bf16 + ", " + bf16 + ", " + bf16
                + R"(, "Scalar", "Scalar", "Scalar"])");
        const OpArgs fusedWrapper = argsOf("[[4, 64], [4, 64], [64], [], [], [], []]",
            "[" + bf16 + ", " + bf16 + ", " + bf16 + R"(, "Scalar", "", "Scalar", "Scalar"])");

        const struct
        {
            const char* op;
            const OpArgs* args;
            double flops, bytes;
        } cases[] = {
            { "_C_custom_ar::all_reduce", &allReduce, 0, 114688 }, // 2·4·7168·2
            { "_C_custom_ar::qr_all_reduce", &allReduce, 0, 114688 },
            { "sgl_kernel::all_reduce_reg", &allReduce, 0, 114688 },
            { "sgl_kernel::qr_all_reduce", &allReduce, 0, 114688 },
            { "aiter::reduce_scatter", &scatter, 0, 172032 }, // (8·7168 + 4·7168)·2
            { "aiter::all_gather_reg", &gather, 0, 172032 },
            { "sglang::reg_all_gather_into_tensor", &regGather, 0, 9216 }, // (32·16 + 256·16)·2
            // n 256, N 64: 256 + 4·130 + 512; (4·256 + 64)·2
            { "aiter::fused_allreduce_rmsnorm", &fusedCpp, 1288, 2176 },
            { "aiter::fused_allreduce_rmsnorm_", &fusedWrapper, 1288, 2176 },
            { "vllm::rocm_aiter_fused_allreduce_rmsnorm", &fusedWrapper, 1288, 2176 },
        };

        for (const auto& c : cases)
            for (const ModelReading& reading : { kOurs, kTraceLens }) {
                const auto e = modelled(c.op, *c.args, reading);
                QCOMPARE(e.flops, c.flops);
                QCOMPARE(e.bytes, c.bytes);
                QCOMPARE(e.precision, std::string()); // no peak, as TraceLens
                QCOMPARE(findOpModel(c.op)->family, OpFamily::Collective);
            }
        QCOMPARE(opFamilyName(OpFamily::Collective), std::string_view("collective"));
        QCOMPARE(opFamilyFromName("collective"), std::optional(OpFamily::Collective));
        // a dtype TraceLens cannot size: its bytes raise (no row); ours sizes bool at 1 byte
        const OpArgs unsized = argsOf("[[], [4, 7168], [4, 7168]]", R"(["Scalar", "bool", "bool"])");
        QCOMPARE(
            skipOf("_C_custom_ar::all_reduce", unsized, kTraceLens), std::optional(SkipReason::UnknownDtype));
        QCOMPARE(modelled("_C_custom_ar::all_reduce", unsized, kOurs).bytes, 57344.0);
        QCOMPARE(skipOf("aiter::fused_allreduce_rmsnorm_", argsOf("[[4, 64], [4, 64], []]", "[]"), kOurs),
            std::optional(SkipReason::MalformedDims));
    }

    void moeStageRow()
    {
        const std::string call =
            R"({"Input Dims": [[8, 64], [4, 64, 64], [4, 64, 32], [100], [10], [1], )"
            R"([8, 2, 32]], "Input type": ["c10::Float8_e4m3fnuz", "c10::Float8_e4m3fnuz", )"
            R"("c10::Float8_e4m3fnuz", "int", "int", "int", "c10::BFloat16"], )"
            R"("Input Strides": [], "Concrete Inputs": []})";
        for (const bool compat : { false, true }) {
            const EfficiencyRow row = oneCallRow("aiter::ck_moe_stage1", call, compat);
            QCOMPARE(row.family, OpFamily::Moe);
            QCOMPARE(row.flops, 131072.0);
            QCOMPARE(row.bytes, compat ? 17344.0 : 17856.0);
            QCOMPARE(row.kernelTimeUsSum, 10.0);
        }
    }
};

KS_TEST_MAIN(tst_efficiency_inference_ops, TestEfficiencyInferenceOps)
#include "tst_efficiency_inference_ops.moc"
