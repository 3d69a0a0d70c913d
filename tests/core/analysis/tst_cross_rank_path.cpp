// X3 across ranks: the join of condensed ranks on
// hand-built graphs with known answers (hops, transfer, cycles, unjoined
// collectives), what-if rules, stragglers; then the whole pipeline on small
// GPU and CPU-only (gloo) jobs the tests write, and the real gloo job.

#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/cross_rank/stragglers.h"
#include "core/analysis/frame/frame_window.h"
#include "core/insights/efficiency_roofline.h"
#include "core/synth/synthetic_trace_generator.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/synthetic_job.h"
#include "tests/support/test_main.h"

#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <regex>

using namespace ks;
using core::PathBound;
using core::TimeNs;

namespace {

constexpr TimeNs kUs = 1000;

// A cell of a declared column as a number; NaN (which compares unequal) when the column is missing.
double numberAt(const core::Table& table, std::size_t row, const core::ColumnId& column)
{
    const auto at = table.find(column);
    if (!at || row >= table.rows.size())
        return std::nan("");
    return core::cellAsDouble(table.rows[row][*at]).value_or(std::nan(""));
}

core::PathPiece piece(const std::string& name, TimeNs duration, PathBound bound = PathBound::Cpu)
{
    return { name, bound, 0, duration, -1 };
}

core::CondensedEdge edge(std::uint32_t from, std::uint32_t to, std::vector<core::PathPiece> pieces)
{
    TimeNs w = 0;
    for (const auto& p : pieces)
        w += p.duration;
    return { from, to, w, std::move(pieces), {} };
}

// A rank with one collective (instance 0, "allreduce"): `before` leads to its
// arrival, `after` from its end to the rank's end.
core::CondensedRank oneCollective(std::int64_t rank, TimeNs arrival, TimeNs end,
    std::vector<core::PathPiece> before, std::vector<core::PathPiece> after, bool complete = true)
{
    core::CondensedRank r;
    r.rank = rank;
    r.collectives.push_back({ 0, "allreduce", arrival, end, -1, 1, complete });
    r.edges.push_back(edge(core::CondensedRank::kStart, 0, std::move(before)));
    r.edges.push_back(edge(r.endOfCollective(0), r.rankEnd(), std::move(after)));
    return r;
}

TimeNs onPath(const core::CrossRankPath& path, std::int64_t rank, PathBound bound)
{
    return path.timeByBound(rank)[static_cast<std::size_t>(bound)];
}

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string event(const std::string& cat, const std::string& name, int pid, int tid, double ts, double dur,
    const std::string& args = "")
{
    return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)" + std::to_string(pid)
        + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" + number(1'000'000 + ts) + R"(,"dur":)"
        + number(dur) + R"(,"args":{)" + args + "}}";
}

std::string launch(double ts, double dur, int correlation)
{
    return event(
        "cuda_runtime", "cudaLaunchKernel", 1, 1, ts, dur, R"("correlation":)" + std::to_string(correlation));
}

std::string kernel(const std::string& name, double ts, double dur, int correlation)
{
    return event("kernel", name, 0, 7, ts, dur, R"("stream":7,"correlation":)" + std::to_string(correlation));
}

// One GPU rank: a GEMM of `gemmUs`, then an all-reduce that ends at 250 us on
// every rank, a stream synchronization and an optimizer step of `stepUs`.
std::string gpuRank(std::int64_t rank, double gemmUs, double stepUs)
{
    const double allreduceStart = 30 + gemmUs;
    return tests::kinetoDocument(rank,
        {
            R"({"ph":"M","name":"process_name","pid":1,"tid":0,"args":{"name":"python"}})",
            event("user_annotation", "ProfilerStep#1", 1, 1, 0, 300),
            event("cpu_op", "aten::mm", 1, 1, 10, 20),
            launch(15, 5, 1),
            kernel("gemm_kernel", 30, gemmUs, 1),
            event("cpu_op", "c10d::allreduce_", 1, 1, 40, 10),
            launch(42, 5, 2),
            kernel("ncclDevKernel_AllReduce_Sum_f32_RING_LL", allreduceStart, 250 - allreduceStart, 2),
            event("cuda_runtime", "cudaStreamSynchronize", 1, 1, 60, 190, R"("correlation":3)"),
            event("cpu_op", "aten::step", 1, 1, 255, stepUs),
        });
}

// One CPU-only rank as gloo records it: `forwardUs` of forward, the
// c10d caller, gloo:all_reduce on a worker thread ending at the same moment
// on every rank, then the optimizer.
std::string glooRank(std::int64_t rank, double forwardUs)
{
    const double arrival = 15 + forwardUs;
    const double end = 15 + 30'000;
    return tests::kinetoDocument(rank,
        {
            event("cpu_op", "ProfilerStep#1", 1, 1, 0, end + 100),
            event("cpu_op", "forward", 1, 1, 10, forwardUs),
            event("cpu_op", "c10d::allreduce_", 1, 1, 10 + forwardUs, 5),
            event("cpu_op", "gloo:all_reduce", 1, 2, arrival, end - arrival),
            event("cpu_op", "optimizer", 1, 1, end + 10, 50),
        });
}

struct Job
{
    QTemporaryDir dir;
    std::optional<core::TraceSet> set;
    std::optional<core::FrameSet> frames;

    core::JobCriticalPath path(const core::JobPathOptions& options = {}) const
    {
        auto job = core::jobCriticalPath(*frames, options);
        if (!job)
            qFatal("%s", job.error().message.c_str());
        return std::move(job).value();
    }
};

std::unique_ptr<Job> load(const std::vector<std::string>& documents)
{
    auto job = std::make_unique<Job>();
    job->set = tests::loadRanks(job->dir, documents);
    job->frames = tests::frames(*job->set, core::AnalysisMode::Default);
    return job;
}

core::JobPathOptions whatIf(const std::string& rule)
{
    core::JobPathOptions options;
    auto parsed = core::parseWhatIfRule(rule);
    if (!parsed)
        qFatal("%s", parsed.error().message.c_str());
    options.whatIf = core::WhatIfScaling({ std::move(parsed).value() });
    return options;
}

