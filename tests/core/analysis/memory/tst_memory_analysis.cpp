// The memory analysis on small traces: pairing, memory from before the trace,
// leaks, growth per step, [OutOfMemory], HIP's device type and old traces.

#include "core/analysis/memory/memory_tables.h"
#include "tests/support/memory_traces.h"
#include "tests/support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace ks;
using namespace ks::tests;

class TestMemoryAnalysis : public QObject
{
    Q_OBJECT

private slots:

    // The same address on the CPU and the GPU: by default each free closes its
    // own device's allocation; the plugin keys by address alone, so the GPU
    // allocation overwrites the CPU one, which vanishes, and the CPU free is
    // left as memory from before the trace.
    void pairingByDeviceAndAddress()
    {
        MemoryTrace t;
        t.op("aten::empty", 0, 10).op("aten::add", 20, 10).op("aten::mul", 40, 10).op("aten::relu", 60, 10);
        t.mem(1, 64, 4096, 64, 64, 0, -1).mem(21, 512, 4096, 512, 2048).mem(41, -512, 4096, 0, 2048);
        t.mem(61, -64, 4096, 0, 0, 0, -1);
        QTemporaryDir dir;
        const core::MemoryReport byDefault = memoryOf(dir, t);
        QCOMPARE(byDefault.ranks.size(), std::size_t { 1 });
        const auto& rows = byDefault.ranks[0].allocations;
        QCOMPARE(rows.size(), std::size_t { 2 });
        QCOMPARE(rows[0].device, std::string("GPU0"));
        QCOMPARE(rows[0].op, std::string("aten::add"));
        QCOMPARE(rows[0].freeOp, std::string("aten::mul"));
        QCOMPARE(rows[0].size, std::int64_t { 512 });
        QCOMPARE(*rows[0].released - *rows[0].allocated, core::TimeNs { 20'000 });
        QCOMPARE(rows[1].device, std::string("CPU"));
        QCOMPARE(rows[1].op, std::string("aten::empty"));
        QVERIFY(rows[1].kind == core::AllocationKind::Paired);

        QTemporaryDir dir2;
        const core::MemoryReport compat = memoryOf(dir2, t, true);
        const auto& plugin = compat.ranks[0].allocations;
        QCOMPARE(plugin.size(), std::size_t { 2 });
        QCOMPARE(plugin[0].device, std::string("GPU0"));
        QVERIFY(plugin[1].kind == core::AllocationKind::FreedOnly);
        QCOMPARE(plugin[1].device, std::string("CPU"));
        QCOMPARE(plugin[1].op, std::string("<unknown>"));
        QVERIFY(!plugin[1].allocated);
    }

    // The loader keeps every arg the analysis reads: with the file gone after the
    // load, the report is the same (pairing by address, the reserved curve).
    void noSecondReadOfTheFile()
    {
        MemoryTrace t;
        t.op("aten::empty", 0, 10).op("aten::add", 20, 10).op("aten::mul", 40, 10);
        t.mem(1, 64, 4096, 64, 64).mem(21, 512, 8192, 512, 2048).mem(41, -512, 8192, 0, 2048);
        QTemporaryDir kept;
        const core::MemoryReport expected = memoryOf(kept, t);
        QTemporaryDir dir;
        const core::TraceSet set = loadRanks(dir, { t.document() });
        QVERIFY(dir.remove());
        const core::MemoryReport report = core::memoryReport(set, core::MemoryOptions {});
        QCOMPARE(report.ranks.size(), std::size_t { 1 });
        QVERIFY(!report.ranks[0].error);
        const auto& rows = report.ranks[0].allocations;
        QCOMPARE(rows.size(), expected.ranks[0].allocations.size());
        const auto paired =
            std::find_if(rows.begin(), rows.end(), [](const auto& r) { return r.size == 512; });
        QVERIFY(paired != rows.end());
        QCOMPARE(paired->op, std::string("aten::add"));
        QCOMPARE(paired->freeOp, std::string("aten::mul")); // paired by address: Addr was kept
        const core::DeviceMemorySummary* gpu = deviceNamed(report.ranks[0], "GPU0");
        QVERIFY(gpu);
        QCOMPARE(gpu->peakReserved, std::int64_t { 2048 }); // Total Reserved was kept
    }

    // A free with no allocation in the trace: memory from before it, which the
    // first record's total also shows.
    void freesFromBeforeTheTrace()
    {
        MemoryTrace t;
        t.op("aten::mul", 0, 50);
        t.mem(5, -1000, 77, 3000, 8192).mem(10, 200, 88, 3200, 8192).mem(20, -200, 88, 3000, 8192);
        QTemporaryDir dir;
        const core::RankMemory rank = memoryOf(dir, t).ranks.at(0);
        const auto* gpu = deviceNamed(rank, "GPU0");
        QVERIFY(gpu);
        QCOMPARE(gpu->allocatedBeforeTrace, std::int64_t { 4000 });
        QCOMPARE(gpu->freedBeforeTraceBytes, std::int64_t { 1000 });
        QCOMPARE(gpu->freedBeforeTraceCount, std::int64_t { 1 });
        QCOMPARE(gpu->liveAtEndCount, std::int64_t { 0 });
        QCOMPARE(rank.allocations.back().op, std::string("<unknown>"));
        QVERIFY(rank.allocations.back().kind == core::AllocationKind::FreedOnly);
    }

    // Allocations never freed are live at the end: the leak candidates. An
    // allocation at an address still open leaves the earlier one as never
    // freed by default (the plugin overwrites it: it is in no row).
    void leaksLiveAtEnd()
    {
        MemoryTrace t;
        t.op("aten::empty", 0, 10).op("aten::cat", 20, 10);
        t.mem(1, 100, 1, 100, 1024).mem(21, 300, 1, 400, 1024);
        QTemporaryDir dir;
        const core::RankMemory rank = memoryOf(dir, t).ranks.at(0);
        const auto* gpu = deviceNamed(rank, "GPU0");
        QCOMPARE(gpu->liveAtEndCount, std::int64_t { 2 });
        QCOMPARE(gpu->liveAtEndBytes, std::int64_t { 400 });
        QCOMPARE(gpu->allocatedAtEnd, std::int64_t { 400 });
        QTemporaryDir dir2;
        const core::RankMemory plugin = memoryOf(dir2, t, true).ranks.at(0);
        QCOMPARE(plugin.allocations.size(), std::size_t { 1 });
        QCOMPARE(plugin.allocations[0].op, std::string("aten::cat"));
        QCOMPARE(deviceNamed(plugin, "GPU0")->liveAtEndBytes, std::int64_t { 300 });
    }

    // Each ProfilerStep leaves 1000 bytes more allocated: growth per step, and
    // --iterations keeps the records of the steps asked for.
    void growthPerStep()
    {
        MemoryTrace t;
        std::int64_t total = 5000;
        for (int step = 0; step < 3; ++step) {
            const std::int64_t base = step * 100;
            t.op("ProfilerStep#" + std::to_string(step + 1), base, 90, "user_annotation");
            t.op("aten::empty", base + 10, 10);
            total += 1000;
            t.mem(base + 11, 1000, 100 + step, total, 1 << 20);
            t.op("aten::mul", base + 30, 10);
            t.mem(base + 31, 64, 900, total + 64, 1 << 20);
            t.mem(base + 35, -64, 900, total, 1 << 20);
        }
        QTemporaryDir dir;
        const core::RankMemory rank = memoryOf(dir, t).ranks.at(0);
        QCOMPARE(rank.steps.size(), std::size_t { 3 });
        for (const core::StepMemory& s : rank.steps) {
            QCOMPARE(s.growth(), std::int64_t { 1000 });
            QCOMPARE(s.peakAllocated, s.allocatedAtEnd + 64);
        }
        QCOMPARE(rank.steps[0].allocatedAtStart, std::int64_t { 5000 });
        QCOMPARE(rank.steps[2].allocatedAtEnd, std::int64_t { 8000 });

        QTemporaryDir dir2;
        const core::RankMemory second = memoryOf(dir2, t, false, { 2 }).ranks.at(0);
        QCOMPARE(second.allocations.size(), std::size_t { 2 }); // the step's paired one and its leak
        QCOMPARE(second.devices.at(0).peakAllocated, std::int64_t { 7064 });
    }

    // [OutOfMemory]: the failed request, the totals and the op that asked.
    void outOfMemory()
    {
        MemoryTrace t;
        t.deviceMemory(10'000).op("aten::matmul", 0, 100);
        t.mem(10, 9000, 1, 9000, 9500).outOfMemory(20, 4000, 9000, 9500);
        QTemporaryDir dir;
        const core::RankMemory rank = memoryOf(dir, t).ranks.at(0);
        QCOMPARE(rank.outOfMemory.size(), std::size_t { 1 });
        const core::OutOfMemoryRow& oom = rank.outOfMemory[0];
        QCOMPARE(oom.device, std::string("GPU0"));
        QCOMPARE(oom.requested, std::int64_t { 4000 });
        QCOMPARE(oom.totalReserved, std::int64_t { 9500 });
        QCOMPARE(*oom.capacity, std::int64_t { 10'000 });
        QCOMPARE(oom.op, std::string("aten::matmul"));
        const auto* gpu = deviceNamed(rank, "GPU0");
        QCOMPARE(*gpu->capacity, std::int64_t { 10'000 });
        QCOMPARE(gpu->peakOp, std::string("aten::matmul"));
        QCOMPARE(gpu->maxCacheOverhead, std::int64_t { 500 });
    }

    // ROCm writes Device Type 6: a GPU by default; the plugin knows no such
    // device, so its statistics leave the records out.
    void hipDeviceType()
    {
        MemoryTrace t;
        t.op("aten::add", 0, 10).mem(1, 256, 5, 256, 1024, 6, 0).mem(5, 8, 6, 8, 0, 0, -1);
        QTemporaryDir dir;
        const core::RankMemory rank = memoryOf(dir, t).ranks.at(0);
        QVERIFY(deviceNamed(rank, "GPU0"));
        QCOMPARE(rank.stats.size(), std::size_t { 2 });
        QTemporaryDir dir2;
        const core::RankMemory plugin = memoryOf(dir2, t, true).ranks.at(0);
        QVERIFY(!deviceNamed(plugin, "GPU0"));
        QCOMPARE(plugin.stats.size(), std::size_t { 1 });
        QCOMPARE(plugin.stats[0].device, std::string("CPU"));
        QVERIFY(std::any_of(plugin.diagnostics.begin(), plugin.diagnostics.end(),
            [](const std::string& d) { return d.find("HIP") != std::string::npos; }));
    }

    // PyTorch 1.8/1.9: no Addr, no totals, no cat. The curve is the running sum
    // of Bytes, nothing is paired, the statistics still count, and each lack is said.
    void oldFormat()
    {
        MemoryTrace t;
        t.op("aten::empty", 0, 10).oldMem(1, 100).oldMem(2, 50).op("aten::mul", 20, 10).oldMem(21, -100);
        QTemporaryDir dir;
        const core::RankMemory rank = memoryOf(dir, t).ranks.at(0);
        const auto* gpu = deviceNamed(rank, "GPU0");
        QVERIFY(gpu);
        QVERIFY(gpu->summedFromBytes);
        QCOMPARE(gpu->peakAllocated, std::int64_t { 150 });
        QCOMPARE(gpu->allocatedAtEnd, std::int64_t { 50 });
        QVERIFY(rank.allocations.empty());
        QCOMPARE(rank.stats.size(), std::size_t { 2 });
        QCOMPARE(rank.diagnostics.size(), std::size_t { 3 }); // no Addr, no totals, no cat
        QTemporaryDir dir2;
        const core::RankMemory plugin = memoryOf(dir2, t, true).ranks.at(0);
        QCOMPARE(plugin.curves.size(), std::size_t { 1 });
        QVERIFY(plugin.curves[0].points.empty()); // the plugin skips records without Addr
    }

    // No [memory] events: not applicable, with the one line the CLI prints.
    void noMemoryEvents()
    {
        MemoryTrace t;
        t.op("aten::add", 0, 10);
        QTemporaryDir dir;
        const core::MemoryReport report = memoryOf(dir, t);
        QVERIFY(!report.anyRecords());
        const core::AnalysisOutput out = core::memoryOutput(report);
        QVERIFY(!out.ok);
        QVERIFY(out.error.find("no [memory] events") != std::string::npos);
    }
};

KS_TEST_MAIN(tst_memory_analysis, TestMemoryAnalysis)
#include "tst_memory_analysis.moc"
