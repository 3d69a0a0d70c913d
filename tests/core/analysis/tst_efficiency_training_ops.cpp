// TraceLens-mapped training ops added after tst_efficiency_quant_ops: Primus Turbo's hipBLASLt FP8 /
// MXFP4 GEMMs and AITER's MXFP4 GEMM (a4w4), Mamba-2's fused SSD
// (MambaSplitConv1dScanCombinedFn) and Primus's fused LayerNorm + modulate. Every expected number is
// computed by hand from the TraceLens formula cited at each test, in the default reading and in
// TraceLens's (--tracelens-compat); one trace checks the row a launched kernel gives.

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/op_model_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <cmath>
#include <utility>

using namespace ks::core;
using ks::test::kOursReading;
using ks::test::kTraceLensReading;
using ks::test::opArgsOf;
using ks::test::opModelled;
using ks::test::opSkipOf;

namespace {

const ModelReading kBothReadings[] = { kOursReading, kTraceLensReading };

// The hipBLASLt GEMMs' nine arguments: A, scaleA_inv, B, scaleB_inv, out_dtype, transA, transB,
// transC, granularity.
std::string hipblasltConcrete(const char* transA, const char* transB, const char* transC)
{
    return std::string(R"(["", "", "", "", "15", ")") + transA + R"(", ")" + transB + R"(", ")" + transC
        + R"(", ""])";
}

// One call of `op` (these args) launching one 10 µs kernel; the report's rows in that mode.
EfficiencyReport reportOfOneCall(const std::string& op, const std::string& args, bool compat)
{
    using ks::tests::correlationArgs;
    using ks::tests::eventAtBase;
    const std::vector<std::string> events {
        eventAtBase("cpu_op", op, 10, 20, args),
        eventAtBase("cuda_runtime", "cudaLaunchKernel", 11, 1, correlationArgs(1)),
        eventAtBase("kernel", "work", 40, 10, correlationArgs(1, 7), 0, 7),
    };
    QTemporaryDir dir;
    const TraceSet set = ks::tests::loadRanks(dir, { ks::tests::kinetoDocument(0, events) });
    EfficiencyOptions options;
    options.tracelensCompat = compat;
    return efficiencyReport(set, options);
}

std::string eventArgs(const std::string& dims, const std::string& types, const std::string& concrete)
{
    return R"({"Input Dims": )" + dims + R"(, "Input type": )" + types + R"(, "Input Strides": [], )"
        + R"("Concrete Inputs": )" + concrete + "}";
}

} // namespace

class TestEfficiencyTrainingOps : public QObject
{
    Q_OBJECT

private slots:

