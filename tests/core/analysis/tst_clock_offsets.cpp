// estimateClockOffsets: clock offsets from the common ends of collectives,
// median with outliers rejected, spread reported. A rank shifted by +5 ms comes
// back within the spread; the real gloo job lines up; arrivals are compared on
// the estimated clocks.

#include "core/analysis/cross_rank/arrival_stragglers.h"
#include "core/analysis/cross_rank/clock_offsets.h"
#include "core/analysis/cross_rank/collective_match.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <fstream>
#include <regex>

using namespace ks;
using core::TimeNs;

namespace {

// One all-reduce of group `group` (members `ranks`), Seq `seq`: starts at
// `start`, ends at `end` (µs, may be fractional).
std::string allReduce(const std::string& group, const std::string& ranks, int seq, double start, double end)
{
    return R"({"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","pid":0,"tid":7,"ts":)"
        + std::to_string(start) + R"(,"dur":)" + std::to_string(end - start)
        + R"(,"args":{"stream":7,"Process Group Name":")" + group + R"(","Process Group Ranks":")" + ranks
        + R"(","Collective name":"allreduce","Seq":)" + std::to_string(seq) + "}}";
}

// A deterministic jitter in [-3, 3] µs.
double jitter(int rank, int seq)
{
    return static_cast<double>((rank * 31 + seq) * (rank * 17 + seq * 13 + 5) % 601) / 100.0 - 3.0;
}

// A copy of a trace file with every "ts": N moved by `byUs` µs (integer ts only).
std::string shiftedFile(const std::string& path, std::int64_t byUs)
{
    std::ifstream in(path);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    static const std::regex ts(R"("ts": ?(\d+))");
    std::string out;
    auto last = text.cbegin();
    for (std::sregex_iterator it(text.begin(), text.end(), ts), end; it != end; ++it) {
        out.append(last, (*it)[0].first);
        out += "\"ts\": " + std::to_string(std::stoll((*it)[1].str()) + byUs);
        last = (*it)[0].second;
    }
    out.append(last, text.cend());
    return out;
}

} // namespace

class TestClockOffsets : public QObject
{
    Q_OBJECT

private slots:

