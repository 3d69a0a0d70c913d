// Job answers from a summary (issue 36 item 3): the collectives' arrivals a
// .kssum stores give the folder's collective skew, arrival stragglers (who
// arrived last how often, who waited) and match notes, on a CPU-only gloo job
// and on a synthetic 64-rank GPU job with a straggler, and `stragglers`' per-iteration
// rows (the rank the others waited for, the wait it caused); the summary's
// `straggler` finding names the rank the folder's names first, its gain near the
// folder's; each stored wait is the wait the folder's match gives.

#include "core/analysis/cross_rank/arrival_stragglers.h"
#include "core/analysis/cross_rank/collective_skew.h"
#include "core/analysis/cross_rank/iteration_stragglers.h"
#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/cross_rank/stragglers.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/insights/insights.h"
#include "core/io/trace_set_loader.h"
#include "core/summary/job_overview.h"
#include "core/summary/job_summarizer.h"
#include "core/summary/sqlite_db.h"
#include "core/summary/summary_insights.h"
#include "core/summary/summary_schema.h"
#include "core/synth/synthetic_trace_generator.h"
#include "tests/support/synthetic_job.h"
#include "tests/support/test_main.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>
#include <map>

using namespace ks::core;

namespace {

constexpr std::size_t kEvery = std::numeric_limits<std::size_t>::max();

std::string summarizeOrFail(const std::string& folder, const QString& dir)
{
    const std::string out = dir.toStdString() + "/job.kssum";
    auto report = summarizeJob({ folder }, out, SummarizeOptions {});
    if (!report)
        qFatal("%s", report.error().describe().c_str());
    return out;
}

// Every column and cell, in order (doubles exactly: both come from the same integers).
void compareTables(const Table& fromSummary, const Table& fromFolder)
{
    QCOMPARE(fromSummary.columns.size(), fromFolder.columns.size());
    for (std::size_t c = 0; c < fromFolder.columns.size(); ++c)
        QCOMPARE(fromSummary.columns[c].name, fromFolder.columns[c].name);
    QCOMPARE(fromSummary.rows.size(), fromFolder.rows.size());
    for (std::size_t r = 0; r < fromFolder.rows.size(); ++r)
        for (std::size_t c = 0; c < fromFolder.columns.size(); ++c) {
            const Cell a = fromFolder.rows[r][c];
            const Cell b = fromSummary.rows[r][c];
            QVERIFY2(a == b,
                (fromFolder.columns[c].name + " of row " + std::to_string(r) + ": " + cellAsText(b) + " vs "
                    + cellAsText(a))
                    .c_str());
        }
}

struct FolderAnswers
{
    TraceSet traces;
    CollectiveMatch match;
    AnalysisOutput skew;
    ArrivalSummary arrivals;
};

FolderAnswers folderAnswers(const std::string& folder)
{
    FolderAnswers a;
    auto loaded = loadTraceSet({ folder }, LoadOptions {}, nullptr, nullptr);
    if (!loaded)
        qFatal("%s", loaded.error().describe().c_str());
    a.traces = std::move(loaded).value();
    a.match = matchCollectives(a.traces);
    CollectiveSkewOptions options;
    options.top = kEvery;
    a.skew = collectiveSkew(a.traces, a.match, options);
    a.arrivals = summarizeArrivals(a.traces);
    return a;
}

// The summary's collective skew, arrival stragglers and notes equal the folder's.
void summaryAnswersAsFolder(const std::string& summary, const FolderAnswers& folder)
{
    auto job = readJobOverview(summary, kEvery);
    QVERIFY2(job.ok(), job.ok() ? "" : job.error().describe().c_str());
    const JobOverview& o = job.value();
    QCOMPARE(o.collectives.match.notes, folder.match.notes);
    QCOMPARE(o.collectives.match.instances.size(), folder.match.instances.size());
    QVERIFY(folder.skew.ok);
    QVERIFY2(o.collectiveSkew.ok, o.collectiveSkew.error.c_str());
    compareTables(o.collectiveSkew.result.frame, folder.skew.result.frame);
    const AnalysisOutput a = arrivalStragglersTable(folder.arrivals);
    const AnalysisOutput b = arrivalStragglersTable(o.arrivals);
    QVERIFY(a.ok && b.ok);
    compareTables(b.result.frame, a.result.frame);
}

// Per rank, the collective_arrivals' wait_ns summed: the folder's total wait.
void storedWaitsAsFolder(const std::string& summary, const ArrivalSummary& folder)
{
    auto db = SqliteDb::open(summary, SqliteDb::Mode::ReadOnly);
    QVERIFY(db.ok());
    auto select = db.value().prepare("SELECT rank, SUM(wait_ns), COUNT(wait_ns) FROM "
        + std::string(kCollectiveArrivalsTable) + " GROUP BY rank");
    QVERIFY(select.ok());
    std::map<std::int64_t, std::pair<std::int64_t, std::int64_t>> stored;
    SqliteStatement& s = select.value();
    for (auto r = s.step(); r && r.value(); r = s.step())
        stored[s.columnInt(0)] = { s.columnInt(1), s.columnInt(2) };
    QVERIFY(!folder.ranks.empty());
    for (const RankArrivalStats& rank : folder.ranks) {
        QCOMPARE(stored[rank.rank].first, rank.totalWait);
        QCOMPARE(stored[rank.rank].second, static_cast<std::int64_t>(rank.collectives));
    }
}

// `stragglers` on the summary: per iteration the folder's rank, wait caused, count and
// collective (its job path's pick), from the stored arrivals and ends alone.
void iterationStragglersAsFolder(const std::string& summary, const TraceSet& traces)
{
    auto job = readJobOverview(summary, kEvery);
    QVERIFY(job.ok());
    const SummaryCollectives& c = job.value().collectives;
    const std::vector<IterationStraggler> fromSummary = iterationStragglers(c.match, c.ranks, c.rankNumbers);
    auto frames = buildFrames(traces, AnalysisOptions {});
    QVERIFY(frames.ok());
    auto path = jobCriticalPath(frames.value(), JobPathOptions {});
    QVERIFY2(path.ok(), path.ok() ? "" : path.error().describe().c_str());
    const std::vector<Straggler> fromFolder = findStragglers(path.value());
    QVERIFY(!fromFolder.empty());
    QCOMPARE(fromSummary.size(), fromFolder.size());
    for (std::size_t i = 0; i < fromFolder.size(); ++i) {
        QCOMPARE(fromSummary[i].iteration, fromFolder[i].iteration);
        QCOMPARE(fromSummary[i].rank, fromFolder[i].rank);
        QCOMPARE(fromSummary[i].waitCaused, fromFolder[i].waitCaused);
        QCOMPARE(fromSummary[i].collectives, fromFolder[i].collectives);
        QCOMPARE(fromSummary[i].collective, fromFolder[i].collective);
        QCOMPARE(fromSummary[i].aheadOfNext, fromFolder[i].aheadOfNext);
    }
    QVERIFY(iterationStragglersTable(fromSummary).ok);
}

std::vector<std::int64_t> stragglerRanks(const InsightsReport& report)
{
    std::vector<std::int64_t> ranks;
    for (const Finding& f : report.findings)
        if (f.rule == "straggler")
            ranks.insert(ranks.end(), f.ranks.begin(), f.ranks.end());
    return ranks;
}

// The summary's finding of `rule` (from the arrivals) against the folder's (from the
// critical path): both present, gains within max(3 points, 25 %).
void sameFindingAsFolder(const InsightsReport& fromSummary, const TraceSet& traces, const std::string& rule)
{
    auto frames = buildFrames(traces, AnalysisOptions {});
    QVERIFY(frames.ok());
    InsightsOptions only;
    only.rules = { rule };
    const InsightsReport fromFolder = runInsights(frames.value(), AnalysisOptions {}, only);
    const auto find = [&rule](const InsightsReport& r) {
        return std::find_if(
            r.findings.begin(), r.findings.end(), [&rule](const Finding& f) { return f.rule == rule; });
    };
    const auto a = find(fromFolder);
    const auto b = find(fromSummary);
    QVERIFY2(a != fromFolder.findings.end() && b != fromSummary.findings.end(), rule.c_str());
    QVERIFY2(std::abs(a->gainPct - b->gainPct) <= std::max(3.0, 0.25 * a->gainPct),
        (rule + ": " + std::to_string(a->gainPct) + " vs " + std::to_string(b->gainPct)).c_str());
}

// The `straggler` finding of a report, or null.
const Finding* stragglerOf(const InsightsReport& report)
{
    const auto it = std::find_if(report.findings.begin(), report.findings.end(),
        [](const Finding& f) { return f.rule == "straggler"; });
    return it == report.findings.end() ? nullptr : &*it;
}

struct PairRun
{
    InsightsReport fromFolder;
    InsightsReport fromSummary;
};

PairRun runPairHalf(const char* pair, const char* which, const QString& dir)
{
    const std::string folder = std::string(KS_TEST_DATA_DIR "/gains/") + pair + "/" + which;
    auto loaded = loadTraceSet({ folder }, LoadOptions {}, nullptr, nullptr);
    if (!loaded)
        qFatal("%s", loaded.error().describe().c_str());
    auto frames = buildFrames(loaded.value(), AnalysisOptions {});
    if (!frames)
        qFatal("%s", frames.error().describe().c_str());
    InsightsOptions only;
    only.rules = { "straggler" };
    PairRun run;
    run.fromFolder = runInsights(frames.value(), AnalysisOptions {}, only);
    const QString sub =
        dir + QLatin1Char('/') + QString::fromLatin1(pair) + QLatin1Char('_') + QString::fromLatin1(which);
    QDir().mkpath(sub);
    auto report = insightsFromSummary(summarizeOrFail(folder, sub), only);
    if (!report)
        qFatal("%s", report.error().describe().c_str());
    run.fromSummary = std::move(report).value();
    return run;
}

} // namespace