    // perf_model.py hipblaslt_gemm_fp8: A = Input Dims[0], B = [2]; M, K = A (transA: A[1], A[0]),
    // N = B[1] (transB: B[0]); transC swaps A and B, transA, transB = !transB, !transA. FLOPs 2MNK;
    // bytes M·K·bpe(type[0]) + K·N·bpe(type[2]) + M·N·(2 for 1-byte inputs, else bpe_A).
    void hipblasltGemmFp8()
    {
        const std::string fp8 = R"("c10::Float8_e4m3fnuz")";
        const std::string types = "[" + fp8 + R"(, "float", )" + fp8
            + R"(, "float", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"])";
        // NN: A (64, 128), B (128, 256): M 64, K 128, N 256
        const OpArgs nn = opArgsOf("[[64, 128], [], [128, 256], [], [], [], [], [], []]", types,
            hipblasltConcrete("False", "False", "False"));
        // NT: B (256, 128) transposed: the same GEMM
        const OpArgs nt = opArgsOf("[[64, 128], [], [256, 128], [], [], [], [], [], []]", types,
            hipblasltConcrete("False", "True", "False"));
        for (const char* op :
            { "primus_turbo_cpp_extension::hipblaslt_gemm_fp8", "primus_turbo::hipblaslt_gemm_fp8" })
            for (const ModelReading& reading : kBothReadings)
                for (const OpArgs* args : { &nn, &nt }) {
                    const auto e = opModelled(op, *args, reading);
                    QCOMPARE(e.flops, 4194304.0); // 2·64·256·128
                    QCOMPARE(e.bytes, 73728.0); // 64·128 + 128·256 + 64·256·2
                    QCOMPARE(e.precision, std::string("fp8"));
                    QCOMPARE(e.unit, ComputeUnit::Matrix);
                    QCOMPARE(e.params, std::string("M=64 N=256 K=128"));
                    QCOMPARE(findOpModel(op)->family, OpFamily::Gemm);
                }
        // transC (with transB): A' = B (64, 128), B' = A (32, 128), transA' = !transB = false,
        // transB' = !transA = true: M 64, K 128, N 32
        const OpArgs tc = opArgsOf("[[32, 128], [], [64, 128], [], [], [], [], [], []]", types,
            hipblasltConcrete("False", "True", "True"));
        for (const ModelReading& reading : kBothReadings) {
            const auto e = opModelled("primus_turbo::hipblaslt_gemm_fp8", tc, reading);
            QCOMPARE(e.flops, 524288.0); // 2·64·32·128
            QCOMPARE(e.bytes, 16384.0); // 64·128 + 128·32 + 64·32·2
            QCOMPARE(e.params, std::string("M=64 N=32 K=128"));
        }
        // 2-byte inputs write at their size: A (16, 32), B (32, 8) bf16, no Concrete Inputs (NN)
        const OpArgs bf16 = opArgsOf(
            "[[16, 32], [], [32, 8], []]", R"(["c10::BFloat16", "float", "c10::BFloat16", "float"])");
        for (const ModelReading& reading : kBothReadings) {
            const auto e = opModelled("primus_turbo::hipblaslt_gemm_fp8", bf16, reading);
            QCOMPARE(e.flops, 8192.0); // 2·16·8·32
            QCOMPARE(e.bytes, 1792.0); // (16·32 + 32·8 + 16·8)·2
            QCOMPARE(e.precision, std::string("bf16"));
        }
        // A dtype with no size: TraceLens asserts (no row); ours sizes bool at 1 byte
        const OpArgs unsized =
            opArgsOf("[[16, 32], [], [32, 8], []]", R"(["bool", "float", "bool", "float"])");
        QCOMPARE(opSkipOf("primus_turbo::hipblaslt_gemm_fp8", unsized, kTraceLensReading),
            std::optional(SkipReason::UnknownDtype));
        QCOMPARE(opModelled("primus_turbo::hipblaslt_gemm_fp8", unsized, kOursReading).bytes, 1024.0);
        // not 2-D operands
        QCOMPARE(opSkipOf("primus_turbo::hipblaslt_gemm_fp8", opArgsOf("[[16, 32], [], [32]]", types),
                     kOursReading),
            std::optional(SkipReason::MalformedDims));
    }

    // perf_model.py hipblaslt_gemm_fp4 (shape as hipblaslt_gemm_fp8, K = 2·the packed K) and
    // aiter_gemm_a4w4 (A, B, scaleA, scaleB; NT: M = A[0], K = 2·A[1], N = B[0]). FLOPs 2MNK; bytes
    // M·K/2·bpe_A + N·K/2·bpe_B + (M + N)·⌈K/32⌉·bpe_scale (1 when unsized) + M·N·2; A's precision.
    void mxfp4Gemms()
    {
        const std::string fp4 = R"("c10::Float4_e2m1fn_x2")", e8m0 = R"("c10::Float8_e8m0fnu")";
        // A (64, 64) packed: K 128; B (256, 64) transposed: N 256; scales (64, 4), (256, 4)
        const OpArgs hipblaslt = opArgsOf("[[64, 64], [64, 4], [256, 64], [256, 4], [], [], [], [], []]",
            "[" + fp4 + ", " + e8m0 + ", " + fp4 + ", " + e8m0
                + R"(, "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"])",
            hipblasltConcrete("False", "True", "False"));
        const OpArgs a4w4 = opArgsOf("[[64, 64], [256, 64], [64, 4], [256, 4], [], [], [], [], []]",
            "[" + fp4 + ", " + fp4 + ", " + e8m0 + ", " + e8m0
                + R"(, "", "Scalar", "Scalar", "Scalar", "Scalar"])");
        // the asm leaf without its scale types: scales at 1 byte all the same
        const OpArgs a4w4Bare = opArgsOf("[[64, 64], [256, 64]]", "[" + fp4 + ", " + fp4 + "]");
        const std::pair<const char*, const OpArgs*> calls[] = {
            { "primus_turbo_cpp_extension::hipblaslt_gemm_fp4", &hipblaslt },
            { "primus_turbo::hipblaslt_gemm_fp4", &hipblaslt },
            { "aiter::gemm_a4w4", &a4w4 },
            { "aiter::_gemm_a4w4_asm", &a4w4 },
            { "aiter::_gemm_a4w4_asm", &a4w4Bare },
        };
        for (const auto& call : calls)
            for (const ModelReading& reading : kBothReadings) {
                const auto e = opModelled(call.first, *call.second, reading);
                QCOMPARE(e.flops, 4194304.0); // 2·64·256·128
                // 64·64 + 256·64 + 64·4 + 256·4 (⌈128/32⌉ = 4 scales a row) + 64·256·2
                QCOMPARE(e.bytes, 54528.0);
                QCOMPARE(e.precision, std::string("fp4"));
                QCOMPARE(e.unit, ComputeUnit::Matrix);
                QCOMPARE(e.params, std::string("M=64 N=256 K=128"));
                QCOMPARE(findOpModel(call.first)->family, OpFamily::Gemm);
            }
        // a K that is not a multiple of 32 rounds its scales up: A (8, 24) → K 48, ⌈48/32⌉ = 2
        const OpArgs odd = opArgsOf("[[8, 24], [16, 24]]", "[" + fp4 + ", " + fp4 + "]");
        const auto e = opModelled("aiter::gemm_a4w4", odd, kTraceLensReading);
        QCOMPARE(e.flops, 12288.0); // 2·8·16·48
        QCOMPARE(e.bytes, 880.0); // 8·24 + 16·24 + (8 + 16)·2 + 8·16·2
        // one call in a trace (the public entry): one row with its kernel's 10 µs
        for (const bool compat : { false, true }) {
            const EfficiencyReport report = reportOfOneCall("aiter::gemm_a4w4",
                eventArgs("[[64, 64], [256, 64], [64, 4], [256, 4]]",
                    "[" + fp4 + ", " + fp4 + ", " + e8m0 + ", " + e8m0 + "]", "[]"),
                compat);
            QCOMPARE(report.rows.size(), std::size_t(1));
            QCOMPARE(report.rows.front().flops, 4194304.0);
            QCOMPARE(report.rows.front().bytes, 54528.0);
            QCOMPARE(report.rows.front().kernelTimeUsSum, 10.0);
        }
    }
};

KS_TEST_MAIN(tst_efficiency_training_ops, TestEfficiencyTrainingOps)
#include "tst_efficiency_training_ops.moc"
