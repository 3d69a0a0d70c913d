// A5 counters: memory bandwidth and queue length time series and summaries,
// time blocked on a full queue. Hand-computed values on tiny traces, the
// quirks in both modes (Q9 tie order, Q13 one stream per rank), and HTA's own
// series row for row on the shared traces (numpy's unstable sort reproduced).

#include "core/analysis/hta/memory_bandwidth.h"
#include "core/analysis/hta/queue_length.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <QDir>
#include <QTest>

#include <simdjson.h>

#include <cmath>

using namespace ks;

namespace {

using tests::sharedDir;

const core::Table& rankTable(const core::AnalysisOutput& out, const std::string& rank)
{
    static const core::Table empty;
    for (const auto& [key, value] : out.result.entries)
        if (key == rank)
            return value.frame;
    return empty;
}

// One column as numbers (null -> NaN).
std::vector<double> column(const core::Table& t, const std::string& name)
{
    std::vector<double> values;
    const std::size_t c = t.columnIndex(name);
    if (c == static_cast<std::size_t>(-1))
        return values;
    for (const auto& row : t.rows)
        values.push_back(core::cellAsDouble(row[c]).value_or(std::nan("")));
    return values;
}

std::vector<double> summaryRow(const core::Table& t, std::size_t row, const std::string& prefix)
{
    std::vector<double> values;
    for (const char* stat : { "count", "mean", "std", "min", "25%", "50%", "75%", "max" }) {
        const std::size_t c = t.columnIndex(prefix + stat);
        values.push_back(core::cellAsDouble(t.rows[row][c]).value_or(-1.0)); // -1: null (NaN std)
    }
    return values;
}

bool near(const std::vector<double>& a, const std::vector<double>& b)
{
    return tests::near(a, b, 1e-12);
}

std::string gpuOp(
    const char* cat, const char* name, int stream, int ts, int dur, int correlation, double bw = 0)
{
    return tests::eventAtBase(cat, name, ts, dur,
        R"({"stream":)" + std::to_string(stream) + R"(,"correlation":)" + std::to_string(correlation)
            + R"x(,"memory bandwidth (GB/s)":)x" + std::to_string(bw) + "}",
        0, stream);
}

std::string launch(const char* name, int ts, int correlation)
{
    return tests::eventAtBase("cuda_runtime", name, ts, 2, tests::correlationArgs(correlation));
}

// Event 0 of every test trace: a CPU op at t=0, so aligned times are the offsets above.
const std::string kCpuOp =
    R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":1000000,"dur":100})";

const auto kModes = { core::AnalysisMode::HtaCompat, core::AnalysisMode::Default };

} // namespace

class TestCounters : public QObject
{
    Q_OBJECT

private slots:
    void memoryBandwidthSeriesAndSummary();
    void memoryBandwidthTieOrderQ9();
    void queueLengthSeriesAndSummary();
    void queueLengthTieOrderQ9();
    void blockedOnFullQueueQ13();
    void noGpuWork();
    void matchesHtaRowForRow_data();
    void matchesHtaRowForRow();
};

void TestCounters::memoryBandwidthSeriesAndSummary()
{
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::kinetoDocument(0,
            { kCpuOp, gpuOp("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 7, 10, 10, 1, 4.0),
                gpuOp("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 8, 15, 10, 2, 2.0),
                gpuOp("gpu_memset", "Memset (Device)", 7, 30, 0, 3, 1.0),
                gpuOp("gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", 7, 40, 5, 4, 0.5),
                gpuOp("kernel", "void gemm<float>()", 7, 50, 5, 5) }) });
    for (const auto mode : kModes) {
        const auto frames = tests::frames(set, mode);
        const auto series = core::memoryBwTimeSeries(frames, {});
        QVERIFY(series.ok);
        const core::Table& t = rankTable(series, "0");
        QCOMPARE(t.indexColumns, std::vector<std::string> { "index" });
        // Kinds in name order; op i's start is labelled i, its end 4 + i; a 0 µs memset lasts 1 µs.
        QCOMPARE(column(t, "index"), (std::vector<double> { 3, 7, 0, 1, 4, 5, 2, 6 }));
        QCOMPARE(column(t, "ts"), (std::vector<double> { 40, 45, 10, 15, 20, 25, 30, 31 }));
        QCOMPARE(column(t, "memory_bw_gbps"), (std::vector<double> { 0.5, 0, 4, 6, 2, 0, 1, 0 }));
        QCOMPARE(core::cellAsText(t.rows[0][t.columnIndex("name")]), std::string("Memcpy DtoH"));
        QCOMPARE(core::cellAsText(t.rows[7][t.columnIndex("name")]), std::string("Memset"));
        QCOMPARE(column(t, "pid"), std::vector<double>(8, 0.0));

        const auto summary = core::memoryBwSummary(frames, {});
        QVERIFY(summary.ok);
        const core::Table& s = summary.result.frame;
        QCOMPARE(s.indexColumns, (std::vector<std::string> { "rank", "name" }));
        QCOMPARE(s.rows.size(), std::size_t(3));
        QCOMPARE(core::cellAsText(s.rows[1][1]), std::string("Memcpy HtoD"));
        // zero points dropped: {4, 6, 2}
        QVERIFY(near(summaryRow(s, 1, "memory_bw_gbps."), { 3, 4, 2, 2, 3, 4, 5, 6 }));
        QVERIFY(near(summaryRow(s, 0, "memory_bw_gbps."), { 1, 0.5, -1, 0.5, 0.5, 0.5, 0.5, 0.5 }));
    }
}

