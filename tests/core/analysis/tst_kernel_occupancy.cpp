// The TensorBoard plugin's per-kernel launch figures (core/analysis/kernels/kernel_occupancy.h)
// on a trace whose kernels carry Kineto's args, with the answers worked out by hand from the
// plugin's formulas: est. SM efficiency = min(blocks per SM, 1), and per kernel name the
// kernel-time-weighted mean over the kernels that carry the arg. A kernel without the args
// has no value (an empty cell, no sample), never 0.

#include "core/analysis/hta/counter_series.h"
#include "core/analysis/hta/kernel_breakdown.h"
#include "core/analysis/kernels/kernel_occupancy.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <cmath>
#include <optional>

using namespace ks;

namespace {

// A kernel's args as Kineto writes them; `figures` are extra members ("" for none).
std::string kernelArgs(int correlation, int stream, const std::string& figures)
{
    return R"({"correlation":)" + std::to_string(correlation) + R"(,"stream":)" + std::to_string(stream)
        + (figures.empty() ? "" : "," + figures) + "}";
}

std::string figures(double blocksPerSm, std::optional<double> occupancyPct)
{
    std::string text = R"("grid":[40,1,1],"block":[256,1,1],"blocks per SM":)" + std::to_string(blocksPerSm)
        + R"(,"warps per SM":4.0)";
    if (occupancyPct)
        text += R"(,"est. achieved occupancy %":)" + std::to_string(*occupancyPct);
    return text;
}

// Stream 7: gemm_a twice (blocks per SM 0.5 for 100 µs with 25 % occupancy, 2.0 for
// 300 µs with 50 %), tiny_kernel (0.25, no occupancy, 50 µs), plain_kernel without the
// args (100 µs). Stream 9: a kernel without the args only. Stream 11: two overlapping
// kernels (0.5 and 0.75 blocks per SM).
std::string occupancyTrace()
{
    using tests::completeEvent;
    return tests::kinetoDocument(0,
        { completeEvent("user_annotation", "ProfilerStep#1", 0, 1200, 100, 1),
            completeEvent("kernel", "gemm_a", 100, 100, 0, 7, kernelArgs(1, 7, figures(0.5, 25))),
            completeEvent("kernel", "gemm_a", 300, 300, 0, 7, kernelArgs(2, 7, figures(2.0, 50))),
            completeEvent(
                "kernel", "tiny_kernel", 650, 50, 0, 7, kernelArgs(3, 7, figures(0.25, std::nullopt))),
            completeEvent("kernel", "plain_kernel", 700, 100, 0, 7, kernelArgs(4, 7, "")),
            completeEvent("kernel", "other_stream_kernel", 100, 50, 0, 9, kernelArgs(5, 9, "")),
            completeEvent("kernel", "overlap_a", 900, 100, 0, 11, kernelArgs(6, 11, figures(0.5, 10))),
            completeEvent("kernel", "overlap_b", 950, 100, 0, 11, kernelArgs(7, 11, figures(0.75, 10))) });
}

// The kernel breakdown's per-name row of `name` on rank 0.
std::optional<std::size_t> kernelRow(const core::Table& t, const std::string& name)
{
    const auto at = t.find(core::kernel_breakdown::kName);
    for (std::size_t r = 0; r < t.rows.size(); ++r)
        if (core::cellAsText(t.rows[r][*at]) == name)
            return r;
    return std::nullopt;
}

std::optional<double> cellOf(const core::Table& t, std::optional<std::size_t> row, const core::ColumnId& c)
{
    const auto at = t.find(c);
    return at && row ? core::cellAsDouble(t.rows[*row][*at]) : std::nullopt;
}

} // namespace

class TestKernelOccupancy : public QObject
{
    Q_OBJECT

private slots:

    void parsesKinetoArgs()
    {
        const core::KernelOccupancy k = core::parseKernelOccupancy(
            R"({"queued": 0, "device": 0, "grid": [40, 1, 1], "block": [256, 1, 1], "blocks per SM": 0.303,)"
            R"( "warps per SM": 2.424, "est. achieved occupancy %": 4})");
        QCOMPARE(k.blocksPerSm.value_or(-1), 0.303);
        QCOMPARE(k.warpsPerSm.value_or(-1), 2.424);
        QCOMPARE(k.occupancyPct.value_or(-1), 4.0);
        QCOMPARE(k.grid, std::string("[40,1,1]"));
        QCOMPARE(k.block, std::string("[256,1,1]"));
        QCOMPARE(k.smEfficiency().value_or(-1), 0.303);
        // More blocks than SMs: every SM has work, efficiency 1.
        QCOMPARE(core::parseKernelOccupancy(R"({"blocks per SM": 3.5})").smEfficiency().value_or(-1), 1.0);
        // Without the args: no figures at all, not zeros.
        const core::KernelOccupancy none = core::parseKernelOccupancy(R"({"stream": 7, "correlation": 4})");
        QVERIFY(!none.any());
        QVERIFY(!none.smEfficiency());
        QVERIFY(!none.occupancyPct);
    }