class TestSummaryJobAnswers : public QObject
{
    Q_OBJECT

private slots:
    void glooJobAsFolder();
    void overlapPairAsFolder();
    void syntheticStragglerJobAsFolder();
    void recordedStragglerPairsFromSummary();
};

// CPU-only DDP over gloo: its gloo:* collectives are stored and matched as on the folder.
void TestSummaryJobAnswers::glooJobAsFolder()
{
    const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/ddp_gloo_2ranks");
    if (!QDir(folder).exists())
        QSKIP("../shared is absent");
    QTemporaryDir dir;
    const std::string summary = summarizeOrFail(folder.toStdString(), dir.path());
    const FolderAnswers answers = folderAnswers(folder.toStdString());
    QVERIFY(answers.arrivals.instances > 0);
    bool gloo = false;
    for (const CollectiveInstance& inst : answers.match.instances)
        gloo = gloo || answers.match.group(inst.group).backend == CollectiveBackend::Gloo;
    QVERIFY(gloo);
    summaryAnswersAsFolder(summary, answers);
    storedWaitsAsFolder(summary, answers.arrivals);
    iterationStragglersAsFolder(summary, answers.traces);
    // straggler, collective_skew and exposed_communication answer from the summary (a
    // finding, or silence): never "open the traces" any more.
    InsightsOptions jobRules;
    jobRules.rules = { "straggler", "collective_skew", "exposed_communication" };
    auto report = insightsFromSummary(summary, jobRules);
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().describe().c_str());
    for (const RuleNotApplicable& na : report.value().notApplicable)
        QVERIFY2(na.reason.find("open the traces") == std::string::npos, na.reason.c_str());
    // Gloo's collectives overlap nothing: their transfer is exposed, as the folder's path finds.
    sameFindingAsFolder(report.value(), answers.traces, "exposed_communication");
    // Rank 1 has twice the batch: the summary names it, as the folder's critical path does.
    QCOMPARE(stragglerRanks(report.value()), std::vector<std::int64_t> { 1 });
    QCOMPARE(answers.arrivals.ranks.front().rank, std::int64_t { 1 });
    auto frames = buildFrames(answers.traces, AnalysisOptions {});
    QVERIFY(frames.ok());
    InsightsOptions straggler;
    straggler.rules = { "straggler" };
    QCOMPARE(stragglerRanks(runInsights(frames.value(), AnalysisOptions {}, straggler)),
        std::vector<std::int64_t> { 1 });
}