void TestCounters::memoryBandwidthTieOrderQ9()
{
    // Copy A ends at 20 µs exactly when copy B starts. HTA concatenates all
    // starts before all ends and its sort keeps that order here (numpy's
    // quicksort is an insertion sort below 17 points), so the bandwidth
    // briefly reads A + B = 3; default mode applies the end first.
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::kinetoDocument(0,
            { kCpuOp, gpuOp("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 7, 10, 10, 1, 1.0),
                gpuOp("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 8, 20, 10, 2, 2.0) }) });
    const auto compat = tests::frames(set, core::AnalysisMode::HtaCompat);
    const auto exact = tests::frames(set, core::AnalysisMode::Default);
    const auto compatSeries = core::memoryBwTimeSeries(compat, {});
    const auto exactSeries = core::memoryBwTimeSeries(exact, {});
    const core::Table& c = rankTable(compatSeries, "0");
    const core::Table& d = rankTable(exactSeries, "0");
    QCOMPARE(column(c, "index"), (std::vector<double> { 0, 1, 2, 3 }));
    QCOMPARE(column(c, "memory_bw_gbps"), (std::vector<double> { 1, 3, 2, 0 }));
    QCOMPARE(column(d, "index"), (std::vector<double> { 0, 2, 1, 3 }));
    QCOMPARE(column(d, "memory_bw_gbps"), (std::vector<double> { 1, 0, 2, 0 }));
    const auto compatSummary = core::memoryBwSummary(compat, {});
    const auto exactSummary = core::memoryBwSummary(exact, {});
    const core::Table& cs = compatSummary.result.frame;
    const core::Table& ds = exactSummary.result.frame;
    QCOMPARE(column(cs, "memory_bw_gbps.max"), std::vector<double> { 3 });
    QCOMPARE(column(cs, "memory_bw_gbps.count"), std::vector<double> { 3 });
    QCOMPARE(column(ds, "memory_bw_gbps.max"), std::vector<double> { 2 });
    QCOMPARE(column(ds, "memory_bw_gbps.count"), std::vector<double> { 2 });
}

void TestCounters::queueLengthSeriesAndSummary()
{
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::kinetoDocument(0,
            { kCpuOp, launch("cudaLaunchKernel", 0, 1), launch("cudaLaunchKernel", 2, 2),
                launch("cudaMemcpyAsync", 4, 3), gpuOp("kernel", "k1", 7, 10, 10, 1),
                gpuOp("kernel", "k2", 7, 25, 5, 2),
                gpuOp("gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 8, 12, 4, 3, 2.5),
                gpuOp("kernel", "unlaunched", 7, 30, 5, 9) }) });
    for (const auto mode : kModes) {
        const auto frames = tests::frames(set, mode);
        const auto series = core::queueLengthTimeSeries(frames, {});
        QVERIFY(series.ok);
        const core::Table& t = rankTable(series, "0");
        QCOMPARE(t.indexColumns, std::vector<std::string> { "index" });
        // +1 at each launch's start, -1 at its GPU work's start; streams ascending.
        QCOMPARE(column(t, "index"), (std::vector<double> { 1, 2, 4, 5, 3, 6 }));
        QCOMPARE(column(t, "ts"), (std::vector<double> { 0, 2, 10, 25, 4, 12 }));
        QCOMPARE(column(t, "stream"), (std::vector<double> { 7, 7, 7, 7, 8, 8 }));
        QCOMPARE(
            column(t, "tid"), (std::vector<double> { 7, 7, 7, 7, 8, 8 })); // the GPU row's, launches included
        QCOMPARE(column(t, "pid"), std::vector<double>(6, 0.0));
        QCOMPARE(column(t, "queue_length"), (std::vector<double> { 1, 2, 1, 0, 1, 0 }));

        const auto summary = core::queueLengthSummary(frames, {});
        QVERIFY(summary.ok);
        const core::Table& s = summary.result.frame;
        QCOMPARE(s.indexColumns, (std::vector<std::string> { "rank", "stream" }));
        QCOMPARE(column(s, "stream"), (std::vector<double> { 7, 8 }));
        QVERIFY(near(summaryRow(s, 0, "queue_length."), { 4, 1, std::sqrt(2.0 / 3.0), 0, 0.75, 1, 1.25, 2 }));
        QVERIFY(near(summaryRow(s, 1, "queue_length."), { 2, 0.5, std::sqrt(0.5), 0, 0.25, 0.5, 0.75, 1 }));
    }
}

void TestCounters::queueLengthTieOrderQ9()
{
    // The second launch starts exactly when the first kernel does. HTA keeps
    // launches before kernels at that tie here (queue 1 -> 2 -> 1 -> 0);
    // default mode decrements first (1 -> 0 -> 1 -> 0).
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::kinetoDocument(0,
            { kCpuOp, launch("cudaLaunchKernel", 0, 1), launch("cudaLaunchKernel", 10, 2),
                gpuOp("kernel", "k1", 7, 10, 5, 1), gpuOp("kernel", "k2", 7, 20, 5, 2) }) });
    const auto compat = tests::frames(set, core::AnalysisMode::HtaCompat);
    const auto exact = tests::frames(set, core::AnalysisMode::Default);
    const auto compatSeries = core::queueLengthTimeSeries(compat, {});
    const auto exactSeries = core::queueLengthTimeSeries(exact, {});
    const core::Table& c = rankTable(compatSeries, "0");
    const core::Table& d = rankTable(exactSeries, "0");
    QCOMPARE(column(c, "index"), (std::vector<double> { 1, 2, 3, 4 }));
    QCOMPARE(column(c, "queue_length"), (std::vector<double> { 1, 2, 1, 0 }));
    QCOMPARE(column(d, "index"), (std::vector<double> { 1, 3, 2, 4 }));
    QCOMPARE(column(d, "queue_length"), (std::vector<double> { 1, 0, 1, 0 }));
    QCOMPARE(column(core::queueLengthSummary(compat, {}).result.frame, "queue_length.max"),
        std::vector<double> { 2 });
    QCOMPARE(column(core::queueLengthSummary(exact, {}).result.frame, "queue_length.max"),
        std::vector<double> { 1 });
}

void TestCounters::blockedOnFullQueueQ13()
{
    // Queue limit 2. Stream 7 holds 2 from 1 to 10 µs (9 µs); stream 8 holds
    // >= 2 from 3 to 21 µs (18 µs). The rank spans 22 µs (first to last ts).
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir,
        { tests::kinetoDocument(0,
            { kCpuOp, launch("cudaLaunchKernel", 0, 1), launch("cudaLaunchKernel", 1, 2),
                launch("cudaLaunchKernel", 2, 3), launch("cudaLaunchKernel", 3, 4),
                launch("cudaLaunchKernel", 4, 5), gpuOp("kernel", "k", 7, 10, 1, 1),
                gpuOp("kernel", "k", 7, 11, 1, 2), gpuOp("kernel", "k", 8, 20, 1, 3),
                gpuOp("kernel", "k", 8, 21, 1, 4), gpuOp("kernel", "k", 8, 22, 1, 5) }) });
    core::AnalysisOptions options;
    options.queue.maxQueueLength = 2;
    const auto compat =
        core::timeBlockedOnFullQueue(tests::frames(set, core::AnalysisMode::HtaCompat), options);
    const auto exact = core::timeBlockedOnFullQueue(tests::frames(set, core::AnalysisMode::Default), options);
    QVERIFY(compat.ok && exact.ok);
    const core::Table& c = compat.result.frame;
    const core::Table& d = exact.result.frame;
    const std::vector<std::string> columns = { "rank", "stream", "duration_at_max_queue_length",
        "relative_duration_at_max_queue_length" };
    for (std::size_t i = 0; i < columns.size(); ++i)
        QCOMPARE(c.columns[i].name, columns[i]);
    // HTA: one entry per rank, the last stream overwriting the others.
    QCOMPARE(column(c, "stream"), std::vector<double> { 8 });
    QCOMPARE(column(c, "duration_at_max_queue_length"), std::vector<double> { 18 });
    QVERIFY(near(column(c, "relative_duration_at_max_queue_length"), { 18.0 / 22.0 }));
    QCOMPARE(column(d, "stream"), (std::vector<double> { 7, 8 }));
    QCOMPARE(column(d, "duration_at_max_queue_length"), (std::vector<double> { 9, 18 }));
    QVERIFY(near(column(d, "relative_duration_at_max_queue_length"), { 9.0 / 22.0, 18.0 / 22.0 }));
}

