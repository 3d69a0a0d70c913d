// Job summaries (.kssum): every number equals the in-memory analyses on each
// shared trace folder, shards merged equal one pass, a corrupt rank among 100
// is recorded and the rest summarised, and files that are not complete
// summaries of this schema are refused with one clear line.

#include "core/analysis/cross_rank/collective_skew.h"
#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/frame/kernel_type.h"
#include "core/analysis/hta/kernel_breakdown.h"
#include "core/analysis/hta/launch_stats.h"
#include "core/analysis/hta/memory_bandwidth.h"
#include "core/analysis/hta/queue_length.h"
#include "core/io/trace_set_loader.h"
#include "core/summary/job_summarizer.h"
#include "core/summary/sqlite_db.h"
#include "core/summary/summary_reader.h"
#include "core/summary/summary_schema.h"
#include "core/synth/synthetic_trace_generator.h"
#include "tests/support/synthetic_job.h"
#include "tests/support/test_main.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

using namespace ks::core;

namespace {

using Rows = std::vector<std::vector<Cell>>;

std::string sharedTraces()
{
    return std::string(KS_SHARED_DIR) + "/traces";
}

Rows query(SqliteDb& db, const std::string& sql)
{
    Rows rows;
    auto statement = db.prepare(sql);
    if (!statement)
        return rows;
    for (auto r = statement.value().step(); r && r.value(); r = statement.value().step()) {
        std::vector<Cell> row;
        for (int c = 0; c < statement.value().columnCount(); ++c)
            row.push_back(statement.value().column(c));
        rows.push_back(std::move(row));
    }
    return rows;
}

SqliteDb openOrFail(const std::string& path)
{
    SummaryMeta meta;
    auto db = openSummary(path, meta);
    if (!db)
        qFatal("%s", db.error().describe().c_str());
    return std::move(db).value();
}

// SQLite stores REAL columns as doubles: compare numbers by value, exactly.
bool sameCell(const Cell& a, const Cell& b)
{
    const auto x = cellAsDouble(a);
    const auto y = cellAsDouble(b);
    if (x && y)
        return *x == *y || (std::isnan(*x) && std::isnan(*y));
    const bool nullA = std::holds_alternative<std::monostate>(a)
        || (std::holds_alternative<double>(a) && std::isnan(std::get<double>(a)));
    const bool nullB = std::holds_alternative<std::monostate>(b);
    if (nullA || nullB)
        return nullA && nullB;
    return cellAsText(a) == cellAsText(b);
}

QString describe(const std::vector<Cell>& row)
{
    QString text;
    for (const Cell& c : row)
        text += QString::fromStdString(cellAsText(c)) + QStringLiteral("|");
    return text;
}

// Rows of `table` (columns picked by index, npos = the rank) for `rank`.
Rows tableRows(const Table& table, const std::vector<std::size_t>& columns, std::int64_t rank,
    std::size_t rankColumn = std::string::npos)
{
    Rows rows;
    for (const auto row : table.rows) {
        if (rankColumn != std::string::npos && cellAsDouble(row[rankColumn]) != static_cast<double>(rank))
            continue;
        std::vector<Cell> cells;
        for (const std::size_t c : columns)
            cells.push_back(c == std::string::npos ? Cell { rank } : row[c]);
        rows.push_back(std::move(cells));
    }
    return rows;
}

bool sameRows(const Rows& a, const Rows& b, QString& why)
{
    if (a.size() != b.size()) {
        why = QStringLiteral("%1 rows vs %2").arg(a.size()).arg(b.size());
        return false;
    }
    for (std::size_t i = 0; i < a.size(); ++i) {
        bool same = a[i].size() == b[i].size();
        for (std::size_t c = 0; same && c < a[i].size(); ++c)
            same = sameCell(a[i][c], b[i][c]);
        if (!same) {
            why = QStringLiteral("row %1: %2 vs %3").arg(i).arg(describe(a[i]), describe(b[i]));
            return false;
        }
    }
    return true;
}

const Table* frameOf(const AnalysisOutput& out, int item = -1)
{
    if (!out.ok || (item >= 0 && out.result.items.size() <= static_cast<std::size_t>(item)))
        return nullptr;
    const HtaResult* r = item >= 0 ? &out.result.items[static_cast<std::size_t>(item)] : &out.result;
    if (r->kind == HtaResult::Kind::Dict && !r->entries.empty())
        r = &r->entries.front().second;
    return r->kind == HtaResult::Kind::DataFrame && !r->frame.notApplicable ? &r->frame : nullptr;
}

std::string summarize(const std::vector<std::string>& paths, const QString& dir, const std::string& name,
    AnalysisMode mode, std::size_t shard = 0, std::size_t shards = 1)
{
    SummarizeOptions options;
    options.analysis.mode = mode;
    options.shardIndex = shard;
    options.shardCount = shards;
    const std::string out = dir.toStdString() + "/" + name;
    auto report = summarizeJob(paths, out, options);
    if (!report)
        qFatal("%s", report.error().describe().c_str());
    return out;
}

// About 150 KB a rank: every table gets rows in a second or two.
SynthOptions smallJob(const QString& dir, int ranks, std::vector<int> stragglers = {}, double slowdown = 1.0)
{
    return ks::test::syntheticJob(dir, ranks, 150'000, 7, std::move(stragglers), slowdown);
}

} // namespace

class TestJobSummary : public QObject
{
    Q_OBJECT

private slots:
    void summaryEqualsInMemoryAnalyses_data();
    void summaryEqualsInMemoryAnalyses();
    void shardsMergedEqualOnePass();
    void collectiveSkewFromSummaryEqualsX2();
    void utilisationBinsAreExact();
    void corruptRankAmongHundredIsRecorded();
    void badSummariesAreRefused();
    void partsOfDifferentJobsAreRefused();
};

void TestJobSummary::summaryEqualsInMemoryAnalyses_data()
{
    QTest::addColumn<QString>("folder");
    QTest::addColumn<bool>("compat");
    const QDir traces(QString::fromStdString(sharedTraces()));
    if (!traces.exists())
        return;
    for (const QString& folder : traces.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name)) {
        QTest::newRow(qPrintable(folder + QStringLiteral(" default"))) << folder << false;
        QTest::newRow(qPrintable(folder + QStringLiteral(" hta-compat"))) << folder << true;
    }
}

