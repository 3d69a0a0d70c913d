// PathTimeIndex (core/insights/path_time_index.h): the path time on a rank
// inside ranges, against hand-computed cases and against the scan of every
// segment it replaces, on random paths with overlapping and empty segments.

#include "core/insights/path_time_index.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <algorithm>
#include <random>

using namespace ks;

namespace {

core::PathSegment segment(std::int64_t rank, core::TimeNs start, core::TimeNs duration)
{
    core::PathSegment s;
    s.rank = rank;
    s.piece.start = start;
    s.piece.duration = duration;
    return s;
}

// What InsightsContext::pathTimeWithin computed before the index: every
// segment of the rank against every merged interval.
core::TimeNs scanned(const std::vector<core::PathSegment>& segments, std::int64_t rank,
    const std::vector<core::Interval>& merged)
{
    core::TimeNs total = 0;
    for (const core::PathSegment& s : segments) {
        if (s.rank != rank || s.piece.duration <= 0)
            continue;
        const core::TimeNs a = s.piece.start, b = s.piece.start + s.piece.duration;
        for (const core::Interval& i : merged)
            if (i.start < b && i.end > a)
                total += std::min(b, i.end) - std::max(a, i.start);
    }
    return total;
}

} // namespace

class TestPathTimeIndex : public QObject
{
    Q_OBJECT

private slots:

    void handComputed()
    {
        // Rank 0: [100, 200) and [300, 350); rank 1: [150, 450); a zero and a
        // negative duration on rank 0 count nothing.
        const std::vector<core::PathSegment> path { segment(0, 100, 100), segment(1, 150, 300),
            segment(0, 300, 50), segment(0, 220, 0), segment(0, 230, -10) };
        const core::PathTimeIndex index(path);
        QCOMPARE(index.within(0, { { 150, 320 } }), core::TimeNs(50 + 20));
        QCOMPARE(index.within(0, { { 0, 1000 } }), core::TimeNs(150));
        QCOMPARE(index.within(0, { { 0, 100 }, { 200, 300 }, { 350, 400 } }), core::TimeNs(0));
        QCOMPARE(index.within(0, { { 120, 130 }, { 340, 360 } }), core::TimeNs(10 + 10));
        QCOMPARE(index.within(1, { { 100, 200 }, { 400, 500 } }), core::TimeNs(50 + 50));
        QCOMPARE(index.within(2, { { 0, 1000 } }), core::TimeNs(0)); // a rank the path never visits
        QCOMPARE(index.within(0, {}), core::TimeNs(0));
    }

    void overlappingSegmentsCountEach()
    {
        // Two segments over the same time (a path that revisits a rank's span)
        // count twice, as the scan did.
        const std::vector<core::PathSegment> path { segment(3, 0, 100), segment(3, 50, 100) };
        const core::PathTimeIndex index(path);
        QCOMPARE(index.within(3, { { 60, 90 } }), core::TimeNs(60));
        QCOMPARE(index.within(3, { { 0, 150 } }), core::TimeNs(200));
    }

    void equalsTheScanOnRandomPaths()
    {
        std::mt19937_64 random(7);
        std::uniform_int_distribution<int> rankOf(0, 3);
        std::uniform_int_distribution<core::TimeNs> startOf(1'700'000'000'000, 1'700'000'100'000);
        std::uniform_int_distribution<core::TimeNs> durationOf(-5, 4000);
        for (int round = 0; round < 50; ++round) {
            std::vector<core::PathSegment> path;
            for (int i = 0; i < 300; ++i)
                path.push_back(segment(rankOf(random), startOf(random), durationOf(random)));
            const core::PathTimeIndex index(path);
            std::vector<core::Interval> ranges;
            for (int i = 0; i < 40; ++i) {
                const core::TimeNs a = startOf(random) - 5000;
                ranges.push_back({ a, a + durationOf(random) + 6 });
            }
            std::sort(ranges.begin(), ranges.end(),
                [](const core::Interval& x, const core::Interval& y) { return x.start < y.start; });
            const std::vector<core::Interval> merged = core::mergeIntervals(ranges);
            for (int rank = 0; rank <= 4; ++rank)
                QCOMPARE(index.within(rank, merged), scanned(path, rank, merged));
        }
    }
};

KS_TEST_MAIN(tst_path_time_index, TestPathTimeIndex)
#include "tst_path_time_index.moc"
