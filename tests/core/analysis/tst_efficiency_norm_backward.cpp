// The normalisation backward forms TraceLens maps (PerfModel/torch_op_mapping.py, norm_ops)
// beyond those tst_efficiency_tracelens covers: the miopen_ / cudnn_ rms_norm_backward ops
// (TraceLens's RMSNormBwd) and the instance_norm_backward forms (InstanceNormBwd, which raises,
// so no row), the vendor batch norm backward ops and layer norm backward's output_mask. Every number
// is computed by hand from RMSNormBwd's, BatchNormBwd's and LayerNormBwd's formulas, in the default
// reading and in TraceLens's (`roofline --tracelens-compat`).

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"
#include "tests/support/one_call_trace.h"
#include "tests/support/op_model_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

using namespace ks::core;

namespace {

const ModelReading& kOurs = ks::test::kOursReading;
const ModelReading& kTraceLens = ks::test::kTraceLensReading;

const char* const kRmsBackwardVendorOps[] = { "aten::miopen_rms_norm_backward",
    "aten::cudnn_rms_norm_backward" };
const char* const kInstanceBackwardOps[] = { "aten::instance_norm_backward",
    "aten::native_instance_norm_backward", "aten::miopen_instance_norm_backward",
    "aten::cudnn_instance_norm_backward" };

OpArgs argsOf(const std::string& dims, const std::string& types, const std::string& concrete)
{
    return ks::test::opArgsOf(dims, types, concrete);
}

PerfEstimate modelled(const char* op, const OpArgs& args, const ModelReading& reading)
{
    return ks::test::opModelled(op, args, reading);
}

// rms_norm_backward(grad_out, input, normalized_shape, rstd, weight, output_mask), bf16 (2 bytes).
OpArgs rmsBackward(const std::string& x, const std::string& rstd, const std::string& weight,
    const std::string& normalized, const std::string& mask)
{
    return argsOf("[" + x + ", " + x + ", [], " + rstd + ", " + weight + ", []]",
        R"(["c10::BFloat16", "c10::BFloat16", "", "c10::BFloat16", "c10::BFloat16", ""])",
        R"(["", "", ")" + normalized + R"(", "", "", ")" + mask + R"("])");
}

} // namespace

class TestEfficiencyNormBackward : public QObject
{
    Q_OBJECT

private slots:

    // RMSNormBwd, n = prod(input), C = prod(normalized_shape):
    //   FLOPs = (affine ? n : 0) + n + (mask[0] ? 2n + 4n : 0) + (mask[1] && affine ? n + (n/C > 1 ? n : 0) :
    //   0) bytes = n·bpe (grad_out) + 2·n·bpe (input, grad_in) + (affine ? 2·C·bpe : 0) (weight, grad_weight)
    void vendorRmsBackwardWithWeight()
    {
        // n = 32, C = 8, n/C = 4, both grads: n + n + 6n + (n + n) = 10n; 32·2 + 2·32·2 + 2·8·2.
        const OpArgs args = rmsBackward("[4, 8]", "[4, 1]", "[8]", "[8]", "[True, True]");
        for (const char* op : kRmsBackwardVendorOps)
            for (const ModelReading& reading : { kOurs, kTraceLens }) {
                const auto e = modelled(op, args, reading);
                QCOMPARE(e.flops, 10.0 * 32);
                QCOMPARE(e.bytes, 32.0 * 2 + 2 * 32 * 2 + 2 * 8 * 2);
                QCOMPARE(e.precision, std::string("bf16"));
            }
    }

    void vendorRmsBackwardOneRowNoAccumulation()
    {
        // n = 8 = C (one row): grad_weight needs no accumulation, no grad_in:
        // n + n + 0 + n = 3n FLOPs; 8·2 + 2·8·2 + 2·8·2 bytes.
        const OpArgs args = rmsBackward("[1, 8]", "[1, 1]", "[8]", "[8]", "[False, True]");
        for (const char* op : kRmsBackwardVendorOps) {
            const auto e = modelled(op, args, kOurs);
            QCOMPARE(e.flops, 3.0 * 8);
            QCOMPARE(e.bytes, 8.0 * 2 + 2 * 8 * 2 + 2 * 8 * 2);
        }
    }

