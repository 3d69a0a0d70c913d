// TraceLens's perf model on the kinds of trace and op the shared traces do not hold
// (issue 35, ../shared/spec/conformance-notes.md part 1): one small trace or call per
// class, each number computed by hand from TraceLens's formulas, in the default reading
// and under EfficiencyOptions::tracelensCompat (`roofline --tracelens-compat`).

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/op_model_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

using namespace ks::core;

namespace {

const ModelReading& kOurs = ks::test::kOursReading;
const ModelReading& kTraceLens = ks::test::kTraceLensReading;

OpArgs argsOf(const std::string& dims, const std::string& types, const std::string& concrete = "[]",
    const std::string& strides = "[]")
{
    return ks::test::opArgsOf(dims, types, concrete, strides);
}

PerfEstimate modelled(const char* op, const OpArgs& args, const ModelReading& reading = kOurs)
{
    return ks::test::opModelled(op, args, reading);
}

std::string cpuOp(const std::string& name, int ts, int dur, const std::string& args, int tid = 1)
{
    return R"({"ph": "X", "cat": "cpu_op", "name": ")" + name + R"(", "pid": 1, "tid": )"
        + std::to_string(tid) + R"(, "ts": )" + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur)
        + R"(, "args": )" + args + "}";
}

std::string runtime(const std::string& name, int ts, int correlation, int tid = 1)
{
    return R"({"ph": "X", "cat": "cuda_runtime", "name": ")" + name + R"(", "pid": 1, "tid": )"
        + std::to_string(tid) + R"(, "ts": )" + std::to_string(ts) + R"(, "dur": 1, "args": {"correlation": )"
        + std::to_string(correlation) + "}}";
}

std::string gpu(const std::string& category, int ts, int dur, int correlation, int stream = 7)
{
    return R"({"ph": "X", "cat": ")" + category + R"(", "name": "work", "pid": 0, "tid": )"
        + std::to_string(stream) + R"(, "ts": )" + std::to_string(ts) + R"(, "dur": )" + std::to_string(dur)
        + R"(, "args": {"correlation": )" + std::to_string(correlation) + R"(, "stream": )"
        + std::to_string(stream) + R"(, "device": 0}})";
}

std::string flow(char phase, int id, int pid, int tid, int ts)
{
    return std::string(R"({"ph": ")") + phase + R"(", "cat": "ac2g", "name": "ac2g", "id": )"
        + std::to_string(id) + R"(, "pid": )" + std::to_string(pid) + R"(, "tid": )" + std::to_string(tid)
        + R"(, "ts": )" + std::to_string(ts) + (phase == 'f' ? R"(, "bp": "e"})" : "}");
}

EfficiencyReport reportOf(const std::vector<std::string>& events, bool compat, bool device = false)
{
    QTemporaryDir dir;
    const TraceSet set = ks::tests::loadRanks(dir, { ks::tests::kinetoDocument(0, events) });
    EfficiencyOptions options;
    options.tracelensCompat = compat;
    if (device)
        options.device = *findDeviceByName(builtinDeviceTable(), "H100 SXM");
    return efficiencyReport(set, options);
}

const EfficiencyRow& rowNamed(const EfficiencyReport& report, const std::string& name)
{
    for (const EfficiencyRow& r : report.rows)
        if (r.name == name)
            return r;
    qFatal("no row %s", name.c_str());
}

Cell cellOf(const Table& table, std::size_t row, const ColumnId& column)
{
    return table.rows[row][*table.find(column)];
}

bool isNull(const Cell& cell)
{
    return std::holds_alternative<std::monostate>(cell);
}

const std::string kMm =
    R"({"Input Dims": [[32, 64], [64, 16]], "Input type": ["c10::BFloat16", "c10::BFloat16"], )"
    R"("Input Strides": [[64, 1], [16, 1]], "Concrete Inputs": ["", ""]})";

// aten::sum(x, dim=[0], keepdim=False) over 64 floats.
const std::string kSum =
    R"({"Input Dims": [[64], [], [], []], "Input type": ["float", "ScalarList", "Scalar", ""], )"
    R"("Input Strides": [[1], [], [], []], "Concrete Inputs": ["", "[0]", "False", ""]})";

} // namespace

class TestEfficiencyTraceLens : public QObject
{
    Q_OBJECT

private slots:

    // A: a call that launched no GPU work (captured into a graph, or on CPU tensors) stays
    // in its row; the mean kernel time counts it, the rate means skip it (pandas skips NaN).
    void classACallsWithoutGpuWorkStayInTheirRow()
    {
        const std::string add =
            R"({"Input Dims": [[1], [1], []], "Input type": ["long int", "long int", "Scalar"], )"
            R"("Input Strides": [[1], [1], []], "Concrete Inputs": ["", "", "1"]})";
        const std::vector<std::string> events {
            cpuOp("aten::mm", 0, 9, kMm), runtime("cudaLaunchKernel", 1, 1), gpu("kernel", 10, 10, 1),
            cpuOp("aten::mm", 50, 9, kMm), runtime("cudaLaunchKernel", 51, 2), gpu("kernel", 60, 30, 2),
            cpuOp("aten::mm", 100, 9, kMm), // captured: its launch has no GPU work
            runtime("hipStreamGetCaptureInfo", 101, 3), runtime("cudaLaunchKernel", 103, 4),
            cpuOp("aten::add", 200, 3, add), // CPU tensors: no launch at all
        };
        for (const bool compat : { false, true }) {
            const EfficiencyReport report = reportOf(events, compat, true);
            QCOMPARE(report.rows.size(), std::size_t(2));
            const EfficiencyRow& mm = rowNamed(report, "aten::mm");
            const double flops = 2.0 * 32 * 16 * 64, bytes = 2.0 * (32 * 64 + 64 * 16 + 32 * 16);
            QCOMPARE(mm.calls, std::int64_t(3));
            QCOMPARE(mm.timedCalls, std::int64_t(2));
            QCOMPARE(mm.kernelTimeUsSum, 40.0);
            QCOMPARE(mm.kernelTimeUsMean(), 40.0 / 3);
            QCOMPARE(mm.flops, flops);
            QCOMPARE(mm.bytes, bytes);
            QCOMPARE(mm.tflopsMean, (flops / 10 + flops / 30) / 2 / 1e6);
            QCOMPARE(mm.tbpsMean, (bytes / 10 + bytes / 30) / 2 / 1e6);
            const double roofline = mm.rooflineTimeUs;
            QVERIFY(roofline > 0);
            QCOMPARE(mm.rooflinePctMean, (roofline / 10 + roofline / 30) / 2 * 100);
            QCOMPARE(report.callsWithoutKernel, std::int64_t(2));
            // MFU counts what ran on the GPU only.
            QCOMPARE(report.mfu.modelFlops, 2 * flops);

            const Table table = efficiencyTable(report);
            const std::size_t addRow = report.rows[0].name == "aten::add" ? 0 : 1;
            QCOMPARE(report.rows[addRow].calls, std::int64_t(1));
            QVERIFY(cellAsDouble(cellOf(table, addRow, efficiency_columns::kFlops)) == std::optional(1.0));
            QVERIFY(cellAsDouble(cellOf(table, addRow, efficiency_columns::kKernelTimeMean))
                == std::optional(0.0));
            QVERIFY(isNull(cellOf(table, addRow, efficiency_columns::kTflopsMean)));
            QVERIFY(isNull(cellOf(table, addRow, efficiency_columns::kTbpsMean)));
            QVERIFY(isNull(cellOf(table, addRow, efficiency_columns::kTflops)));
        }
    }

    // A and the "no input shapes" defect: a capture trace with full shapes has rows and
    // says nothing about shapes.
    void classACaptureTraceHasRowsAndShapes()
    {
        const EfficiencyReport report =
            reportOf({ cpuOp("aten::mm", 0, 9, kMm), runtime("hipLaunchKernel", 1, 1),
                         cpuOp("aten::mm", 20, 9, kMm), runtime("hipLaunchKernel", 21, 2) },
                true, true);
        QVERIFY(report.shapesRecorded);
        QCOMPARE(report.rows.size(), std::size_t(1));
        QCOMPARE(report.rows[0].calls, std::int64_t(2));
        QCOMPARE(report.rows[0].kernelTimeUsSum, 0.0);
        const Table table = efficiencyTable(report);
        QVERIFY(isNull(cellOf(table, 0, efficiency_columns::kRooflinePct)));
        QVERIFY(!isNull(cellOf(table, 0, efficiency_columns::kRooflineTime)));
        QCOMPARE(std::get<std::string>(cellOf(table, 0, efficiency_columns::kBound)), std::string("memory"));
    }