    void shiftedRankComesBackWithinTheSpread()
    {
        // 4 ranks, 40 all-reduces: arrivals far apart, ends within ±3 µs; two
        // instances where rank 2 ends 500 µs late (a delayed completion record).
        QTemporaryDir dir;
        std::vector<std::string> docs;
        for (int r = 0; r < 4; ++r) {
            std::vector<std::string> events;
            for (int seq = 0; seq < 40; ++seq) {
                // Rank 2's clock runs 5 ms ahead.
                const double end = 1000.0 * (seq + 1) + jitter(r, seq)
                    + (r == 2 && seq % 20 == 7 ? 500.0 : 0.0) + (r == 2 ? 5000.0 : 0.0);
                events.push_back(allReduce("0", "[0, 1, 2, 3]", seq, end - 100.0 - 150.0 * r, end));
            }
            docs.push_back(tests::kinetoDocument(r, events));
        }
        const core::TraceSet set = tests::loadRanks(dir, docs);
        const core::ClockOffsets offsets = core::estimateClockOffsets(set, core::matchCollectives(set));
        QCOMPARE(offsets.ranks.size(), std::size_t(4));
        QCOMPARE(offsets.ranks[0].offset, TimeNs(0));
        const core::RankClockOffset& r2 = offsets.ranks[2];
        QVERIFY(r2.estimated);
        QCOMPARE(r2.rejected, std::size_t(2));
        QCOMPARE(r2.samples, std::size_t(38));
        QVERIFY2(std::llabs(r2.offset + 5'000'000) <= r2.spread,
            qPrintable(QStringLiteral("offset %1 spread %2").arg(r2.offset).arg(r2.spread)));
        QVERIFY(r2.spread > 0 && r2.spread <= 6'000); // two jitters of at most 3 µs
        for (const int r : { 1, 3 }) {
            QVERIFY(std::llabs(offsets.ranks[static_cast<std::size_t>(r)].offset)
                <= offsets.ranks[static_cast<std::size_t>(r)].spread);
            QCOMPARE(offsets.ranks[static_cast<std::size_t>(r)].rejected, std::size_t(0));
        }
        QVERIFY(offsets.notes.empty());
    }

    void subGroupsChainToTheReference()
    {
        // Rank 2 shares nothing with rank 0: group "a" = {0, 1}, group "b" = {1, 2}.
        // Rank 1 runs 2 ms ahead of rank 0, rank 2 another 3 ms ahead of rank 1.
        QTemporaryDir dir;
        std::vector<std::string> r0, r1, r2;
        for (int seq = 0; seq < 5; ++seq) {
            const double end = 100.0 * (seq + 1);
            r0.push_back(allReduce("a", "[0, 1]", seq, end - 50, end));
            r1.push_back(allReduce("a", "[0, 1]", seq, end + 2000 - 30, end + 2000));
            r1.push_back(allReduce("b", "[1, 2]", seq, end + 2000 + 10, end + 2000 + 40));
            r2.push_back(allReduce("b", "[1, 2]", seq, end + 5000 + 20, end + 5000 + 40));
        }
        const core::TraceSet set = tests::loadRanks(dir,
            { tests::kinetoDocument(0, r0), tests::kinetoDocument(1, r1), tests::kinetoDocument(2, r2) });
        const auto offsets = core::estimateClockOffsets(set, core::matchCollectives(set));
        QCOMPARE(offsets.ranks[1].offset, TimeNs(-2'000'000));
        QCOMPARE(offsets.ranks[2].offset, TimeNs(-5'000'000));
        QCOMPARE(offsets.ranks[2].spread, TimeNs(0));
    }

    void rankWithoutSharedCollectivesIsLeftAlone()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir,
            { tests::kinetoDocument(0, { allReduce("a", "[0, 1]", 0, 10, 20) }),
                tests::kinetoDocument(1, { allReduce("a", "[0, 1]", 0, 15, 21) }),
                tests::kinetoDocument(2,
                    { R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":1,"dur":2,"args":{"stream":7}})" }) });
        const auto offsets = core::estimateClockOffsets(set, core::matchCollectives(set));
        QCOMPARE(offsets.ranks[1].offset, TimeNs(-1'000));
        QVERIFY(!offsets.ranks[2].estimated);
        QCOMPARE(offsets.ranks[2].offset, TimeNs(0));
        QCOMPARE(offsets.notes.size(), std::size_t(2)); // rank 1 from one sample, rank 2 unplaced
        QVERIFY(offsets.notes[1].find("rank 2: no collective shared") != std::string::npos);
    }

    // The real gloo job: each rank counts ts from its own profiler start. The
    // estimate puts the ends of the gloo all-reduces together, and a +5 ms
    // shift of rank 1 comes back exactly (every sample moves by 5 ms).
    void realGlooJobLinesUp()
    {
        auto loaded = core::loadTraceSet(
            { std::string(KS_SHARED_DIR) + "/traces/ddp_gloo_2ranks" }, {}, nullptr, nullptr);
        QVERIFY(loaded);
        const core::TraceSet& set = loaded.value();
        const auto match = core::matchCollectives(set);
        const auto offsets = core::estimateClockOffsets(set, match);
        const core::RankClockOffset& r1 = offsets.ranks[1];
        QVERIFY(r1.estimated);
        QCOMPARE(r1.samples + r1.rejected, std::size_t(3)); // the three instances on both ranks
        // Ends of the three: rank 0 67317, 131807, 186163 µs; rank 1 67265, 127968, 187221 µs.
        // Differences 52, 3839, -1058 µs: median 52 µs, farthest kept 3787 µs away.
        QCOMPARE(r1.offset, TimeNs(52'000));
        QCOMPARE(r1.spread, TimeNs(3'787'000));

        QTemporaryDir dir;
        const std::string folder = std::string(KS_SHARED_DIR) + "/traces/ddp_gloo_2ranks/";
        std::ofstream(dir.path().toStdString() + "/rank-0.json") << shiftedFile(folder + "rank-0.json", 0);
        std::ofstream(dir.path().toStdString() + "/rank-1.json") << shiftedFile(folder + "rank-1.json", 5000);
        auto reloaded = core::loadTraceSet({ dir.path().toStdString() }, {}, nullptr, nullptr);
        QVERIFY(reloaded);
        const auto moved =
            core::estimateClockOffsets(reloaded.value(), core::matchCollectives(reloaded.value()));
        QCOMPARE(moved.ranks[1].offset, r1.offset - 5'000'000);
        QVERIFY(std::llabs(moved.ranks[1].offset - (52'000 - 5'000'000)) <= moved.ranks[1].spread);
    }

    // Rank 1's clock runs 5 ms ahead and rank 0 arrives 300 us after it at every
    // all-reduce: as recorded, rank 1 seems to arrive last each time. Who arrived last
    // and who waited are read on the estimated clocks: rank 0, by its 300 us, and a
    // note names the clock moved; the per-instance shift keeps the match's order.
    void arrivalsAreComparedOnTheEstimatedClocks()
    {
        QTemporaryDir dir;
        std::vector<std::string> docs;
        for (int r = 0; r < 2; ++r) {
            std::vector<std::string> events;
            for (int seq = 0; seq < 10; ++seq) {
                const double end = 2000.0 * (seq + 1) + jitter(r, seq) + (r == 1 ? 5000.0 : 0.0);
                const double start = (r == 0 ? end - 200.0 : end - 500.0); // rank 0 waits 0, rank 1 300 us
                events.push_back(allReduce("0", "[0, 1]", seq, start, end));
            }
            docs.push_back(tests::kinetoDocument(r, events));
        }
        const core::TraceSet set = tests::loadRanks(dir, docs);
        const core::CollectiveMatch match = core::matchCollectives(set);
        const std::vector<std::int64_t> ranks { 0, 1 };
        const core::ArrivalSummary recorded = core::summarizeArrivalsOnOneClock(match, ranks);
        QCOMPARE(recorded.ranks.front().rank, std::int64_t { 1 }); // the clock ahead looks late
        const core::ArrivalSummary arrivals = core::summarizeArrivals(match, ranks);
        QCOMPARE(arrivals.ranks.front().rank, std::int64_t { 0 });
        QCOMPARE(arrivals.ranks.front().timesLast, std::size_t { 10 });
        // Its lead over rank 1 is 300 us an instance, to the jitter of the ends (±3 us).
        QVERIFY2(std::llabs(arrivals.ranks.front().lastBy - 3'000'000) <= 60'000,
            std::to_string(arrivals.ranks.front().lastBy).c_str());
        QCOMPARE(arrivals.ranks.back().totalWait, arrivals.ranks.front().lastBy);
        QVERIFY2(arrivals.clockNote.find("rank 1 -5.0") != std::string::npos, arrivals.clockNote.c_str());
        QVERIFY(recorded.clockNote.empty());
        // The same summary through the match on the estimated clocks, as the insights read it.
        const core::CollectiveMatch aligned =
            core::onEstimatedClocks(match, core::estimateClockOffsets(ranks, match));
        QCOMPARE(aligned.instances.size(), match.instances.size());
        for (std::size_t i = 1; i < aligned.instances.size(); ++i)
            QVERIFY(aligned.instances[i - 1].firstArrival() <= aligned.instances[i].firstArrival());
        QCOMPARE(core::summarizeArrivalsOnOneClock(aligned, ranks).ranks.front().lastBy,
            arrivals.ranks.front().lastBy);
    }
};

KS_TEST_MAIN(tst_clock_offsets, TestClockOffsets)
#include "tst_clock_offsets.moc"
