// Each perf-model formula on shapes computed by hand, the args reader, and
// the per-call kernel time and report on small traces this test writes.

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/op_model_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

using namespace ks::core;

namespace {

using ks::test::opArgsOf;

// Args text as the trace writes it: {"Input Dims": ..., "Input type": ..., "Concrete Inputs": ...}.
OpArgs argsOf(const std::string& dims, const std::string& types, const std::string& concrete = "[]")
{
    return opArgsOf(dims, types, concrete);
}

PerfEstimate modelled(const char* op, const OpArgs& args)
{
    return ks::test::opModelled(op, args, ks::test::kOursReading);
}

SkipReason skipped(const char* op, const OpArgs& args)
{
    const auto why = ks::test::opSkipOf(op, args, ks::test::kOursReading);
    if (!why)
        qFatal("%s: expected a skip", op);
    return *why;
}

} // namespace

class TestEfficiencyModels : public QObject
{
    Q_OBJECT

private slots:

    void gemmWithoutBias()
    {
        // mm (M=64, K=32) @ (32, N=16), bf16: 2·64·16·32 FLOPs; 2·(64·32 + 32·16 + 64·16) bytes.
        const auto e =
            modelled("aten::mm", argsOf("[[64, 32], [32, 16]]", R"(["c10::BFloat16", "c10::BFloat16"])"));
        QCOMPARE(e.flops, 65536.0);
        QCOMPARE(e.bytes, 2.0 * (2048 + 512 + 1024));
        QCOMPARE(e.precision, std::string("bf16"));
        QVERIFY(e.unit == ComputeUnit::Matrix);
    }

    void gemmWithBias()
    {
        // addmm(bias[16], A(64, 32), B(32, 16)), fp32: + M·N FLOPs, + N bias elements.
        const auto e = modelled("aten::addmm",
            argsOf(
                "[[16], [64, 32], [32, 16], [], []]", R"(["float", "float", "float", "Scalar", "Scalar"])"));
        QCOMPARE(e.flops, 65536.0 + 1024.0);
        QCOMPARE(e.bytes, 4.0 * (2048 + 512 + 1024 + 16));
        QCOMPARE(e.precision, std::string("fp32"));
    }