    // B: the ops TraceLens models that we did not.
    void classBUpsampleAndNorms()
    {
        const auto up = modelled("aten::upsample_nearest2d",
            argsOf("[[2, 3, 4, 4], [], [], []]", R"(["float", "", "", ""])", R"(["", "[8, 8]", "", ""])"));
        QCOMPARE(up.flops, 2.0 * 3 * 8 * 8);
        QCOMPARE(up.bytes, (96.0 + 384.0) * 4);
        // 1d and 3d: (N, C) then output_size.
        const auto up1 = modelled("aten::upsample_nearest1d",
            argsOf("[[2, 3, 5], [], []]", R"(["float", "", ""])", R"(["", "[10]", ""])"));
        QCOMPARE(up1.flops, 2.0 * 3 * 10);
        QCOMPARE(up1.bytes, (30.0 + 60.0) * 4);
        const auto up3 = modelled("aten::upsample_nearest3d",
            argsOf("[[1, 2, 2, 2, 2], [], [], [], []]", R"(["c10::BFloat16", "", "", "", ""])",
                R"(["", "[4, 4, 4]", "", "", ""])"));
        QCOMPARE(up3.flops, 2.0 * 64);
        QCOMPARE(up3.bytes, (16.0 + 128.0) * 2);
        // By scale factor alone (no output_size, as diffusion decoders call it): TraceLens has
        // no estimate, in either reading.
        const OpArgs byScale =
            argsOf("[[2, 3, 4, 4], [], [], []]", R"(["float", "", "", ""])", R"(["", "", "2.", "2."])");
        QCOMPARE(ks::test::opSkipOf("aten::upsample_nearest2d", byScale, kOurs),
            std::optional(SkipReason::MalformedDims));
        QCOMPARE(ks::test::opSkipOf("aten::upsample_nearest2d", byScale, kTraceLens),
            std::optional(SkipReason::MalformedDims));
        // instance_norm: batch norm's forward (n = 64, C = 4): 6C + 5n, 2n·bpe + 6C·bpe.
        const auto in = modelled("aten::instance_norm",
            argsOf("[[2, 4, 8], [4], [4], [], [], [], [], [], []]", R"(["float", "float", "float"])",
                R"(["", "", "", "", "", "True", "0.1", "1e-05", "True"])"));
        QCOMPARE(in.flops, 6.0 * 4 + 5.0 * 64);
        QCOMPARE(in.bytes, 2.0 * 64 * 4 + 6.0 * 4 * 4);
        const auto gn =
            modelled("aiter::_groupnorm_run", argsOf("[[2, 4, 8], [4], [4], []]", R"(["float"])"));
        QCOMPARE(gn.flops, 6.0 * 4 + 5.0 * 64);
        QCOMPARE(gn.bytes, 2.0 * 64 * 4 + 6.0 * 4 * 4);
        // native_group_norm_backward (2 groups): TraceLens's C = 4 / 2; dX, affine, bias, training.
        const OpArgs gnb = argsOf("[[2, 4, 8], [2, 4, 8], [2, 2], [2, 2], [4], [], [], [], [], []]",
            R"(["float", "float", "float", "float", "float"])",
            R"(["", "", "", "", "", "2", "4", "8", "2", "[True, True, True]"])");
        const auto gnbTl = modelled("aten::native_group_norm_backward", gnb, kTraceLens);
        QCOMPARE(gnbTl.flops, 2.0 * (4 * 32 + 5 * 32));
        QCOMPARE(gnbTl.bytes, 64.0 * 4 + 64.0 * 4 * 2 + 2 * 4 + (2 * 4 + 2 * 4 * 2));
        const auto gnbOurs = modelled("aten::native_group_norm_backward", gnb);
        QCOMPARE(gnbOurs.flops, 4.0 * (4 * 16 + 5 * 16));
        QCOMPARE(gnbOurs.bytes, 64.0 * 4 + 64.0 * 4 * 2 + 4 * 4 + (4 * 4 + 4 * 4 * 2));
        // miopen_batch_norm_backward(input, grad_output, weight, ...): TraceLens reads it as not
        // training: C·(3 + 4n/C), 2n·bpe + C·bpe; ours as training.
        const OpArgs bnb = argsOf("[[2, 4, 8], [2, 4, 8], [4], [4], [4], [4], [4], []]",
            R"(["float", "float", "float", "float", "float", "float", "float", "Scalar"])");
        const auto bnbTl = modelled("aten::miopen_batch_norm_backward", bnb, kTraceLens);
        QCOMPARE(bnbTl.flops, 4.0 * (3 + 4 * 16));
        QCOMPARE(bnbTl.bytes, 2.0 * 64 * 4 + 4.0 * 4);
        QCOMPARE(modelled("aten::miopen_batch_norm_backward", bnb).flops, 4.0 * (4 * 16 + 5 * 16));
        // native_batch_norm_backward in eval mode, no input gradient (n = 64, C = 4, n/C = 16).
        // Ours: not training, dX per output_mask[0] = False: C·(3 + 4·16 + 2·16), 2n·bpe + C·bpe
        // (affine). TraceLens: training = bool("False") = true, dX always, affine and bias:
        // C·(4·16 + 5·16), 3n·bpe + C·bpe + C·bpe + 2C·bpe.
        const auto nativeBnb = [](const char* weight) {
            return argsOf(std::string("[[2, 4, 8], [2, 4, 8], ") + weight + ", [4], [4], [], [], [], [], []]",
                R"(["float", "float", "float", "float", "float"])",
                R"(["", "", "", "", "", "", "", "False", "1e-05", "[False, True, True]"])");
        };
        const auto nbOurs = modelled("aten::native_batch_norm_backward", nativeBnb("[4]"));
        QCOMPARE(nbOurs.flops, 4.0 * (3 + 4 * 16 + 2 * 16));
        QCOMPARE(nbOurs.bytes, 2.0 * 64 * 4 + 4.0 * 4);
        const auto nbTl = modelled("aten::native_batch_norm_backward", nativeBnb("[4]"), kTraceLens);
        QCOMPARE(nbTl.flops, 4.0 * (4 * 16 + 5 * 16));
        QCOMPARE(nbTl.bytes, 3.0 * 64 * 4 + 4.0 * 4 + 4.0 * 4 + 2 * 4.0 * 4);
        // No weight recorded ([]): not affine in ours; TraceLens counts the position.
        QCOMPARE(modelled("aten::native_batch_norm_backward", nativeBnb("[]")).bytes, 2.0 * 64 * 4);
        QCOMPARE(modelled("aten::native_batch_norm_backward", nativeBnb("[]"), kTraceLens).bytes, nbTl.bytes);
        // _fused_rms_norm_backward (n = 32, C = 8): n + n + 6n + (n + n), n·bpe + 2n·bpe + 2C·bpe.
        const auto rmsb = modelled("aten::_fused_rms_norm_backward",
            argsOf("[[4, 8], [4, 8], [], [4, 1], [8], []]", R"(["c10::BFloat16", "c10::BFloat16"])",
                R"(["", "", "[8]", "", "", "[True, True]"])"));
        QCOMPARE(rmsb.flops, 32.0 + 32 + 6 * 32 + 32 + 32);
        QCOMPARE(rmsb.bytes, 32.0 * 2 + 2 * 32 * 2 + 2 * 8 * 2);
    }