const core::PathSegment* segmentNamed(const core::CrossRankPath& path, const std::string& name,
    std::int64_t rank, PathBound bound = PathBound::Cpu)
{
    for (const auto& s : path.segments)
        if (s.piece.name == name && s.rank == rank && s.piece.bound == bound)
            return &s;
    return nullptr;
}

[[maybe_unused]] void dump(const core::CrossRankPath& path)
{
    for (const auto& s : path.segments)
        qInfo("%lld %s %s start %lld dur %lld", static_cast<long long>(s.rank), s.piece.name.str().c_str(),
            std::string(core::pathBoundName(s.piece.bound)).c_str(), static_cast<long long>(s.piece.start),
            static_cast<long long>(s.piece.duration));
}

} // namespace

class TestCrossRankPath : public QObject
{
    Q_OBJECT

private slots:
    void joinHopsToTheLastArrival();
    void transferIsTheShortestMember();
    void unjoinedCollectiveKeepsItsDuration();
    void inconsistentOrderIsACycle();
    void whatIfRules();
    void exactNameRulesMatchAsTheRegexDoes();
    void stragglerOnHandBuiltRanks();
    void gpuJobPathRunsThroughTheSlowRank();
    void gpuJobWhatIf();
    void glooJobSerialModel();
    void singleRank();
    void realGlooJob();
    void namingOnlyWhatIsUsedKeepsTheAnswer_data();
    void namingOnlyWhatIsUsedKeepsTheAnswer();
    void retimedWhatIfIsTheRebuiltOne_data();
    void retimedWhatIfIsTheRebuiltOne();
    void replayedPassesGiveTheRebuiltEdges_data();
    void replayedPassesGiveTheRebuiltEdges();
    void rankAlonePathIsTheRebuiltOne();
};

// Rank 1 arrives 15 us after rank 0 (its path to the arrival is longer): the
// path takes rank 1's arrival, the transfer, then the longer tail (rank 0's).
void TestCrossRankPath::joinHopsToTheLastArrival()
{
    const std::vector<core::CondensedRank> ranks {
        oneCollective(0, 10 * kUs, 30 * kUs, { piece("fwd0", 10 * kUs) }, { piece("opt0", 5 * kUs) }),
        oneCollective(1, 25 * kUs, 30 * kUs, { piece("fwd1", 25 * kUs) }, { piece("opt1", 3 * kUs) }),
    };
    const core::CrossRankPath path = core::joinCondensedRanks(ranks);
    QVERIFY(path.ok);
    QCOMPARE(path.length, 35 * kUs); // 25 + transfer 5 + 5
    QCOMPARE(path.segments.size(), std::size_t { 3 });
    QCOMPARE(path.segments[0].piece.name.str(), std::string("fwd1"));
    QCOMPARE(path.segments[1].piece.bound, PathBound::Transfer);
    QCOMPARE(path.segments[1].piece.duration, 5 * kUs);
    QCOMPARE(path.segments[2].piece.name.str(), std::string("opt0"));
    QCOMPARE(path.segments[2].pathOffset, 30 * kUs);
    QCOMPARE(path.hops.size(), std::size_t { 1 });
    QCOMPARE(path.hops[0].fromRank, std::int64_t { 1 });
    QCOMPARE(path.hops[0].toRank, std::int64_t { 0 });
    QCOMPARE(path.hops[0].collective, std::string("allreduce"));
    QCOMPARE(onPath(path, 1, PathBound::Cpu), 25 * kUs);
    QCOMPARE(onPath(path, 0, PathBound::Transfer), 5 * kUs);
    QCOMPARE(onPath(path, 0, PathBound::Cpu), 5 * kUs);
    // The arrival of each member came through its own start edge.
    QCOMPARE(path.arrivalEdge[0][0], 0);
    QCOMPARE(path.arrivalEdge[1][0], 0);
}

// Clocks of the two ranks disagree by 1 s: only durations count.
void TestCrossRankPath::transferIsTheShortestMember()
{
    const TimeNs offset = 1'000'000 * kUs;
    const std::vector<core::CondensedRank> ranks {
        oneCollective(
            0, offset + 10 * kUs, offset + 50 * kUs, { piece("a", 10 * kUs) }, { piece("b", 1 * kUs) }),
        oneCollective(1, 40 * kUs, 48 * kUs, { piece("c", 40 * kUs) }, { piece("d", 2 * kUs) }),
    };
    const core::CrossRankPath path = core::joinCondensedRanks(ranks);
    QVERIFY(path.ok);
    QCOMPARE(path.collectives[0].transfer, 8 * kUs);
    QVERIFY(path.collectives[0].joined);
    QCOMPARE(path.length, 40 * kUs + 8 * kUs + 2 * kUs);
    QVERIFY(path.hops.empty()); // in and out on rank 1
}

// An instance that never completed on a member is not joined: each rank keeps
// its own duration as gpu_comm_wait, and a note says so.
void TestCrossRankPath::unjoinedCollectiveKeepsItsDuration()
{
    const std::vector<core::CondensedRank> ranks {
        oneCollective(0, 10 * kUs, 30 * kUs, { piece("fwd0", 10 * kUs) }, { piece("opt0", 5 * kUs) }, false),
        oneCollective(1, 25 * kUs, 30 * kUs, { piece("fwd1", 25 * kUs) }, { piece("opt1", 3 * kUs) }, false),
    };
    const core::CrossRankPath path = core::joinCondensedRanks(ranks);
    QVERIFY(path.ok);
    QVERIFY(!path.collectives[0].joined);
    QCOMPARE(path.length, 35 * kUs); // rank 0: 10 + 20 + 5 vs rank 1: 25 + 5 + 3
    QCOMPARE(onPath(path, 0, PathBound::GpuCommWait), 20 * kUs);
    QVERIFY(path.hops.empty());
    QCOMPARE(path.notes.size(), std::size_t { 1 });
    QVERIFY(path.notes[0].find("could not be joined") != std::string::npos);
}

