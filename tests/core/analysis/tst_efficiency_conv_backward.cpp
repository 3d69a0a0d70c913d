// apex's fused convolution backward ops, ConvBias_Backward and ConvBiasReLU_Backward (issue 35): their
// own args hold only the output gradient, so their FLOPs and bytes come from the forward call
// (ConvBias_, ConvBiasReLU_) of the same "Sequence number", as TraceLens's ConvBias_Backward and
// ConvBiasReLU_Backward read them (ConvBias_.fwd_pass_cache). Small traces with the forward on one
// thread and the backward on the autograd thread, their args as PyTorch writes them (a forward op's
// "Fwd thread id" 0, a backward op's the forward thread's profiler id, 1); every number by hand from
// CONV's backward formulas (core/analysis/efficiency/conv_model.cpp), in the default reading and in
// TraceLens's (--tracelens-compat).

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"
#include "tests/support/one_call_trace.h"
#include "tests/support/op_model_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <cmath>
#include <optional>
#include <string>
#include <vector>

using namespace ks::core;
using namespace ks::test::op_model_names;
using ks::test::kernelEvent;
using ks::test::launchEvent;
using ks::test::oneCallEvent;
using ks::test::opSkipOf;
using ks::test::reportOfEvents;

namespace {

// A forward call's args: x (2, 4, 8, 8), weight (6, 4, 3, 3), bias (6), bf16; padding and stride
// (Concrete Inputs 3 and 4) as given; its sequence number.
std::string forwardArgs(int sequence, const std::string& three = "1", const std::string& four = "1")
{
    return R"({"Input Dims": [[2, 4, 8, 8], [6, 4, 3, 3], [6], [], []], )"
           R"("Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"], )"
           R"("Input Strides": [[256, 64, 8, 1], [36, 9, 3, 1], [1], [], []], )"
           R"("Concrete Inputs": ["", "", "", ")"
        + three + R"(", ")" + four + R"("], "Fwd thread id": 0, "Sequence number": )"
        + std::to_string(sequence) + "}";
}

// The backward node's args: the output gradient dY (2, 6, 8, 8).
std::string backwardArgs(int sequence)
{
    return R"({"Input Dims": [[2, 6, 8, 8]], "Input type": ["c10::BFloat16"], )"
           R"("Input Strides": [[384, 64, 8, 1]], "Concrete Inputs": [""], "Fwd thread id": 1, )"
           R"("Sequence number": )"
        + std::to_string(sequence) + "}";
}

// A call of `name` on thread `tid` at `ts` launching one kernel of `kernelUs` µs.
std::vector<std::string> call(
    const std::string& name, int ts, const std::string& args, int tid, int correlation, int kernelUs)
{
    return { oneCallEvent("cpu_op", name, ts, 20, args, tid), launchEvent(ts + 1, correlation, tid),
        kernelEvent(ts + 5, kernelUs, correlation) };
}

// The backward node inside the engine's evaluate_function event, as the autograd thread records it.
std::vector<std::string> backwardCall(
    const std::string& name, int ts, int sequence, int correlation, int kernelUs)
{
    std::vector<std::string> events { oneCallEvent("cpu_op", "autograd::engine::evaluate_function: " + name,
        ts - 1, 30, R"({"Fwd thread id": 1, "Sequence number": )" + std::to_string(sequence) + "}", 2) };
    for (std::string& e : call(name, ts, backwardArgs(sequence), 2, correlation, kernelUs))
        events.push_back(std::move(e));
    return events;
}

std::vector<std::string> joined(const std::vector<std::vector<std::string>>& parts)
{
    std::vector<std::string> all;
    for (const auto& part : parts)
        all.insert(all.end(), part.begin(), part.end());
    return all;
}

const EfficiencyRow* rowNamed(const EfficiencyReport& report, const std::string& name)
{
    for (const EfficiencyRow& r : report.rows)
        if (r.name == name)
            return &r;
    return nullptr;
}

// The FLOPs of the row named so; NaN when there is none (a comparison then fails).
double flopsOf(const EfficiencyReport& report, const std::string& name)
{
    const EfficiencyRow* row = rowNamed(report, name);
    return row ? row->flops : std::nan("");
}

std::int64_t noForward(const EfficiencyReport& report)
{
    return report.skipped[std::size_t(SkipReason::NoForwardCall)];
}

