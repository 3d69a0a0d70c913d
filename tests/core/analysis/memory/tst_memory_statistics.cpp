// The plugin's Memory Statistics (spec TB.8) on small traces: self and total
// through child operators and non-operator frames, calls, same-name merging,
// and a record inside a module frame inside an operator.

#include "tests/support/memory_traces.h"
#include "tests/support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

using namespace ks;
using namespace ks::tests;

namespace {

const core::OperatorMemoryRow* row(
    const core::RankMemory& rank, const std::string& device, const std::string& op)
{
    for (const auto& r : rank.stats)
        if (r.device == device && r.op == op)
            return &r;
    return nullptr;
}

} // namespace

class TestMemoryStatistics : public QObject
{
    Q_OBJECT

private slots:

    // linear > addmm > empty: the empty's allocation is addmm's and linear's in
    // total, only empty's in self; the free inside addmm lowers addmm's self
    // increase. Both modes agree here.
    void selfAndTotal()
    {
        MemoryTrace t;
        t.op("aten::linear", 0, 100).op("aten::addmm", 10, 80).op("aten::empty", 20, 10);
        t.mem(25, 1000, 1, 1000, 4096).mem(50, 200, 2, 1200, 4096).mem(60, -200, 2, 1000, 4096);
        for (bool compat : { false, true }) {
            QTemporaryDir dir;
            const core::RankMemory rank = memoryOf(dir, t, compat).ranks.at(0);
            const auto* linear = row(rank, "GPU0", "aten::linear");
            const auto* addmm = row(rank, "GPU0", "aten::addmm");
            const auto* empty = row(rank, "GPU0", "aten::empty");
            QVERIFY(linear && addmm && empty);
            QCOMPARE(linear->selfSizeIncrease, std::int64_t { 0 });
            QCOMPARE(linear->sizeIncrease, std::int64_t { 1000 });
            QCOMPARE(linear->allocationCount, std::int64_t { 2 });
            QCOMPARE(linear->allocationSize, std::int64_t { 1200 });
            QCOMPARE(addmm->selfSizeIncrease, std::int64_t { 0 }); // +200 - 200
            QCOMPARE(addmm->selfAllocationCount, std::int64_t { 1 });
            QCOMPARE(addmm->selfAllocationSize, std::int64_t { 200 });
            QCOMPARE(empty->selfSizeIncrease, std::int64_t { 1000 });
            QCOMPARE(empty->calls, std::int64_t { 1 });
            QCOMPARE(rank.allocations.at(0).op, std::string("aten::addmm"));
            QCOMPARE(rank.allocations.at(1).op, std::string("aten::addmm (aten::empty)"));
        }
    }

    // Calls count the instances the plugin visits: every top-level one, and
    // below them only inside nodes a record of the thread went into.
    void callsOfVisitedNodes()
    {
        MemoryTrace t;
        t.op("aten::to", 0, 10).op("aten::copy_", 2, 5); // no record: its child is not visited
        t.op("aten::to", 20, 10).op("aten::copy_", 22, 5).mem(23, 64, 1, 64, 1024);
        QTemporaryDir dir;
        const core::RankMemory rank = memoryOf(dir, t).ranks.at(0);
        QCOMPARE(row(rank, "GPU0", "aten::to")->calls, std::int64_t { 2 });
        QCOMPARE(row(rank, "GPU0", "aten::copy_")->calls, std::int64_t { 1 });
    }

    // An operator whose only child has its name is one node (the plugin's merge).
    void sameNameChildMerged()
    {
        MemoryTrace t;
        t.op("aten::add", 0, 20).op("aten::add", 5, 10).mem(6, 32, 1, 32, 1024);
        QTemporaryDir dir;
        const core::RankMemory rank = memoryOf(dir, t).ranks.at(0);
        const auto* add = row(rank, "GPU0", "aten::add");
        QCOMPARE(add->calls, std::int64_t { 1 });
        QCOMPARE(add->selfAllocationSize, std::int64_t { 32 });
        QCOMPARE(add->allocationSize, std::int64_t { 32 });
    }

    // A record inside an nn.Module frame that is inside an operator: the plugin
    // counts it nowhere (the innermost node is not an operator); by default the
    // operator holding the frame counts it.
    void recordInModuleFrame()
    {
        MemoryTrace t;
        t.op("aten::custom_op", 0, 100).op("nn.Module: Inner_0", 10, 50, "python_function");
        t.mem(20, 500, 1, 500, 4096);
        QTemporaryDir dir;
        const core::RankMemory rank = memoryOf(dir, t).ranks.at(0);
        QVERIFY(row(rank, "GPU0", "aten::custom_op"));
        QCOMPARE(row(rank, "GPU0", "aten::custom_op")->selfAllocationSize, std::int64_t { 500 });
        QCOMPARE(rank.allocations.at(0).op, std::string("aten::custom_op"));
        QTemporaryDir dir2;
        const core::RankMemory plugin = memoryOf(dir2, t, true).ranks.at(0);
        QVERIFY(plugin.stats.empty());
        QCOMPARE(plugin.allocations.at(0).op, std::string("<unknown>"));
    }

    // Records between operators, or outside any, count in no row; a plain
    // python_function is no node of the tree.
    void recordsOutsideOperators()
    {
        MemoryTrace t;
        t.op("aten::a", 0, 10).op("aten::b", 30, 10).op("helper", 12, 10, "python_function");
        t.mem(15, 100, 1, 100, 1024).mem(50, 100, 2, 200, 1024);
        QTemporaryDir dir;
        const core::RankMemory rank = memoryOf(dir, t).ranks.at(0);
        QVERIFY(rank.stats.empty());
        QCOMPARE(rank.attributed, std::size_t { 0 });
    }
};

KS_TEST_MAIN(tst_memory_statistics, TestMemoryStatistics)
#include "tst_memory_statistics.moc"
