// Fused kernels of TraceLens's perf model that are not one aten op: torch.compile's Triton kernels
// (triton_poi_*, triton_red_*, triton_per_*: TritonCompiledPerfModel) and apex's fused convolution +
// bias (+ ReLU) (ConvBias_, ConvBiasReLU_). Every expected number is computed by hand from the formula
// in core/analysis/efficiency/triton_compiled_model.cpp and conv_model.cpp, in the default reading and
// in TraceLens's (--tracelens-compat); a trace checks the row a launched kernel gives.

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"
#include "tests/support/one_call_trace.h"
#include "tests/support/op_model_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <string>

using namespace ks::core;
using namespace ks::test::op_model_names;
using ks::test::oneCallRow;

namespace {

const char* const kRmsNorm = "triton_red_fused_add_mean_mul_pow_rsqrt_0";
const char* const kPointwise = "triton_poi_fused_add_mul_sigmoid_1";

// TraceLens's own RMSNorm case (bf16, 8·4096 rows of 2048): x, weight, out, xnumel, rnumel.
OpArgs rmsNormArgs()
{
    return argsOf("[[8, 4096, 2048], [2048], [8, 4096, 2048], [], []]",
        R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])",
        R"(["", "", "", "32768", "2048"])");
}

// A pointwise kernel over 64·128 elements: in_ptr0 (bf16), in_ptr1 (fp32, recorded as "float"), out_ptr0
// (bf16), xnumel.
OpArgs pointwiseArgs()
{
    return argsOf("[[64, 128], [64, 128], [64, 128], []]",
        R"(["c10::BFloat16", "float", "c10::BFloat16", "Scalar"])", R"(["", "", "", "8192"])");
}

// ConvBias_(x (2, 4, 8, 8), weight (6, 4, 3, 3), bias (6), padding, stride), bf16.
OpArgs convBiasArgs(const std::string& padding, const std::string& stride)
{
    return argsOf("[[2, 4, 8, 8], [6, 4, 3, 3], [6], [], []]",
        R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])",
        R"(["", "", "", ")" + padding + R"(", ")" + stride + R"("])");
}

} // namespace

class TestEfficiencyFusedKernels : public QObject
{
    Q_OBJECT

private Q_SLOTS:

