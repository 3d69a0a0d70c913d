// X2 collective skew: the n-th instance of a communication kernel is matched
// across ranks; skew, last rank and transfer come from the ranks' own times.

#include "core/analysis/cross_rank/collective_skew.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

using namespace ks;

namespace {

std::string gpuKernel(const std::string& name, std::int64_t ts, std::int64_t dur, int stream)
{
    return tests::completeEvent(
        "kernel", name, ts, dur, 0, stream, R"({"stream":)" + std::to_string(stream) + "}");
}

const std::string kAllReduce = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";

// Every rank: a gemm, then two all-reduces; `lateStart` delays the second one's start.
std::string rankDocument(std::int64_t rank, std::int64_t secondStart, bool extraBroadcast = false)
{
    std::vector<std::string> events { gpuKernel("gemm_kernel", 0, 9, 7), gpuKernel(kAllReduce, 10, 40, 13),
        gpuKernel(kAllReduce, secondStart, 600 - secondStart, 13) };
    if (extraBroadcast)
        events.push_back(gpuKernel("ncclKernel_Broadcast_RING_LL", 700, 10, 13));
    return tests::kinetoDocument(rank, events);
}

double number(const core::Table& t, std::size_t row, const std::string& column)
{
    return core::cellAsDouble(t.rows[row][t.columnIndex(column)]).value_or(-1.0);
}

} // namespace

class TestCollectiveSkew : public QObject
{
    Q_OBJECT

private slots:

    void matchesInstancesAcrossRanks()
    {
        QTemporaryDir dir;
        const core::TraceSet set =
            tests::loadRanks(dir, { rankDocument(0, 100), rankDocument(1, 100, true), rankDocument(2, 400) });
        const auto out = core::collectiveSkew(set);
        QVERIFY2(out.ok, out.error.c_str());
        const core::Table& t = out.result.frame;
        // Two all-reduce instances; the broadcast is on one rank only; the gemm is not communication.
        QCOMPARE(t.rows.size(), std::size_t(2));
        QCOMPARE(core::cellAsText(t.rows[0][t.columnIndex("name")]), kAllReduce);
        QCOMPARE(number(t, 0, "instance"), 1.0); // the skewed one first
        QCOMPARE(number(t, 0, "ranks"), 3.0);
        QCOMPARE(number(t, 0, "skew_us"), 300.0);
        QCOMPARE(number(t, 0, "last_rank"), 2.0);
        QCOMPARE(number(t, 0, "transfer_us"), 200.0); // all inside from 400 to 600
        QCOMPARE(number(t, 0, "wait_share_pct"), 60.0);
        QCOMPARE(number(t, 0, "first_arrival_us"), 100.0);
        QCOMPARE(number(t, 1, "instance"), 0.0);
        QCOMPARE(number(t, 1, "skew_us"), 0.0);
        QCOMPARE(number(t, 1, "transfer_us"), 40.0);
    }

    void topLimitsRows()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir, { rankDocument(0, 100), rankDocument(1, 300) });
        const auto out = core::collectiveSkew(set, 1);
        QCOMPARE(out.result.frame.rows.size(), std::size_t(1));
        QCOMPARE(number(out.result.frame, 0, "skew_us"), 200.0);
    }

    void needsTwoRanks()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir, { rankDocument(0, 100) });
        const auto out = core::collectiveSkew(set);
        QVERIFY(!out.ok);
        QVERIFY(out.error.find("two ranks") != std::string::npos);
    }
};

KS_TEST_MAIN(tst_collective_skew, TestCollectiveSkew)
#include "tst_collective_skew.moc"