    // The loader keeps the figures (ExtraArgs): reading them never opens the file again,
    // and they equal what the args text says.
    void figuresKeptWhileLoading()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir, { occupancyTrace() });
        QVERIFY(dir.remove()); // the file is gone: a re-read would fail
        const core::RankTrace& t = *set.ranks.at(0);
        std::vector<std::uint32_t> kernels;
        for (std::uint32_t s = 0; s < t.slices.size(); ++s)
            if (t.sliceName(s) != "ProfilerStep#1")
                kernels.push_back(s);
        const auto read = core::readKernelOccupancy(t, kernels);
        QVERIFY2(read.ok(), read.ok() ? "" : read.error().message.c_str());
        QCOMPARE(read.value().size(), std::size_t(5)); // the kernels with figures, in file order
        const core::KernelOccupancy& first = read.value().front();
        QCOMPARE(t.sliceName(first.slice), std::string_view("gemm_a"));
        QCOMPARE(first.blocksPerSm.value_or(-1), 0.5);
        QCOMPARE(first.warpsPerSm.value_or(-1), 4.0);
        QCOMPARE(first.occupancyPct.value_or(-1), 25.0);
        QCOMPARE(first.grid, std::string("[40,1,1]"));
        QCOMPARE(first.block, std::string("[256,1,1]"));
        const core::KernelOccupancy& tiny = read.value().at(2);
        QCOMPARE(t.sliceName(tiny.slice), std::string_view("tiny_kernel"));
        QVERIFY(!tiny.occupancyPct); // no arg: no value
    }

    void kernelBreakdownColumns()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir, { occupancyTrace() });
        core::AnalysisOptions options;
        const auto out = core::gpuKernelBreakdown(tests::frames(set, options.mode), options);
        QVERIFY2(out.ok, out.error.c_str());
        const core::Table& t = out.result.items.at(1).frame;
        using core::kernel_breakdown::kAchievedOccupancy;
        using core::kernel_breakdown::kEstSmEfficiency;
        const auto gemm = kernelRow(t, "gemm_a");
        QVERIFY(gemm);
        // (0.5 x 100 + 1.0 x 300) / 400 = 87.5 %; occupancy (25 x 100 + 50 x 300) / 400 = 43.75 %.
        QCOMPARE(cellOf(t, gemm, kEstSmEfficiency).value_or(-1), 87.5);
        QCOMPARE(cellOf(t, gemm, kAchievedOccupancy).value_or(-1), 43.75);
        const auto tiny = kernelRow(t, "tiny_kernel");
        QVERIFY(tiny);
        QCOMPARE(cellOf(t, tiny, kEstSmEfficiency).value_or(-1), 25.0);
        QVERIFY(!cellOf(t, tiny, kAchievedOccupancy)); // no occupancy arg: empty, not 0
        const auto plain = kernelRow(t, "plain_kernel");
        QVERIFY(plain);
        QVERIFY(!cellOf(t, plain, kEstSmEfficiency));
        QVERIFY(!cellOf(t, plain, kAchievedOccupancy));
        // Two kernels of 0.5 and 0.75 blocks per SM, 100 µs each, 10 % occupancy.
        QCOMPARE(cellOf(t, kernelRow(t, "overlap_b"), kEstSmEfficiency).value_or(-1), 75.0);
        QCOMPARE(cellOf(t, kernelRow(t, "overlap_a"), kAchievedOccupancy).value_or(-1), 10.0);
    }

    void othersFoldTheirNamesFigures()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir, { occupancyTrace() });
        core::AnalysisOptions options;
        options.kernels.numKernels = 1;
        const auto out = core::gpuKernelBreakdown(tests::frames(set, options.mode), options);
        const core::Table& t = out.result.items.at(1).frame;
        QVERIFY(kernelRow(t, "gemm_a"));
        QVERIFY(!kernelRow(t, "tiny_kernel"));
        const auto others = kernelRow(t, "others");
        QVERIFY(others);
        // others = every computation kernel but gemm_a: tiny_kernel 0.25 x 50 µs, overlap_a 0.5 x 100,
        // overlap_b 0.75 x 100 (plain and other_stream_kernel carry none):
        // (12.5 + 50 + 75) / 250 = 55 %; occupancy over the overlap pair only: 10 %.
        QCOMPARE(cellOf(t, others, core::kernel_breakdown::kEstSmEfficiency).value_or(-1), 55.0);
        QCOMPARE(cellOf(t, others, core::kernel_breakdown::kAchievedOccupancy).value_or(-1), 10.0);
    }

    void htaCompatHasNoFigures()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir, { occupancyTrace() });
        core::AnalysisOptions options;
        options.mode = core::AnalysisMode::HtaCompat;
        const auto out = core::gpuKernelBreakdown(tests::frames(set, options.mode), options);
        const core::Table& t = out.result.items.at(1).frame;
        QVERIFY(!t.find(core::kernel_breakdown::kEstSmEfficiency));
        QVERIFY(!t.find(core::kernel_breakdown::kAchievedOccupancy));
    }

    void perStreamCounter()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir, { occupancyTrace() });
        const core::SmEfficiencySeries all = core::smEfficiencySeries(*set.ranks.at(0));
        const std::vector<core::StepSeries>& series = all.perStream;
        // Stream 9's only kernel carries no args: no track for it.
        QCOMPARE(series.size(), std::size_t(2));
        const core::StepSeries& s7 = series[0];
        QCOMPARE(s7.stream, std::int64_t(7));
        // The rank's raw times: the events' µs as ns.
        const std::vector<core::TimeNs> ts7 { 100'000, 200'000, 300'000, 600'000, 650'000, 700'000, 800'000 };
        QCOMPARE(s7.ts, ts7);
        QCOMPARE(s7.value[0], 50.0);
        QCOMPARE(s7.value[1], 0.0);
        QCOMPARE(s7.value[2], 100.0);
        QCOMPARE(s7.value[3], 0.0);
        QCOMPARE(s7.value[4], 25.0);
        QVERIFY(std::isnan(s7.value[5])); // plain_kernel runs: no sample, not 0
        QCOMPARE(s7.value[6], 0.0);
        // Stream 11: overlapping kernels add their blocks per SM, at most 100 %.
        const core::StepSeries& s11 = series[1];
        QCOMPARE(s11.stream, std::int64_t(11));
        const std::vector<core::TimeNs> ts11 { 900'000, 950'000, 1'000'000, 1'050'000 };
        QCOMPARE(s11.ts, ts11);
        const std::vector<double> v11 { 50.0, 100.0, 75.0, 0.0 };
        QCOMPARE(s11.value, v11);
        // GPU 0 (streams 7 and 11 carry the arg): the streams' kernels together, the
        // plugin's per-GPU counter. Stream 9 carries no arg and is left out; plain_kernel's
        // stretch holds no sample.
        QCOMPARE(all.perDevice.size(), std::size_t(1));
        const core::StepSeries& gpu = all.perDevice[0];
        QCOMPARE(gpu.name, std::string("0"));
        QCOMPARE(gpu.stream, std::int64_t(-1));
        const std::vector<core::TimeNs> tsGpu { 100'000, 200'000, 300'000, 600'000, 650'000, 700'000, 800'000,
            900'000, 950'000, 1'000'000, 1'050'000 };
        QCOMPARE(gpu.ts, tsGpu);
        QCOMPARE(gpu.value[0], 50.0);
        QVERIFY(std::isnan(gpu.value[5]));
        QCOMPARE(gpu.value[6], 0.0);
        QCOMPARE(gpu.value[8], 100.0);
    }

    void noArgsNoSeries()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir,
            { tests::kinetoDocument(
                0, { tests::completeEvent("kernel", "gemm", 10, 5, 0, 7, tests::correlationArgs(1, 7)) }) });
        QVERIFY(core::smEfficiencySeries(*set.ranks.at(0)).perStream.empty());
        QVERIFY(core::smEfficiencySeries(*set.ranks.at(0)).perDevice.empty());
    }
};

KS_TEST_MAIN(tst_kernel_occupancy, TestKernelOccupancy)
#include "tst_kernel_occupancy.moc"