// Per rank, the summary's rows are the analyses of the whole folder loaded in
// memory: the rank overview (stragglers against all ranks), queue length and
// bandwidth summaries from one call over all ranks; kernel breakdown and
// launch statistics of that rank; collectives and utilisation recounted here.
void TestJobSummary::summaryEqualsInMemoryAnalyses()
{
    QFETCH(QString, folder);
    QFETCH(bool, compat);
    if (!QDir(QString::fromStdString(sharedTraces())).exists())
        QSKIP("../shared/traces is absent");
    const std::string path = sharedTraces() + "/" + folder.toStdString();
    const AnalysisMode mode = compat ? AnalysisMode::HtaCompat : AnalysisMode::Default;
    QTemporaryDir dir;
    SqliteDb db = openOrFail(summarize({ path }, dir.path(), "job.kssum", mode));

    auto loaded = loadTraceSet({ path }, LoadOptions {}, nullptr, nullptr);
    QVERIFY(loaded.ok());
    const TraceSet& set = loaded.value();
    QCOMPARE(query(db, "SELECT COUNT(*) FROM ranks WHERE status = 'ok'")[0][0],
        Cell { std::int64_t(set.ranks.size()) });
    AnalysisOptions options;
    options.mode = mode;
    auto all = buildFrames(set, options);
    QVERIFY(all.ok());
    const AnalysisOutput overview = rankOverview(all.value(), options);
    const AnalysisOutput queue = queueLengthSummary(all.value(), options);
    const AnalysisOutput bandwidth = memoryBwSummary(all.value(), options);
    QString why;
    std::size_t compared = 0;
    // A table without an in-memory result must have no rows in the summary either.
    const auto check = [&](const std::string& table, const AnalysisOutput& output, int item,
                           const std::vector<std::size_t>& columns, std::int64_t rank,
                           std::size_t rankColumn) {
        const Rows stored =
            query(db, "SELECT * FROM " + table + " WHERE rank = " + std::to_string(rank) + " ORDER BY rowid");
        const Table* t = frameOf(output, item);
        const Rows expected = t ? tableRows(*t, columns, rank, rankColumn) : Rows {};
        compared += expected.size();
        QString problem;
        if (!sameRows(stored, expected, problem))
            why = QString::fromStdString(table) + QStringLiteral(": ") + problem;
        return problem.isEmpty();
    };
    const auto npos = std::string::npos;
    for (const RankFrame& frame : all.value().ranks) {
        const std::int64_t rank = frame.rank;
        const std::string where = " WHERE rank = " + std::to_string(rank) + " ORDER BY rowid";
        QVERIFY2(check("rank_iterations", overview, -1, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }, rank, 0),
            qPrintable(why));
        QVERIFY2(
            check("queue_length", queue, -1, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 }, rank, 0), qPrintable(why));
        QVERIFY2(check("memory_bandwidth", bandwidth, -1, { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9 }, rank, 0),
            qPrintable(why));

        AnalysisOptions one = options;
        one.ranks = std::vector<std::int64_t> { rank };
        auto frames = buildFrames(set, one);
        QVERIFY(frames.ok());
        const AnalysisOutput kernels = gpuKernelBreakdown(frames.value(), one);
        QVERIFY2(check("kernel_types", kernels, 0, { npos, 0, 1, 2 }, rank, npos), qPrintable(why));
        QVERIFY2(
            check("top_kernels", kernels, 1, { npos, 0, 6, 1, 2, 3, 4, 5 }, rank, npos), qPrintable(why));
        const AnalysisOutput launches = cudaKernelLaunchStats(frames.value(), one);
        if (const Table* t = frameOf(launches)) {
            // Recounted here: count, min, max and the mean of each metric column.
            const Rows stats =
                query(db, "SELECT metric, count, min_us, max_us, mean_us FROM launch_stats" + where);
            for (std::size_t m = 0; m < stats.size(); ++m) {
                const std::string metric = cellAsText(stats[m][0]);
                const std::size_t column = metric == "cpu_duration" ? 2 : metric == "gpu_duration" ? 3 : 4;
                std::vector<double> values;
                for (const auto row : t->rows)
                    if (const auto v = cellAsDouble(row[column]); v && !std::isnan(*v))
                        values.push_back(*v);
                QCOMPARE(stats[m][1], Cell { std::int64_t(values.size()) });
                QCOMPARE(cellAsDouble(stats[m][2]), *std::min_element(values.begin(), values.end()));
                QCOMPARE(cellAsDouble(stats[m][3]), *std::max_element(values.begin(), values.end()));
                double sum = 0;
                for (const double v : values)
                    sum += v;
                QVERIFY(
                    std::abs(*cellAsDouble(stats[m][4]) - sum / double(values.size())) < 1e-9 * (1 + sum));
            }
            QCOMPARE(stats.empty(), t->rows.empty());
        }
    }

    // Collectives and utilisation, recounted from each loaded rank.
    for (const auto& trace : set.ranks) {
        const std::string rank = std::to_string(trace->rank);
        std::int64_t commKernels = 0;
        std::int64_t commNs = 0;
        std::map<std::int64_t, std::int64_t> busyPerStream;
        for (const Track& track : trace->tracks) {
            if (track.kind != TrackKind::GpuStream)
                continue;
            for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s) {
                const auto category = trace->sliceCategory(s);
                if (classifyKernelDefault(category, trace->sliceName(s)) == KernelType::Communication) {
                    ++commKernels;
                    commNs += trace->slices.duration(s);
                }
                if (isDeviceActivityCategory(category))
                    busyPerStream[track.stream] += trace->slices.duration(s);
            }
        }
        const Rows comm = query(db,
            "SELECT COUNT(*), COALESCE(SUM(end_ns - start_ns), 0) FROM collectives WHERE kind = 'gpu_kernel' "
            "AND "
            "rank = "
                + rank);
        QCOMPARE(comm[0][0], Cell { commKernels });
        QCOMPARE(comm[0][1], Cell { commNs });
        for (const auto& [stream, busy] : busyPerStream) {
            const Rows binned = query(db,
                "SELECT COALESCE(SUM(computation_ns + communication_ns + memory_ns + other_ns), 0) FROM "
                "stream_utilisation WHERE rank = "
                    + rank + " AND stream = " + std::to_string(stream));
            QCOMPARE(binned[0][0], Cell { busy });
        }
    }
    qInfo("%zu analysis rows compared", compared);
    const bool gpu = !query(db, "SELECT 1 FROM stream_utilisation LIMIT 1").empty();
    QVERIFY(!gpu || compared > 0);
    const Rows bins = query(db, "SELECT COALESCE(MAX(bin), 0), MIN(bin) FROM stream_utilisation");
    QVERIFY(std::get<std::int64_t>(bins[0][0]) < 2048);
}

