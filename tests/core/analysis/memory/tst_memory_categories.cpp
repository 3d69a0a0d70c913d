// HTA #223's get_memory_timeline_per_category on a small trace (spec
// memory-semantics.md HTA.4-HTA.6): a free counted in its allocation's
// category, memory from before the trace, and two devices paired apart.

#include "core/analysis/memory/memory_categories.h"
#include "tests/support/memory_traces.h"
#include "tests/support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

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
};

KS_TEST_MAIN(tst_memory_categories, TestMemoryCategories)
#include "tst_memory_categories.moc"
