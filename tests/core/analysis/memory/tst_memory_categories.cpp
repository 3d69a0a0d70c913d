// HTA #223's get_memory_timeline_per_category on a small trace (spec
// memory-semantics.md HTA.4-HTA.6): a free counted in its allocation's
// category, memory from before the trace, and two devices paired apart; the
// time base across ranks (HTA.2: HTA's min_ts is the earliest of all ranks)
// and the rows restricted to iterations and to a device.

#include "core/analysis/memory/memory_categories.h"
#include "tests/support/memory_traces.h"
#include "tests/support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace ks;
using namespace ks::tests;

namespace {

struct Expected
{
    std::int64_t deviceId;
    std::int64_t index;
    std::int64_t ts;
    std::int64_t bytes;
    std::int64_t totalAllocated;
    std::optional<std::int64_t> mirror;
    std::string type;
    std::vector<std::int64_t> stackIds;
    std::uint32_t nameId;
};

struct ExpectedPoint
{
    std::int64_t deviceId;
    std::int64_t index;
    std::int64_t ts;
    std::string category;
    bool plottingOnly;
    std::int64_t total;
};

// The same document as rank 1.
std::string asRankOne(std::string document)
{
    const std::string from = R"("distributedInfo":{"rank":0})";
    document.replace(document.find(from), from.size(), R"("distributedInfo":{"rank":1})");
    return document;
}

// forward [at, at + 100] with aten::add [at + 10, at + 30] inside; a GPU allocation
// at +15 and its free at +25, a CPU allocation at +20.
MemoryTrace stepAt(std::int64_t at)
{
    MemoryTrace t;
    t.op("forward", at, 100, "python_function").op("aten::add", at + 10, 20);
    t.mem(at + 15, 256, 4096, 256, 2048)
        .mem(at + 25, -256, 4096, 0, 2048)
        .mem(at + 20, 64, 512, 64, 0, 0, -1);
    return t;
}

} // namespace

class TestMemoryCategories : public QObject
{
    Q_OBJECT

private slots:

    void classifiesFromTheStackName()
    {
        QCOMPARE(core::classifyTorchtitanStack(""), std::string("unknown:unknown"));
        QCOMPARE(core::classifyTorchtitanStack("forward;nn.Module: Embedding_0"),
            std::string("forward:embedding"));
        QCOMPARE(core::classifyTorchtitanStack("Backward;aten::mm"), std::string("backward:details"));
        QCOMPARE(core::classifyTorchtitanStack("forward;Qwen2RMSNorm_0"), std::string("forward:output"));
        // HTA's re.search("optimizedmodule_[0-9]+"), case-folded: a digit must follow.
        QCOMPARE(core::classifyTorchtitanStack("Forward;OptimizedModule_12"), std::string("forward:layer"));
        QCOMPARE(core::classifyTorchtitanStack("forward;optimizedmodule_x;optimizedmodule_3"),
            std::string("forward:layer"));
        QCOMPARE(core::classifyTorchtitanStack("forward;optimizedmodule_"), std::string("forward:unknown"));
    }