// --shard 0/3, 1/3, 2/3 merged equal one pass, row for row in every table
// (stragglers and utilisation bins need every rank; they are derived again).
void TestJobSummary::shardsMergedEqualOnePass()
{
    QTemporaryDir dir;
    const SynthOptions synth = smallJob(dir.path() + QStringLiteral("/job"), 7, { 4 }, 1.6);
    QVERIFY(generateSyntheticTraces(synth).ok());
    const std::vector<std::string> paths { synth.outDir };
    const std::string whole = summarize(paths, dir.path(), "whole.kssum", AnalysisMode::Default);
    std::vector<std::string> parts;
    for (std::size_t s = 0; s < 3; ++s)
        parts.push_back(
            summarize(paths, dir.path(), "part" + std::to_string(s) + ".kssum", AnalysisMode::Default, s, 3));
    const std::string merged = dir.path().toStdString() + "/merged.kssum";
    auto report = mergeSummaries(parts, merged);
    QVERIFY2(report.ok(), report.ok() ? "" : report.error().describe().c_str());
    QVERIFY(report.value().missingShards.empty());

    SqliteDb a = openOrFail(whole);
    SqliteDb b = openOrFail(merged);
    QString why;
    for (const SummaryTable& table : summaryTables()) {
        if (table.name == "meta")
            continue;
        // Row order follows which thread finished first: compare sorted.
        std::string order;
        for (std::size_t c = 1; c <= table.columns.size(); ++c)
            order += (c > 1 ? "," : "") + std::to_string(c);
        const std::string sql = "SELECT * FROM " + std::string(table.name) + " ORDER BY " + order;
        const Rows rows = query(a, sql);
        QVERIFY2(!rows.empty() || table.name == "analysis_status", table.name.data());
        QVERIFY2(sameRows(rows, query(b, sql), why), qPrintable(QString::fromUtf8(table.name.data()) + why));
    }
    for (const char* key : { "job_id", "bin_width_ns", "bin_origin_ns", "files_total", "mode" })
        QCOMPARE(query(a, std::string("SELECT value FROM meta WHERE key = '") + key + "'"),
            query(b, std::string("SELECT value FROM meta WHERE key = '") + key + "'"));
    // The straggler's compute shows in its utilisation.
    const Rows compute =
        query(a, "SELECT rank FROM stream_utilisation GROUP BY rank ORDER BY SUM(computation_ns) DESC");
    QCOMPARE(compute.front().front(), Cell { std::int64_t(4) });

    // A missing shard is reported, not hidden.
    auto partial = mergeSummaries({ parts[0], parts[2] }, dir.path().toStdString() + "/partial.kssum");
    QVERIFY(partial.ok());
    QCOMPARE(partial.value().missingShards, std::vector<std::size_t> { 1 });
}

