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
};

KS_TEST_MAIN(tst_efficiency_tracelens_edges, TestEfficiencyTraceLensEdges)
#include "tst_efficiency_tracelens_edges.moc"
