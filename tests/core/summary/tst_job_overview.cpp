// Job mode's reading of a summary (core/summary/job_overview.h): the per-rank
// profile blobs equal the stream_utilisation rows they are summed from, old
// summaries without them read the same, and the rank overview and collective
// skew tables equal the analyses over the traces.
#include "core/analysis/cross_rank/collective_skew.h"
#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/tables/table.h"
#include "core/io/trace_set_loader.h"
#include "core/summary/job_overview.h"
#include "core/summary/job_summarizer.h"
#include "core/summary/sqlite_db.h"
#include "core/summary/summary_schema.h"
#include "core/synth/synthetic_trace_generator.h"
#include "tests/support/synthetic_job.h"
#include "tests/support/test_main.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <map>

using namespace ks::core;

namespace {

SynthOptions jobWithStraggler(const QString& dir, int ranks, int straggler)
{
    return ks::test::syntheticJob(dir, ranks, 150'000, 11, { straggler }, 2.0);
}

std::string summarizeOrFail(const std::string& folder, const QString& dir)
{
    const std::string out = dir.toStdString() + "/job.kssum";
    auto report = summarizeJob({ folder }, out, SummarizeOptions {});
    if (!report)
        qFatal("%s", report.error().describe().c_str());
    return out;
}

double rowTotal(const JobProfiles& profiles, std::size_t row, std::size_t kind)
{
    double sum = 0;
    for (const KindShares& bin : profiles.row(row))
        sum += bin[kind];
    return sum;
}

} // namespace

class TestJobOverview : public QObject
{
    Q_OBJECT

private slots:
    void profilesEqualStreamUtilisation();
    void summaryWithoutProfileTableReadsTheSame();
    void collectiveSkewEqualsX2OnTraces();
    void stragglerComputesLongerAndWaitsLess();
    void rankOverviewKeepsEveryColumn();
    void refusesWhatIsNotASummary();
};

// Every rank's blob, summed over its bins, holds exactly the ns of its
// stream_utilisation rows, kind by kind.
void TestJobOverview::profilesEqualStreamUtilisation()
{
    QTemporaryDir dir;
    const SynthOptions synth = jobWithStraggler(dir.path() + QStringLiteral("/job"), 6, 3);
    QVERIFY(generateSyntheticTraces(synth).ok());
    const std::string path = summarizeOrFail(synth.outDir, dir.path());
    auto job = readJobOverview(path);
    QVERIFY2(job.ok(), job.ok() ? "" : job.error().describe().c_str());
    QCOMPARE(job.value().ranks.size(), std::size_t(6));
    auto db = SqliteDb::open(path, SqliteDb::Mode::ReadOnly);
    QVERIFY(db.ok());
    auto select = db.value().prepare("SELECT rank, SUM(computation_ns), SUM(communication_ns), "
                                     "COUNT(DISTINCT stream) FROM stream_utilisation GROUP BY rank");
    QVERIFY(select.ok());
    const JobOverview& o = job.value();
    const double width = static_cast<double>(o.profiles.binWidthNs);
    std::size_t checked = 0;
    while (select.value().step().value()) {
        const std::int64_t rank = select.value().columnInt(0);
        std::size_t row = 0;
        while (row < o.ranks.size() && o.ranks[row].rank != rank)
            ++row;
        QVERIFY(row < o.ranks.size());
        QCOMPARE(o.profiles.streams[row], select.value().columnInt(3));
        const double compute = static_cast<double>(select.value().columnInt(1)) / width;
        const double comm = static_cast<double>(select.value().columnInt(2)) / width;
        QVERIFY(compute > 0 && comm > 0);
        // Shares are floats: equal to a float's precision over a row's bins.
        QVERIFY2(std::abs(rowTotal(o.profiles, row, 0) - compute) <= compute * 1e-5,
            qPrintable(QString::number(rank)));
        QVERIFY(std::abs(rowTotal(o.profiles, row, 1) - comm) <= comm * 1e-5);
        ++checked;
    }
    QCOMPARE(checked, std::size_t(6));
}

// A version-1 summary written before rank_profiles existed: the reader sums
// stream_utilisation itself and gets the same shares.
void TestJobOverview::summaryWithoutProfileTableReadsTheSame()
{
    QTemporaryDir dir;
    const SynthOptions synth = jobWithStraggler(dir.path() + QStringLiteral("/job"), 4, 1);
    QVERIFY(generateSyntheticTraces(synth).ok());
    const std::string path = summarizeOrFail(synth.outDir, dir.path());
    const std::string old = dir.path().toStdString() + "/old.kssum";
    QVERIFY(QFile::copy(QString::fromStdString(path), QString::fromStdString(old)));
    {
        auto db = SqliteDb::open(old, SqliteDb::Mode::Create);
        QVERIFY(db.ok());
        QVERIFY(!db.value().exec("DROP TABLE " + std::string(kRankProfilesTable) + "; VACUUM;"));
    }
    auto fresh = readJobOverview(path);
    auto legacy = readJobOverview(old);
    QVERIFY(fresh.ok() && legacy.ok());
    QCOMPARE(legacy.value().profiles.bins, fresh.value().profiles.bins);
    QCOMPARE(legacy.value().profiles.streams, fresh.value().profiles.streams);
    QVERIFY(legacy.value().profiles.shares == fresh.value().profiles.shares);
}

// X2 from the summary equals X2 over the loaded traces, row for row.
void TestJobOverview::collectiveSkewEqualsX2OnTraces()
{
    QTemporaryDir dir;
    const SynthOptions synth = jobWithStraggler(dir.path() + QStringLiteral("/job"), 5, 2);
    QVERIFY(generateSyntheticTraces(synth).ok());
    auto job = readJobOverview(summarizeOrFail(synth.outDir, dir.path()), 1000);
    QVERIFY(job.ok());
    auto traces = loadTraceSet({ synth.outDir }, LoadOptions {}, nullptr, nullptr);
    QVERIFY(traces.ok());
    const AnalysisOutput x2 = collectiveSkew(traces.value(), 1000);
    const AnalysisOutput& fromSummary = job.value().collectiveSkew;
    QVERIFY(x2.ok && fromSummary.ok);
    const Table& a = x2.result.frame;
    const Table& b = fromSummary.result.frame;
    QCOMPARE(b.rows.size(), a.rows.size());
    namespace col = collective_skew_columns;
    const std::size_t skew = a.find(col::kSkew).value();
    const std::size_t name = a.find(col::kName).value();
    const std::size_t instance = a.find(col::kInstance).value();
    QVERIFY(skew != std::string::npos && name != std::string::npos && instance != std::string::npos);
    QCOMPARE(b.find(col::kSkew).value(), skew);
    std::map<std::pair<std::string, std::int64_t>, double> expected;
    for (const auto row : a.rows)
        expected[{ cellAsText(row[name]), std::get<std::int64_t>(row[instance]) }] = *cellAsDouble(row[skew]);
    for (const auto row : b.rows) {
        const auto it = expected.find({ cellAsText(row[name]), std::get<std::int64_t>(row[instance]) });
        QVERIFY(it != expected.end());
        QCOMPARE(*cellAsDouble(row[skew]), it->second);
    }
    // X1 comes through with the analysis' columns, one row per rank and iteration.
    QVERIFY(job.value().rankOverview.columnIndex("gpu_busy_us") != std::string::npos);
    QVERIFY(job.value().rankOverview.rows.size() >= 5);
}

// The signal job mode's strips draw: the slow rank's compute share is well
// above every other rank's, its communication share below theirs.
void TestJobOverview::stragglerComputesLongerAndWaitsLess()
{
    QTemporaryDir dir;
    const SynthOptions synth = jobWithStraggler(dir.path() + QStringLiteral("/job"), 8, 5);
    QVERIFY(generateSyntheticTraces(synth).ok());
    auto job = readJobOverview(summarizeOrFail(synth.outDir, dir.path()));
    QVERIFY(job.ok());
    const JobOverview& o = job.value();
    // Job mode marks exactly that rank.
    QCOMPARE(computeOutlierRows(o.profiles), std::vector<std::size_t> { 5 });
    for (std::size_t row = 0; row < o.ranks.size(); ++row) {
        if (o.ranks[row].rank == 5)
            continue;
        const std::size_t slow = 5;
        QVERIFY2(rowTotal(o.profiles, slow, 0) > 1.5 * rowTotal(o.profiles, row, 0),
            qPrintable(QString::number(o.ranks[row].rank)));
        QVERIFY(rowTotal(o.profiles, slow, 1) < rowTotal(o.profiles, row, 1));
    }
}

// X1 from a summary holds every column the analysis writes, the DataLoader and
// Tensor Core shares included (h100_qwen05b: 36.5 % of its compute kernels' time on
// Tensor Cores); a summary written before those two columns reads them empty.
void TestJobOverview::rankOverviewKeepsEveryColumn()
{
    const std::string folder = KS_SHARED_DIR "/traces/h100_qwen05b";
    QTemporaryDir dir;
    const std::string path = summarizeOrFail(folder, dir.path());
    auto job = readJobOverview(path);
    QVERIFY(job.ok());
    auto traces = loadTraceSet({ folder }, LoadOptions {}, nullptr, nullptr);
    QVERIFY(traces.ok());
    auto frames = buildFrames(traces.value(), AnalysisOptions {});
    QVERIFY(frames.ok());
    const AnalysisOutput x1 = rankOverview(frames.value(), AnalysisOptions {});
    QVERIFY(x1.ok);
    const Table& a = x1.result.frame;
    const Table& b = job.value().rankOverview;
    QCOMPARE(b.columns.size(), a.columns.size());
    QCOMPARE(b.rows.size(), a.rows.size());
    const std::size_t share = a.columnIndex("tensor_core_pct");
    QVERIFY(share != std::string::npos);
    bool sawShare = false;
    for (std::size_t r = 0; r < a.rows.size(); ++r)
        for (std::size_t c = 0; c < a.columns.size(); ++c) {
            const auto want = cellAsDouble(a.rows[r][c]);
            const auto got = cellAsDouble(b.rows[r][c]);
            QVERIFY2(
                want.has_value() == got.has_value(), qPrintable(QString::fromStdString(a.columns[c].name)));
            if (want)
                QVERIFY2(
                    std::abs(*want - *got) < 1e-9, qPrintable(QString::fromStdString(a.columns[c].name)));
            sawShare = sawShare || (c == share && want && *want > 30);
        }
    QVERIFY(sawShare);
    // Written before the two columns: the rest as before, those empty.
    const std::string old = dir.path().toStdString() + "/old.kssum";
    QVERIFY(QFile::copy(QString::fromStdString(path), QString::fromStdString(old)));
    {
        auto db = SqliteDb::open(old, SqliteDb::Mode::Create);
        QVERIFY(db.ok());
        QVERIFY(!db.value().exec("ALTER TABLE rank_iterations DROP COLUMN dataloader_pct; "
                                 "ALTER TABLE rank_iterations DROP COLUMN tensor_core_pct;"));
    }
    auto legacy = readJobOverview(old);
    QVERIFY2(legacy.ok(), legacy.ok() ? "" : legacy.error().describe().c_str());
    const Table& l = legacy.value().rankOverview;
    QCOMPARE(l.rows.size(), a.rows.size());
    for (std::size_t r = 0; r < l.rows.size(); ++r) {
        QVERIFY(!cellAsDouble(l.rows[r][share]));
        QCOMPARE(cellAsDouble(l.rows[r][a.columnIndex("gpu_busy_us")]),
            cellAsDouble(b.rows[r][a.columnIndex("gpu_busy_us")]));
    }
}

void TestJobOverview::refusesWhatIsNotASummary()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("not.kssum"));
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write("{\"traceEvents\": []}");
    file.close();
    auto job = readJobOverview(path.toStdString());
    QVERIFY(!job.ok());
    QVERIFY(job.error().describe().find("not an SQLite database") != std::string::npos);
    QVERIFY(job.error().describe().find("not.kssum") != std::string::npos);
}

KS_TEST_MAIN(tst_job_overview, TestJobOverview)
#include "tst_job_overview.moc"
