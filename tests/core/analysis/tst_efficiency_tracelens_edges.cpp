// TraceLens's perf-model rules on traces the shared ones do not hold (issue 35, the audit of
// "right on traces we never saw"; tst_efficiency_tracelens.cpp has the first classes): small
// synthetic traces and calls, each number worked out from TraceLens's own formulas
// (PerfModel/perf_model.py) in the default reading and under --tracelens-compat
// (EfficiencyOptions::tracelensCompat, ModelReading::tracelens).

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"
#include "tests/support/one_call_trace.h"
#include "tests/support/op_model_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <string>
#include <vector>

using namespace ks::core;
using namespace ks::test::op_model_names;
using ks::test::kernelEvent;
using ks::test::launchEvent;
using ks::test::oneCallEvent;
using ks::test::reportOfEvents;

namespace {

// The forward row (backward = false) or the backward row of `name`; null when there is none.
const EfficiencyRow* rowOf(const EfficiencyReport& report, const std::string& name, bool backward = false)
{
    for (const EfficiencyRow& r : report.rows)
        if (r.name == name && r.backward == backward)
            return &r;
    return nullptr;
}

std::size_t rowsNamed(const EfficiencyReport& report, const std::string& name)
{
    std::size_t n = 0;
    for (const EfficiencyRow& r : report.rows)
        n += r.name == name;
    return n;
}

// aten::convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)'s
// args: x and w as given, a bias of C_out when `bias`, the five parameters' Concrete Inputs.
std::string convolutionArgs(const std::string& x, const std::string& w, bool bias, const std::string& stride,
    const std::string& dilation, const std::string& transposed, const std::string& outputPadding)
{
    return R"({"Input Dims": [)" + x + ", " + w + (bias ? ", [3]" : ", []")
        + R"(, [], [], [], [], [], []], "Input type": ["float", "float", )" + (bias ? R"("float")" : R"("")")
        + R"(, "", "", "", "", "", ""], "Input Strides": [[128, 64, 8, 1], [18, 9, 3, 1]], )"
          R"("Concrete Inputs": ["", "", "", ")"
        + stride + R"(", "[0, 0]", ")" + dilation + R"(", ")" + transposed + R"(", ")" + outputPadding
        + R"(", "1"]})";
}

// One attention problem, TraceLens's names: Q (B, H_Q, N_Q, d), K and V (B, H_KV, N_KV, d).
struct Attention
{
    double b = 1, hq = 4, nq = 8, hkv = 2, nkv = 8, d = 16;
};

// TraceLens's SDPA.flops_bwd_func, term by term: QKᵀ recomputed (flash only), dV with GQA's
// reduction, dP, dQ, dK with GQA's reduction; halved when causal.
double sdpaBackwardFlops(const Attention& s, bool flash, bool causal)
{
    const double gemm = s.b * s.hq * 2 * s.nq * s.nkv * s.d;
    const double reduction = s.b * s.nkv * s.d * (s.hq / s.hkv - 1);
    const double flops = (flash ? gemm : 0) + (gemm + reduction) + gemm + gemm + (gemm + reduction);
    return causal ? flops / 2 : flops;
}

// TraceLens's SDPA.bytes_bwd_func in elements: Q, K, V and dO read, dQ, dK, dV written.
double sdpaBackwardElements(const Attention& s)
{
    const double q = s.b * s.nq * s.hq * s.d, kv = s.b * s.nkv * s.hkv * s.d;
    return q + kv + kv + q + q + kv + kv;
}

// A forward call on the main thread (tid 1) carrying sequence number 7 and its autograd backward
// node on the backward thread (tid 2), as PyTorch records them; the forward's kernel runs 10 µs, the
// backward's 12 µs.
std::vector<std::string> forwardAndBackward(const std::string& op, const std::string& forwardArgs)
{
    return {
        oneCallEvent("cpu_op", op, 10, 20, forwardArgs),
        launchEvent(11, 1),
        kernelEvent(40, 10, 1),
        oneCallEvent("cpu_op", "autograd::engine::evaluate_function: AttentionBackward0", 200, 40,
            R"({"Sequence number": 7, "Fwd thread id": 1})", 2),
        launchEvent(205, 2, 2),
        kernelEvent(300, 12, 2),
    };
}

} // namespace