// The collectives table is enough for X2: the skew of every instance, its rank
// count and the rank that arrived last equal collectiveSkew over the traces.
void TestJobSummary::collectiveSkewFromSummaryEqualsX2()
{
    QTemporaryDir dir;
    const SynthOptions synth = smallJob(dir.path() + QStringLiteral("/job"), 5, { 2 }, 1.8);
    QVERIFY(generateSyntheticTraces(synth).ok());
    SqliteDb db = openOrFail(summarize({ synth.outDir }, dir.path(), "job.kssum", AnalysisMode::Default));
    const Rows rows = query(db,
        "SELECT name, ordinal, rank, start_ns FROM collectives WHERE kind = 'gpu_kernel' ORDER BY name, "
        "ordinal, "
        "start_ns, rank");

    struct Instance
    {
        std::int64_t ranks = 0, first = 0, last = 0, lastRank = -1;
        bool tied = false;
    };

    // Keyed by the instance's first arrival: collectiveSkew matches by process
    // group and Seq, the summary by kernel name and order; the same call has
    // the same first arrival either way.
    std::map<std::pair<std::string, std::int64_t>, Instance> byNameOrder;
    for (const auto& row : rows) {
        Instance& i = byNameOrder[{ cellAsText(row[0]), std::get<std::int64_t>(row[1]) }];
        const std::int64_t start = std::get<std::int64_t>(row[3]);
        if (i.ranks == 0)
            i.first = start;
        i.tied = i.ranks > 0 && start == i.last;
        i.last = start;
        i.lastRank = std::get<std::int64_t>(row[2]);
        ++i.ranks;
    }
    std::map<std::int64_t, Instance> fromSummary;
    for (const auto& [key, instance] : byNameOrder)
        fromSummary[instance.first] = instance;
    auto loaded = loadTraceSet({ synth.outDir }, LoadOptions {}, nullptr, nullptr);
    QVERIFY(loaded.ok());
    const AnalysisOutput skew = collectiveSkew(loaded.value(), 1u << 30);
    QVERIFY(skew.ok);
    const Table& t = skew.result.frame;
    namespace col = collective_skew_columns;
    QVERIFY(t.rows.size() >= 9); // three steps of three all-reduces
    const TimeNs origin = loaded.value().startNs();
    std::size_t straggler = 0;
    for (const auto row : t.rows) {
        const auto first =
            origin + std::llround(*cellAsDouble(row[t.find(col::kFirstArrival).value()]) * 1000.0);
        const auto it = fromSummary.find(first);
        QVERIFY(it != fromSummary.end());
        QCOMPARE(Cell { it->second.ranks }, row[t.find(col::kRanks).value()]);
        QCOMPARE(double(it->second.last - it->second.first) / 1000.0,
            *cellAsDouble(row[t.find(col::kSkew).value()]));
        if (!it->second.tied)
            QCOMPARE(Cell { it->second.lastRank }, row[t.find(col::kLastRank).value()]);
        straggler += it->second.lastRank == 2;
    }
    // The slow rank is the one the others wait for most often (input stalls
    // make other ranks late now and then in so small a job).
    QVERIFY2(straggler * 2 > t.rows.size(), qPrintable(QString::number(straggler)));
}