    void classBVendorOps()
    {
        const std::string bf16 = R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16",)"
                                 R"( "c10::BFloat16", "Scalar"])";
        // RMS norms: (n/C)(2C + 2) + 2n FLOPs, 2n·bpe + C·bpe (n = 32, C = 8).
        const double rmsFlops = 4.0 * (2 * 8 + 2) + 2 * 32, rmsBytes = 2.0 * 32 * 2 + 8 * 2;
        const auto a = modelled("aiter::rms_norm", argsOf("[[4, 8], [8], []]", bf16));
        QCOMPARE(a.flops, rmsFlops);
        QCOMPARE(a.bytes, rmsBytes);
        const auto b = modelled("aiter::rmsnorm", argsOf("[[4, 8], [4, 8], [8], []]", bf16));
        QCOMPARE(b.flops, rmsFlops);
        QCOMPARE(b.bytes, rmsBytes);
        // Fused add + RMS norm: n more FLOPs, 4n·bpe + C·bpe.
        for (const char* op : { "aiter::add_rmsnorm", "aiter::rmsnorm2d_fwd_with_add_ck" }) {
            const auto c = modelled(op, argsOf("[[4, 8], [4, 8], [4, 8], [4, 8], [8], []]", bf16));
            QCOMPARE(c.flops, 32 + rmsFlops);
            QCOMPARE(c.bytes, 4.0 * 32 * 2 + 8 * 2);
        }
        // silu_and_mul(out [4, 8], input [4, 16]): 5·prod(out), 2·prod(out)·bpe + prod(out)·bpe.
        const auto s = modelled("sgl_kernel::silu_and_mul", argsOf("[[4, 8], [4, 16]]", bf16));
        QCOMPARE(s.flops, 5.0 * 32);
        QCOMPARE(s.bytes, 2.0 * 32 * 2 + 32 * 2);
        // rotary_embedding: 4 tokens·(64/16 + 32/16 heads)·16 (the cache's width) elements.
        const auto r = modelled("sgl_kernel::rotary_embedding",
            argsOf("[[4], [4, 64], [4, 32], [], [100, 16], []]",
                R"(["long int", "c10::BFloat16", "c10::BFloat16", "Scalar", "c10::BFloat16", "Scalar"])",
                R"(["", "", "", "16", "", "True"])"));
        QCOMPARE(r.flops, 3.0 * 4 * 6 * 16);
        QCOMPARE(r.bytes, 2.0 * 4 * 6 * 16 * 2);
        QCOMPARE(r.precision, std::string("bf16"));
        // store_cache: no FLOPs, 4·prod(k)·bpe.
        const auto c = modelled("sglang::store_cache",
            argsOf("[[4, 8], [4, 8], [100, 8], [100, 8], [4], [], []]", bf16,
                R"(["", "", "", "", "", "2048", "0"])"));
        QCOMPARE(c.flops, 0.0);
        QCOMPARE(c.bytes, 4.0 * 32 * 2);
        QCOMPARE(c.unit, ComputeUnit::Vector);
    }

    // C: TraceLens never counts a convolution's bias; ours reads the bias tensor forward
    // and output_mask[2] backward.
    void classCConvolutionBias()
    {
        const std::string convTypes = R"(["float", "float", "float"])";
        const OpArgs fwd = argsOf("[[1, 2, 4, 4], [3, 2, 3, 3], [3], [], [], [], [], [], []]", convTypes,
            R"(["", "", "", "[1, 1]", "[0, 0]", "[1, 1]", "False", "[0, 0]", "1"])");
        // y = [1, 3, 2, 2]: 2·prod(w[1:])·prod(y) = 432 FLOPs; (x + w + y)·4 bytes.
        QCOMPARE(modelled("aten::convolution", fwd, kTraceLens).flops, 432.0);
        QCOMPARE(modelled("aten::convolution", fwd, kTraceLens).bytes, (32.0 + 54 + 12) * 4);
        QCOMPARE(modelled("aten::convolution", fwd).flops, 432.0 + 12);
        QCOMPARE(modelled("aten::convolution", fwd).bytes, (32.0 + 54 + 12 + 3) * 4);
        const auto backward = [&](const std::string& mask) {
            const std::string concrete = "[\"\", \"\", \"\", \"[0]\", \"[1, 1]\", \"[0, 0]\", \"[1, 1]\", "
                                         "\"False\", \"[0, 0]\", \"1\", \""
                + mask + "\"]";
            return argsOf("[[1, 3, 2, 2], [1, 2, 4, 4], [3, 2, 3, 3], [], [], [], [], [], [], [], []]",
                convTypes, concrete);
        };
        // dX 432 + dW 2·prod(w)·N·prod(y spatial) = 432; 2·(y + w + x)·4 bytes.
        for (const auto& reading : { kOurs, kTraceLens }) {
            const auto noBias =
                modelled("aten::convolution_backward", backward("[True, True, False]"), reading);
            QCOMPARE(noBias.flops, 864.0);
            QCOMPARE(noBias.bytes, 2.0 * (12 + 54 + 32) * 4);
        }
        const auto withBias = backward("[True, True, True]");
        QCOMPARE(modelled("aten::convolution_backward", withBias).flops, 864.0 + 12);
        QCOMPARE(modelled("aten::convolution_backward", withBias).bytes, (2.0 * (12 + 54 + 32) + 12 + 3) * 4);
        QCOMPARE(modelled("aten::convolution_backward", withBias, kTraceLens).flops, 864.0);
    }