// The overlap pair's problem (tests/data/gains/overlap: gloo DDP, DDP's first bucket
// reduced under the backward, the rest in one bucket after it): the summary keeps
// each collective's compute beside it and its iteration, so its exposed
// communication leaves out the hidden buckets and the last bucket of each step as
// the folder's does, near the folder's gain (10.3 % both when written).
void TestSummaryJobAnswers::overlapPairAsFolder()
{
    const std::string folder = KS_TEST_DATA_DIR "/gains/overlap/problem";
    QTemporaryDir dir;
    const std::string summary = summarizeOrFail(folder, dir.path());
    const FolderAnswers answers = folderAnswers(folder);
    InsightsOptions only;
    only.rules = { "exposed_communication" };
    auto report = insightsFromSummary(summary, only);
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().describe().c_str());
    sameFindingAsFolder(report.value(), answers.traces, "exposed_communication");
    QCOMPARE(report.value().findings.size(), std::size_t { 1 });
    const Finding& f = report.value().findings.front();
    auto frames = buildFrames(answers.traces, AnalysisOptions {});
    QVERIFY(frames.ok());
    const InsightsReport fromFolder = runInsights(frames.value(), AnalysisOptions {}, only);
    QCOMPARE(fromFolder.findings.size(), std::size_t { 1 });
    QVERIFY2(std::abs(f.gainPct - fromFolder.findings.front().gainPct) <= 1.0,
        (std::to_string(f.gainPct) + " vs " + std::to_string(fromFolder.findings.front().gainPct)).c_str());
    // Without the stored compute the summary would count the hidden buckets (21.9 %).
    QVERIFY(f.gainPct < 0.6 * f.gainHighPct);
    QVERIFY(std::any_of(f.evidence.begin(), f.evidence.end(),
        [](const std::string& e) { return e.rfind("the last bucket stays exposed", 0) == 0; }));
}