// Ranks recorded on different days and of different lengths, 64 bins: each
// rank binned finely, then summed into the job's much coarser width. Every
// bin must hold exactly the device time that falls inside it.
void TestJobSummary::utilisationBinsAreExact()
{
    if (!QDir(QString::fromStdString(sharedTraces())).exists())
        QSKIP("../shared/traces is absent");
    const std::vector<std::string> paths { sharedTraces() + "/two_ranks_sampled",
        sharedTraces() + "/ns_resolution", sharedTraces() + "/critical_path_alexnet" };
    QTemporaryDir dir;
    SummarizeOptions options;
    options.bins = 64;
    const std::string out = dir.path().toStdString() + "/job.kssum";
    QVERIFY(summarizeJob(paths, out, options).ok());
    SummaryMeta meta;
    auto opened = openSummary(out, meta);
    QVERIFY(opened.ok());
    const std::int64_t width = meta.binWidthNs;
    QVERIFY(width > 0 && (width & (width - 1)) == 0);
    QCOMPARE(meta.binOriginNs % width, std::int64_t(0));

    auto loaded = loadTraceSet(paths, LoadOptions {}, nullptr, nullptr);
    QVERIFY(loaded.ok());
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t>, std::array<std::int64_t, 4>> expected;
    for (const auto& t : loaded.value().ranks) {
        for (const Track& track : t->tracks) {
            if (track.kind != TrackKind::GpuStream)
                continue;
            for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s) {
                if (!isDeviceActivityCategory(t->sliceCategory(s)))
                    continue;
                const auto kind =
                    static_cast<std::size_t>(classifyKernelDefault(t->sliceCategory(s), t->sliceName(s)));
                // Walk the slice ns range bin by bin at the job's width.
                std::int64_t at = t->slices.start[s];
                const std::int64_t end = t->slices.end(s);
                while (at < end) {
                    const std::int64_t bin = (at - meta.binOriginNs) / width;
                    const std::int64_t binEnd = meta.binOriginNs + (bin + 1) * width;
                    expected[{ t->rank, track.stream, bin }][kind] += std::min(end, binEnd) - at;
                    at = std::min(end, binEnd);
                }
            }
        }
    }
    const Rows rows = query(opened.value(),
        "SELECT rank, stream, bin, computation_ns, communication_ns, memory_ns, other_ns FROM "
        "stream_utilisation");
    QCOMPARE(rows.size(), expected.size());
    std::int64_t maxBin = 0;
    for (const auto& row : rows) {
        const auto key = std::tuple { std::get<std::int64_t>(row[0]), std::get<std::int64_t>(row[1]),
            std::get<std::int64_t>(row[2]) };
        const auto it = expected.find(key);
        QVERIFY(it != expected.end());
        for (std::size_t k = 0; k < 4; ++k)
            QCOMPARE(std::get<std::int64_t>(row[3 + k]), it->second[k]);
        maxBin = std::max(maxBin, std::get<2>(key));
    }
    QVERIFY(maxBin < 64);
    // The job spans days: its width is far coarser than any one rank's.
    QVERIFY(width > (std::int64_t(1) << 30));
}