    // N: optional norm tensors always present and a non-empty string true under TraceLens's reading.
    void classNNormReadings()
    {
        // layer_norm without weight and bias (n = 32, C = 8): T = 4 ours, 6 TraceLens's.
        const OpArgs ln = argsOf("[[4, 8], [], [], [], [], []]",
            R"(["float", "", "", "", "Scalar", "Scalar"])", R"(["", "[8]", "", "", "1e-05", "True"])");
        QCOMPARE(modelled("aten::layer_norm", ln).flops, 3.0 * 8 + 3 * 32 + 3 * 8 + 2 * 32);
        QCOMPARE(modelled("aten::layer_norm", ln).bytes, 2.0 * 32 * 4 + 4.0 * 8 * 4);
        QCOMPARE(modelled("aten::layer_norm", ln, kTraceLens).bytes, 2.0 * 32 * 4 + 6.0 * 8 * 4);
        // batch_norm in eval mode ("False"): TraceLens's bool("False") is true (n = 64, C = 4).
        const OpArgs bn = argsOf("[[2, 4, 8], [4], [4], [4], [4], [], [], [], []]",
            R"(["float", "float", "float", "float", "float", "Scalar", "Scalar", "Scalar", "Scalar"])",
            R"(["", "", "", "", "", "False", "0.1", "1e-05", "True"])");
        QCOMPARE(modelled("aten::batch_norm", bn).flops, 3.0 * 4 + 3 * 4 + 2 * 64);
        QCOMPARE(modelled("aten::batch_norm", bn).bytes, 2.0 * 64 * 4 + 4.0 * 4 * 4);
        QCOMPARE(modelled("aten::batch_norm", bn, kTraceLens).flops, 6.0 * 4 + 5 * 64);
        QCOMPARE(modelled("aten::batch_norm", bn, kTraceLens).bytes, 2.0 * 64 * 4 + 6.0 * 4 * 4);
        // RMS norm without weight: (n/C)(2C + 2) + n ours; + 2n and C·bpe bytes TraceLens's.
        const OpArgs rms = argsOf(
            "[[4, 8], [], [], []]", R"(["c10::BFloat16", "", "", "Scalar"])", R"(["", "[8]", "", "1e-06"])");
        QCOMPARE(modelled("aten::_fused_rms_norm", rms).flops, 4.0 * 18 + 32);
        QCOMPARE(modelled("aten::_fused_rms_norm", rms).bytes, 2.0 * 32 * 2);
        QCOMPARE(modelled("aten::_fused_rms_norm", rms, kTraceLens).flops, 4.0 * 18 + 64);
        QCOMPARE(modelled("aten::_fused_rms_norm", rms, kTraceLens).bytes, 2.0 * 32 * 2 + 8 * 2);
    }

    // G: rows keyed on TraceLens's parameters; the first call's dims are the row's.
    void classGRowsOnTraceLensParameters()
    {
        const std::string mean1 =
            R"({"Input Dims": [[1, 768], [], [], []], "Input type": ["float", "ScalarList", )"
            R"("Scalar", ""], "Input Strides": [[768, 1], [], [], []], "Concrete Inputs": )"
            R"(["", "[-1]", "False", ""]})";
        const std::string mean2 =
            R"({"Input Dims": [[1, 1, 768], [], [], []], "Input type": ["float", )"
            R"("ScalarList", "Scalar", ""], "Input Strides": [[768, 768, 1], [], [], []], )"
            R"("Concrete Inputs": ["", "[2]", "True", ""]})";
        const std::string ln =
            R"({"Input Dims": [[4, 8], [], [8], [8], [], []], "Input type": ["float", "", )"
            R"("float", "float", "Scalar", "Scalar"], "Input Strides": [[8, 1], [], [1], [1], [], )"
            R"([]], "Concrete Inputs": ["", "[8]", "", "", "1e-05", "True"]})";
        const std::string lnBare =
            R"({"Input Dims": [[4, 8], [], [], [], [], []], "Input type": ["float", "", "", )"
            R"("", "Scalar", "Scalar"], "Input Strides": [[8, 1], [], [], [], [], []], )"
            R"("Concrete Inputs": ["", "[8]", "", "", "1e-05", "True"]})";
        const std::vector<std::string> events {
            cpuOp("aten::mean", 0, 9, mean1),
            runtime("cudaLaunchKernel", 1, 1),
            gpu("kernel", 10, 4, 1),
            cpuOp("aten::mean", 20, 9, mean2),
            runtime("cudaLaunchKernel", 21, 2),
            gpu("kernel", 30, 6, 2),
            cpuOp("aten::layer_norm", 40, 9, ln),
            runtime("cudaLaunchKernel", 41, 3),
            gpu("kernel", 50, 2, 3),
            cpuOp("aten::layer_norm", 60, 9, lnBare),
            runtime("cudaLaunchKernel", 61, 4),
            gpu("kernel", 70, 2, 4),
        };
        for (const bool compat : { false, true }) {
            const EfficiencyReport report = reportOf(events, compat);
            std::size_t means = 0, norms = 0;
            for (const EfficiencyRow& r : report.rows) {
                means += r.name == "aten::mean";
                norms += r.name == "aten::layer_norm";
            }
            QCOMPARE(means, std::size_t(1)); // 768 elements in, 1 out, float: one row in either reading
            const EfficiencyRow& mean = rowNamed(report, "aten::mean");
            QCOMPARE(mean.calls, std::int64_t(2));
            QCOMPARE(mean.dims, std::string("[[1, 768], [], [], []]"));
            QCOMPARE(mean.kernelTimeUsSum, 10.0);
            // With and without weight: one TraceLens row (both read as affine), two of ours.
            QCOMPARE(norms, std::size_t(compat ? 1 : 2));
        }
    }