// Rank 0 runs A then B, rank 1 B then A: joining both would need each before
// the other. The join says so instead of returning a path.
void TestCrossRankPath::inconsistentOrderIsACycle()
{
    auto twoCollectives = [](std::int64_t rank, std::uint32_t first, std::uint32_t second) {
        core::CondensedRank r;
        r.rank = rank;
        r.collectives.push_back({ first, "c" + std::to_string(first), 10, 20, -1, 1, true });
        r.collectives.push_back({ second, "c" + std::to_string(second), 30, 40, -1, 1, true });
        r.edges.push_back(edge(core::CondensedRank::kStart, 0, { piece("x", 10) }));
        r.edges.push_back(edge(r.endOfCollective(0), 1, { piece("y", 10) }));
        r.edges.push_back(edge(r.endOfCollective(1), r.rankEnd(), { piece("z", 10) }));
        return r;
    };
    const core::CrossRankPath path =
        core::joinCondensedRanks({ twoCollectives(0, 0, 1), twoCollectives(1, 1, 0) });
    QVERIFY(!path.ok);
    QVERIFY(path.notes.back().find("cycle") != std::string::npos);
}

void TestCrossRankPath::whatIfRules()
{
    auto half = core::parseWhatIfRule("gemm|conv=0.5");
    QVERIFY(half.ok());
    auto kind = core::parseWhatIfRule("kind:transfer=0");
    QVERIFY(kind.ok());
    QVERIFY(kind.value().kind == PathBound::Transfer);
    const core::WhatIfScaling scaling({ half.value(), kind.value() });
    QCOMPARE(scaling.scaled(100, "sm90_gemm_kernel", PathBound::GpuCompute), TimeNs { 50 });
    QCOMPARE(scaling.scaled(100, "aten::conv2d", PathBound::Cpu), TimeNs { 50 });
    QCOMPARE(scaling.scaled(100, "ncclAllReduce", PathBound::Transfer), TimeNs { 0 });
    QCOMPARE(scaling.scaled(100, "relu", PathBound::GpuCompute), TimeNs { 100 });
    QCOMPARE(scaling.scaled(100, "gemm", PathBound::LaunchOverhead), TimeNs { 100 }); // not time in gemm
    // A name rule wins over a kind rule.
    QCOMPARE(scaling.scaled(100, "gemm", PathBound::Transfer), TimeNs { 50 });

    QVERIFY(!core::parseWhatIfRule("gemm").ok());
    QVERIFY(!core::parseWhatIfRule("gemm=-1").ok());
    QVERIFY(!core::parseWhatIfRule("gemm=x").ok());
    QVERIFY(!core::parseWhatIfRule("kind:disk=2").ok());
    const auto bad = core::parseWhatIfRule("gemm(=2");
    QVERIFY(!bad.ok());
    QVERIFY(bad.error().message.find("gemm(=2") != std::string::npos);
}

// The insights' what-ifs name kernels as "^(a|b)$" with metacharacters
// escaped (whatIfNamesPattern); those rules are matched as a set of names
// without the regex. Each rule must scale exactly the names std::regex_search
// finds, on names full of metacharacters, near misses and line breaks.
void TestCrossRankPath::exactNameRulesMatchAsTheRegexDoes()
{
    const std::vector<std::string> kernels { "void gemm<float, 128>(float*, int) [clone .kd]", "a.b", "x|y",
        "c++", "{x}", "back\\slash", "^start$", "two\nlines", "(paren)", "q?", "star*", "t\\d" };
    std::map<std::string_view, TimeNs> timeByName;
    for (std::size_t i = 0; i < kernels.size(); ++i)
        timeByName[kernels[i]] = static_cast<TimeNs>(10 + i);
    const std::string escaped = core::whatIfNamesPattern(timeByName);
    const std::vector<std::string> exactPatterns { escaped, "^(cudaLaunchKernel|cuLaunchKernel)$",
        "^(a\\.b)$", "^()$", "^(only)$" };
    const std::vector<std::string> regexPatterns { "gemm|conv", "^(a.b)$", "^(a\\d)$", "^(a)|(b)$", "(a|b)$",
        "^(a|b)", "^(a\\)$", "^([ab])$", "^(a{2})$" };
    std::vector<std::string> names = kernels;
    for (const std::string& k : kernels) {
        names.push_back("x" + k);
        names.push_back(k + "x");
        names.push_back(k + "\n");
        names.push_back("\n" + k);
        names.push_back(k.substr(0, k.size() / 2));
    }
    for (const char* extra : { "axb", "a", "b", "aa", "a\\.b", "cudaLaunchKernel", "cudaLaunchKernelExC",
             "cuLaunchKernel", "only", "only\nonly", "\nonly", "two", "lines", "backslash", "back\\\\slash",
             "start", "", "ab", "a\\d", "td", "x", "y" })
        names.emplace_back(extra);
    int exactRules = 0;
    for (const std::string& pattern : exactPatterns) {
        auto rule = core::parseWhatIfRule(pattern + "=0.5");
        QVERIFY2(rule.ok(), pattern.c_str());
        QVERIFY2(rule.value().exactNames.has_value(), pattern.c_str());
        ++exactRules;
    }
    for (const std::string& pattern : regexPatterns) {
        auto rule = core::parseWhatIfRule(pattern + "=0.5");
        if (rule.ok())
            QVERIFY2(!rule.value().exactNames.has_value(), pattern.c_str());
    }
    QCOMPARE(exactRules, 5);
    for (const std::string& pattern : exactPatterns) {
        const std::regex re(pattern, std::regex::ECMAScript);
        // Alone (no regex at all) and next to a regex rule (the cached path).
        const core::WhatIfScaling alone({ core::parseWhatIfRule(pattern + "=0.5").value() });
        const core::WhatIfScaling mixed(
            { core::parseWhatIfRule(pattern + "=0.5").value(), core::parseWhatIfRule("zzz=2").value() });
        for (const std::string& name : names) {
            if (name.empty())
                continue; // time without a name is never scaled by a name rule
            const double expected = std::regex_search(name, re) ? 0.5 : 1.0;
            const std::string what = pattern + " on '" + name + "'";
            QVERIFY2(alone.factor(name, PathBound::GpuCompute) == expected, what.c_str());
            QVERIFY2(mixed.factor(name, PathBound::GpuCompute) == expected, what.c_str());
        }
    }
    // Every kernel of the escaped pattern is scaled, and nothing else of its near misses.
    const core::WhatIfScaling escapedRule({ core::parseWhatIfRule(escaped + "=0.25").value() });
    for (const std::string& k : kernels) {
        QCOMPARE(escapedRule.factor(k, PathBound::GpuCompute), 0.25);
        QCOMPARE(escapedRule.factor("x" + k, PathBound::GpuCompute), 1.0);
    }
}