    void vendorRmsBackwardWithoutWeight()
    {
        // weight absent (its dims entry empty), mask [True, False], n = 32, C = 8.
        const OpArgs args = rmsBackward("[4, 8]", "[4, 1]", "[]", "[8]", "[True, False]");
        for (const char* op : kRmsBackwardVendorOps) {
            // Ours: not affine: n + 6n = 7n FLOPs; 32·2 + 2·32·2 bytes.
            const auto ours = modelled(op, args, kOurs);
            QCOMPARE(ours.flops, 7.0 * 32);
            QCOMPARE(ours.bytes, 32.0 * 2 + 2 * 32 * 2);
            // TraceLens: `Input Dims[4] is not None` is affine: n + n + 6n = 8n; + 2·C·bpe bytes.
            const auto tl = modelled(op, args, kTraceLens);
            QCOMPARE(tl.flops, 8.0 * 32);
            QCOMPARE(tl.bytes, 32.0 * 2 + 2 * 32 * 2 + 2 * 8 * 2);
        }
    }

    void vendorRmsBackwardNormalizedShapeFromConcreteInputs()
    {
        // normalized_shape [2, 4] (C = 8) over (2, 2, 4): n = 16, n/C = 2, both grads: 10n;
        // 16·2 + 2·16·2 + 2·8·2 bytes. C comes from Concrete Inputs[2], not the weight.
        const OpArgs args = rmsBackward("[2, 2, 4]", "[2, 1, 1]", "[2, 4]", "[2, 4]", "[True, True]");
        const auto e = modelled("aten::cudnn_rms_norm_backward", args, kTraceLens);
        QCOMPARE(e.flops, 10.0 * 16);
        QCOMPARE(e.bytes, 16.0 * 2 + 2 * 16 * 2 + 2 * 8 * 2);
    }