class TestEfficiencyTraceLensEdges : public QObject
{
    Q_OBJECT

private slots:

    // R: the backward row of an aten / flash_attn SDPA forward op, linked by sequence number, has
    // TraceLens's SDPA backward FLOPs (flash_impl recomputes QKᵀ; efficient and cuDNN do not) and
    // bytes: Q's dtype in ours, 2 bytes per element in TraceLens's (compute_perf_metrics calls
    // bytes_bwd() without a size: SDPA.bytes_bwd(bytes_per_element=2)). fp32 Q tells them apart.
    void classRAttentionBackwardRows_data()
    {
        QTest::addColumn<QString>("op");
        QTest::addColumn<QString>("args");
        QTest::addColumn<bool>("flash");
        QTest::addColumn<bool>("causal");
        const QString types = QStringLiteral(R"(["float", "float", "float", "", "", "", "", ""])");
        const QString bhnd =
            QStringLiteral("[[1, 4, 8, 16], [1, 2, 8, 16], [1, 2, 8, 16], [], [], [], [], []]");
        const QString strides = QStringLiteral("[[512, 128, 16, 1], [256, 128, 16, 1], [256, 128, 16, 1]]");
        const auto args = [&](const QString& dims, const QString& concrete) {
            return QStringLiteral(R"({"Input Dims": %1, "Input type": %2, "Input Strides": %3, )"
                                  R"("Concrete Inputs": %4, "Sequence number": 7})")
                .arg(dims, types, strides, concrete);
        };
        // (q, k, v, dropout_p, is_causal, return_debug_mask, scale)
        QTest::newRow("flash, causal")
            << QStringLiteral("aten::_scaled_dot_product_flash_attention")
            << args(bhnd, QStringLiteral(R"(["", "", "", "0.0", "True", "False", ""])")) << true << true;
        // (q, k, v, attn_bias, compute_log_sumexp, dropout_p, is_causal, scale)
        QTest::newRow("efficient") << QStringLiteral("aten::_scaled_dot_product_efficient_attention")
                                   << args(bhnd,
                                          QStringLiteral(R"(["", "", "", "", "True", "0.0", "False", ""])"))
                                   << false << false;
        // flash_attn's (q, k, v, dropout_p, softmax_scale, causal, ...), (B, N, H, d) tensors
        QTest::newRow("flash_attn") << QStringLiteral("flash_attn::_flash_attn_forward")
                                    << args(QStringLiteral(
                                                "[[1, 8, 4, 16], [1, 8, 2, 16], [1, 8, 2, 16], [], [], []]"),
                                           QStringLiteral(R"(["", "", "", "0.0", "0.25", "False"])"))
                                    << true << false;
    }

    void classRAttentionBackwardRows()
    {
        QFETCH(QString, op);
        QFETCH(QString, args);
        QFETCH(bool, flash);
        QFETCH(bool, causal);
        const Attention shape;
        const double flops = sdpaBackwardFlops(shape, flash, causal);
        const double elements = sdpaBackwardElements(shape);
        const std::vector<std::string> events = forwardAndBackward(op.toStdString(), args.toStdString());
        for (const bool compat : { false, true }) {
            const EfficiencyReport report = reportOfEvents(events, compat);
            const EfficiencyRow* forward = rowOf(report, op.toStdString());
            const EfficiencyRow* backward = rowOf(report, op.toStdString(), true);
            QVERIFY(forward && backward);
            QCOMPARE(forward->kernelTimeUsSum, 10.0);
            QCOMPARE(backward->calls, std::int64_t(1));
            QCOMPARE(backward->kernelTimeUsSum, 12.0);
            QCOMPARE(backward->flops, flops);
            QCOMPARE(backward->bytes, (compat ? 2.0 : 4.0) * elements);
            QCOMPARE(backward->precision, std::string("fp32"));
        }
    }