    // D: a dtype outside TraceLens's table keeps the call with FLOPs and time, no bytes.
    void classDDtypesWithoutSize()
    {
        const std::string copy =
            R"({"Input Dims": [[4, 8], [4, 8], []], "Input type": ["c10::BFloat16", "bool", )"
            R"("Scalar"], "Input Strides": [[8, 1], [8, 1], []], "Concrete Inputs": )"
            R"(["", "", "False"]})";
        const std::vector<std::string> events {
            cpuOp("aten::copy_", 0, 9, copy),
            runtime("cudaLaunchKernel", 1, 1),
            gpu("kernel", 10, 4, 1),
        };
        const EfficiencyReport tl = reportOf(events, true, true);
        QCOMPARE(tl.rows.size(), std::size_t(1));
        QCOMPARE(tl.rows[0].flops, 32.0);
        QVERIFY(!tl.rows[0].bytesKnown());
        QCOMPARE(tl.rows[0].tflopsMean, 32.0 / 4 / 1e6);
        const Table table = efficiencyTable(tl);
        for (const ColumnId& c : { efficiency_columns::kBytes, efficiency_columns::kIntensity,
                 efficiency_columns::kTbpsMean, efficiency_columns::kRooflineTime, efficiency_columns::kBound,
                 efficiency_columns::kRooflinePct })
            QVERIFY2(isNull(cellOf(table, 0, c)), qPrintable(QString::fromStdString(std::string(c.hta))));
        QCOMPARE(
            std::get<std::string>(cellOf(table, 0, efficiency_columns::kPeak)), std::string("vector_bf16"));
        // Ours sizes bool at 1 byte.
        const EfficiencyReport ours = reportOf(events, false, true);
        QCOMPARE(ours.rows[0].bytes, 32.0 * 2 + 32.0 * 1);
        // TraceLens's table: e8m0 and fp4 sized, e5m2 without a peak, bool and short without a size.
        QVERIFY(bytesPerElement("c10::Float8_e8m0fnu", DtypeTable::TraceLens) == std::optional(1.0));
        QVERIFY(bytesPerElement("fp4", DtypeTable::TraceLens) == std::optional(1.0));
        QCOMPARE(precisionOf("c10::Float8_e5m2", DtypeTable::TraceLens), std::string());
        QCOMPARE(precisionOf("c10::Float8_e5m2"), std::string("fp8"));
        QVERIFY(!bytesPerElement("bool", DtypeTable::TraceLens));
        QVERIFY(!bytesPerElement("short int", DtypeTable::TraceLens));
        QVERIFY(bytesPerElement("bool") == std::optional(1.0));
    }

    // D in every family: a GEMM, a convolution and a reduction on dtypes TraceLens cannot
    // size keep their rows with FLOPs and no bytes; a norm on them is skipped (its model
    // needs the bytes), said in the skipped calls. Ours sizes short and bool.
    void classDDtypesWithoutSizeInEveryFamily()
    {
        const std::string mm =
            R"({"Input Dims": [[4, 8], [8, 4]], "Input type": ["short int", "short int"], )"
            R"("Input Strides": [[8, 1], [4, 1]], "Concrete Inputs": ["", ""]})";
        const std::string sum =
            R"({"Input Dims": [[64], [], [], []], "Input type": ["bool", "ScalarList", "Scalar", ""], )"
            R"("Input Strides": [[1], [], [], []], "Concrete Inputs": ["", "[0]", "False", ""]})";
        const std::string norm =
            R"({"Input Dims": [[4, 8], [], [8], [8], [], []], "Input type": ["bool", "", "bool", "bool", )"
            R"("Scalar", "Scalar"], "Input Strides": [[8, 1], [], [1], [1], [], []], "Concrete Inputs": )"
            R"(["", "[8]", "", "", "1e-05", "True"]})";
        const std::string conv =
            R"({"Input Dims": [[1, 2, 4, 4], [3, 2, 3, 3], [], [], [], [], [], [], []], "Input type": )"
            R"(["short int", "short int", "", "", "", "", "", "", ""], "Input Strides": [[], [], [], [], )"
            R"([], [], [], [], []], "Concrete Inputs": ["", "", "", "[1, 1]", "[0, 0]", "[1, 1]", "False", )"
            R"("[0, 0]", "1"]})";
        const std::vector<std::string> events {
            cpuOp("aten::mm", 0, 9, mm),
            runtime("cudaLaunchKernel", 1, 1),
            gpu("kernel", 10, 4, 1),
            cpuOp("aten::sum", 20, 9, sum),
            runtime("cudaLaunchKernel", 21, 2),
            gpu("kernel", 30, 4, 2),
            cpuOp("aten::layer_norm", 40, 9, norm),
            runtime("cudaLaunchKernel", 41, 3),
            gpu("kernel", 50, 4, 3),
            cpuOp("aten::convolution", 60, 9, conv),
            runtime("cudaLaunchKernel", 61, 4),
            gpu("kernel", 70, 4, 4),
        };
        const EfficiencyReport tl = reportOf(events, true, true);
        QCOMPARE(tl.rows.size(), std::size_t(3));
        QCOMPARE(rowNamed(tl, "aten::mm").flops, 2.0 * 4 * 8 * 4);
        QCOMPARE(rowNamed(tl, "aten::convolution").flops, 2.0 * (3 * 2 * 2) * (2 * 3 * 3)); // 12 outputs
        QCOMPARE(rowNamed(tl, "aten::sum").flops, 64.0);
        for (const EfficiencyRow& r : tl.rows) {
            QVERIFY2(!r.bytesKnown(), r.name.c_str());
            QCOMPARE(r.kernelTimeUsSum, 4.0);
        }
        const std::vector<std::string> skipped = skippedLines(tl);
        QCOMPARE(skipped.size(), std::size_t(1));
        QVERIFY2(skipped.front().find("unknown dtype (first: aten::layer_norm") != std::string::npos,
            skipped.front().c_str());
        const EfficiencyReport ours = reportOf(events, false, true);
        QCOMPARE(ours.rows.size(), std::size_t(4));
        QCOMPARE(rowNamed(ours, "aten::mm").bytes, (32.0 + 32.0 + 16.0) * 2); // A, B and C at 2 bytes
        for (const EfficiencyRow& r : ours.rows)
            QVERIFY2(r.bytesKnown(), r.name.c_str());
    }