void TestCounters::noGpuWork()
{
    // HTA: empty dicts and None summaries, not errors.
    QTemporaryDir dir;
    const auto set = tests::loadRanks(dir, { tests::kinetoDocument(0, { kCpuOp }) });
    for (const auto mode : kModes) {
        const auto frames = tests::frames(set, mode);
        for (const auto& out :
            { core::memoryBwTimeSeries(frames, {}), core::queueLengthTimeSeries(frames, {}) }) {
            QVERIFY(out.ok);
            QVERIFY(out.result.kind == core::HtaResult::Kind::Dict);
            QVERIFY(out.result.entries.empty());
        }
        for (const auto& out : { core::memoryBwSummary(frames, {}), core::queueLengthSummary(frames, {}) }) {
            QVERIFY(out.ok);
            QVERIFY(out.result.kind == core::HtaResult::Kind::None);
        }
    }
}

void TestCounters::matchesHtaRowForRow_data()
{
    QTest::addColumn<QString>("folder");
    const QDir traces(sharedDir() + QStringLiteral("/traces"));
    for (const QString& name : traces.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        QTest::newRow(name.toUtf8().constData()) << name;
}

// Not only as multisets: the same rows in the same order, intermediate values
// at tied timestamps and float rounding noise included.
void TestCounters::matchesHtaRowForRow()
{
    QFETCH(QString, folder);
    const QString reference = sharedDir() + QStringLiteral("/reference/") + folder;
    if (!QFileInfo::exists(reference + QStringLiteral("/get_queue_length_time_series.json")))
        QSKIP("shared reference folder absent: ../shared/reference");
    const core::TraceSet set = tests::loadSharedTraces(folder);
    core::AnalysisOptions options;
    options.mode = core::AnalysisMode::HtaCompat;
    const core::FrameSet frames = tests::frames(set, options.mode);

    struct Call
    {
        const char* file;
        core::AnalysisOutput out;
        std::vector<std::string> numeric;
    };

    const Call calls[] = {
        { "get_queue_length_time_series.json", core::queueLengthTimeSeries(frames, options),
            { "index", "ts", "stream", "queue_length" } },
        { "get_memory_bw_time_series.json", core::memoryBwTimeSeries(frames, options),
            { "index", "ts", "memory_bw_gbps" } },
    };
    for (const Call& call : calls) {
        simdjson::dom::parser parser;
        simdjson::dom::element doc =
            parser.load((reference + QStringLiteral("/") + QString::fromUtf8(call.file)).toStdString());
        simdjson::dom::object items = doc["result"]["items"];
        QCOMPARE(call.out.result.entries.size(), items.size());
        for (auto [rank, frame] : items) {
            const core::Table& t = rankTable(call.out, std::string(rank));
            simdjson::dom::array records = frame["records"];
            QCOMPARE(t.rows.size(), records.size());
            std::size_t i = 0;
            for (simdjson::dom::object record : records) {
                for (const std::string& name : call.numeric) {
                    const double expected = double(record[name]);
                    const double actual = *core::cellAsDouble(t.rows[i][t.columnIndex(name)]);
                    if (expected != actual)
                        QFAIL(qPrintable(QStringLiteral("%1 rank %2 row %3 %4: HTA %5, here %6")
                                             .arg(QString::fromUtf8(call.file),
                                                 QString::fromUtf8(std::string(rank).c_str()))
                                             .arg(i)
                                             .arg(QString::fromStdString(name))
                                             .arg(expected, 0, 'g', 17)
                                             .arg(actual, 0, 'g', 17)));
                }
                ++i;
            }
        }
    }
}

KS_TEST_MAIN(tst_counters, TestCounters)
#include "tst_counters.moc"
