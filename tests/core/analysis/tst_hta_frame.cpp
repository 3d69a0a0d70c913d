// The HTA-compatible frame against HTA's own load summary on every shared
// trace (rows kept per category, streams, iterations, aligned time range),
// plus the loading quirks on small traces: Q1 rounding, Q2 last-step drop.

#include "core/analysis/frame/frame_window.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QDir>
#include <QTest>

#include <simdjson.h>

#include <map>
#include <set>

using namespace ks;

namespace {

using tests::sharedDir;

std::int64_t usToNs(double us)
{
    return static_cast<std::int64_t>(std::llround(us * 1000.0));
}

// A rank-0 document with two ProfilerSteps on thread 1, #1 over [0, 100) µs
// and #2 over [100, 200), before `events`.
std::string twoStepsDocument(std::vector<std::string> events)
{
    events.insert(events.begin(),
        { R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":100})",
            R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#2","pid":1,"tid":1,"ts":100,"dur":100})" });
    return tests::kinetoDocument(0, events);
}

} // namespace

class TestHtaFrame : public QObject
{
    Q_OBJECT

private slots:
    void matchesHtaLoadSummary_data();
    void matchesHtaLoadSummary();
    void nsRoundingOnlyInCompatMode();
    void lastStepDroppedOnlyInCompatMode();
    void iterationSelection();
    void narrowedFramesEqualRebuiltFrames();
    void rankByHtaRegexOnlyInCompatMode();
    void includeLastStepKeepsEveryCpuRowInCompatMode();
};

void TestHtaFrame::matchesHtaLoadSummary_data()
{
    QTest::addColumn<QString>("folder");
    const QDir traces(sharedDir() + QStringLiteral("/traces"));
    if (!traces.exists())
        return;
    for (const QString& name : traces.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        QTest::newRow(name.toUtf8().constData()) << name;
}

void TestHtaFrame::matchesHtaLoadSummary()
{
    QFETCH(QString, folder);
    const QString summaryPath =
        sharedDir() + QStringLiteral("/reference/") + folder + QStringLiteral("/load_summary.json");
    if (!QFileInfo::exists(summaryPath))
        QSKIP("shared reference folder absent: ../shared/reference");
    const core::TraceSet set = tests::loadSharedTraces(folder);
    const core::FrameSet frames = tests::frames(set, core::AnalysisMode::HtaCompat);

    simdjson::dom::parser parser;
    simdjson::dom::element summary = parser.load(summaryPath.toStdString());
    std::map<std::int64_t, const core::RankFrame*> byRank;
    for (const auto& f : frames.ranks)
        byRank[f.rank] = &f;
    simdjson::dom::object perRank = summary["per_rank"];
    QCOMPARE(byRank.size(), perRank.size());
    // min_ts is epoch-scale: compare integers exactly, floats in µs.
    std::int64_t minTsInt = 0;
    double minTs = 0;
    if (!summary["min_ts"].get(minTsInt))
        QCOMPARE(frames.minTs, minTsInt * 1000);
    else if (!summary["min_ts"].get(minTs))
        QVERIFY(std::abs(static_cast<double>(frames.minTs) / 1000.0 - minTs) <= 1e-3);
    for (auto [key, expected] : perRank) {
        const std::int64_t rank = std::stoll(std::string(key));
        QVERIFY2(byRank.count(rank), "rank missing");
        const core::RankFrame& f = *byRank[rank];
        QCOMPARE(static_cast<std::int64_t>(f.rows.size()), int64_t(expected["n_rows_after_load"]));
        std::map<std::string, std::int64_t> cats;
        std::set<std::int64_t> streams, iterations;
        std::int64_t tsMin = INT64_MAX, tsMax = INT64_MIN;
        for (const auto& row : f.rows) {
            ++cats[std::string(f.category(row))];
            streams.insert(row.stream);
            if (row.iteration >= 0)
                iterations.insert(row.iteration);
            tsMin = std::min(tsMin, row.ts);
            tsMax = std::max(tsMax, row.ts);
        }
        for (auto [cat, n] : simdjson::dom::object(expected["rows_by_cat"]))
            QCOMPARE(cats[std::string(cat)], int64_t(n));
        std::set<std::int64_t> expectedStreams, expectedIterations;
        for (auto s : simdjson::dom::array(expected["streams"]))
            expectedStreams.insert(int64_t(s));
        for (auto s : simdjson::dom::array(expected["iterations"]))
            expectedIterations.insert(int64_t(s));
        QCOMPARE(streams, expectedStreams);
        QCOMPARE(iterations, expectedIterations);
        QCOMPARE(tsMin, usToNs(double(expected["ts_min"])));
        QCOMPARE(tsMax, usToNs(double(expected["ts_max"])));
    }
}

void TestHtaFrame::nsRoundingOnlyInCompatMode()
{
    // A 0.5 µs kernel inside one microsecond: HTA ceils ts and floors the end,
    // giving dur -1 µs (Q1); default mode keeps the exact nanoseconds.
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::kinetoDocument(0,
            { R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":1000.2,"dur":0.5,"args":{"stream":7,"correlation":1}})",
                R"({"ph":"X","cat":"cpu_op","name":"op","pid":1,"tid":1,"ts":999,"dur":3})" }) });
    const auto compat = tests::frames(set, core::AnalysisMode::HtaCompat);
    const auto exact = tests::frames(set, core::AnalysisMode::Default);
    auto kernelOf = [](const core::FrameSet& f) {
        for (const auto& row : f.ranks[0].rows)
            if (f.ranks[0].name(row) == "k")
                return row;
        return core::FrameRow {};
    };
    // compat: ts ceil(1000.2) = 1001, end floor(1000.7) = 1000 -> dur -1 µs; aligned on min ts 999
    QCOMPARE(kernelOf(compat).ts, 2000);
    QCOMPARE(kernelOf(compat).dur, -1000);
    QCOMPARE(kernelOf(exact).ts, 1200);
    QCOMPARE(kernelOf(exact).dur, 500);
}

void TestHtaFrame::lastStepDroppedOnlyInCompatMode()
{
    // Two steps; the kernel launched in the last one is dropped by HTA (Q2).
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { twoStepsDocument({ R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":1}})",
            R"({"ph":"X","cat":"kernel","name":"k1","pid":0,"tid":7,"ts":20,"dur":5,"args":{"stream":7,"correlation":1}})",
            R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":110,"dur":5,"args":{"correlation":2}})",
            R"({"ph":"X","cat":"kernel","name":"k2","pid":0,"tid":7,"ts":120,"dur":5,"args":{"stream":7,"correlation":2}})" }) });
    const auto compat = tests::frames(set, core::AnalysisMode::HtaCompat);
    const auto exact = tests::frames(set, core::AnalysisMode::Default);
    QVERIFY(compat.filteredToCompleteSteps);
    QCOMPARE(compat.ranks[0].rows.size(), std::size_t(3)); // k1, ProfilerStep#1, its launch
    QCOMPARE(compat.ranks[0].name(compat.ranks[0].rows[0]), std::string_view("k1")); // GPU rows first
    QCOMPARE(exact.ranks[0].rows.size(), std::size_t(6));
    QCOMPARE(exact.iterations, (std::vector<std::int64_t> { 1, 2 }));
    const core::FrameRow* k2 = nullptr;
    for (const auto& row : exact.ranks[0].rows)
        if (exact.ranks[0].name(row) == "k2")
            k2 = &row;
    QVERIFY(k2);
    QCOMPARE(k2->iteration, 2); // through its launch
}

