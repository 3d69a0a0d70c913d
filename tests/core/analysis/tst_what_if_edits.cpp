// RankEditedFactors (core/analysis/cross_rank/what_if.h): the factor a fix's
// edits give the time of a row or of a bound at a time on a rank, what both
// condensers ask, by hand and against a walk over every window of every edit
// on random edits.

#include "core/analysis/cross_rank/what_if.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <algorithm>
#include <random>

using namespace ks;
using core::PathBound;
using Window = core::WhatIfRankEdits::Window;

namespace {

constexpr std::uint32_t kNoRow = 0xffffffffu;

// The rule written out: every edit of the rank, every window of each (no index by bound).
double walkedFactor(const std::vector<core::WhatIfRankEdits>& edits, std::int64_t rank, std::uint32_t row,
    PathBound bound, core::TimeNs at, double ruleFactor)
{
    double factor = 1.0;
    bool edited = false;
    for (const core::WhatIfRankEdits& e : edits) {
        if (e.rank != rank)
            continue;
        if (row != kNoRow && bound != PathBound::KernelGap) {
            const auto& ofRow = bound == PathBound::LaunchOverhead ? e.launchDelays : e.rows;
            if (const auto it = ofRow.find(row); it != ofRow.end()) {
                factor *= it->second;
                edited = true;
                continue;
            }
        }
        for (const Window& w : e.windows)
            if (w.start <= at && w.bound == bound && at < w.end) {
                factor *= w.factor;
                edited = true;
            }
    }
    return edited ? factor : ruleFactor;
}

// What the condensers ask of `rank` (20 frame rows).
double editedFactor(const core::WhatIfScaling& scaling, std::int64_t rank, std::uint32_t row, PathBound bound,
    core::TimeNs at, double ruleFactor)
{
    return core::RankEditedFactors(scaling, rank, 20).factor(row, bound, at, ruleFactor);
}

} // namespace

class TestWhatIfEdits : public QObject
{
    Q_OBJECT

private slots:

    void handComputed()
    {
        core::WhatIfRankEdits e;
        e.rank = 1;
        e.rows = { { 7, 0.25 } };
        // CPU windows [0, 100) and [200, 300); a launch-overhead window over both.
        e.windows = { { 0, 100, PathBound::Cpu, 0.5 }, { 0, 400, PathBound::LaunchOverhead, 0.1 },
            { 200, 300, PathBound::Cpu, 0.2 } };
        core::WhatIfScaling scaling;
        scaling.addEdits(e);
        QCOMPARE(editedFactor(scaling, 1, kNoRow, PathBound::Cpu, 0, 9.0), 0.5); // a window's start is in it
        QCOMPARE(editedFactor(scaling, 1, kNoRow, PathBound::Cpu, 99, 9.0), 0.5);
        QCOMPARE(editedFactor(scaling, 1, kNoRow, PathBound::Cpu, 100, 9.0), 9.0); // its end is not
        QCOMPARE(editedFactor(scaling, 1, kNoRow, PathBound::Cpu, 250, 9.0), 0.2);
        QCOMPARE(editedFactor(scaling, 1, kNoRow, PathBound::LaunchOverhead, 250, 9.0), 0.1);
        QCOMPARE(editedFactor(scaling, 1, kNoRow, PathBound::GpuCompute, 250, 9.0), 9.0); // another bound
        QCOMPARE(editedFactor(scaling, 1, 7, PathBound::Cpu, 250, 9.0), 0.25); // a row's factor decides
        // A row's factor holds its own time only: a kernel sped up launches no sooner and
        // leaves the gap after it as it was (there the windows decide, else the rules).
        QCOMPARE(editedFactor(scaling, 1, 7, PathBound::LaunchOverhead, 250, 9.0), 0.1);
        QCOMPARE(editedFactor(scaling, 1, 7, PathBound::LaunchOverhead, 500, 9.0), 9.0);
        QCOMPARE(editedFactor(scaling, 1, 7, PathBound::KernelGap, 250, 9.0), 9.0);
        QCOMPARE(editedFactor(scaling, 2, kNoRow, PathBound::Cpu, 50, 9.0), 9.0); // another rank
        // A second edit of the same rank multiplies.
        core::WhatIfRankEdits more;
        more.rank = 1;
        more.windows = { { 50, 60, PathBound::Cpu, 0.5 } };
        scaling.addEdits(more);
        QCOMPARE(editedFactor(scaling, 1, kNoRow, PathBound::Cpu, 55, 9.0), 0.25);
        // A launch delay's own edit: the kernel's launch piece, not its time.
        core::WhatIfRankEdits sooner;
        sooner.rank = 1;
        sooner.launchDelays = { { 7, 0.3 } };
        QVERIFY(!sooner.empty());
        scaling.addEdits(sooner);
        QCOMPARE(editedFactor(scaling, 1, 7, PathBound::LaunchOverhead, 500, 9.0), 0.3);
        QCOMPARE(editedFactor(scaling, 1, 7, PathBound::LaunchOverhead, 250, 9.0), 0.1 * 0.3);
        QCOMPARE(editedFactor(scaling, 1, 7, PathBound::GpuCompute, 500, 9.0), 0.25);
    }

    void equalsTheWalkOnRandomEdits()
    {
        std::mt19937_64 random(11);
        std::uniform_int_distribution<int> boundOf(0, static_cast<int>(core::kPathBoundCount) - 1);
        std::uniform_int_distribution<core::TimeNs> gapOf(0, 50);
        std::uniform_int_distribution<core::TimeNs> lengthOf(1, 80);
        std::uniform_real_distribution<double> factorOf(0.0, 2.0);
        for (int round = 0; round < 40; ++round) {
            std::vector<core::WhatIfRankEdits> edits;
            core::WhatIfScaling scaling;
            for (int n = 0; n < 3; ++n) {
                core::WhatIfRankEdits e;
                e.rank = n % 2;
                // Sorted by start; every third round lets windows of a bound overlap too.
                core::TimeNs start = 0;
                for (int w = 0; w < 60; ++w) {
                    start += gapOf(random);
                    const core::TimeNs length = round % 3 == 0 ? lengthOf(random) * 4 : lengthOf(random);
                    e.windows.push_back(
                        { start, start + length, static_cast<PathBound>(boundOf(random)), factorOf(random) });
                }
                for (std::uint32_t row = 0; row < 20; row += 3)
                    e.rows[row] = factorOf(random);
                for (std::uint32_t row = 1; row < 20; row += 4)
                    e.launchDelays[row] = factorOf(random);
                edits.push_back(e);
                scaling.addEdits(e);
            }
            // Built once per rank, as the condensers do.
            const core::RankEditedFactors ofRank[2] { { scaling, 0, 20 }, { scaling, 1, 20 } };
            for (core::TimeNs at = -5; at < 2000; at += 7)
                for (int b = 0; b < static_cast<int>(core::kPathBoundCount); ++b)
                    for (const std::uint32_t row : { kNoRow, 3u, 4u, 5u, 9u }) {
                        const auto bound = static_cast<PathBound>(b);
                        const double walked = walkedFactor(edits, at % 2, row, bound, at, 1.5);
                        if (at % 2 >= 0) // rank -1 (odd negative times) has no edits
                            QCOMPARE(ofRank[at % 2].factor(row, bound, at, 1.5), walked);
                        else
                            QCOMPARE(editedFactor(scaling, -1, row, bound, at, 1.5), walked);
                    }
        }
    }
};

KS_TEST_MAIN(tst_what_if_edits, TestWhatIfEdits)
#include "tst_what_if_edits.moc"
