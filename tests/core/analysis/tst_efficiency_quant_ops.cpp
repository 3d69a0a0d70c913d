// The quantised and vendor ops of TraceLens's perf model added after tst_efficiency_vendor_ops: the
// a8w8 / a16w16 / FP4 / batched GEMMs of AITER, vLLM, SGLang and bitsandbytes. Every expected number
// is computed by hand from the TraceLens formula cited at each test, in the default reading and in
// TraceLens's (--tracelens-compat), and one trace per family checks the row a launched kernel gives.

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/op_model_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <cmath>

using namespace ks::core;

namespace {

const ModelReading& kOurs = ks::test::kOursReading;
const ModelReading& kTraceLens = ks::test::kTraceLensReading;
using ks::test::opArgsOf;
using ks::test::opModelled;

OpArgs argsOf(const std::string& dims, const std::string& types, const std::string& concrete = "[]")
{
    return opArgsOf(dims, types, concrete);
}

PerfEstimate modelled(const char* op, const OpArgs& args, const ModelReading& reading)
{
    return opModelled(op, args, reading);
}

std::string traceEvent(
    const std::string& cat, const std::string& name, int ts, int dur, const std::string& args)
{
    return R"({"ph": "X", "cat": ")" + cat + R"(", "name": ")" + name + R"(", "pid": 1, "tid": 1, "ts": )"
        + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur) + R"(, "args": )" + args + "}";
}

std::string launch(int ts, int correlation)
{
    return traceEvent(
        "cuda_runtime", "cudaLaunchKernel", ts, 1, R"({"correlation": )" + std::to_string(correlation) + "}");
}

std::string kernel(int ts, int dur, int correlation)
{
    return R"({"ph": "X", "cat": "kernel", "name": "work", "pid": 0, "tid": 7, "ts": )" + std::to_string(ts)
        + R"(, "dur": )" + std::to_string(dur) + R"(, "args": {"correlation": )" + std::to_string(correlation)
        + R"(, "stream": 7, "device": 0}})";
}

std::string eventArgs(const std::string& dims, const std::string& types, const std::string& concrete = "[]")
{
    return R"({"Input Dims": )" + dims + R"(, "Input type": )" + types + R"(, "Input Strides": [], )"
        + R"("Concrete Inputs": )" + concrete + "}";
}

// One call of `op` launching one 10 µs kernel, reported in both modes; the single row.
EfficiencyRow onlyRow(const std::string& op, const std::string& args, bool compat)
{
    const std::vector<std::string> events {
        traceEvent("cpu_op", op, 10, 20, args),
        launch(11, 1),
        kernel(40, 10, 1),
    };
    QTemporaryDir dir;
    const TraceSet set = ks::tests::loadRanks(dir, { ks::tests::kinetoDocument(0, events) });
    EfficiencyOptions options;
    options.tracelensCompat = compat;
    const EfficiencyReport report = efficiencyReport(set, options);
    if (report.rows.size() != 1)
        qFatal("%s: %zu rows", op.c_str(), report.rows.size());
    return report.rows.front();
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
                onlyRow("sglang_profiler::fp8_utils_gemm_a8w8_blockscale_7", call, compat);
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
            const EfficiencyRow row = onlyRow("bitsandbytes::int8_linear_matmul", call, compat);
            QCOMPARE(row.flops, compat ? 131072.0 : 65536.0);
            QCOMPARE(row.kernelTimeUsSum, 10.0);
        }
    }
};

KS_TEST_MAIN(tst_efficiency_quant_ops, TestEfficiencyQuantOps)
#include "tst_efficiency_quant_ops.moc"