    // M: GPU work whose ac2g flow has no start counts for no op under TraceLens's linking;
    // a graph launch keeps its correlation id's GPU work.
    void classMFlowlessGpuWork()
    {
        const std::vector<std::string> events {
            cpuOp("aten::sum", 0, 20, kSum),
            runtime("hipMemsetAsync", 1, 1),
            flow('f', 1, 1, 1, 1), // the memset's flow: two ends, no start
            gpu("gpu_memset", 30, 5, 1),
            flow('f', 1, 0, 7, 30),
            runtime("hipLaunchKernel", 5, 2),
            flow('s', 2, 1, 1, 5),
            gpu("kernel", 40, 10, 2),
            flow('f', 2, 0, 7, 40),
            cpuOp("aten::mm", 100, 20, kMm),
            runtime("hipGraphLaunch", 101, 3), // a graph's kernels carry its correlation, no flow
            gpu("kernel", 110, 7, 3),
        };
        const EfficiencyReport ours = reportOf(events, false);
        QCOMPARE(rowNamed(ours, "aten::sum").kernelTimeUsSum, 15.0);
        QCOMPARE(rowNamed(ours, "aten::mm").kernelTimeUsSum, 7.0);
        const EfficiencyReport tl = reportOf(events, true);
        QCOMPARE(rowNamed(tl, "aten::sum").kernelTimeUsSum, 10.0);
        QCOMPARE(rowNamed(tl, "aten::mm").kernelTimeUsSum, 7.0);
    }

    // TraceLens's host tree leaves out an event that ends after the one open around it (a
    // child overrunning its parent, from rounding or a clock step): the child keeps its row with
    // no GPU work, and the launches inside it count for the parent. Ours pairs a launch with the
    // ops that contain it: the child.
    void hostTreeLeavesOutAnOverrunningOp()
    {
        const std::vector<std::string> events {
            cpuOp("aten::mm", 0, 50, kMm),
            cpuOp("aten::sum", 10, 50, kSum), // ends at 60, after aten::mm
            runtime("cudaLaunchKernel", 20, 1),
            flow('s', 1, 1, 1, 20),
            gpu("kernel", 100, 10, 1),
            flow('f', 1, 0, 7, 100),
        };
        const EfficiencyReport ours = reportOf(events, false);
        QCOMPARE(rowNamed(ours, "aten::sum").kernelTimeUsSum, 10.0);
        QCOMPARE(rowNamed(ours, "aten::mm").kernelTimeUsSum, 0.0);
        const EfficiencyReport tl = reportOf(events, true);
        QCOMPARE(rowNamed(tl, "aten::sum").calls, std::int64_t { 1 });
        QCOMPARE(rowNamed(tl, "aten::sum").kernelTimeUsSum, 0.0);
        QCOMPARE(rowNamed(tl, "aten::mm").kernelTimeUsSum, 10.0);

        // Overrunning by 0.5 µs (a nanosecond-resolution trace's fractional µs) is overrunning:
        // no rounding to whole µs puts aten::sum back inside aten::mm.
        std::vector<std::string> subMicro = events;
        subMicro[1] = R"({"ph": "X", "cat": "cpu_op", "name": "aten::sum", "pid": 1, "tid": 1, "ts": 10, )"
                      R"("dur": 40.5, "args": )"
            + kSum + "}";
        QCOMPARE(rowNamed(reportOf(subMicro, true), "aten::sum").kernelTimeUsSum, 0.0);
        QCOMPARE(rowNamed(reportOf(subMicro, true), "aten::mm").kernelTimeUsSum, 10.0);
        QCOMPARE(rowNamed(reportOf(subMicro, false), "aten::sum").kernelTimeUsSum, 10.0);
        // Ending exactly with aten::mm is nesting.
        subMicro[1] = R"({"ph": "X", "cat": "cpu_op", "name": "aten::sum", "pid": 1, "tid": 1, "ts": 10.25, )"
                      R"("dur": 39.75, "args": )"
            + kSum + "}";
        QCOMPARE(rowNamed(reportOf(subMicro, true), "aten::sum").kernelTimeUsSum, 10.0);
    }