    // Events in file order (HTA's `index`): 0 forward [0, 100], 1 aten::embedding
    // [10, 30], 2 aten::add [40, 60], then [memory]: 3 GPU +256 at 4096 (15),
    // 4 GPU -256 at 4096 (45), 5 GPU -1024 at 8192 (70), 6 CPU +256 at 4096 (20).
    // Hand-computed: the GPU free 4 pairs with the GPU allocation 3, not with the later
    // CPU one at the same address, and counts as forward:embedding (where 3 was
    // allocated) though it happens in aten::add; 5 has no allocation: before the
    // trace. The GPU had 1280 - 256 = 1024 bytes before the trace, the CPU 0.
    void freeInItsAllocationsCategoryPerDevice()
    {
        MemoryTrace t;
        t.op("forward", 0, 100, "python_function").op("aten::embedding", 10, 20).op("aten::add", 40, 20);
        t.mem(15, 256, 4096, 1280, 2048).mem(45, -256, 4096, 1024, 2048).mem(70, -1024, 8192, 0, 2048);
        t.mem(20, 256, 4096, 256, 0, 0, -1);
        QTemporaryDir dir;
        const core::MemoryCategories c = memoryOf(dir, t).ranks.at(0).categories;

        const std::vector<std::string> names { "forward;aten::embedding", "allocated_before_profile",
            "forward;aten::add", "forward" };
        QCOMPARE(c.stackNames, names);
        const std::string abp(core::kAllocatedBeforeProfile);
        const std::vector<Expected> events {
            { -1, 6, 20, 256, 256, std::nullopt, "forward:embedding", { 0 }, 0 },
            { -1, 7, 14, 0, 0, std::nullopt, abp, { 0 }, 1 }, // the CPU's synthetic row: a copy of 6
            { 0, 3, 15, 256, 1280, 4, "forward:embedding", { 0 }, 0 },
            { 0, 4, 45, -256, 1024, 3, "forward:embedding", { 0 }, 2 },
            { 0, 5, 70, -1024, 0, std::nullopt, abp, {}, 3 },
            { 0, 6, 14, 1024, 1024, 4, abp, { 0 }, 1 }, // the GPU's: a copy of 3
        };
        QCOMPARE(c.events.size(), events.size());
        for (std::size_t k = 0; k < events.size(); ++k) {
            const core::ClassifiedMemoryEvent& e = c.events[k];
            const Expected& x = events[k];
            QCOMPARE(e.deviceId, x.deviceId);
            QCOMPARE(e.index, x.index);
            QCOMPARE(e.ts, x.ts);
            QCOMPARE(e.bytesDelta, x.bytes);
            QCOMPARE(e.totalAllocated, x.totalAllocated);
            QCOMPARE(e.allocOrDeallocId, x.mirror);
            QCOMPARE(e.stackType, x.type);
            QCOMPARE(e.stackIds, x.stackIds);
            QCOMPARE(e.stackNameId, x.nameId);
        }

        // Per device and category (sorted by name): each row and its ts-1 copy, summed.
        const std::vector<ExpectedPoint> points {
            { -1, 7, 13, abp, true, 0 },
            { -1, 7, 14, abp, false, 0 },
            { -1, 6, 19, "forward:embedding", true, 0 },
            { -1, 6, 20, "forward:embedding", false, 256 },
            { 0, 6, 13, abp, true, 0 },
            { 0, 6, 14, abp, false, 1024 },
            { 0, 5, 69, abp, true, 1024 },
            { 0, 5, 70, abp, false, 0 },
            { 0, 3, 14, "forward:embedding", true, 0 },
            { 0, 3, 15, "forward:embedding", false, 256 },
            { 0, 4, 44, "forward:embedding", true, 256 },
            { 0, 4, 45, "forward:embedding", false, 0 },
        };
        QCOMPARE(c.timeline.size(), points.size());
        for (std::size_t k = 0; k < points.size(); ++k) {
            const core::CategoryTimelineRow& r = c.timeline[k];
            const ExpectedPoint& x = points[k];
            QCOMPARE(r.deviceId, x.deviceId);
            QCOMPARE(r.index, x.index);
            QCOMPARE(r.ts, x.ts);
            QCOMPARE(r.category, x.category);
            QCOMPARE(r.plottingOnly, x.plottingOnly);
            QCOMPARE(r.categoryTotal, x.total);
        }
    }

    // Rank 1 starts 1000 µs after rank 0. By default each rank's ts count from its own
    // first event (both 15 for the GPU allocation); under htaTimeBase from the earliest
    // of both ranks, as HTA's Trace subtracts the min ts of all ranks: rank 1's from 1015.
    void timeBaseAcrossRanks()
    {
        QTemporaryDir dir;
        const core::TraceSet set =
            loadRanks(dir, { stepAt(0).document(), asRankOne(stepAt(1000).document()) });
        QCOMPARE(set.ranks.size(), std::size_t { 2 });
        core::MemoryOptions own;
        core::MemoryOptions hta;
        hta.htaTimeBase = true;
        const core::MemoryReport a = core::memoryReport(set, own);
        const core::MemoryReport b = core::memoryReport(set, hta);
        QCOMPARE(a.ranks.size(), std::size_t { 2 });
        for (std::size_t r = 0; r < 2; ++r) {
            const std::int64_t shift = b.ranks[r].rank == 1 ? 1000 : 0;
            const core::MemoryCategories& mine = a.ranks[r].categories;
            const core::MemoryCategories& theirs = b.ranks[r].categories;
            QVERIFY(!mine.jobTimeBase);
            QVERIFY(theirs.jobTimeBase);
            QCOMPARE(mine.timeBaseUs, kBaseUs + shift);
            QCOMPARE(theirs.timeBaseUs, kBaseUs);
            QCOMPARE(mine.events.size(), std::size_t { 5 }); // 3 records, one synthetic row per device
            QCOMPARE(theirs.events.size(), mine.events.size());
            for (std::size_t k = 0; k < mine.events.size(); ++k) {
                QCOMPARE(theirs.events[k].index, mine.events[k].index);
                QCOMPARE(theirs.events[k].ts, mine.events[k].ts + shift);
            }
            const auto gpu = std::find_if(mine.events.begin(), mine.events.end(),
                [](const core::ClassifiedMemoryEvent& e) { return e.deviceId == 0 && e.bytesDelta == 256; });
            QVERIFY(gpu != mine.events.end());
            QCOMPARE(gpu->ts, std::int64_t { 15 });
            QCOMPARE(theirs.timeline.size(), mine.timeline.size());
            for (std::size_t k = 0; k < mine.timeline.size(); ++k) {
                QCOMPARE(theirs.timeline[k].ts, mine.timeline[k].ts + shift);
                QCOMPARE(theirs.timeline[k].categoryTotal, mine.timeline[k].categoryTotal);
            }
        }
        // One rank alone: its own start is HTA's base too.
        QCOMPARE(
            core::rankMemory(*set.ranks[1], hta).categories.timeBaseUs, a.ranks[1].categories.timeBaseUs);
    }

