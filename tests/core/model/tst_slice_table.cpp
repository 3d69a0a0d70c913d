// SliceTable's one column list: permute() must move every column together
// (a column left behind would silently pair one slice's name with another's
// time), durations over 32 bits must follow their slice, and columnsAligned()
// must notice a column that was not pushed.

#include "core/io/trace_set_loader.h"
#include "core/model/event_tables.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <numeric>
#include <tuple>

using namespace ks;
using core::SliceRow;
using core::SliceTable;

namespace {

// Column by column, after.column[k] == before.column[order[k]] for every column in the list.
bool movedTogether(const SliceTable& before, const SliceTable& after, const std::vector<std::uint32_t>& order)
{
    bool same = after.size() == order.size();
    std::apply(
        [&](const auto&... c) {
            for (std::uint32_t k = 0; same && k < order.size(); ++k)
                same = (((after.*(c.column))[k] == (before.*(c.column))[order[k]]) && ...);
        },
        core::kSliceColumns);
    for (std::uint32_t k = 0; same && k < order.size(); ++k)
        same = after.duration(k) == before.duration(order[k]);
    return same;
}

std::vector<std::uint32_t> scrambled(std::size_t n)
{
    // Odd stride over n: a permutation that keeps no neighbour together.
    std::vector<std::uint32_t> order(n);
    std::size_t stride = n / 3 + 1;
    while (std::gcd(stride, n) != 1)
        ++stride;
    for (std::size_t k = 0; k < n; ++k)
        order[k] = static_cast<std::uint32_t>(k * stride % n);
    return order;
}

} // namespace

class TestSliceTable : public QObject
{
    Q_OBJECT

private slots:

    void permuteMovesEveryColumnOfARealRank()
    {
        const std::string path = KS_SHARED_DIR "/traces/critical_path_simple_add/"
                                               "benchmark_result_493459_1694039959_trace.json.gz";
        auto loaded = core::loadRankFile(path, {}, nullptr, nullptr);
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : loaded.error().describe().c_str());
        const SliceTable& before = loaded.value().slices;
        QVERIFY(before.size() > 100);
        QVERIFY(before.columnsAligned());

        const auto order = scrambled(before.size());
        SliceTable after = before;
        after.permute(order);
        QVERIFY(after.columnsAligned());
        QVERIFY(movedTogether(before, after, order));
        // The check can fail: a table whose start column alone stayed put differs.
        SliceTable partly = after;
        partly.start = before.start;
        QVERIFY(!movedTogether(before, partly, order));
    }

    void overflowDurationsFollowTheirSlice()
    {
        SliceTable t;
        const core::TimeNs longDur = 5'000'000'000; // over 2^32 - 1 ns
        for (std::uint32_t i = 0; i < 6; ++i) {
            SliceRow row;
            row.start = 100 * i;
            row.duration = i % 2 == 0 ? longDur + i : i;
            row.eventIndex = i;
            t.push(row);
        }
        QCOMPARE(t.durOverflow.size(), std::size_t { 3 });
        const std::vector<std::uint32_t> order { 5, 2, 4, 1, 0, 3 };
        const SliceTable before = t;
        t.permute(order);
        QVERIFY(movedTogether(before, t, order));
        QCOMPARE(t.duration(1), longDur + 2);
        QCOMPARE(t.duration(0), core::TimeNs { 5 });
        QCOMPARE(t.durOverflow.size(), std::size_t { 3 });
    }

    void columnsAlignedNoticesAMissedColumn()
    {
        SliceTable t;
        t.push(SliceRow {});
        QVERIFY(t.columnsAligned());
        t.eventIndex.push_back(0);
        QVERIFY(!t.columnsAligned());
    }
};

KS_TEST_MAIN(tst_slice_table, TestSliceTable)
#include "tst_slice_table.moc"