// Three ranks; rank 2 arrives last (shortest duration), the others wait 40 and
// 50 us for it. Its path before the collective has 45 us more of "slow_op"
// than the median member's (rank 0, 20 us before; rank 1 10 us before).
void TestCrossRankPath::stragglerOnHandBuiltRanks()
{
    core::JobCriticalPath job;
    job.ranks = {
        oneCollective(0, 20 * kUs, 70 * kUs, { piece("fast_op", 20 * kUs) }, { piece("t", 1 * kUs) }),
        oneCollective(1, 10 * kUs, 70 * kUs, { piece("fast_op", 10 * kUs) }, { piece("t", 1 * kUs) }),
        oneCollective(2, 60 * kUs, 70 * kUs, { piece("fast_op", 15 * kUs), piece("slow_op", 45 * kUs) },
            { piece("t", 1 * kUs) }),
    };
    job.path = core::joinCondensedRanks(job.ranks);
    const auto found = core::findStragglers(job);
    QCOMPARE(found.size(), std::size_t { 1 });
    const core::Straggler& s = found[0];
    QCOMPARE(s.rank, std::int64_t { 2 });
    QCOMPARE(s.iteration, std::int64_t { 1 });
    QCOMPARE(s.waitCaused, 40 * kUs + 50 * kUs);
    QCOMPARE(s.medianRank, std::int64_t { 0 }); // others' segments: 10 (rank 1), 20 (rank 0): lower median
    QCOMPARE(s.segment, 60 * kUs);
    QCOMPARE(s.medianSegment, 20 * kUs);
    QCOMPARE(s.reasons.size(), std::size_t { 1 }); // fast_op is 5 us shorter: not a reason
    QCOMPARE(s.reasons[0].name, std::string("slow_op"));
    QCOMPARE(s.reasons[0].delta, 45 * kUs);
    QCOMPARE(s.why, std::string("rank 2: +40.0 us before allreduce vs rank 0: +45.0 us in slow_op"));
    const auto table = core::stragglersTable(job);
    QVERIFY(table.ok);
    QCOMPARE(table.result.frame.rows.size(), std::size_t { 1 });
}

// Rank 1's GEMM takes 200 us, rank 0's 100 us: the all-reduce waits for rank 1,
// so the path runs through rank 1's GEMM, the transfer, and rank 0's longer step.
void TestCrossRankPath::gpuJobPathRunsThroughTheSlowRank()
{
    const auto job = load({ gpuRank(0, 100, 30), gpuRank(1, 200, 10) });
    const core::JobCriticalPath p = job->path();
    QVERIFY2(p.path.ok, p.notes.empty() ? "" : p.notes.back().c_str());
    for (const auto& r : p.ranks)
        QVERIFY(!r.serialModel);
    const core::PathSegment* gemm = segmentNamed(p.path, "gemm_kernel", 1, PathBound::GpuCompute);
    QVERIFY(gemm);
    QCOMPARE(gemm->piece.bound, PathBound::GpuCompute);
    QCOMPARE(gemm->piece.duration, 200 * kUs);
    QVERIFY(!segmentNamed(p.path, "gemm_kernel", 0, PathBound::GpuCompute));
    QCOMPARE(onPath(p.path, 0, PathBound::Transfer) + onPath(p.path, 1, PathBound::Transfer), 20 * kUs);
    const core::PathSegment* step = segmentNamed(p.path, "aten::step", 0);
    QVERIFY(step);
    QCOMPARE(step->piece.duration, 30 * kUs);
    QCOMPARE(p.path.hops.size(), std::size_t { 1 });
    QCOMPARE(p.path.hops[0].fromRank, std::int64_t { 1 });
    QCOMPARE(p.path.hops[0].toRank, std::int64_t { 0 });
    // Launch 15..20 us, kernel start at 30: 5 us of aten::mm before the launch, 15 us launch overhead.
    QCOMPARE(onPath(p.path, 1, PathBound::Cpu), 5 * kUs);
    QCOMPARE(onPath(p.path, 1, PathBound::LaunchOverhead), 15 * kUs);
    // The stream synchronization ends at 250 us, aten::step starts at 255: the
    // thread's 5 us between them count (HTA's graph leaves them off, Q14), so
    // the path spans rank 1's aten::mm start (10) to rank 0's step end (285).
    QCOMPARE(p.path.length, (5 + 15 + 200 + 20 + 5 + 30) * kUs);

    const auto stragglers = core::findStragglers(p);
    QCOMPARE(stragglers.size(), std::size_t { 1 });
    QCOMPARE(stragglers[0].rank, std::int64_t { 1 });
    QCOMPARE(stragglers[0].waitCaused, 100 * kUs);
    QCOMPARE(stragglers[0].reasons.at(0).name, std::string("gemm_kernel"));
    QCOMPARE(stragglers[0].reasons.at(0).delta, 100 * kUs);

    // The tables carry the path in the columns jobpath declares: one hop, 275 us long.
    namespace jp = core::jobpath;
    const auto tables = core::jobCriticalPathTables(p);
    QVERIFY(tables.ok);
    QCOMPARE(tables.result.entries.size(), std::size_t { 4 });
    const core::Table& summary = tables.result.entries[0].second.frame;
    QCOMPARE(numberAt(summary, 0, jp::kLengthMs), 0.275);
    QCOMPARE(numberAt(summary, 0, jp::kHops), 1.0);
    const core::Table& hops = tables.result.entries[2].second.frame;
    QCOMPARE(numberAt(hops, 0, jp::kFromRank), 1.0);
    QCOMPARE(numberAt(hops, 0, jp::kToRank), 0.0);
    const core::Table& segments = tables.result.entries[3].second.frame;
    QCOMPARE(segments.rows.size(), p.path.segments.size());
    QVERIFY(segments.find(jp::kBound) && segments.find(jp::kName) && segments.find(jp::kEventIndex));
    double segmentsMs = 0;
    for (std::size_t row = 0; row < segments.rows.size(); ++row)
        segmentsMs += numberAt(segments, row, jp::kDurationMs);
    QVERIFY(std::abs(segmentsMs - 0.275) < 1e-9);
}