    // --iterations and --device restrict HTA #223's rows as the other tables: three
    // ProfilerSteps of 40 µs (HTA drops the last one's rows, HTA.2), a GPU allocation and
    // free in step 1 (10, 30), a GPU allocation (60) and a CPU one (70) in step 2.
    // Step 2 keeps the rows at 60 and 70 (events 5 and 6) with the whole trace's running
    // totals, not the synthetic rows (1 µs before the first record, in step 1); the device
    // filter keeps the CPU's rows (its record and its synthetic row), names renumbered from 0.
    void rowsRestrictedToIterationsAndDevice()
    {
        MemoryTrace t;
        t.op("ProfilerStep#1", 0, 40, "user_annotation").op("ProfilerStep#2", 40, 40, "user_annotation");
        t.op("ProfilerStep#3", 80, 40, "user_annotation");
        t.mem(10, 256, 4096, 1280, 2048).mem(30, -256, 4096, 1024, 2048).mem(60, 512, 8192, 1536, 2048);
        t.mem(70, 128, 640, 128, 0, 0, -1);
        QTemporaryDir dir;
        const core::MemoryCategories all = memoryOf(dir, t).ranks.at(0).categories;
        const core::MemoryCategories step = memoryOf(dir, t, false, { 2 }).ranks.at(0).categories;
        std::vector<std::int64_t> indices;
        for (const core::ClassifiedMemoryEvent& e : step.events)
            indices.push_back(e.index);
        QCOMPARE(indices, (std::vector<std::int64_t> { 6, 5 })); // by device: the CPU (-1) first
        for (const core::CategoryTimelineRow& r : step.timeline) {
            QVERIFY((r.deviceId == -1 && r.index == 6) || (r.deviceId == 0 && r.index == 5));
            const auto same = std::find_if(all.timeline.begin(), all.timeline.end(), [&](const auto& x) {
                return x.deviceId == r.deviceId && x.index == r.index && x.plottingOnly == r.plottingOnly
                    && x.category == r.category;
            });
            QVERIFY(same != all.timeline.end());
            QCOMPARE(r.categoryTotal, same->categoryTotal);
            QCOMPARE(r.ts, same->ts);
        }
        QCOMPARE(step.timeline.size(), std::size_t { 4 }); // each row and its plotting copy
        for (const core::ClassifiedMemoryEvent& e : step.events) {
            QVERIFY(e.stackNameId < step.stackNames.size());
            const auto same = std::find_if(all.events.begin(), all.events.end(),
                [&](const auto& x) { return x.deviceId == e.deviceId && x.index == e.index; });
            QCOMPARE(step.stackNames[e.stackNameId], all.stackNames[same->stackNameId]);
        }
        // No such step: no rows.
        QVERIFY(memoryOf(dir, t, false, { 9 }).ranks.at(0).categories.events.empty());

        core::MemoryCategories cpu = all;
        core::restrictCategoriesToDevice(cpu, -1);
        QVERIFY(!cpu.events.empty());
        QCOMPARE(cpu.events.front().stackNameId, 0U);
        for (const core::ClassifiedMemoryEvent& e : cpu.events)
            QCOMPARE(e.deviceId, std::int64_t { -1 });
        for (const core::CategoryTimelineRow& r : cpu.timeline) {
            QCOMPARE(r.deviceId, std::int64_t { -1 });
            QVERIFY(r.stackNameId < cpu.stackNames.size());
        }
        QCOMPARE(cpu.events.size(), std::size_t { 2 }); // the allocation at 70 and the synthetic row
        QVERIFY(cpu.stackNames.size() <= 2);
    }
};

KS_TEST_MAIN(tst_memory_categories, TestMemoryCategories)
#include "tst_memory_categories.moc"