void TestHtaFrame::iterationSelection()
{
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { twoStepsDocument({ R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":10,"dur":5})",
            R"({"ph":"X","cat":"cpu_op","name":"b","pid":1,"tid":1,"ts":110,"dur":5})" }) });
    core::AnalysisOptions options;
    options.iterations = std::vector<std::int64_t> { 2 };
    auto f = core::buildFrames(set, options);
    QVERIFY(f.ok());
    QCOMPARE(f.value().ranks[0].rows.size(), std::size_t(2));
    for (const auto& row : f.value().ranks[0].rows)
        QCOMPARE(row.iteration, 2);
}

// The Overview derives an iteration's or a window's frames from the docks'
// whole-trace frames: the same rows as building them for that scope.
void TestHtaFrame::narrowedFramesEqualRebuiltFrames()
{
    const core::TraceSet set = tests::loadSharedTraces(QStringLiteral("two_ranks_sampled"));
    if (set.ranks.empty())
        QSKIP("shared traces absent: ../shared/traces");
    const core::FrameSet whole = tests::frames(set, core::AnalysisMode::Default);
    QVERIFY(whole.iterations.size() >= 2);
    const auto sameRows = [](const core::FrameSet& a, const core::FrameSet& b) {
        QCOMPARE(a.ranks.size(), b.ranks.size());
        QCOMPARE(a.iterations, b.iterations);
        QCOMPARE(a.minTs, b.minTs);
        for (std::size_t r = 0; r < a.ranks.size(); ++r) {
            QCOMPARE(a.ranks[r].rows.size(), b.ranks[r].rows.size());
            for (std::size_t i = 0; i < a.ranks[r].rows.size(); ++i) {
                const core::FrameRow& x = a.ranks[r].rows[i];
                const core::FrameRow& y = b.ranks[r].rows[i];
                QCOMPARE(x.slice, y.slice);
                QCOMPARE(x.ts, y.ts);
                QCOMPARE(x.iteration, y.iteration);
                QCOMPARE(x.indexCorrelation, y.indexCorrelation);
                QCOMPARE(a.ranks[r].rowOfEvent(x.eventIndex), &x);
            }
        }
    };
    const std::int64_t second = whole.iterations[1];
    core::AnalysisOptions options;
    options.iterations = std::vector<std::int64_t> { second };
    const auto rebuilt = core::buildFrames(set, options);
    QVERIFY(rebuilt.ok());
    const core::FrameSet narrowed = core::narrowedFrames(whole, second, std::nullopt);
    QVERIFY(!narrowed.ranks[0].rows.empty());
    QVERIFY(narrowed.ranks[0].rows.size() < whole.ranks[0].rows.size());
    sameRows(narrowed, rebuilt.value());

    // A window over the middle of rank 0's rows (absolute ns).
    const auto& rows = whole.ranks[0].rows;
    const core::TimeNs start = whole.minTs + rows[rows.size() / 3].ts;
    const core::TimeNs end = whole.minTs + rows[2 * rows.size() / 3].ts;
    core::FrameSet restricted = tests::frames(set, core::AnalysisMode::Default);
    core::restrictFramesToWindow(restricted, start, end);
    const core::FrameSet windowed = core::narrowedFrames(whole, std::nullopt, std::pair(start, end));
    QVERIFY(!windowed.ranks[0].rows.empty());
    sameRows(windowed, restricted);
    QCOMPARE(whole.ranks[0].rows.size(), rows.size()); // the source is left alone
}

