// The quantised and vendor ops of TraceLens's perf model added after tst_efficiency_vendor_ops: the
// a8w8 / a16w16 / FP4 / batched GEMMs of AITER, vLLM, SGLang and bitsandbytes, and the standalone
// FP8 / MXFP4 quantisation ops of AITER, vLLM, SGLang and Primus Turbo. Every expected number
// is computed by hand from the TraceLens formula cited at each test, in the default reading and in
// TraceLens's (--tracelens-compat), and one trace per family checks the row a launched kernel gives.

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
using ks::test::oneCallRow;

namespace {

using ks::test::opSkipOf;

std::string eventArgs(const std::string& dims, const std::string& types, const std::string& concrete = "[]")
{
    return R"({"Input Dims": )" + dims + R"(, "Input type": )" + types + R"(, "Input Strides": [], )"
        + R"("Concrete Inputs": )" + concrete + "}";
}

} // namespace

class TestEfficiencyQuantOps : public QObject
{
    Q_OBJECT

private slots:

    // perf_model_extensions.py gemm_a8w8_blockscale: M, K = Input Dims[0], N = Input Dims[1][0];
    // FLOPs 2MNK; bytes M·K·bpe(type[0]) + K·N·bpe(type[1]) + M·N·2 (bf16 out); type[0]'s precision.
    void a8w8BlockscaleGemms()
    {
        const char* ops[] = { "aiter::gemm_a8w8_blockscale_ck", "aiter::gemm_a8w8_blockscale_cktile",
            "aiter::gemm_a8w8_blockscale_bpreshuffle_ck", "aiter::gemm_a8w8_blockscale_bpreshuffle_cktile",
            "aiter::_gemm_a8w8_blockscale_bpreshuffle_asm", "aiter::flatmm_a8w8_blockscale_asm",
            "aiter::gfx950_a8w8_blockscale_asm", "aiter::gemm_a8w8_ck", "aiter::gemm_a8w8_bpreshuffle_ck",
            "aiter::gemm_a8w8_bpreshuffle", "vllm::rocm_aiter_triton_gemm_a8w8_blockscale",
            "vllm::_rocm_aiter_preshuffled_per_token_w8a8_gemm",
            "sglang_profiler::fp8_utils_gemm_a8w8_blockscale",
            "sglang_profiler::gemm_a8w8_blockscale_gemm_a8w8_blockscale" };
        // x (32, 256) fp8, w (64, 256) fp8, scales (32, 2) and (1, 2) float
        const OpArgs args = argsOf("[[32, 256], [64, 256], [32, 2], [1, 2], [32, 64]]",
            R"(["c10::Float8_e4m3fnuz", "c10::Float8_e4m3fnuz", "float", "float", "c10::BFloat16"])");
        for (const char* op : ops)
            for (const ModelReading& reading : { kOurs, kTraceLens }) {
                const auto e = modelled(op, args, reading);
                QCOMPARE(e.flops, 1048576.0); // 2·32·64·256
                QCOMPARE(e.bytes, 28672.0); // 32·256 + 256·64 + 32·64·2
                QCOMPARE(e.precision, std::string("fp8"));
                QCOMPARE(e.unit, ComputeUnit::Matrix);
                QCOMPARE(e.params, std::string("M=32 N=64 K=256"));
                QCOMPARE(findOpModel(op)->family, OpFamily::Gemm);
            }
        // bytes_func gives None when a size is unknown: bool has none in TraceLens's table
        const auto unsized = modelled("aiter::gemm_a8w8_ck",
            argsOf("[[32, 256], [64, 256]]", R"(["bool", "c10::Float8_e4m3fnuz"])"), kTraceLens);
        QVERIFY(!unsized.bytesKnown());
        QCOMPARE(unsized.flops, 1048576.0);
        // a call in a trace: one row (SGLang's layer suffix dropped), its kernel's 10 µs
        const std::string call = eventArgs("[[32, 256], [64, 256], [32, 2], [1, 2]]",
            R"(["c10::Float8_e4m3fnuz", "c10::Float8_e4m3fnuz", "float", "float"])");
        for (const bool compat : { false, true }) {
            const EfficiencyRow row =
                oneCallRow("sglang_profiler::fp8_utils_gemm_a8w8_blockscale_7", call, compat);
            QCOMPARE(row.name, std::string("sglang_profiler::fp8_utils_gemm_a8w8_blockscale"));
            QCOMPARE(row.calls, std::int64_t(1));
            QCOMPARE(row.flops, 1048576.0);
            QCOMPARE(row.bytes, 28672.0);
            QCOMPARE(row.params, std::string("M=32 N=64 K=256"));
            QCOMPARE(row.kernelTimeUsSum, 10.0);
        }
    }