    // N, forward under TraceLens's reading: GroupNorm counts the weight and bias always (affine =
    // `Input Dims[2] is not None`, has_bias True), InstanceNorm reads training as
    // bool(Concrete Inputs[5]), true for the string "False". n = prod(x) = 64, C = x[1] = 4 (the
    // forward's C is not divided by the groups): FLOPs 3C + (training ? 3n : 0) + 3C + 2n, bytes
    // 2n·bpe + T·C·bpe with T = 2 + (affine ? 1 + bias : 0) + (training ? 2 : 0).
    void classNForwardNormsUnderTraceLens()
    {
        const double n = 64, c = 4, bpe = 4;
        const auto normFlops = [&](bool training) { return 3 * c + (training ? 3 * n : 0) + 3 * c + 2 * n; };
        const auto normBytes = [&](double tensors) { return 2 * n * bpe + tensors * c * bpe; };
        // group_norm(input, num_groups, weight, bias, eps, cudnn_enabled) without weight and bias.
        const OpArgs bare = argsOf("[[2, 4, 8], [], [], [], [], []]",
            R"(["float", "Scalar", "", "", "Scalar", "Scalar"])", R"(["", "2", "", "", "1e-05", "True"])");
        QCOMPARE(modelled("aten::group_norm", bare, kOurs).flops, normFlops(true));
        QCOMPARE(modelled("aten::group_norm", bare, kOurs).bytes, normBytes(2 + 2));
        QCOMPARE(modelled("aten::group_norm", bare, kTraceLens).flops, normFlops(true));
        QCOMPARE(modelled("aten::group_norm", bare, kTraceLens).bytes, normBytes(2 + 2 + 2));
        // With both tensors the readings agree.
        const OpArgs affine = argsOf("[[2, 4, 8], [], [4], [4], [], []]",
            R"(["float", "Scalar", "float", "float", "Scalar", "Scalar"])",
            R"(["", "2", "", "", "1e-05", "True"])");
        QCOMPARE(modelled("aten::group_norm", affine, kOurs).bytes, normBytes(2 + 2 + 2));
        // instance_norm(input, weight, bias, running_mean, running_var, use_input_stats, momentum, eps,
        // cudnn_enabled) from running stats ("False"), no weight or bias.
        const OpArgs stats = argsOf("[[2, 4, 8], [], [], [4], [4], [], [], [], []]",
            R"(["float", "", "", "float", "float", "Scalar", "Scalar", "Scalar", "Scalar"])",
            R"(["", "", "", "", "", "False", "0.1", "1e-05", "True"])");
        QCOMPARE(modelled("aten::instance_norm", stats, kOurs).flops, normFlops(false));
        QCOMPARE(modelled("aten::instance_norm", stats, kOurs).bytes, normBytes(2));
        QCOMPARE(modelled("aten::instance_norm", stats, kTraceLens).flops, normFlops(true));
        QCOMPARE(modelled("aten::instance_norm", stats, kTraceLens).bytes, normBytes(2 + 2 + 2));
    }

