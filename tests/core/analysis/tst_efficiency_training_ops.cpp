// TraceLens-mapped training ops added after tst_efficiency_quant_ops: Primus Turbo's hipBLASLt FP8 /
// MXFP4 GEMMs and AITER's MXFP4 GEMM (a4w4), Mamba-2's fused SSD
// (MambaSplitConv1dScanCombinedFn) and Primus's fused LayerNorm + modulate. Every expected number is
// computed by hand from the TraceLens formula cited at each test, in the default reading and in
// TraceLens's (--tracelens-compat); one trace checks the row a launched kernel gives.

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"
#include "tests/support/one_call_trace.h"
#include "tests/support/op_model_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <cmath>
#include <utility>
#include <variant>

using namespace ks::core;
using ks::test::kOursReading;
using ks::test::kTraceLensReading;
using ks::test::oneCallReport;
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
            const EfficiencyReport report = oneCallReport("aiter::gemm_a4w4",
                eventArgs("[[64, 64], [256, 64], [64, 4], [256, 4]]",
                    "[" + fp4 + ", " + fp4 + ", " + e8m0 + ", " + e8m0 + "]", "[]"),
                compat);
            QCOMPARE(report.rows.size(), std::size_t(1));
            QCOMPARE(report.rows.front().flops, 4194304.0);
            QCOMPARE(report.rows.front().bytes, 54528.0);
            QCOMPARE(report.rows.front().kernelTimeUsSum, 10.0);
        }
    }

    // perf_model.py MambaSSD (mamba_ssd_fwd): zxbcdt (B, T, D), conv1d_weight (CC, d_conv), dt_bias (H);
    // C, P, G = Concrete Inputs 6, 15, 16 (128, 64, 1 when empty); d_inner = H·P,
    // N = (D − 2·d_inner − H) / (2·G). FLOPs 2·B·CC·T·d_conv + 2·B·G·T·C·N + 2·B·H·T·C·P + 4·B·H·T·N·P;
    // bytes (B·T·D + CC·d_conv + CC + B·T·d_inner)·bpe + H·(bpe_dt_bias + bpe_A + bpe_D). Its backward
    // row (SSM_bwd): the same numbers.
    void mambaSsd()
    {
        // B 2, T 256, H 8, P 64 (d_inner 512), G 1, N 64: D = 2·512 + 2·64 + 8 = 1160, CC = 640, d_conv 4
        const std::string dims =
            "[[2, 256, 1160], [640, 4], [640], [8], [8], [8], [], [], [], [], [], [], [], "
            "[], [], [], [], []]";
        const std::string types =
            R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "float", "float", "float", )"
            R"("Scalar", "", "", "", "Scalar", "", "", "Scalar", "", "Scalar", "Scalar", "Scalar"])";
        const std::string concrete =
            R"(["", "", "", "", "", "", "128", "", "", "", "False", "", "", "1e-06", "", )"
            R"("64", "1", "True"])";
        const OpArgs recorded = opArgsOf(dims, types, concrete);
        const OpArgs defaults = opArgsOf(dims, types); // no Concrete Inputs: C 128, P 64, G 1 all the same
        const OpModel* model = findOpModel("MambaSplitConv1dScanCombinedFn");
        QVERIFY(model && model->backward);
        QCOMPARE(model->family, OpFamily::Conv);
        for (const ModelReading& reading : kBothReadings)
            for (const OpArgs* args : { &recorded, &defaults })
                for (const OpModelFn fn : { model->fn, model->backward }) {
                    const auto r = fn("MambaSplitConv1dScanCombinedFn", *args, reading);
                    QVERIFY(std::holds_alternative<PerfEstimate>(r));
                    const auto& e = std::get<PerfEstimate>(r);
                    // 2·2·640·256·4 + 2·2·1·256·128·64 + 2·2·8·256·128·64 + 4·2·8·256·64·64
                    QCOMPARE(e.flops, 145227776.0);
                    // (2·256·1160 + 640·4 + 640 + 2·256·512)·2 + 8·(4 + 4 + 4)
                    QCOMPARE(e.bytes, 1718624.0);
                    QCOMPARE(e.precision, std::string("bf16"));
                    QCOMPARE(e.unit, ComputeUnit::Matrix);
                    QCOMPARE(e.params, std::string("chunk=128 headdim=64 ngroups=1 d_state=64"));
                }
        // no conv bias (Input Dims[2] []): ours leaves its 640·2 bytes out, TraceLens counts them
        const OpArgs noBias = opArgsOf("[[2, 256, 1160], [640, 4], [], [8], [8], [8]]",
            R"(["c10::BFloat16", "c10::BFloat16", "", "float", "", ""])");
        // dt_bias float; A's dtype empty: 4; D's empty: bpe 2 -> 8·(4 + 4 + 2)
        QCOMPARE(opModelled("MambaSplitConv1dScanCombinedFn", noBias, kOursReading).bytes, 1717328.0);
        QCOMPARE(opModelled("MambaSplitConv1dScanCombinedFn", noBias, kTraceLensReading).bytes, 1718608.0);
        // d_state not a whole number (D 1161): TraceLens raises
        const OpArgs odd = opArgsOf("[[2, 256, 1161], [640, 4], [640], [8]]", R"(["c10::BFloat16"])");
        QCOMPARE(opSkipOf("MambaSplitConv1dScanCombinedFn", odd, kOursReading),
            std::optional(SkipReason::MismatchedShapes));
        // a chunk size that is not an integer
        const OpArgs badChunk = opArgsOf(dims, types, R"(["", "", "", "", "", "", "x"])");
        QCOMPARE(opSkipOf("MambaSplitConv1dScanCombinedFn", badChunk, kOursReading),
            std::optional(SkipReason::MalformedDims));
    }

    // perf_model.py FusedLnModulate / FusedLnModulateBackward: x or grad_out (T, B, H), n = T·B·H;
    // forward FLOPs 12·n, bytes 2·n·bpe + 2·B·H·bpe + 2·T·B·4; backward FLOPs 15·n, bytes
    // 3·n·bpe + 2·T·B·4 + 3·B·H·bpe; vector units, the input's precision.
    void fusedLnModulate()
    {
        // T 16, B 2, H 64: n 2048
        const OpArgs fwd = opArgsOf("[[16, 2, 64], [2, 64], [2, 64], []]",
            R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar"])");
        const OpArgs bwd = opArgsOf("[[16, 2, 64], [16, 2, 64], [32], [32], [2, 64]]",
            R"(["c10::BFloat16", "c10::BFloat16", "float", "float", "c10::BFloat16"])");
        for (const ModelReading& reading : kBothReadings) {
            const auto f = opModelled("primus::fused_ln_modulate", fwd, reading);
            QCOMPARE(f.flops, 24576.0); // 12·2048
            QCOMPARE(f.bytes, 8960.0); // 2·2048·2 + 2·2·64·2 + 2·16·2·4
            QCOMPARE(f.precision, std::string("bf16"));
            QCOMPARE(f.unit, ComputeUnit::Vector);
            QCOMPARE(f.params, std::string("C=64 affine training"));
            const auto b = opModelled("primus::fused_ln_modulate_backward", bwd, reading);
            QCOMPARE(b.flops, 30720.0); // 15·2048
            QCOMPARE(b.bytes, 13312.0); // 3·2048·2 + 2·16·2·4 + 3·2·64·2
            QCOMPARE(findOpModel("primus::fused_ln_modulate_backward")->family, OpFamily::Norm);
            QVERIFY(!findOpModel("primus::fused_ln_modulate")->backward);
        }
        // an unsized dtype: TraceLens's bytes raise (no row); ours sizes bool
        const OpArgs unsized = opArgsOf("[[16, 2, 64]]", R"(["bool"])");
        QCOMPARE(opSkipOf("primus::fused_ln_modulate", unsized, kTraceLensReading),
            std::optional(SkipReason::UnknownDtype));
        QCOMPARE(
            opModelled("primus::fused_ln_modulate", unsized, kOursReading).bytes, 4608.0); // 4096 + 256 + 256
        QCOMPARE(opSkipOf("primus::fused_ln_modulate", opArgsOf("[[32, 64]]", R"(["c10::BFloat16"])"),
                     kOursReading),
            std::optional(SkipReason::MalformedDims));
    }
};

KS_TEST_MAIN(tst_efficiency_training_ops, TestEfficiencyTrainingOps)
#include "tst_efficiency_training_ops.moc"