    // perf_model_extensions.py gemm_a16w16_atomic_ (also SGLang's flydsl hgemm): out dtype = Input
    // type[3], bf16 when absent; gemm_a16w16_asm: out = Input type[2] when it has a size, else [0].
    void a16w16Gemms()
    {
        // x (16, 128), w (96, 128): FLOPs 2·16·96·128; inputs 16·128·2 + 128·96·2 = 28672
        const double flops = 393216, inputs = 28672;
        for (const char* op : { "aiter::gemm_a16w16_atomic_", "sglang_profiler::gemm_kernels_flydsl_hgemm" })
            for (const ModelReading& reading : { kOurs, kTraceLens }) {
                const auto f32 = modelled(op,
                    argsOf("[[16, 128], [96, 128], [], [16, 96]]",
                        R"(["c10::BFloat16", "c10::BFloat16", "", "float"])"),
                    reading);
                QCOMPARE(f32.flops, flops);
                QCOMPARE(f32.bytes, inputs + 16 * 96 * 4);
                QCOMPARE(f32.precision, std::string("bf16"));
                const auto bf16 = modelled(
                    op, argsOf("[[16, 128], [96, 128]]", R"(["c10::BFloat16", "c10::BFloat16"])"), reading);
                QCOMPARE(bf16.bytes, inputs + 16 * 96 * 2);
            }
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto out32 = modelled("aiter::_gemm_a16w16_asm",
                argsOf("[[16, 128], [96, 128], [16, 96], [64]]",
                    R"(["c10::BFloat16", "c10::BFloat16", "float", "unsigned int"])"),
                reading);
            QCOMPARE(out32.flops, flops);
            QCOMPARE(out32.bytes, inputs + 16 * 96 * 4);
            // no size for Input type[2]: the activation's
            const auto fallback = modelled("aiter::_gemm_a16w16_asm",
                argsOf(
                    "[[16, 128], [96, 128], [], [64]]", R"(["c10::Half", "c10::Half", "", "unsigned int"])"),
                reading);
            QCOMPARE(fallback.bytes, inputs + 16 * 96 * 2);
            QCOMPARE(fallback.precision, std::string("fp16"));
        }
    }

    // perf_model_extensions.py gemm_afp4wfp4: x (M, K/2), w (N, K/2) packed FP4: K = 2·x[1], 0.5 bytes
    // per element, bf16 out, fp4 precision; batched_gemm_a16wfp4: x (B, M, K), w (B, N, K/2), B·GEMM.
    void fp4Gemms()
    {
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled("aiter::gemm_afp4wfp4_",
                argsOf("[[16, 64], [32, 64], [16, 4], [32, 4], [], [16, 32]]",
                    R"(["unsigned char", "unsigned char", "unsigned char", "unsigned char", "", "c10::BFloat16"])"),
                reading);
            QCOMPARE(e.flops, 131072.0); // 2·16·32·128
            QCOMPARE(e.bytes, 4096.0); // 16·128·0.5 + 128·32·0.5 + 16·32·2
            QCOMPARE(e.precision, std::string("fp4"));
            QCOMPARE(e.params, std::string("M=16 N=32 K=128"));
            const auto b = modelled("aiter::batched_gemm_a16wfp4_",
                argsOf("[[4, 16, 128], [4, 32, 64], [4, 32, 4]]",
                    R"(["c10::BFloat16", "unsigned char", "unsigned char"])"),
                reading);
            QCOMPARE(b.flops, 524288.0); // 4·2·16·32·128
            QCOMPARE(b.bytes, 28672.0); // 4·(16·128·2 + 128·32·0.5 + 16·32·2)
            QCOMPARE(b.precision, std::string("fp4"));
            QCOMPARE(b.params, std::string("B=4 M=16 N=32 K=128"));
        }
    }

    // perf_model_extensions.py batched_gemm_a8w8: w (B, N, K); x (B, M, K) or (M, B, K) (M = x[1] when
    // x[0] = B); B·GEMM with bf16 out; the precision of w's dtype (int8: none in TraceLens's table).
    void batchedA8w8()
    {
        const char* op = "sglang_profiler::batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_"
                         "quant_batched_gemm_a8w8_a_per_token_group_prequant_w_per_batched_tensor_quant";
        const OpArgs mbk =
            argsOf("[[16, 4, 128], [4, 32, 128], [1]]", R"(["c10::BFloat16", "signed char", "float"])");
        const OpArgs bmk =
            argsOf("[[4, 16, 128], [4, 32, 128], [1]]", R"(["c10::BFloat16", "signed char", "float"])");
        for (const ModelReading& reading : { kOurs, kTraceLens })
            for (const OpArgs* args : { &mbk, &bmk }) {
                const auto e = modelled(op, *args, reading);
                QCOMPARE(e.flops, 524288.0); // 4·2·16·32·128
                QCOMPARE(e.bytes, 36864.0); // 4·(16·128·2 + 128·32·1 + 16·32·2)
                QCOMPARE(e.params, std::string("B=4 M=16 N=32 K=128"));
                QCOMPARE(e.precision, std::string(reading.tracelens ? "" : "int8"));
            }
    }

    // perf_model.py vllm_gemm_with_dynamic_quant: A, B = the first two 2-D arguments; M, K = A, N = B[0];
    // every size Input type[0]'s.
    void gemmWithDynamicQuant()
    {
        const OpArgs args = argsOf("[[8, 256], [], [64, 128], [64, 8]]",
            R"(["c10::BFloat16", "Scalar", "unsigned char", "unsigned char"])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled("vllm::gemm_with_dynamic_quant", args, reading);
            QCOMPARE(e.flops, 262144.0); // 2·8·64·256
            QCOMPARE(e.bytes, 37888.0); // (8·256 + 256·64 + 8·64)·2
            QCOMPARE(e.precision, std::string("bf16"));
        }
    }

    // perf_model.py aten_scaled_mm, TraceLens's model of bitsandbytes::int8_linear_matmul(A, B): 2 bytes
    // out for 1-byte inputs. The op computes A·Bᵀ with B (N, K): N = B[0] (ours); TraceLens reads
    // N = B[1] as for _scaled_mm's (K, N).
    void int8LinearMatmul()
    {
        const OpArgs args = argsOf("[[16, 64], [32, 64]]", R"(["signed char", "signed char"])");
        const auto ours = modelled("bitsandbytes::int8_linear_matmul", args, kOurs);
        QCOMPARE(ours.flops, 65536.0); // 2·16·32·64
        QCOMPARE(ours.bytes, 4096.0); // 16·64 + 64·32 + 16·32·2
        const auto tl = modelled("bitsandbytes::int8_linear_matmul", args, kTraceLens);
        QCOMPARE(tl.flops, 131072.0); // 2·16·64·64
        QCOMPARE(tl.bytes, 7168.0); // 16·64 + 64·64 + 16·64·2
        const std::string call = eventArgs("[[16, 64], [32, 64]]", R"(["signed char", "signed char"])");
        for (const bool compat : { false, true }) {
            const EfficiencyRow row = oneCallRow("bitsandbytes::int8_linear_matmul", call, compat);
            QCOMPARE(row.flops, compat ? 131072.0 : 65536.0);
            QCOMPARE(row.kernelTimeUsSum, 10.0);
        }
    }

    // perf_model_extensions.py per_group_quant on (out, input, scales): FLOPs 2.59375·prod(out);
    // bytes prod(out)·bpe(out) + prod(input)·bpe(input) + prod(scales)·bpe(scales); the input's precision.
    void perGroupQuant()
    {
        // out (4, 256) fp8, input (4, 256) bf16, scales (4, 1) float
        const OpArgs perToken =
            argsOf("[[4, 256], [4, 256], [4, 1]]", R"(["c10::Float8_e4m3fnuz", "c10::BFloat16", "float"])");
        for (const char* op : { "aiter::dynamic_per_token_scaled_quant",
                 "aiter::dynamic_per_group_scaled_quant", "aiter::dynamic_per_tensor_quant" })
            for (const ModelReading& reading : { kOurs, kTraceLens }) {
                const auto e = modelled(op, perToken, reading);
                QCOMPARE(e.flops, 2656.0); // 2.59375·1024
                QCOMPARE(e.bytes, 3088.0); // 1024·1 + 1024·2 + 4·4
                QCOMPARE(e.precision, std::string("bf16"));
                QCOMPARE(e.unit, ComputeUnit::Vector);
                QCOMPARE(findOpModel(op)->family, OpFamily::Elementwise);
            }
        // one FP32 scale for the tensor
        const auto perTensor = modelled("aiter::dynamic_per_tensor_quant",
            argsOf("[[4, 256], [4, 256], [1]]", R"(["c10::Float8_e4m3fnuz", "c10::BFloat16", "float"])"),
            kOurs);
        QCOMPARE(perTensor.bytes, 3076.0); // 1024 + 2048 + 4
        // TraceLens's bytes multiply None and raise: no row. short has a size only in our table.
        const OpArgs shortOut =
            argsOf("[[4, 256], [4, 256], [4, 1]]", R"(["short", "c10::BFloat16", "float"])");
        QCOMPARE(modelled("aiter::dynamic_per_token_scaled_quant", shortOut, kOurs).bytes, 4112.0);
        QCOMPARE(opSkipOf("aiter::dynamic_per_token_scaled_quant", shortOut, kTraceLens),
            std::optional(SkipReason::UnknownDtype));
        QCOMPARE(opSkipOf("aiter::dynamic_per_token_scaled_quant",
                     argsOf("[[4, 256], [4, 256]]", R"(["c10::Float8_e4m3fnuz", "c10::BFloat16"])"), kOurs),
            std::optional(SkipReason::MalformedDims));
    }

    // vLLM's _C::per_token_group_fp8_quant(x, x_q, scales, group_size, ...), mapped to per_group_quant:
    // the same FLOPs and bytes (prod(x_q) = prod(x)); the precision x's (ours), x_q's as TraceLens reads
    // the arguments as (out, input, scales).
    void perTokenGroupFp8Quant()
    {
        const OpArgs args = argsOf("[[4, 256], [4, 256], [4, 2], []]",
            R"(["c10::BFloat16", "c10::Float8_e4m3fn", "float", "Scalar"])", R"(["", "", "", "128"])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled("_C::per_token_group_fp8_quant", args, reading);
            QCOMPARE(e.flops, 2656.0); // 2.59375·1024
            QCOMPARE(e.bytes, 3104.0); // 1024·2 + 1024·1 + 8·4
            QCOMPARE(e.precision, std::string(reading.tracelens ? "fp8" : "bf16"));
        }
    }

    // perf_model_extensions.py vllm_triton_per_token_group_quant_fp8(x, group_size): FLOPs 6·M·N; bytes
    // M·N·bpe(x) + M·N + M·max(1, ceil(N / g))·4, g = Concrete Inputs[1] (128 by default). Ours: N = x's
    // last dim, M the rest; TraceLens's M, N = x[0], x[1].
    void tritonPerTokenGroupQuantFp8()
    {
        const char* op = "vllm::triton_per_token_group_quant_fp8";
        const OpArgs threeD = argsOf("[[2, 3, 256], []]", R"(["c10::BFloat16", "Scalar"])", R"(["", "128"])");
        const auto ours = modelled(op, threeD, kOurs);
        QCOMPARE(ours.flops, 9216.0); // 6·6·256
        QCOMPARE(ours.bytes, 4656.0); // 1536·2 + 1536 + 6·2·4
        QCOMPARE(ours.params, std::string("group=128"));
        QCOMPARE(ours.precision, std::string("bf16"));
        const auto tl = modelled(op, threeD, kTraceLens);
        QCOMPARE(tl.flops, 36.0); // M = 2, N = 3: 6·2·3
        QCOMPARE(tl.bytes, 26.0); // 6·2 + 6 + 2·1·4
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            // 2-D: the same in both; no group size recorded: 128
            const auto e = modelled(op, argsOf("[[6, 256], []]", R"(["c10::BFloat16", "Scalar"])"), reading);
            QCOMPARE(e.flops, 9216.0);
            QCOMPARE(e.bytes, 4656.0);
            const auto g64 = modelled(
                op, argsOf("[[6, 256], []]", R"(["c10::BFloat16", "Scalar"])", R"(["", "64"])"), reading);
            QCOMPARE(g64.bytes, 4704.0); // 3072 + 1536 + 6·4·4
        }
        // no size for x's dtype: the row keeps its FLOPs, its bytes null
        const auto unsized = modelled(op, argsOf("[[6, 256], []]", R"(["short", "Scalar"])"), kTraceLens);
        QCOMPARE(unsized.flops, 9216.0);
        QVERIFY(!unsized.bytesKnown());
    }

    // perf_model.py primus_turbo_quantize_fp8 (UnaryElementwise): FLOPs n; bytes n·bpe(x) + n (FP8);
    // primus_turbo_quantize_mxfp4_dual: FLOPs M·N; bytes M·N·bpe(x) + 2·((M·N + 1) // 2)
    // + M·ceil(N/32) + N·ceil(M/32).
    void primusQuantize()
    {
        const OpArgs fp8 = argsOf("[[64, 128], [], []]", R"(["c10::BFloat16", "float", "float"])");
        for (const char* op : { "primus_turbo_cpp_extension::quantize_fp8_tensorwise",
                 "primus_turbo::quantize_fp8_tensorwise" })
            for (const ModelReading& reading : { kOurs, kTraceLens }) {
                const auto e = modelled(op, fp8, reading);
                QCOMPARE(e.flops, 8192.0);
                QCOMPARE(e.bytes, 24576.0); // 8192·2 + 8192
                QCOMPARE(e.precision, std::string("bf16"));
            }
        for (const char* op : { "primus_turbo_cpp_extension::quantize_mxfp4_dual",
                 "primus_turbo::quantize_mxfp4_dual", "primus::quantize_mxfp4_dual" })
            for (const ModelReading& reading : { kOurs, kTraceLens }) {
                const auto e = modelled(
                    op, argsOf("[[64, 96], [], []]", R"(["c10::BFloat16", "Scalar", "Scalar"])"), reading);
                QCOMPARE(e.flops, 6144.0);
                QCOMPARE(e.bytes, 18816.0); // 6144·2 + 2·3072 + 64·3 + 96·2
                QCOMPARE(e.precision, std::string("bf16"));
                // odd: 15 elements of FP32, ceil-divided halves and blocks
                const auto odd = modelled(op, argsOf("[[3, 5]]", R"(["float"])"), reading);
                QCOMPARE(odd.flops, 15.0);
                QCOMPARE(odd.bytes, 84.0); // 15·4 + 2·8 + 3·1 + 5·1
                QCOMPARE(opSkipOf(op, argsOf("[[2, 3, 5]]", R"(["float"])"), reading),
                    std::optional(SkipReason::MalformedDims));
            }
    }

    // perf_model_extensions.py fused_flatten_mxfp4_quant and its subclasses: FLOPs 2n; bytes n·bpe(x) +
    // n/2 + the E8M0 scales: TraceLens's n // 32, ours one per 32 elements of each row (the same for
    // rows of multiples of 32).
    void mxfp4Quant()
    {
        const char* flatten = "sglang_profiler::fused_mxfp4_quant_fused_flatten_mxfp4_quant";
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled(flatten, argsOf("[[4, 8, 16]]", R"(["c10::BFloat16"])"), reading);
            QCOMPARE(e.flops, 1024.0);
            QCOMPARE(e.bytes, 1296.0); // 512·2 + 256 + 16
            QCOMPARE(e.precision, std::string("bf16"));
        }
        // rows of 3·10 = 30 after flattening: ours 4·ceil(30/32) = 4 scales, TraceLens's 120 // 32 = 3
        const OpArgs rows30 = argsOf("[[4, 3, 10]]", R"(["c10::BFloat16"])");
        QCOMPARE(modelled(flatten, rows30, kOurs).bytes, 304.0); // 240 + 60 + 4
        QCOMPARE(modelled(flatten, rows30, kTraceLens).bytes, 303.0);
        QCOMPARE(modelled(flatten, rows30, kOurs).flops, 240.0);
        // SGLang's dynamic_mxfp4_quant: rows of x's last dim, 48: ours 6·2 scales, TraceLens's 288 // 32
        const OpArgs rows48 = argsOf("[[6, 48]]", R"(["c10::BFloat16"])");
        QCOMPARE(modelled("sglang_profiler::quant_dynamic_mxfp4_quant", rows48, kOurs).bytes, 732.0);
        QCOMPARE(modelled("sglang_profiler::quant_dynamic_mxfp4_quant", rows48, kTraceLens).bytes, 729.0);
        // AITER's: the input at 1 (out, input, scales) or 2 (out, scales, input, sorted ids, ...)
        const OpArgs at1 = argsOf(
            "[[6, 32], [6, 64], [6, 2]]", R"(["unsigned char", "c10::BFloat16", "c10::Float8_e8m0fnu"])");
        const OpArgs at2 = argsOf("[[6, 32], [8, 2], [6, 64], [8], [1]]",
            R"(["unsigned char", "c10::Float8_e8m0fnu", "c10::BFloat16", "int", "int"])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            for (const auto& [op, args] : { std::pair { "aiter::dynamic_per_group_scaled_quant_fp4", &at1 },
                     std::pair { "aiter::fused_dynamic_mx_quant_moe_sort_hip", &at2 },
                     std::pair { "aiter::fused_dynamic_mxfp4_quant_moe_sort_hip", &at2 } }) {
                const auto e = modelled(op, *args, reading);
                QCOMPARE(e.flops, 768.0); // 2·384
                QCOMPARE(e.bytes, 972.0); // 384·2 + 192 + 12
                QCOMPARE(e.precision, std::string("bf16"));
            }
            QVERIFY(!modelled(flatten, argsOf("[[4, 8, 16]]", R"(["mystery"])"), reading).bytesKnown());
        }
    }

    // A quant op in a trace: one row with its kernel's time, the same in both modes.
    void quantOpRow()
    {
        const std::string call = eventArgs(
            "[[4, 256], [4, 256], [4, 1]]", R"(["c10::Float8_e4m3fnuz", "c10::BFloat16", "float"])");
        for (const bool compat : { false, true }) {
            const EfficiencyRow row = oneCallRow("aiter::dynamic_per_token_scaled_quant", call, compat);
            QCOMPARE(row.family, OpFamily::Elementwise);
            QCOMPARE(row.flops, 2656.0);
            QCOMPARE(row.bytes, 3088.0);
            QCOMPARE(row.precision, std::string("bf16"));
            QCOMPARE(row.kernelTimeUsSum, 10.0);
        }
    }
};

KS_TEST_MAIN(tst_efficiency_quant_ops, TestEfficiencyQuantOps)
#include "tst_efficiency_quant_ops.moc"