    void transposedOperandsChangeNothing()
    {
        // mm of a transposed view: the dims say M, N, K; strides only group the rows.
        const ParsedArgs p =
            parseOpArgs(R"({"Input Dims": [[64, 32], [32, 16]], "Input type": ["float", "float"],
            "Input Strides": [[1, 64], [1, 32]]})");
        QVERIFY(p.args);
        QCOMPARE(p.args->stridesText, std::string("[[1, 64], [1, 32]]"));
        QCOMPARE(modelled("aten::mm", *p.args).flops, 65536.0);
    }

    void batchedGemm()
    {
        // bmm (B=8, 64, 32) @ (8, 32, 16) fp16; baddbmm adds the bias per batch.
        const auto e =
            modelled("aten::bmm", argsOf("[[8, 64, 32], [8, 32, 16]]", R"(["c10::Half", "c10::Half"])"));
        QCOMPARE(e.flops, 8.0 * 65536);
        QCOMPARE(e.bytes, 8.0 * 2 * (2048 + 512 + 1024));
        const auto b = modelled("aten::baddbmm",
            argsOf("[[8, 64, 16], [8, 64, 32], [8, 32, 16], [], []]",
                R"(["c10::Half", "c10::Half", "c10::Half"])"));
        QCOMPARE(b.flops, 8.0 * (65536 + 1024));
        QCOMPARE(b.bytes, 8.0 * 2 * (2048 + 512 + 1024 + 16));
        QCOMPARE(skipped("aten::bmm", argsOf("[[8, 64, 32], [8, 33, 16]]", R"(["float", "float"])")),
            SkipReason::MismatchedShapes);
    }

    void fp8ScaledMm()
    {
        // _scaled_mm(A fp8 (128, 64), B fp8 (64, 32), scale_a, scale_b): fp8 in, 2-byte out.
        const auto e = modelled("aten::_scaled_mm",
            argsOf("[[128, 64], [64, 32], [], []]",
                R"(["c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float"])"));
        QCOMPARE(e.flops, 2.0 * 128 * 32 * 64);
        QCOMPARE(e.bytes, 1.0 * (128 * 64 + 64 * 32) + 2.0 * 128 * 32);
        QCOMPARE(e.precision, std::string("fp8"));
    }

    void vendorGemmWeightLayout()
    {
        // vllm::rocm_unquantized_gemm(x (4, 8, 64), weight (N=16, K=64)): M = 32.
        const auto e = modelled("vllm::rocm_unquantized_gemm",
            argsOf("[[4, 8, 64], [16, 64], []]", R"(["c10::BFloat16", "c10::BFloat16", ""])"));
        QCOMPARE(e.flops, 2.0 * 32 * 16 * 64);
    }

    void causalAttentionHalves()
    {
        // SDPA flash, B=2, H=4, N=128, d=64, bf16: 4·B·H·N²·d, halved when causal.
        const std::string dims = "[[2, 4, 128, 64], [2, 4, 128, 64], [2, 4, 128, 64], [], [], [], []]";
        const std::string types =
            R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])";
        const auto full = modelled("aten::_scaled_dot_product_flash_attention",
            argsOf(dims, types, R"(["", "", "", "0.", "False", "False", ""])"));
        const auto causal = modelled("aten::_scaled_dot_product_flash_attention",
            argsOf(dims, types, R"(["", "", "", "0.", "True", "False", ""])"));
        QCOMPARE(full.flops, 4.0 * 2 * 4 * 128 * 128 * 64);
        QCOMPARE(causal.flops, full.flops / 2);
        QCOMPARE(full.bytes, 2.0 * 4 * (2 * 4 * 128 * 64));
        QVERIFY(full.params != causal.params); // causal and not are different rows
    }

    void attentionBackwardWithGroupedHeads()
    {
        // efficient attention backward, Q 8 heads, K/V 2 heads (GQA), B=1, N=16, d=8, not flash.
        const std::string dims =
            "[[1, 8, 16, 8], [1, 8, 16, 8], [1, 2, 16, 8], [1, 2, 16, 8], [], [1, 8, 16, 8], [1, 8, 16]]";
        const auto e = modelled("aten::_scaled_dot_product_efficient_attention_backward",
            argsOf(dims, R"(["float", "float", "float", "float"])",
                R"(["", "", "", "", "", "", "", "", "", "0.", "", "False", ""])"));
        const double mm = 2.0 * 16 * 16 * 8; // one N·N·d product
        const double groupsExtra = 1.0 * 16 * 8 * (8 / 2 - 1);
        QCOMPARE(e.flops, 8 * mm * 4 + 2 * groupsExtra);
        const double q = 8 * 16 * 8, kv = 2 * 16 * 8;
        QCOMPARE(e.bytes, 4.0 * (2 * (q + kv + kv) + q));
    }

    void groupedConvolution()
    {
        // conv2d x (2, 8, 10, 10), w (16, 8/groups=2, 3, 3), groups 4, stride 1, pad 1, bias:
        // y (2, 16, 10, 10); FLOPs 2·(2·3·3)·3200 + 3200.
        const auto e = modelled("aten::convolution",
            argsOf("[[2, 8, 10, 10], [16, 2, 3, 3], [16], [], [], [], [], [], []]",
                R"(["float", "float", "float", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar"])",
                R"(["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "4"])"));
        QCOMPARE(e.flops, 2.0 * 18 * 3200 + 3200);
        QCOMPARE(e.bytes, 4.0 * (1600 + 288 + 16 + 3200));
        QCOMPARE(
            skipped("aten::convolution",
                argsOf("[[2, 8, 10, 10], [16, 3, 3, 3], [], [], [], [], [], [], []]", R"(["float", "float"])",
                    R"(["", "", "", "[1]", "[0]", "[1]", "False", "[0]", "4"])")),
            SkipReason::MismatchedShapes);
    }

    void transposedConvolution()
    {
        // conv_transpose1d x (1, 4, 5), w (4, 2, 3), stride 2: y length (5-1)·2 + 3 = 11, 2 channels.
        const auto e = modelled("aten::convolution",
            argsOf("[[1, 4, 5], [4, 2, 3], [], [], [], [], [], [], []]", R"(["float", "float"])",
                R"(["", "", "", "[2]", "[0]", "[1]", "True", "[0]", "1"])"));
        QCOMPARE(e.flops, 2.0 * (2 * 3) * 20);
        QCOMPARE(e.bytes, 4.0 * (20 + 24 + 22));
    }

    void elementwise()
    {
        // Binary with broadcast: (4, 8) * (8) -> 32 elements; bf16 out.
        const auto b =
            modelled("aten::mul", argsOf("[[4, 8], [8]]", R"(["c10::BFloat16", "c10::BFloat16"])"));
        QCOMPARE(b.flops, 32.0);
        QCOMPARE(b.bytes, 2.0 * (32 + 8 + 32));
        QVERIFY(b.unit == ComputeUnit::Vector);
        // A scalar operand is one element; the output takes the tensor's dtype.
        const auto s = modelled("aten::add", argsOf("[[4, 8], [], []]", R"(["float", "double", "Scalar"])"));
        QCOMPARE(s.bytes, 4.0 * 32 + 8.0 + 4.0 * 32);
        // copy_ into another dtype: the destination's size for the output.
        const auto c = modelled(
            "aten::copy_", argsOf("[[4, 8], [4, 8], []]", R"(["float", "c10::BFloat16", "Scalar"])"));
        QCOMPARE(c.bytes, 32.0 * (4 + 2));
        QCOMPARE(skipped("aten::mul", argsOf("[[4, 8], [3]]", R"(["float", "float"])")),
            SkipReason::MismatchedShapes);
        // A dtype with no size keeps the call (TraceLens's None): FLOPs, no bytes.
        const auto w = modelled("aten::mul", argsOf("[[4, 8], [8]]", R"(["weird", "float"])"));
        QCOMPARE(w.flops, 32.0);
        QVERIFY(!w.bytesKnown());
    }

    void reductionNormRope()
    {
        const auto r = modelled("aten::sum", argsOf("[[5, 128], [], [], []]", R"(["float", "ScalarList"])"));
        QCOMPARE(r.flops, 640.0);
        QCOMPARE(r.bytes, 640.0 * 4 + 4); // one output element, as TraceLens counts it
        // layer_norm over the last dim (C=64) of (8, 64), affine with bias, fp32.
        const auto ln = modelled("aten::layer_norm",
            argsOf("[[8, 64], [], [64], [64], [], []]", R"(["float", "", "float", "float"])",
                R"(["", "[64]", "", "", "1e-05", "True"])"));
        QCOMPARE(ln.flops, 3.0 * 64 + 3.0 * 512 + 3.0 * 64 + 2.0 * 512);
        QCOMPARE(ln.bytes, 2.0 * 512 * 4 + 6.0 * 64 * 4);
        const auto rms = modelled("aten::rms_norm",
            argsOf("[[8, 64], [], [64], []]", R"(["c10::BFloat16", "", "c10::BFloat16"])",
                R"(["", "[64]", "", ""])"));
        QCOMPARE(rms.flops, 8.0 * (2 * 64 + 2) + 512.0 * 2);
        QCOMPARE(rms.bytes, 2.0 * 512 * 2 + 64.0 * 2);
        const auto rope = modelled(
            "FusedRoPEFunc", argsOf("[[16, 2, 4, 64], [16, 1, 1, 64]]", R"(["c10::BFloat16", "float"])"));
        QCOMPARE(rope.flops, 3.0 * 8192);
        QCOMPARE(rope.bytes, 2.0 * 8192 * 2);
    }

    void argsProblems()
    {
        QVERIFY(!parseOpArgs(R"({"External id": 3})").args);
        QVERIFY(parseOpArgs(R"({"External id": 3})").problem == ArgsProblem::NoShapes);
        QVERIFY(parseOpArgs(R"({"Input Dims": 7})").problem == ArgsProblem::Malformed);
        // A TensorList entry is not a flat list: the op that needs it is skipped as malformed.
        const ParsedArgs p =
            parseOpArgs(R"({"Input Dims": [[[2, 3], [2, 3]], [4]], "Input type": ["TensorList", "float"]})");
        QVERIFY(p.args && !p.args->hasDims(0));
        QCOMPARE(skipped("aten::mm", *p.args), SkipReason::MalformedDims);
    }

    void kernelTimeIsTheUnionAndReasonsAreCounted()
    {
        // aten::mm launching two kernels that overlap (10-30 and 20-40 us: 30 us of union),
        // an aten::mm without shapes, one with a mismatched K and one that launched nothing
        // (kept in the row: 2 calls, 30 us in all, the rates over the one that ran).
        const std::string mmArgs =
            R"("args": {"Input Dims": [[64, 32], [32, 16]], "Input type": ["float", "float"]})";
        const std::vector<std::string> events {
            R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 0, "dur": 9, )"
                + mmArgs + "}",
            R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"correlation": 7}})",
            R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 3, "dur": 1, "args": {"correlation": 8}})",
            R"({"ph": "X", "cat": "kernel", "name": "gemm_a", "pid": 0, "tid": 7, "ts": 10, "dur": 20, "args": {"correlation": 7, "stream": 7, "device": 0}})",
            R"({"ph": "X", "cat": "kernel", "name": "gemm_b", "pid": 0, "tid": 8, "ts": 20, "dur": 20, "args": {"correlation": 8, "stream": 8, "device": 0}})",
            R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 50, "dur": 5, "args": {"External id": 2}})",
            R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 51, "dur": 1, "args": {"correlation": 9}})",
            R"({"ph": "X", "cat": "kernel", "name": "gemm_c", "pid": 0, "tid": 7, "ts": 60, "dur": 5, "args": {"correlation": 9, "stream": 7, "device": 0}})",
            R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 70, "dur": 5, "args": {"Input Dims": [[64, 32], [31, 16]], "Input type": ["float", "float"]}})",
            R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 71, "dur": 1, "args": {"correlation": 10}})",
            R"({"ph": "X", "cat": "kernel", "name": "gemm_d", "pid": 0, "tid": 7, "ts": 80, "dur": 5, "args": {"correlation": 10, "stream": 7, "device": 0}})",
            R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 90, "dur": 5, )"
                + mmArgs + "}",
        };
        QTemporaryDir dir;
        const TraceSet set = ks::tests::loadRanks(dir, { ks::tests::kinetoDocument(0, events) });
        EfficiencyOptions options;
        options.device = *findDeviceByName(builtinDeviceTable(), "H100 SXM");
        const EfficiencyReport report = efficiencyReport(set, options);
        QVERIFY(report.shapesRecorded);
        QCOMPARE(report.rows.size(), std::size_t(1));
        const EfficiencyRow& row = report.rows[0];
        QCOMPARE(row.calls, std::int64_t(2));
        QCOMPARE(row.timedCalls, std::int64_t(1));
        QCOMPARE(row.kernelTimeUsSum, 30.0);
        QCOMPARE(row.kernelTimeUsMean(), 15.0);
        QCOMPARE(row.flops, 65536.0);
        QCOMPARE(row.tflopsMean, 65536.0 / 30.0 / 1e6);
        QCOMPARE(row.peak->label, std::string("vector_fp32")); // H100 has no fp32 matrix peak without TF32
        QCOMPARE(report.skipped[std::size_t(SkipReason::NoShapes)], std::int64_t(1));
        QCOMPARE(report.skipped[std::size_t(SkipReason::MismatchedShapes)], std::int64_t(1));
        QCOMPARE(report.callsWithoutKernel, std::int64_t(1));
        // Memory-bound: bytes / 3350 GB/s is longer than FLOPs / 67 TFLOP/s.
        QVERIFY(!row.computeBound);
        QCOMPARE(row.rooflineTimeUs, 4.0 * (2048 + 512 + 1024) / 3350e9 * 1e6);
    }

    void noShapesGivesTheTimeOnlyTable()
    {
        const std::vector<std::string> events {
            R"({"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 1, "ts": 0, "dur": 9, "args": {"External id": 1}})",
            R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1, "dur": 1, "args": {"correlation": 7}})",
            R"({"ph": "X", "cat": "kernel", "name": "add_kernel", "pid": 0, "tid": 7, "ts": 10, "dur": 4, "args": {"correlation": 7, "stream": 7, "device": 0}})",
        };
        QTemporaryDir dir;
        const TraceSet set = ks::tests::loadRanks(dir, { ks::tests::kinetoDocument(0, events) });
        const EfficiencyReport report = efficiencyReport(set, {});
        QVERIFY(!report.shapesRecorded);
        QCOMPARE(report.rows.size(), std::size_t(1));
        QVERIFY(!report.rows[0].modelled);
        QCOMPARE(report.rows[0].kernelTimeUsSum, 4.0);
        const Table table = efficiencyTable(report);
        QVERIFY(
            std::holds_alternative<std::monostate>(table.rows[0][*table.find(efficiency_columns::kFlops)]));
    }
};

KS_TEST_MAIN(tst_efficiency_models, TestEfficiencyModels)
#include "tst_efficiency_models.moc"