    // add 1 + mean 1 + mul 1 + pow 2 + rsqrt 2 = 7 FLOPs per element of 32768·2048; bytes the three bf16
    // tensors, 2·(2·8·4096·2048 + 2048). TraceLens's precision "bfloat16" names no peak.
    void tritonReduction()
    {
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const PerfEstimate e = modelled(kRmsNorm, rmsNormArgs(), reading);
            QCOMPARE(e.flops, 469762048.0);
            QCOMPARE(e.bytes, 268439552.0);
            QCOMPARE(e.unit, ComputeUnit::Vector);
            QCOMPARE(e.precision, std::string(reading.tracelens ? "bfloat16" : "bf16"));
            QCOMPARE(e.params, std::string("xnumel=32768 rnumel=2048"));
        }
        QCOMPARE(findOpModel(kRmsNorm)->family, OpFamily::Reduce);
        QCOMPARE(findOpModel("triton_per_fused_sum_3")->family, OpFamily::Reduce);
        // one integer: rnumel 1 (add·mean·mul·pow·rsqrt over 32768 elements)
        const OpArgs oneNumel = argsOf("[[32768], [32768], []]",
            R"(["c10::BFloat16", "c10::BFloat16", "Scalar"])", R"(["", "", "32768"])");
        QCOMPARE(modelled(kRmsNorm, oneNumel, kOurs).flops, 229376.0); // 7·32768
        // no Concrete Inputs: TraceLens would read the Inductor cache of its own machine; no estimate here
        QCOMPARE(skipOf(kRmsNorm, argsOf("[[8, 2048]]", R"(["c10::BFloat16"])"), kTraceLens),
            std::optional(SkipReason::MalformedDims));
        QCOMPARE(skipOf(kRmsNorm,
                     argsOf("[[8, 2048], []]", R"(["c10::BFloat16", "Scalar"])", R"(["", "True"])"), kOurs),
            std::optional(SkipReason::MalformedDims));
    }

    // add 1 + mul 1 + sigmoid 4 = 6 FLOPs per element of 8192. Ours: 8192·(2 + 4 + 2) bytes. TraceLens's:
    // "float" has no size in its table (0), and the output is written again: 8192·(2 + 0 + 2) + 2·8192.
    void tritonPointwise()
    {
        const PerfEstimate ours = modelled(kPointwise, pointwiseArgs(), kOurs);
        const PerfEstimate theirs = modelled(kPointwise, pointwiseArgs(), kTraceLens);
        QCOMPARE(ours.flops, 49152.0);
        QCOMPARE(theirs.flops, 49152.0);
        QCOMPARE(ours.bytes, 65536.0);
        QCOMPARE(theirs.bytes, 49152.0);
        QCOMPARE(ours.precision, std::string("bf16"));
        QCOMPARE(findOpModel(kPointwise)->family, OpFamily::Elementwise);
        // the name's ops, longest first at each word: _to_copy 0 + add 1; an unknown word is skipped;
        // a repeated op counts twice; a name without the _<n> suffix has no ops
        const OpArgs one = argsOf("[[16], []]", R"(["c10::BFloat16", "Scalar"])", R"(["", "16"])");
        QCOMPARE(modelled("triton_poi_fused__to_copy_add_0", one, kOurs).flops, 16.0);
        QCOMPARE(modelled("triton_poi_fused_native_layer_norm_exp_0", one, kOurs).flops, 64.0); // exp 4
        QCOMPARE(modelled("triton_poi_fused_add_add_12", one, kOurs).flops, 32.0);
        QCOMPARE(modelled("triton_poi_fused_add", one, kOurs).flops, 0.0);
        QVERIFY(!findOpModel("triton_foo_fused_add_0"));
        QVERIFY(isModelledOp("triton_poi_fused_add_0"));
    }

    // A Triton kernel's op in a trace: one row with its kernel's time; TraceLens's precision has no peak.
    void tritonRow()
    {
        const std::string call = R"({"Input Dims": [[64, 128], [64, 128], [64, 128], []], )"
                                 R"("Input type": ["c10::BFloat16", "float", "c10::BFloat16", "Scalar"], )"
                                 R"("Input Strides": [], "Concrete Inputs": ["", "", "", "8192"]})";
        for (const bool compat : { false, true }) {
            const EfficiencyRow row = oneCallRow(kPointwise, call, compat);
            QCOMPARE(row.family, OpFamily::Elementwise);
            QCOMPARE(row.flops, 49152.0);
            QCOMPARE(row.bytes, compat ? 49152.0 : 65536.0);
            QCOMPARE(row.kernelTimeUsSum, 10.0);
        }
    }

    // ConvBias_ with padding 1, stride 2 (its signature's order). Ours: y = (2, 6, 4, 4), 192 elements:
    // FLOPs = 2·prod(w[1:])·prod(y) + prod(y) = 2·36·192 + 192; bytes = 2·(512 + 216 + 6 + 192).
    // TraceLens's reads 1 as the stride and 2 as the padding: y = (2, 6, 10, 10), 1200 elements:
    // 2·36·1200 + 1200 FLOPs, 2·(512 + 216 + 6 + 1200) bytes.
    void convBias()
    {
        const OpArgs args = convBiasArgs("1", "2");
        const PerfEstimate ours = modelled("ConvBias_", args, kOurs);
        const PerfEstimate theirs = modelled("ConvBias_", args, kTraceLens);
        QCOMPARE(ours.flops, 14016.0);
        QCOMPARE(ours.bytes, 1852.0);
        QCOMPARE(theirs.flops, 87600.0);
        QCOMPARE(theirs.bytes, 3868.0);
        QCOMPARE(ours.precision, std::string("bf16"));
        QCOMPARE(ours.unit, ComputeUnit::Matrix);
        QCOMPARE(findOpModel("ConvBias_")->family, OpFamily::Conv);
        // padding = stride = 1: the readings agree, y = (2, 6, 8, 8): 2·36·768 + 768 FLOPs,
        // 2·(512 + 216 + 6 + 768) bytes; the bias counts in both (TraceLens's ConvBias_ sets bias=True)
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const PerfEstimate e = modelled("ConvBias_", convBiasArgs("1", "1"), reading);
            QCOMPARE(e.flops, 56064.0);
            QCOMPARE(e.bytes, 3004.0);
        }
        // ConvBiasReLU_: ours adds the ReLU's 768 FLOPs, TraceLens's none; the bytes are the same
        QCOMPARE(modelled("ConvBiasReLU_", convBiasArgs("1", "1"), kOurs).flops, 56832.0);
        QCOMPARE(modelled("ConvBiasReLU_", convBiasArgs("1", "1"), kTraceLens).flops, 56064.0);
        QCOMPARE(modelled("ConvBiasReLU_", convBiasArgs("1", "1"), kOurs).bytes, 3004.0);
        // a list stride: TraceLens's int() raises (no row); ours broadcasts it
        QCOMPARE(skipOf("ConvBias_", convBiasArgs("[1, 1]", "[2, 2]"), kTraceLens),
            std::optional(SkipReason::MalformedDims));
        QCOMPARE(modelled("ConvBias_", convBiasArgs("[1, 1]", "[2, 2]"), kOurs).flops, 14016.0);
    }

    // A ConvBias_ call in a trace: one conv row.
    void convBiasRow()
    {
        const std::string call =
            R"({"Input Dims": [[2, 4, 8, 8], [6, 4, 3, 3], [6], [], []], )"
            R"("Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", )"
            R"("Scalar"], "Input Strides": [], "Concrete Inputs": ["", "", "", "1", "2"]})";
        for (const bool compat : { false, true }) {
            const EfficiencyRow row = oneCallRow("ConvBias_", call, compat);
            QCOMPARE(row.family, OpFamily::Conv);
            QCOMPARE(row.flops, compat ? 87600.0 : 14016.0);
            QCOMPARE(row.kernelTimeUsSum, 10.0);
        }
    }
};

KS_TEST_MAIN(tst_efficiency_fused_kernels, TestEfficiencyFusedKernels)
#include "tst_efficiency_fused_kernels.moc"