    // TraceLens's InstanceNormBwd raises NotImplementedError in get_param_details: no row.
    // BatchNormBwd, x = [2, 4, 3, 3] bf16: n = 72, C = 4, n/C = 18, weight present.
    //   training: FLOPs/C = 4·18 + 5·18 (dX); bytes = n·2 + 2·n·2 + C·2 + (C·2 + 2·C·2)
    //   not training: FLOPs/C = 3 + 4·18; bytes = n·2 + n·2 + C·2
    // cudnn_ and miopen_batch_norm_backward(input, grad_output, weight, running_mean, running_var,
    // save_mean, save_var, eps) take the input at argument 0 and run for training only; TraceLens
    // reads them as not training. native_batch_norm_backward(grad_out, input, weight, ...,
    // train, eps, output_mask) gives the same numbers with the same flag.
    void vendorBatchNormBackwardReadsItsInputAndTraining()
    {
        const double training = 4.0 * (4 * 18 + 5 * 18);
        const double trainingBytes = 72.0 * 2 + 2 * 72 * 2 + 4 * 2 + (4 * 2 + 2 * 4 * 2);
        const double inference = 4.0 * (3 + 4 * 18);
        const double inferenceBytes = 72.0 * 2 + 72 * 2 + 4 * 2;
        const OpArgs vendor = argsOf("[[2, 4, 3, 3], [2, 4, 3, 3], [4], [4], [4], [4], [4], []]",
            R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "float", "float", "float", "float", )"
            R"("Scalar"])",
            R"(["", "", "", "", "", "", "", "1e-05"])");
        for (const char* op : { "aten::cudnn_batch_norm_backward", "aten::miopen_batch_norm_backward" }) {
            const auto ours = modelled(op, vendor, kOurs);
            QCOMPARE(ours.flops, training);
            QCOMPARE(ours.bytes, trainingBytes);
            const auto tl = modelled(op, vendor, kTraceLens);
            QCOMPARE(tl.flops, inference);
            QCOMPARE(tl.bytes, inferenceBytes);
        }
        const auto native = [](const char* train) {
            return argsOf("[[2, 4, 3, 3], [2, 4, 3, 3], [4], [4], [4], [4], [4], [], [], []]",
                R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "float", "float", "float", "float", )"
                R"("Scalar", "Scalar", "BoolList"])",
                std::string("[\"\", \"\", \"\", \"\", \"\", \"\", \"\", \"") + train
                    + "\", \"1e-05\", \"[True, True, True]\"]");
        };
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            QCOMPARE(modelled("aten::native_batch_norm_backward", native("True"), reading).flops, training);
            QCOMPARE(
                modelled("aten::native_batch_norm_backward", native("True"), reading).bytes, trainingBytes);
        }
        QCOMPARE(modelled("aten::native_batch_norm_backward", native("False"), kOurs).flops, inference);
        QCOMPARE(modelled("aten::native_batch_norm_backward", native("False"), kOurs).bytes, inferenceBytes);
        // TraceLens: training = bool(Concrete Inputs[7]), and bool("False") is True.
        QCOMPARE(modelled("aten::native_batch_norm_backward", native("False"), kTraceLens).flops, training);
    }

    // LayerNormBwd, x = [4, 8] bf16, normalized_shape [8]: n = 32, C = 8, n/C = 4, training; the
    // weight and bias grads from output_mask[1] and [2], dX from [0], in both readings.
    void layerNormBackwardReadsItsOutputMask()
    {
        const auto args = [](const char* mask) {
            return argsOf("[[4, 8], [4, 8], [], [4, 1], [4, 1], [8], [8], []]",
                R"(["c10::BFloat16", "c10::BFloat16", "", "float", "float", "c10::BFloat16", "c10::BFloat16", )"
                R"("BoolList"])",
                std::string("[\"\", \"\", \"[8]\", \"\", \"\", \"\", \"\", \"") + mask + "\"]");
        };
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto all =
                modelled("aten::native_layer_norm_backward", args("[True, True, True]"), reading);
            QCOMPARE(all.flops, 8.0 * (4 * 4 + 5 * 4));
            QCOMPARE(all.bytes, 32.0 * 2 + 2 * 32 * 2 + 8 * 2 + (8 * 2 + 2 * 8 * 2));
            const auto dxOnly =
                modelled("aten::native_layer_norm_backward", args("[True, False, False]"), reading);
            QCOMPARE(dxOnly.flops, 8.0 * (4 * 4 + 5 * 4));
            QCOMPARE(dxOnly.bytes, 32.0 * 2 + 2 * 32 * 2 + 8 * 2);
            const auto noDx =
                modelled("aten::native_layer_norm_backward", args("[False, True, True]"), reading);
            QCOMPARE(noDx.flops, 8.0 * (4 * 4 + 2 * 4));
            QCOMPARE(noDx.bytes, 32.0 * 2 + 32 * 2 + 8 * 2 + (8 * 2 + 2 * 8 * 2));
        }
    }

    void instanceNormBackwardHasNoModel()
    {
        for (const char* op : kInstanceBackwardOps)
            QVERIFY2(findOpModel(op) == nullptr, op);
    }

    void instanceNormBackwardCallGetsNoRow()
    {
        // native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean,
        // save_invstd, train, eps, output_mask) beside an instance_norm_backward call with the same args:
        // only the batch norm has a row, and the instance norm is not counted as skipped.
        const std::string args =
            R"({"Input Dims": [[2, 4, 8], [2, 4, 8], [4], [4], [4], [4], [4], [], [], []], )"
            R"("Input type": ["float", "float", "float", "float", "float", "float", "float", )"
            R"("Scalar", "Scalar", ""], "Input Strides": [[32, 8, 1], [32, 8, 1], [1], [1], )"
            R"([1], [1], [1], [], [], []], "Concrete Inputs": ["", "", "", "", "", "", "", )"
            R"("True", "1e-05", "[True, True, True]"]})";
        const std::vector<std::string> events {
            ks::test::oneCallEvent("cpu_op", "aten::native_batch_norm_backward", 0, 9, args),
            ks::test::launchEvent(1, 1),
            ks::test::kernelEvent(10, 4, 1),
            ks::test::oneCallEvent("cpu_op", "aten::native_instance_norm_backward", 20, 9, args),
            ks::test::launchEvent(21, 2),
            ks::test::kernelEvent(30, 4, 2),
        };
        for (const bool compat : { false, true }) {
            const EfficiencyReport report = ks::test::reportOfEvents(events, compat);
            QCOMPARE(report.rows.size(), std::size_t(1));
            QCOMPARE(report.rows[0].name, std::string("aten::native_batch_norm_backward"));
            for (const std::int64_t n : report.skipped)
                QCOMPARE(n, std::int64_t(0));
        }
    }
};

KS_TEST_MAIN(tst_efficiency_norm_backward, TestEfficiencyNormBackward)
#include "tst_efficiency_norm_backward.moc"