void TestJobSummary::corruptRankAmongHundredIsRecorded()
{
    QTemporaryDir dir;
    SynthOptions synth = smallJob(dir.path() + QStringLiteral("/job"), 100);
    synth.targetBytes = 60'000;
    auto written = generateSyntheticTraces(synth);
    QVERIFY(written.ok());
    // Rank 37 cut in the middle of an event.
    const QString victim = QString::fromStdString(written.value()[37].path);
    QFile file(victim);
    QVERIFY(file.open(QIODevice::ReadWrite));
    QVERIFY(file.resize(file.size() / 2));
    file.close();

    SummarizeOptions options;
    auto report = summarizeJob({ synth.outDir }, dir.path().toStdString() + "/job.kssum", options);
    QVERIFY(report.ok());
    QCOMPARE(report.value().ranksOk, std::size_t(99));
    QCOMPARE(report.value().failures.size(), std::size_t(1));
    SqliteDb db = openOrFail(dir.path().toStdString() + "/job.kssum");
    QCOMPARE(query(db, "SELECT COUNT(*) FROM ranks WHERE status = 'ok'")[0][0], Cell { std::int64_t(99) });
    const Rows failed = query(db, "SELECT file, error FROM ranks WHERE status = 'failed'");
    QCOMPARE(failed.size(), std::size_t(1));
    QCOMPARE(cellAsText(failed[0][0]), victim.toStdString());
    const std::string error = cellAsText(failed[0][1]);
    QVERIFY2(error.rfind(victim.toStdString() + ": ", 0) == 0 && error.find('\n') == std::string::npos,
        error.c_str());
    QCOMPARE(query(db, "SELECT COUNT(DISTINCT rank) FROM rank_iterations")[0][0], Cell { std::int64_t(99) });
}