// 64 ranks, rank 37's GPU computing twice as long: the summary names it as the
// folder does, from the arrivals alone.
void TestSummaryJobAnswers::syntheticStragglerJobAsFolder()
{
    QTemporaryDir dir;
    const SynthOptions synth =
        ks::test::syntheticJob(dir.path() + QStringLiteral("/job"), 64, 1'000'000, 5, { 37 }, 2.0);
    QVERIFY(generateSyntheticTraces(synth).ok());
    const std::string summary = summarizeOrFail(synth.outDir, dir.path());
    const FolderAnswers answers = folderAnswers(synth.outDir);
    QCOMPARE(answers.traces.ranks.size(), std::size_t(64));
    summaryAnswersAsFolder(summary, answers);
    storedWaitsAsFolder(summary, answers.arrivals);
    iterationStragglersAsFolder(summary, answers.traces);

    // TraceLens's reading: the straggler waits least, far less than any other rank.
    // (Synth queues each step's later all-reduces behind the first on the stream, so
    // their arrivals differ by the ranks' clock skew alone: it comes last at the first.)
    const RankArrivalStats& first = answers.arrivals.ranks.front();
    QCOMPARE(first.rank, std::int64_t { 37 });
    for (std::size_t r = 1; r < answers.arrivals.ranks.size(); ++r)
        QVERIFY(answers.arrivals.ranks[r].totalWait > 2 * first.totalWait);
    QVERIFY(first.timesLast > 0);
    QVERIFY(first.waitCaused > 0);
    QCOMPARE(first.waitedBy.size(), kWaitedByShown);

    auto exposed = insightsFromSummary(summary, InsightsOptions {});
    QVERIFY(exposed.ok());
    sameFindingAsFolder(exposed.value(), answers.traces, "exposed_communication");
    // unbalanced_compute: the same ranks' compute as the folder's; its gain bounded by its
    // lead over the next-latest member where it arrived last.
    const auto unbalanced = std::find_if(exposed.value().findings.begin(), exposed.value().findings.end(),
        [](const Finding& f) { return f.rule == "unbalanced_compute"; });
    QVERIFY(unbalanced != exposed.value().findings.end());
    QCOMPARE(unbalanced->ranks, std::vector<std::int64_t> { 37 });
    {
        auto frames = buildFrames(answers.traces, AnalysisOptions {});
        QVERIFY(frames.ok());
        InsightsOptions only;
        only.rules = { "unbalanced_compute" };
        const InsightsReport folder = runInsights(frames.value(), AnalysisOptions {}, only);
        QVERIFY(!folder.findings.empty());
        QCOMPARE(folder.findings.front().ranks, unbalanced->ranks);
        QCOMPARE(unbalanced->evidence.front().substr(0, 40),
            folder.findings.front().evidence.front().substr(0, 40));
        // Within the range the folder's model allows: its re-timed fix (the busiest rank's
        // kernels at the median's share) to its excess bounded by its compute on the path.
        const Finding& onFolder = folder.findings.front();
        QVERIFY2(
            unbalanced->gainPct >= onFolder.gainPct - 1e-9 && unbalanced->gainPct <= onFolder.gainHighPct,
            qPrintable(QStringLiteral("summary %1, folder %2 to %3")
                           .arg(unbalanced->gainPct)
                           .arg(onFolder.gainPct)
                           .arg(onFolder.gainHighPct)));
    }
    InsightsOptions straggler;
    straggler.rules = { "straggler" };
    auto fromSummary = insightsFromSummary(summary, straggler);
    QVERIFY2(fromSummary.ok(), fromSummary.ok() ? "" : fromSummary.error().describe().c_str());
    QCOMPARE(stragglerRanks(fromSummary.value()), std::vector<std::int64_t> { 37 });
    // The folder's critical path names it first (and, less, ranks its clock skew makes late).
    auto frames = buildFrames(answers.traces, AnalysisOptions {});
    QVERIFY(frames.ok());
    const InsightsReport fromFolder = runInsights(frames.value(), AnalysisOptions {}, straggler);
    QVERIFY(!fromFolder.findings.empty());
    QCOMPARE(fromFolder.findings.front().ranks, std::vector<std::int64_t> { 37 });
    const double a = fromFolder.findings.front().gainPct;
    const double b = fromSummary.value().findings.front().gainPct;
    QVERIFY2(
        std::abs(a - b) <= std::max(3.0, 0.25 * a), (std::to_string(a) + " vs " + std::to_string(b)).c_str());
    // The fix, checked: the same job generated without the straggler. Its measured
    // span is 4.4 % shorter; the path re-timed with rank 37 balanced and its lead over
    // the next-latest member both say so, within max(3 points, 25 %). (When the path
    // left out each thread's time between ops, HTA's graph, the re-timing said 11.5 %:
    // rank 22's 3.9 ms data-loader stall before allreduce 0 was off the path.)
    const SynthOptions fixedSynth =
        ks::test::syntheticJob(dir.path() + QStringLiteral("/fixed"), 64, 1'000'000, 5);
    QVERIFY(generateSyntheticTraces(fixedSynth).ok());
    const FolderAnswers fixedAnswers = folderAnswers(fixedSynth.outDir);
    auto fixedFrames = buildFrames(fixedAnswers.traces, AnalysisOptions {});
    QVERIFY(fixedFrames.ok());
    const InsightsReport fixedRun = runInsights(fixedFrames.value(), AnalysisOptions {}, straggler);
    const double realized = 100.0 * static_cast<double>(fromFolder.measuredNs - fixedRun.measuredNs)
        / static_cast<double>(fromFolder.measuredNs);
    const Finding& onFolder = fromFolder.findings.front();
    // The fix is the straggler's and unbalanced_compute's alike (rank 37's compute at the
    // median's): the folder's two straggler estimates, the summary's and the summary's
    // unbalanced_compute (its excess, at most its lead over the next-latest member; the lead
    // over the median member, its old bound, said 15.2 %) all give it back.
    for (const double predicted : { onFolder.gainPct, onFolder.gainHighPct, b, unbalanced->gainPct })
        QVERIFY2(std::abs(predicted - realized) <= std::max(3.0, 0.25 * realized),
            qPrintable(QStringLiteral("predicted %1 %, realized %2 %").arg(predicted).arg(realized)));
    QVERIFY2(realized > 3.0 && realized < 6.0, std::to_string(realized).c_str());
}