    // TraceLens links a non-graph launch to one GPU event (trace_to_tree.py
    // _find_corresponding_output_event over pid_tid_event_map): on the stream its flow ends
    // on, the event of its correlation written last. Ours counts all of the launch's work.
    void tracelensLinksOneGpuEventPerLaunch()
    {
        const std::vector<std::string> sameStream {
            cpuOp("aten::mm", 0, 50, kMm), runtime("cudaLaunchKernel", 10, 1), flow('s', 1, 1, 1, 10),
            gpu("kernel", 100, 10, 1), flow('f', 1, 0, 7, 100),
            gpu("gpu_memset", 120, 4, 1), // same launch, same stream, written last, no flow of its own
        };
        QCOMPARE(rowNamed(reportOf(sameStream, false), "aten::mm").kernelTimeUsSum, 14.0);
        QCOMPARE(rowNamed(reportOf(sameStream, true), "aten::mm").kernelTimeUsSum, 4.0);

        // Written last but on another stream than the flow's: the flow's stream decides.
        const std::vector<std::string> otherStream {
            cpuOp("aten::mm", 0, 50, kMm),
            runtime("cudaLaunchKernel", 10, 1),
            flow('s', 1, 1, 1, 10),
            gpu("kernel", 100, 10, 1),
            flow('f', 1, 0, 7, 100),
            gpu("gpu_memset", 120, 4, 1, 8),
        };
        QCOMPARE(rowNamed(reportOf(otherStream, false), "aten::mm").kernelTimeUsSum, 14.0);
        QCOMPARE(rowNamed(reportOf(otherStream, true), "aten::mm").kernelTimeUsSum, 10.0);

        // A graph launch keeps every GPU event of its correlation, flows or not.
        const std::vector<std::string> graph {
            cpuOp("aten::mm", 0, 50, kMm),
            runtime("cudaGraphLaunch", 10, 1),
            gpu("kernel", 100, 10, 1),
            gpu("kernel", 120, 4, 1),
            runtime("cudaLaunchKernel", 30, 2), // a flow in the trace, so TraceLens's linking applies
            flow('s', 2, 1, 1, 30),
            gpu("kernel", 140, 2, 2),
            flow('f', 2, 0, 7, 140),
        };
        QCOMPARE(rowNamed(reportOf(graph, true), "aten::mm").kernelTimeUsSum, 16.0);
    }

    // R: a forward reduction's backward row, by sequence number: the evaluate_function event
    // of its number on the autograd thread (the leaf forward op is on another thread), under
    // the forward op's name; a call whose number has no backward event has no such row.
    void classRBackwardRowsBySequenceNumber()
    {
        const auto meanArgs = [](int sequence) {
            return R"({"Input Dims": [[4, 16], [], [], []], "Input type": ["float", "ScalarList", "Scalar", ""], )"
                   R"("Input Strides": [[16, 1], [], [], []], "Concrete Inputs": ["", "[-1]", "False", ""], )"
                   R"("Sequence number": )"
                + std::to_string(sequence) + "}";
        };
        const std::vector<std::string> events {
            cpuOp("aten::mean", 0, 9, meanArgs(5)), runtime("cudaLaunchKernel", 1, 1),
            gpu("kernel", 10, 4, 1), cpuOp("aten::mean", 20, 9, meanArgs(6)), // no backward event carries 6
            runtime("cudaLaunchKernel", 21, 2), gpu("kernel", 30, 4, 2),
            cpuOp("autograd::engine::evaluate_function: MeanBackward1", 100, 30,
                R"({"Sequence number": 5, "Fwd thread id": 1})", 2),
            cpuOp("aten::div", 102, 20, R"({"Sequence number": 5})", 2), // the backward thread: not the leaf
            runtime("cudaLaunchKernel", 103, 3, 2), gpu("kernel", 110, 8, 3),
            runtime("cudaLaunchKernel", 105, 4, 2),
            gpu("kernel", 115, 5, 4), // overlaps the first: 10 µs of union
        };
        for (const bool compat : { false, true }) {
            const EfficiencyReport report = reportOf(events, compat);
            const EfficiencyRow* forward = nullptr;
            const EfficiencyRow* backward = nullptr;
            for (const EfficiencyRow& r : report.rows)
                if (r.name == "aten::mean")
                    (r.backward ? backward : forward) = &r;
            QVERIFY(forward && backward);
            QCOMPARE(forward->calls, std::int64_t(2));
            QCOMPARE(forward->kernelTimeUsSum, 8.0);
            QCOMPARE(backward->calls, std::int64_t(1));
            QCOMPARE(backward->kernelTimeUsSum, 10.0);
            // Reduce.flops_bwd = n_in; bytes_bwd = n_out·bpe + n_in·bpe.
            QCOMPARE(backward->flops, 64.0);
            QCOMPARE(backward->bytes, 4.0 * 1 + 4.0 * 64);
            const Table table = efficiencyTable(report);
            std::size_t backwardRows = 0;
            for (std::size_t i = 0; i < table.rows.size(); ++i)
                backwardRows += cellAsText(cellOf(table, i, efficiency_columns::kDirection)) == "backward";
            QCOMPARE(backwardRows, std::size_t(1));
            // MFU counts the forward calls only.
            QCOMPARE(report.mfu.modelFlops, 2 * 64.0);
        }
    }
};

KS_TEST_MAIN(tst_efficiency_tracelens, TestEfficiencyTraceLens)
#include "tst_efficiency_tracelens.moc"