void TestJobSummary::badSummariesAreRefused()
{
    QTemporaryDir dir;
    SynthOptions synth = smallJob(dir.path() + QStringLiteral("/job"), 2);
    QVERIFY(generateSyntheticTraces(synth).ok());
    const std::string good = summarize({ synth.outDir }, dir.path(), "good.kssum", AnalysisMode::Default);
    QFile original(QString::fromStdString(good));
    QVERIFY(original.open(QIODevice::ReadOnly));
    const QByteArray bytes = original.readAll();
    QVERIFY(bytes.size() > 8192);

    const auto refusal = [&](const QString& name, const QByteArray& content) {
        const std::string path = QString(dir.path() + QLatin1Char('/') + name).toStdString();
        QFile out(QString::fromStdString(path));
        out.open(QIODevice::WriteOnly);
        out.write(content);
        out.close();
        SummaryMeta meta;
        auto opened = openSummary(path, meta);
        return opened.ok() ? std::string("accepted") : opened.error().describe();
    };
    auto expect = [](const std::string& error, const std::string& part) {
        QVERIFY2(error.find(part) != std::string::npos, error.c_str());
        QVERIFY(error.find('\n') == std::string::npos);
    };
    expect(
        refusal(QStringLiteral("text.kssum"), QByteArray("{\"traceEvents\": []}")), "not an SQLite database");
    expect(refusal(QStringLiteral("empty.kssum"), QByteArray()), "not an SQLite database");
    expect(refusal(QStringLiteral("truncated.kssum"), bytes.left(bytes.size() / 2)), "damaged or truncated");

    // Another schema version, and a writer that never finished.
    for (const auto& [key, value, message] :
        { std::tuple { "schema_version", "99", "schema version 99 is not supported" },
            std::tuple { "schema_version", "1", "older Kinetoscope, without the collectives' arrivals" },
            std::tuple { "schema_version", "2", "or the compute beside them; summarise" },
            std::tuple { "complete", "0", "incomplete summary" } }) {
        const std::string path = dir.path().toStdString() + "/" + key + value + ".kssum";
        QFile::copy(QString::fromStdString(good), QString::fromStdString(path));
        {
            auto db = SqliteDb::open(path, SqliteDb::Mode::Create);
            QVERIFY(db.ok());
            QVERIFY(!db.value().exec(
                std::string("UPDATE meta SET value = '") + value + "' WHERE key = '" + key + "'"));
        }
        SummaryMeta meta;
        auto opened = openSummary(path, meta);
        QVERIFY(!opened.ok());
        expect(opened.error().describe(), message);
        expect(opened.error().describe(), path);
    }
    SummaryMeta meta;
    QVERIFY(openSummary(good, meta).ok());
    QCOMPARE(meta.schemaVersion, kSummarySchemaVersion);
    // Given to the trace reader, a summary is named for what it is.
    auto asTrace = loadTraceSet({ good }, LoadOptions {}, nullptr, nullptr);
    QVERIFY(!asTrace.ok());
    expect(asTrace.error().describe(), "job summary");
}

void TestJobSummary::partsOfDifferentJobsAreRefused()
{
    QTemporaryDir dir;
    SynthOptions first = smallJob(dir.path() + QStringLiteral("/a"), 2);
    SynthOptions second = smallJob(dir.path() + QStringLiteral("/b"), 3);
    QVERIFY(generateSyntheticTraces(first).ok());
    QVERIFY(generateSyntheticTraces(second).ok());
    const std::string a0 = summarize({ first.outDir }, dir.path(), "a0.kssum", AnalysisMode::Default, 0, 2);
    const std::string b1 = summarize({ second.outDir }, dir.path(), "b1.kssum", AnalysisMode::Default, 1, 2);
    const std::string out = dir.path().toStdString() + "/merged.kssum";
    auto merged = mergeSummaries({ a0, b1 }, out);
    QVERIFY(!merged.ok());
    QVERIFY2(merged.error().describe().find("different job") != std::string::npos,
        merged.error().describe().c_str());
    QVERIFY(!QFile::exists(QString::fromStdString(out)));
    auto twice = mergeSummaries({ a0, a0 }, out);
    QVERIFY(!twice.ok());
    QVERIFY2(
        twice.error().describe().find("given twice") != std::string::npos, twice.error().describe().c_str());
    const std::string compat =
        summarize({ first.outDir }, dir.path(), "a1.kssum", AnalysisMode::HtaCompat, 1, 2);
    auto modes = mergeSummaries({ a0, compat }, out);
    QVERIFY(!modes.ok());
    QVERIFY2(
        modes.error().describe().find("another mode") != std::string::npos, modes.error().describe().c_str());
    // No partial file is left behind by a refused merge.
    QCOMPARE(QDir(dir.path()).entryList({ QStringLiteral("merged*") }, QDir::Files).size(), 0);
}

KS_TEST_MAIN(tst_job_summary, TestJobSummary)
#include "tst_job_summary.moc"