// Halving every GEMM shortens the path by half of rank 1's GEMM (100 us):
// rank 1 still arrives last (100 us against 50 us).
void TestCrossRankPath::gpuJobWhatIf()
{
    const auto job = load({ gpuRank(0, 100, 30), gpuRank(1, 200, 10) });
    const core::JobCriticalPath before = job->path();
    const core::JobCriticalPath after = job->path(whatIf("gemm=0.5"));
    QVERIFY(before.path.ok && after.path.ok);
    QCOMPARE(after.path.length, before.path.length - 100 * kUs);
    QCOMPARE(segmentNamed(after.path, "gemm_kernel", 1, PathBound::GpuCompute)->piece.duration, 100 * kUs);
    QCOMPARE(onPath(after.path, 1, PathBound::LaunchOverhead), 15 * kUs); // not in the kernel: unscaled
    // Zero transfer: 20 us shorter.
    const core::JobCriticalPath noTransfer = job->path(whatIf("kind:transfer=0"));
    QCOMPARE(noTransfer.path.length, before.path.length - 20 * kUs);
    const auto table = core::whatIfTables(before, after);
    QVERIFY(table.ok);
    QCOMPARE(table.result.entries.front().first, std::string("what_if"));
    // Row 0 is the path length: 275 us before, 175 us after, 36 % shorter.
    const core::Table& whatIf = table.result.entries.front().second.frame;
    QCOMPARE(numberAt(whatIf, 0, core::jobpath::kBeforeMs), 0.275);
    QCOMPARE(numberAt(whatIf, 0, core::jobpath::kAfterMs), 0.175);
    QVERIFY(std::abs(numberAt(whatIf, 0, core::jobpath::kChangePct) - (-100.0 * 100 / 275)) < 1e-9);
}