// The recorded straggler pairs (tests/data/gains/) from their summaries: the gain
// predicted on the problem's summary is within max(3 points, 25 %) of the step
// time the fixed run gave back, as the folder's is. The fixed runs are balanced
// (two_stragglers' still has rank 2 late): each rank's profiler started at its own
// moment, so their recorded clocks differ by ~4 ms, and as recorded the arrivals
// named the rank whose clock ran ahead (rank 1 of straggler/fixed at 41 %). On the
// estimated clocks, with its way to each collective against the median member's,
// the summary names the folder's rank, its gain near the folder's.
void TestSummaryJobAnswers::recordedStragglerPairsFromSummary()
{
    QTemporaryDir dir;
    for (const char* pair : { "straggler", "two_stragglers" }) {
        const PairRun problem = runPairHalf(pair, "problem", dir.path());
        const PairRun fixed = runPairHalf(pair, "fixed", dir.path());
        const double realized = 100.0
            * static_cast<double>(problem.fromFolder.measuredNs - fixed.fromFolder.measuredNs)
            / static_cast<double>(problem.fromFolder.measuredNs);
        const Finding* predicted = stragglerOf(problem.fromSummary);
        QVERIFY2(predicted, pair);
        QCOMPARE(predicted->ranks, stragglerOf(problem.fromFolder)->ranks);
        QVERIFY2(std::abs(predicted->gainPct - realized) <= std::max(3.0, 0.25 * realized),
            (std::string(pair) + ": predicted " + std::to_string(predicted->gainPct) + " %, realized "
                + std::to_string(realized) + " %")
                .c_str());
        const Finding* onFolder = stragglerOf(fixed.fromFolder);
        const Finding* onSummary = stragglerOf(fixed.fromSummary);
        QVERIFY2(onFolder && onSummary, pair);
        QCOMPARE(onSummary->ranks, onFolder->ranks);
        QVERIFY2(onSummary->gainPct <= std::max(onFolder->gainPct + 5.0, 1.25 * onFolder->gainPct),
            (std::string(pair) + " fixed: " + std::to_string(onSummary->gainPct) + " % vs the folder's "
                + std::to_string(onFolder->gainPct) + " %")
                .c_str());
    }
}

KS_TEST_MAIN(tst_summary_job_answers, TestSummaryJobAnswers)
#include "tst_summary_job_answers.moc"