// y = (2, 6, 8, 8) (stride 1, padding 1): prod(x) 512, prod(w) 216, prod(w[1:]) 36, prod(y) 768, C_out 6.
// FLOPs = dX 2·36·768 + dW 2·216·2·64 + bias 768 = 55296 + 55296 + 768.
constexpr double kFlops = 111360;
// bytes = 2·(768 + 216 + 512)·2 + the bias gradient's (768 + 6) elements: ·2 (ours), as elements (TraceLens).
constexpr double kBytesOurs = 5984 + 774 * 2;
constexpr double kBytesTraceLens = 5984 + 774;

} // namespace

class TestEfficiencyConvBackward : public QObject
{
    Q_OBJECT

private slots:

    // The model on the forward's args. TraceLens's own regression case (test_conv_bias_backward_bytes:
    // x (1, 1, 4, 4), w (1, 1, 3, 3), stride 1, padding 0, bf16: bytes_bwd 121 = 2·(4 + 9 + 16)·2 + 4 + 1),
    // then the trace's shapes.
    void modelReadsTheForwardsArgs()
    {
        const OpArgs small = argsOf("[[1, 1, 4, 4], [1, 1, 3, 3], [1], [], []]",
            R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])",
            R"(["", "", "", "1", "0"])");
        for (const char* op : { "ConvBias_Backward", "ConvBiasReLU_Backward" })
            QCOMPARE(modelled(op, small, kTraceLens).bytes, 121.0);
        // ours reads [3] as the padding and [4] as the stride: a stride of 0, no estimate
        QCOMPARE(opSkipOf("ConvBias_Backward", small, kOurs), std::optional(SkipReason::MalformedDims));
        const OpArgs forward = argsOf("[[2, 4, 8, 8], [6, 4, 3, 3], [6], [], []]",
            R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])",
            R"(["", "", "", "1", "1"])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const PerfEstimate e = modelled("ConvBias_Backward", forward, reading);
            QCOMPARE(e.flops, kFlops);
            QCOMPARE(e.bytes, reading.tracelens ? kBytesTraceLens : kBytesOurs);
            QCOMPARE(e.precision, std::string("bf16"));
            QCOMPARE(e.unit, ComputeUnit::Matrix);
        }
        // the ReLU's gradient: ours 768 FLOPs more and the saved output y read (768·2 bytes); TraceLens none
        QCOMPARE(modelled("ConvBiasReLU_Backward", forward, kOurs).flops, kFlops + 768);
        QCOMPARE(modelled("ConvBiasReLU_Backward", forward, kOurs).bytes, kBytesOurs + 768 * 2);
        QCOMPARE(modelled("ConvBiasReLU_Backward", forward, kTraceLens).flops, kFlops);
        QCOMPARE(modelled("ConvBiasReLU_Backward", forward, kTraceLens).bytes, kBytesTraceLens);
        QCOMPARE(findOpModel("ConvBias_Backward")->forwardOp, std::string_view("ConvBias_"));
        QCOMPARE(findOpModel("ConvBiasReLU_Backward")->forwardOp, std::string_view("ConvBiasReLU_"));
    }

    // Forward and backward of both ops, and a backward whose sequence number no forward call has: each
    // backward row has its forward's numbers and its own kernel time; the unmatched call has no row
    // (TraceLens's model raises on the missing forward: the call is dropped), counted.
    void backwardRowsFromTheForwardOfTheirSequenceNumber()
    {
        const std::vector<std::string> events = joined({
            call("ConvBias_", 10, forwardArgs(42), 1, 1, 10),
            call("ConvBiasReLU_", 60, forwardArgs(43), 1, 2, 12),
            backwardCall("ConvBiasReLU_Backward", 200, 43, 3, 20),
            backwardCall("ConvBias_Backward", 240, 42, 4, 30),
            backwardCall("ConvBias_Backward", 300, 99, 5, 5),
        });
        for (const bool compat : { false, true }) {
            const EfficiencyReport report = reportOfEvents(events, compat);
            QCOMPARE(report.rows.size(), std::size_t(4));
            const EfficiencyRow* bias = rowNamed(report, "ConvBias_Backward");
            const EfficiencyRow* relu = rowNamed(report, "ConvBiasReLU_Backward");
            QVERIFY(bias && relu);
            QCOMPARE(bias->calls, std::int64_t(1));
            QCOMPARE(bias->kernelTimeUsSum, 30.0);
            QCOMPARE(bias->flops, kFlops);
            QCOMPARE(bias->bytes, compat ? kBytesTraceLens : kBytesOurs);
            QCOMPARE(bias->precision, std::string("bf16"));
            QCOMPARE(bias->family, OpFamily::Conv);
            QVERIFY(!bias->backward); // a backward op's own row (TraceLens's CONV_bwd sheet, by its name)
            QCOMPARE(
                bias->dims, std::string("[[2, 6, 8, 8]]")); // its own dims, as TraceLens's Input Dims_first
            QCOMPARE(relu->kernelTimeUsSum, 20.0);
            QCOMPARE(relu->flops, compat ? kFlops : kFlops + 768);
            QCOMPARE(relu->bytes, compat ? kBytesTraceLens : kBytesOurs + 768 * 2);
            QVERIFY(rowNamed(report, "ConvBias_") && rowNamed(report, "ConvBias_")->kernelTimeUsSum == 10.0);
            QCOMPARE(noForward(report), std::int64_t(1));
            QCOMPARE(report.skippedExample[std::size_t(SkipReason::NoForwardCall)],
                std::string("ConvBias_Backward"));
        }
    }

    // Two backward calls of one forward shape are one row, grouped by the forward's parameters.
    void backwardCallsOfOneShapeShareARow()
    {
        const std::vector<std::string> events = joined({
            call("ConvBias_", 10, forwardArgs(5), 1, 1, 10),
            call("ConvBias_", 40, forwardArgs(6), 1, 2, 10),
            backwardCall("ConvBias_Backward", 200, 6, 3, 30),
            backwardCall("ConvBias_Backward", 240, 5, 4, 10),
        });
        for (const bool compat : { false, true }) {
            const EfficiencyReport report = reportOfEvents(events, compat);
            const EfficiencyRow* bias = rowNamed(report, "ConvBias_Backward");
            QVERIFY(bias);
            QCOMPARE(bias->calls, std::int64_t(2));
            QCOMPARE(bias->kernelTimeUsSum, 40.0);
            QCOMPARE(noForward(report), std::int64_t(0));
        }
    }

    // Which forward call: ours the latest of that sequence number starting before the backward call;
    // TraceLens's the last one its model accepted before it in the file (its cache is filled as it walks
    // the events in the file's order).
    void forwardCallAsEachReadingFindsIt()
    {
        // The backward written in the file before its forward (which starts earlier): ours finds it,
        // TraceLens has not cached it yet.
        const std::vector<std::string> late = joined({
            backwardCall("ConvBias_Backward", 200, 42, 2, 30),
            call("ConvBias_", 10, forwardArgs(42), 1, 1, 10),
        });
        QCOMPARE(flopsOf(reportOfEvents(late, false), "ConvBias_Backward"), kFlops);
        const EfficiencyReport lateTraceLens = reportOfEvents(late, true);
        QVERIFY(!rowNamed(lateTraceLens, "ConvBias_Backward"));
        QCOMPARE(noForward(lateTraceLens), std::int64_t(1));
        // The forward's padding and stride recorded as lists: TraceLens's int() raises, so the forward has
        // no row and is never cached, and its backward finds none; ours reads the lists.
        const std::vector<std::string> lists = joined({
            call("ConvBias_", 10, forwardArgs(42, "[1, 1]", "[1, 1]"), 1, 1, 10),
            backwardCall("ConvBias_Backward", 200, 42, 2, 30),
        });
        QCOMPARE(flopsOf(reportOfEvents(lists, false), "ConvBias_Backward"), kFlops);
        const EfficiencyReport listsTraceLens = reportOfEvents(lists, true);
        QVERIFY(!rowNamed(listsTraceLens, "ConvBias_Backward"));
        QCOMPARE(noForward(listsTraceLens), std::int64_t(1));
        // A forward starting after the backward call is not its forward in ours: none; TraceLens takes it
        // (written before the backward in the file, and its sequence number the same).
        const std::vector<std::string> after = joined({
            call("ConvBias_", 400, forwardArgs(42), 1, 1, 10),
            backwardCall("ConvBias_Backward", 200, 42, 2, 30),
        });
        QCOMPARE(noForward(reportOfEvents(after, false)), std::int64_t(1));
        QCOMPARE(flopsOf(reportOfEvents(after, true), "ConvBias_Backward"), kFlops);
        // A ConvBiasReLU_ forward is not a ConvBias_Backward's forward (each reads its own op's cache).
        const std::vector<std::string> other = joined({
            call("ConvBiasReLU_", 10, forwardArgs(42), 1, 1, 10),
            backwardCall("ConvBias_Backward", 200, 42, 2, 30),
        });
        for (const bool compat : { false, true })
            QCOMPARE(noForward(reportOfEvents(other, compat)), std::int64_t(1));
    }
};

KS_TEST_MAIN(tst_efficiency_conv_backward, TestEfficiencyConvBackward)
#include "tst_efficiency_conv_backward.moc"