void TestHtaFrame::rankByHtaRegexOnlyInCompatMode()
{
    // Q8: minified `"rank":3` has no space after the colon; HTA's regex misses
    // it and falls back to rank 0. Kinetoscope reads distributedInfo.rank.
    QTemporaryDir dir;
    const std::string minified = R"({"distributedInfo":{"rank":3},"traceEvents":[)"
                                 R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":10,"dur":5}]})";
    const auto set = tests::loadRanks(dir, { minified });
    QCOMPARE(tests::frames(set, core::AnalysisMode::Default).ranks[0].rank, 3);
    QCOMPARE(tests::frames(set, core::AnalysisMode::HtaCompat).ranks[0].rank, 0);

    QTemporaryDir spaced;
    const std::string pretty = R"({"distributedInfo": {"rank": 3}, "traceEvents": [)"
                               R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":10,"dur":5}]})";
    QCOMPARE(
        tests::frames(tests::loadRanks(spaced, { pretty }), core::AnalysisMode::HtaCompat).ranks[0].rank, 3);
}

void TestHtaFrame::includeLastStepKeepsEveryCpuRowInCompatMode()
{
    // Q11: HTA's include_last_profiler_step compares with a stale absolute end:
    // it keeps every CPU row (even after the last step) but still drops GPU work
    // without a launch. Default mode keeps everything, with one time base.
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { twoStepsDocument({ R"({"ph":"X","cat":"cpu_op","name":"after","pid":1,"tid":1,"ts":500,"dur":5})",
            R"({"ph":"X","cat":"kernel","name":"orphan","pid":0,"tid":7,"ts":20,"dur":5,"args":{"stream":7,"correlation":9}})" }) });
    core::AnalysisOptions options;
    options.mode = core::AnalysisMode::HtaCompat;
    options.includeLastProfilerStep = true;
    auto compat = core::buildFrames(set, options);
    QVERIFY(compat.ok());
    QCOMPARE(compat.value().ranks[0].rows.size(),
        std::size_t(3)); // both steps and "after"; the orphan kernel is gone
    options.includeLastProfilerStep = false;
    QCOMPARE(core::buildFrames(set, options).value().ranks[0].rows.size(), std::size_t(1)); // only step 1
    QCOMPARE(tests::frames(set, core::AnalysisMode::Default).ranks[0].rows.size(), std::size_t(4));
}

KS_TEST_MAIN(tst_hta_frame, TestHtaFrame)
#include "tst_hta_frame.moc"