    // M: TraceLens attributes a non-graph launch's GPU work through the ac2g flow that starts at it
    // (_find_corresponding_output_event). A rank without a single ac2g flow would then have no GPU
    // time in any row; --tracelens-compat keeps the correlation ids there instead. One flow anywhere
    // in the rank and the flow-less launches count nothing.
    void classMFlowlessRankKeepsCorrelationIds()
    {
        const std::string mm = R"({"Input Dims": [[32, 64], [64, 16]], "Input type": ["float", "float"], )"
                               R"("Input Strides": [[64, 1], [16, 1]], "Concrete Inputs": ["", ""]})";
        std::vector<std::string> events {
            oneCallEvent("cpu_op", "aten::mm", 10, 20, mm),
            launchEvent(11, 1),
            kernelEvent(40, 10, 1),
            oneCallEvent("cpu_op", "aten::mm", 60, 20, mm),
            launchEvent(61, 2),
            kernelEvent(90, 6, 2),
        };
        for (const bool compat : { false, true }) {
            // The report outlives the row pointer taken from it.
            const EfficiencyReport report = reportOfEvents(events, compat);
            const EfficiencyRow* row = rowOf(report, "aten::mm");
            QVERIFY(row);
            QCOMPARE(row->calls, std::int64_t(2));
            QCOMPARE(row->kernelTimeUsSum, 16.0);
        }
        // The second launch's flow (start at the launch, end at its kernel): TraceLens's linking
        // applies, and the first launch, without a flow, counts nothing under it.
        events.push_back(
            R"({"ph": "s", "cat": "ac2g", "name": "ac2g", "id": 2, "pid": 1, "tid": 1, "ts": 61})");
        events.push_back(
            R"({"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 2, "pid": 0, "tid": 7, "ts": 90, "bp": "e"})");
        QCOMPARE(rowOf(reportOfEvents(events, false), "aten::mm")->kernelTimeUsSum, 16.0);
        QCOMPARE(rowOf(reportOfEvents(events, true), "aten::mm")->kernelTimeUsSum, 6.0);
    }

    // Conv rows: TraceLens groups on CONV's param_details (aten_conv.get_param_details): x's and w's
    // shapes, dtypes and strides, bias (never, for aten::convolution), stride, padding, dilation,
    // transposed, output_padding and groups as parsed ("[1]" broadcast to (1, 1)). Two convolutions
    // differing only in dilation, two transposed ones only in output_padding: two rows each, in both
    // readings. One with a bias tensor and one written "[1]": rows of their own in ours (the bias is
    // counted; the args differ), the plain call's row in TraceLens's.
    void classGConvolutionRows()
    {
        const std::string x = "[1, 2, 8, 8]", w = "[3, 2, 3, 3]", xt = "[1, 3, 4, 4]";
        const std::vector<std::string> calls {
            convolutionArgs(x, w, false, "[1, 1]", "[1, 1]", "False", "[0, 0]"),
            convolutionArgs(x, w, false, "[1, 1]", "[3, 3]", "False", "[0, 0]"), // dilation
            convolutionArgs(xt, w, false, "[2, 2]", "[1, 1]", "True", "[0, 0]"),
            convolutionArgs(xt, w, false, "[2, 2]", "[1, 1]", "True", "[1, 1]"), // output_padding
            convolutionArgs(x, w, true, "[1, 1]", "[1, 1]", "False", "[0, 0]"), // a bias tensor
            convolutionArgs(x, w, false, "[1]", "[1, 1]", "False", "[0, 0]"), // stride broadcast
        };
        std::vector<std::string> events;
        for (std::size_t i = 0; i < calls.size(); ++i) {
            const int ts = 10 + 50 * int(i), correlation = 1 + int(i);
            events.push_back(oneCallEvent("cpu_op", "aten::convolution", ts, 20, calls[i]));
            events.push_back(launchEvent(ts + 1, correlation));
            events.push_back(kernelEvent(ts + 30, 5, correlation));
        }
        const EfficiencyReport ours = reportOfEvents(events, false);
        QCOMPARE(rowsNamed(ours, "aten::convolution"), std::size_t(6));
        const EfficiencyReport tl = reportOfEvents(events, true);
        QCOMPARE(rowsNamed(tl, "aten::convolution"), std::size_t(4));
        // The plain call's row holds the bias and broadcast calls: y = (1, 3, 6, 6), 2·prod(w[1:])·prod(y).
        const double plainFlops = 2.0 * 2 * 3 * 3 * (3 * 6 * 6);
        std::int64_t plainCalls = 0;
        for (const EfficiencyRow& r : tl.rows)
            if (r.flops == plainFlops)
                plainCalls += r.calls;
        QCOMPARE(plainCalls, std::int64_t(3));
        // The transposed pair: 2·prod(w[1:])·prod(x) FLOPs either way, two rows on output_padding alone.
        for (const EfficiencyReport* report : { &ours, &tl }) {
            std::size_t transposedRows = 0;
            for (const EfficiencyRow& r : report->rows)
                transposedRows += r.flops == 2.0 * 2 * 3 * 3 * (3 * 4 * 4);
            QCOMPARE(transposedRows, std::size_t(2));
        }
    }
};

KS_TEST_MAIN(tst_efficiency_tracelens_edges, TestEfficiencyTraceLensEdges)
#include "tst_efficiency_tracelens_edges.moc"