// CPU-only ranks: no event graph, the main thread's time between collectives.
// Rank 1 spends 19.2 ms in forward against rank 0's 5 ms.
void TestCrossRankPath::glooJobSerialModel()
{
    const auto job = load({ glooRank(0, 5'000), glooRank(1, 19'200) });
    const core::JobCriticalPath p = job->path();
    QVERIFY(p.path.ok);
    QCOMPARE(p.ranks.size(), std::size_t { 2 });
    for (const auto& r : p.ranks) {
        QVERIFY(r.serialModel);
        QCOMPARE(r.collectives.size(), std::size_t { 1 });
    }
    const core::PathSegment* forward = segmentNamed(p.path, "forward", 1);
    QVERIFY(forward);
    QCOMPARE(forward->piece.duration, 19'200 * kUs);
    QVERIFY(!segmentNamed(p.path, "forward", 0));
    // Start to arrival (15 + 19200 us), transfer (30015 - 19215), the rest of the step (100 us).
    QCOMPARE(p.path.length, (15 + 19'200) * kUs + (30'015 - 19'215) * kUs + 100 * kUs);
    QCOMPARE(p.path.length, p.measuredTime);

    const auto found = core::findStragglers(p);
    QCOMPARE(found.size(), std::size_t { 1 });
    QCOMPARE(found[0].rank, std::int64_t { 1 });
    QCOMPARE(found[0].waitCaused, 14'200 * kUs);
    QCOMPARE(
        found[0].why, std::string("rank 1: +14.2 ms before gloo:all_reduce vs rank 0: +14.2 ms in forward"));
}

void TestCrossRankPath::singleRank()
{
    const auto job = load({ gpuRank(0, 100, 30) });
    const core::JobCriticalPath p = job->path();
    QVERIFY(p.path.ok);
    QVERIFY(p.path.hops.empty());
    bool said = false;
    for (const auto& n : p.notes)
        said = said || n.find("one rank only") != std::string::npos;
    QVERIFY(said);
    QVERIFY(!core::stragglersTable(p).ok);
    // Iteration 7 exists nowhere: an error naming it.
    core::JobPathOptions options;
    options.iteration = 7;
    auto missing = core::jobCriticalPath(*job->frames, options);
    QVERIFY(!missing.ok());
    QVERIFY(missing.error().message.find("iteration 7") != std::string::npos);
}

// The recorded gloo job: rank 1 has twice the batch; every iteration's
// all-reduce waits for it, and the path runs through its backward ops.
void TestCrossRankPath::realGlooJob()
{
    const std::filesystem::path folder = std::filesystem::path(KS_SHARED_DIR) / "traces" / "ddp_gloo_2ranks";
    if (!std::filesystem::exists(folder))
        QSKIP("../shared/traces/ddp_gloo_2ranks is absent");
    auto set = core::loadTraceSet({ folder.string() }, {}, nullptr, nullptr);
    QVERIFY(set.ok());
    const core::FrameSet frames = tests::frames(set.value(), core::AnalysisMode::Default);
    auto job = core::jobCriticalPath(frames, {});
    QVERIFY(job.ok());
    const core::JobCriticalPath& p = job.value();
    QVERIFY(p.path.ok);
    std::size_t joined = 0;
    for (const auto& c : p.path.collectives)
        joined += c.joined ? 1 : 0;
    // Rank 0's profile stops before the fourth all-reduce: three are joined, the fourth is said.
    QCOMPARE(joined, std::size_t { 3 });
    QVERIFY(std::any_of(p.notes.begin(), p.notes.end(),
        [](const std::string& n) { return n.find("could not be joined") != std::string::npos; }));
    const auto found = core::findStragglers(p);
    QVERIFY(!found.empty());
    for (const auto& s : found) {
        QCOMPARE(s.rank, std::int64_t { 1 });
        QVERIFY(s.waitCaused > 0);
    }
    const auto rank1 = p.path.timeByBound(1);
    TimeNs onRank1 = 0;
    for (const TimeNs t : rank1)
        onRank1 += t;
    QVERIFY(onRank1 > p.path.length / 2);
}

namespace {

std::string describe(const core::PathSegment& s)
{
    return std::to_string(s.rank) + " " + s.piece.name.str() + " "
        + std::string(core::pathBoundName(s.piece.bound)) + " " + std::to_string(s.piece.start) + " "
        + std::to_string(s.piece.duration) + " " + std::to_string(s.piece.eventIndex) + " @"
        + std::to_string(s.pathOffset);
}

std::size_t piecesHeld(const core::JobCriticalPath& job)
{
    std::size_t n = 0;
    for (const auto& r : job.ranks)
        for (const auto& e : r.edges)
            n += r.serialModel ? 0 : e.pieces.size(); // the serial model names its few edges at once
    return n;
}

// The pieces of the edges the path takes (the straggler explanations keep
// name times only: a segment from the rank's start holds the trace before it).
std::size_t piecesUsed(const core::JobCriticalPath& job)
{
    std::vector<std::pair<std::size_t, std::uint32_t>> used;
    for (const auto& step : job.path.steps)
        if (step.kind == core::PathStep::Kind::Condensed)
            used.emplace_back(step.rankPos, step.index);
    std::sort(used.begin(), used.end());
    used.erase(std::unique(used.begin(), used.end()), used.end());
    std::size_t n = 0;
    for (const auto& [rankPos, edge] : used)
        if (!job.ranks[rankPos].serialModel)
            n += job.ranks[rankPos].edges[edge].pieces.size();
    return n;
}

} // namespace

// Condensing with weights only and naming the used edges afterwards
// gives the path and the stragglers the old way (every edge named while
// condensing) gave, segment for segment, on a synthetic DDP job with a slow
// rank (whole trace and one iteration) and the real two-rank and gloo jobs; and
// it keeps no piece the answer does not use.
void TestCrossRankPath::namingOnlyWhatIsUsedKeepsTheAnswer_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<int>("iteration"); // -1: the whole trace
    QTest::newRow("synthetic, whole trace") << QString("synth") << -1;
    QTest::newRow("synthetic, iteration 11") << QString("synth") << 11;
    QTest::newRow("two_ranks_sampled") << QString("two_ranks_sampled") << -1;
    QTest::newRow("ddp_gloo_2ranks") << QString("ddp_gloo_2ranks") << -1;
}

void TestCrossRankPath::namingOnlyWhatIsUsedKeepsTheAnswer()
{
    QFETCH(QString, source);
    QFETCH(int, iteration);
    QTemporaryDir dir;
    std::filesystem::path folder = std::filesystem::path(KS_SHARED_DIR) / "traces" / source.toStdString();
    if (source == "synth") {
        core::SynthOptions synth;
        synth.ranks = 3;
        synth.targetBytes = 1'500'000;
        synth.seed = 5;
        synth.outDir = dir.filePath("job").toStdString();
        synth.stragglers = { 1 };
        synth.slowdown = 1.5;
        QVERIFY(core::generateSyntheticTraces(synth).ok());
        folder = synth.outDir;
    } else if (!std::filesystem::exists(folder)) {
        QSKIP("a shared trace folder is absent");
    }
    auto set = core::loadTraceSet({ folder.string() }, {}, nullptr, nullptr);
    QVERIFY(set.ok());
    const core::FrameSet frames = tests::frames(set.value(), core::AnalysisMode::Default);
    core::JobPathOptions options;
    if (iteration >= 0)
        options.iteration = iteration;
    auto lean = core::jobCriticalPath(frames, options);
    options.piecesForEveryEdge = true;
    auto full = core::jobCriticalPath(frames, options);
    QVERIFY(lean.ok() && full.ok());
    const core::JobCriticalPath& a = lean.value();
    const core::JobCriticalPath& b = full.value();
    QVERIFY(a.path.ok && b.path.ok);
    QVERIFY(!a.path.segments.empty());
    QCOMPARE(a.path.length, b.path.length);
    QCOMPARE(a.path.segments.size(), b.path.segments.size());
    for (std::size_t i = 0; i < a.path.segments.size(); ++i)
        QCOMPARE(describe(a.path.segments[i]), describe(b.path.segments[i]));
    QCOMPARE(a.path.hops.size(), b.path.hops.size());
    for (std::size_t i = 0; i < a.path.hops.size(); ++i) {
        QCOMPARE(a.path.hops[i].fromRank, b.path.hops[i].fromRank);
        QCOMPARE(a.path.hops[i].instance, b.path.hops[i].instance);
        QCOMPARE(a.path.hops[i].pathOffset, b.path.hops[i].pathOffset);
    }
    QCOMPARE(a.notes, b.notes);
    const auto stragglersA = core::findStragglers(a);
    const auto stragglersB = core::findStragglers(b);
    QCOMPARE(stragglersA.size(), stragglersB.size());
    for (std::size_t i = 0; i < stragglersA.size(); ++i) {
        QCOMPARE(stragglersA[i].why, stragglersB[i].why);
        QCOMPARE(stragglersA[i].reasonEvent, stragglersB[i].reasonEvent);
    }
    // Only what the answer reads is named; the old way named far more.
    QCOMPARE(piecesHeld(a), piecesUsed(a));
    if (source == "synth" && iteration < 0) {
        QVERIFY(!stragglersA.empty());
        QVERIFY2(piecesHeld(b) > 4 * piecesHeld(a),
            (std::to_string(piecesHeld(b)) + " vs " + std::to_string(piecesHeld(a))).c_str());
    }
}

// The insights' what-ifs re-time the timed graphs the base path
// kept instead of building every event graph again: on every shared trace
// folder, the base path kept that way names the same segments, and each
// what-if (kind rules, name rules, both) gives the path the rebuilt path
// gives, length and steps.
void TestCrossRankPath::retimedWhatIfIsTheRebuiltOne_data()
{
    QTest::addColumn<QString>("folder");
    const std::filesystem::path traces = std::filesystem::path(KS_SHARED_DIR) / "traces";
    if (!std::filesystem::is_directory(traces))
        return;
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(traces))
        if (entry.is_directory())
            names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    for (const std::string& name : names)
        QTest::newRow(name.c_str()) << QString::fromStdString((traces / name).string());
}

void TestCrossRankPath::retimedWhatIfIsTheRebuiltOne()
{
    QFETCH(QString, folder);
    auto set = core::loadTraceSet({ folder.toStdString() }, {}, nullptr, nullptr);
    if (!set.ok())
        QSKIP("the folder does not load as one job");
    const core::FrameSet frames = tests::frames(set.value(), core::AnalysisMode::Default);
    core::JobPathOptions plain;
    auto rebuiltBase = core::jobCriticalPath(frames, plain);
    core::JobPathTiming timing;
    core::JobPathOptions keeping;
    keeping.keepTiming = &timing;
    auto keptBase = core::jobCriticalPath(frames, keeping);
    QCOMPARE(keptBase.ok(), rebuiltBase.ok());
    if (!keptBase.ok())
        return;
    const core::CrossRankPath& a = keptBase.value().path;
    const core::CrossRankPath& b = rebuiltBase.value().path;
    QCOMPARE(a.ok, b.ok);
    QCOMPARE(a.length, b.length);
    QCOMPARE(a.segments.size(), b.segments.size());
    for (std::size_t i = 0; i < a.segments.size(); ++i)
        QCOMPARE(describe(a.segments[i]), describe(b.segments[i]));
    QCOMPARE(keptBase.value().notes, rebuiltBase.value().notes);

    const std::vector<std::vector<std::string>> whatIfs {
        {},
        { "cudaLaunchKernel|hipLaunchKernel|cuLaunchKernel=0", "kind:launch_overhead=0",
            "kind:kernel_kernel_gap=0" },
        { "kind:transfer=0", "kind:gpu_comm_wait=0" },
        { "gemm|Gemm|GEMM|Cijk|nvjet|sm90=0.37", "kind:gpu_compute=0.8" },
        { "kind:cpu=1.5", "aten::=0.25" },
        { "Memcpy|Memset=0", "kind:gpu_compute=0" },
    };
    for (const auto& texts : whatIfs) {
        std::vector<core::WhatIfRule> rules;
        for (const std::string& text : texts)
            rules.push_back(core::parseWhatIfRule(text).value());
        core::JobPathOptions scaled;
        scaled.whatIf = core::WhatIfScaling(rules);
        auto rebuilt = core::jobCriticalPath(frames, scaled);
        QVERIFY(rebuilt.ok());
        const core::CrossRankPath retimed =
            core::retimedJobPath(frames, timing, core::WhatIfScaling(std::move(rules)));
        const std::string label = folder.toStdString() + " with " + std::to_string(texts.size()) + " rule(s)";
        QVERIFY2(retimed.ok == rebuilt.value().path.ok, label.c_str());
        QVERIFY2(retimed.length == rebuilt.value().path.length,
            (label + ": " + std::to_string(retimed.length) + " vs "
                + std::to_string(rebuilt.value().path.length))
                .c_str());
        QCOMPARE(retimed.steps.size(), rebuilt.value().path.steps.size());
        for (std::size_t i = 0; i < retimed.steps.size(); ++i) {
            QCOMPARE(retimed.steps[i].rankPos, rebuilt.value().path.steps[i].rankPos);
            QCOMPARE(retimed.steps[i].index, rebuilt.value().path.steps[i].index);
            QCOMPARE(retimed.steps[i].weight, rebuilt.value().path.steps[i].weight);
        }
        // The comparison means something: dropping GPU compute shortens a path that holds any.
        const bool computeOnPath =
            std::any_of(a.segments.begin(), a.segments.end(), [](const core::PathSegment& s) {
                return s.piece.bound == PathBound::GpuCompute && s.piece.duration > 0;
            });
        if (texts.size() == 2 && texts[1] == "kind:gpu_compute=0" && computeOnPath)
            QVERIFY2(retimed.length < a.length, label.c_str());
    }
}

// A kept timed graph replays the visits its first condensing recorded. Every
// rank condensed that way must give the edges a fresh build with the what-if
// gives: what-ifs of one name each, a kind, and a name nowhere.
void TestCrossRankPath::replayedPassesGiveTheRebuiltEdges_data()
{
    retimedWhatIfIsTheRebuiltOne_data();
}

void TestCrossRankPath::replayedPassesGiveTheRebuiltEdges()
{
    QFETCH(QString, folder);
    auto set = core::loadTraceSet({ folder.toStdString() }, {}, nullptr, nullptr);
    if (!set.ok())
        QSKIP("the folder does not load as one job");
    const core::FrameSet frames = tests::frames(set.value(), core::AnalysisMode::Default);
    const core::PathCollectives collectives = core::pathCollectives(frames);
    for (std::size_t p = 0; p < frames.ranks.size(); ++p) {
        const core::RankFrame& frame = frames.ranks[p];
        if (frame.rows.empty())
            continue;
        core::CondenseInput input;
        input.frames = &frames;
        input.rankPos = p;
        input.collectives = &collectives.byRank[p];
        input.instanceNames = &collectives.names;
        input.window = { std::numeric_limits<TimeNs>::max(), std::numeric_limits<TimeNs>::min() };
        for (const core::FrameRow& row : frame.rows) {
            input.window.start = std::min(input.window.start, row.ts);
            input.window.end = std::max(input.window.end, row.end());
        }
        std::shared_ptr<const core::TimedGraph> kept;
        input.keepTimed = &kept;
        const core::CondensedRank base = core::condenseRank(input);
        input.keepTimed = nullptr;
        if (!kept || !kept->acyclic)
            continue; // the serial model: nothing kept
        QCOMPARE(kept->passVisits.offsets.size(), kept->ends.size() + 2); // every pass recorded
        // Rules of one name each: the first names of each bound the graph spends time in.
        std::vector<std::string> rules { "kind:kernel_kernel_gap=0", "no_such_op_anywhere=0.5" };
        std::array<int, core::kPathBoundCount> perBound {};
        for (const core::TimedGraph::SpentIn& spent : kept->spentIn)
            if (!spent.name.empty() && perBound[static_cast<std::size_t>(spent.bound)]++ < 3)
                rules.push_back(core::whatIfNamesPattern({ { spent.name, 1 } }) + "=0.3");
        bool anyChanged = false;
        for (const std::string& text : rules) {
            const core::WhatIfScaling scaling({ core::parseWhatIfRule(text).value() });
            core::CondenseInput scaled = input;
            scaled.whatIf = &scaling;
            const core::CondensedRank rebuilt = core::condenseRank(scaled);
            const core::CondensedRank retimed = core::condenseTimed(scaled, *kept);
            const std::string label =
                folder.toStdString() + " rank " + std::to_string(frame.rank) + " " + text;
            QVERIFY2(retimed.edges.size() == rebuilt.edges.size(), label.c_str());
            for (std::size_t e = 0; e < retimed.edges.size(); ++e) {
                QVERIFY2(retimed.edges[e].from == rebuilt.edges[e].from, label.c_str());
                QVERIFY2(retimed.edges[e].to == rebuilt.edges[e].to, label.c_str());
                QVERIFY2(retimed.edges[e].weight == rebuilt.edges[e].weight, label.c_str());
                anyChanged = anyChanged || retimed.edges[e].weight != base.edges[e].weight;
            }
            QCOMPARE(retimed.collectives.size(), rebuilt.collectives.size());
            for (std::size_t k = 0; k < retimed.collectives.size(); ++k)
                QCOMPARE(retimed.collectives[k].transferScale, rebuilt.collectives[k].transferScale);
        }
        // The comparison means something: some what-if moved some edge of a rank with edges.
        if (base.edges.size() > 1)
            QVERIFY2(anyChanged, (folder.toStdString() + " rank " + std::to_string(frame.rank)).c_str());
    }
}

// Each rank's path alone derived from the job's kept graph of it (rankAlonePath:
// the insights' rank contexts) equals the rank alone's path built from scratch:
// its segments, notes and measured time, and every what-if re-timed on either
// kept timing. On every shared trace of two or more ranks and a synthetic GPU job.
void TestCrossRankPath::rankAlonePathIsTheRebuiltOne()
{
    std::vector<std::pair<std::string, core::FrameSet>> jobs;
    std::vector<core::TraceSet> sets; // the frames point into them
    sets.reserve(32);
    const std::filesystem::path traces = std::filesystem::path(KS_SHARED_DIR) / "traces";
    if (std::filesystem::is_directory(traces))
        for (const auto& entry : std::filesystem::directory_iterator(traces)) {
            auto set = core::loadTraceSet({ entry.path().string() }, {}, nullptr, nullptr);
            if (set.ok() && set.value().ranks.size() >= 2) {
                sets.push_back(std::move(set).value());
                jobs.emplace_back(entry.path().filename().string(),
                    tests::frames(sets.back(), core::AnalysisMode::Default));
            }
        }
    QTemporaryDir dir;
    const core::SynthOptions synth = ks::test::syntheticJob(dir.path(), 4, 200'000, 5, { 2 }, 2.0);
    QVERIFY(core::generateSyntheticTraces(synth).ok());
    auto synthetic = core::loadTraceSet({ synth.outDir }, {}, nullptr, nullptr);
    QVERIFY(synthetic.ok());
    sets.push_back(std::move(synthetic).value());
    jobs.emplace_back("synthetic", tests::frames(sets.back(), core::AnalysisMode::Default));

    std::size_t derivedRanks = 0;
    for (const auto& [name, frames] : jobs) {
        core::JobPathTiming jobTiming;
        core::JobPathOptions keeping;
        keeping.keepTiming = &jobTiming;
        if (!core::jobCriticalPath(frames, keeping).ok())
            continue;
        for (std::size_t p = 0; p < frames.ranks.size(); ++p) {
            core::FrameSet one = core::framesWithoutRanks(frames);
            one.ranks.push_back(frames.ranks[p]);
            core::JobPathTiming aloneTiming;
            core::JobPathOptions alone;
            alone.keepTiming = &aloneTiming;
            std::optional<core::Result<core::JobCriticalPath>> derived =
                core::rankAlonePath(one, jobTiming, p, alone);
            if (!derived)
                continue; // the serial model (gloo): no graph kept
            ++derivedRanks;
            core::JobPathTiming rebuiltTiming;
            core::JobPathOptions rebuilding;
            rebuilding.keepTiming = &rebuiltTiming;
            const auto rebuilt = core::jobCriticalPath(one, rebuilding);
            const std::string label = name + " rank " + std::to_string(frames.ranks[p].rank);
            QVERIFY2(derived->ok() == rebuilt.ok(), label.c_str());
            if (!rebuilt.ok())
                continue;
            const core::JobCriticalPath& a = derived->value();
            const core::JobCriticalPath& b = rebuilt.value();
            QVERIFY2(a.path.ok == b.path.ok && a.path.length == b.path.length, label.c_str());
            QVERIFY2(a.measuredTime == b.measuredTime, label.c_str());
            QVERIFY2(a.notes == b.notes, label.c_str());
            QVERIFY2(a.path.segments.size() == b.path.segments.size(), label.c_str());
            for (std::size_t i = 0; i < a.path.segments.size(); ++i)
                QVERIFY2(describe(a.path.segments[i]) == describe(b.path.segments[i]), label.c_str());
            // The derived timing shares the job's graph, not a copy.
            QVERIFY(aloneTiming.graphs.size() == 1 && aloneTiming.graphs.front());
            const auto at = std::find(jobTiming.rankPos.begin(), jobTiming.rankPos.end(), p);
            QVERIFY(
                aloneTiming.graphs.front() == jobTiming.graphs[std::size_t(at - jobTiming.rankPos.begin())]);
            for (const std::vector<std::string>& texts : std::vector<std::vector<std::string>> {
                     { "kind:launch_overhead=0", "kind:kernel_kernel_gap=0" },
                     { "kind:transfer=0", "kind:gpu_comm_wait=0" },
                     { "kind:gpu_compute=0.5", "aten::=0.25" } }) {
                std::vector<core::WhatIfRule> rules;
                for (const std::string& text : texts)
                    rules.push_back(core::parseWhatIfRule(text).value());
                const core::WhatIfScaling scaling(std::move(rules));
                const core::CrossRankPath x = core::retimedJobPath(one, aloneTiming, scaling);
                const core::CrossRankPath y = core::retimedJobPath(one, rebuiltTiming, scaling);
                QVERIFY2(x.ok == y.ok && x.length == y.length, (label + " " + texts.front()).c_str());
            }
        }
    }
    QVERIFY(derivedRanks >= 4); // the synthetic job's four GPU ranks at least
}

KS_TEST_MAIN(tst_cross_rank_path, TestCrossRankPath)
#include "tst_cross_rank_path.moc"
