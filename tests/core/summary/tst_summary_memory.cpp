// Job summaries keep each rank's memory analysis: the stored peaks, growth per
// step and top operators equal the memory analysis of the same shared trace
// folder (both modes), and a summary written before the memory tables (the
// tables dropped) still opens, with no memory data.

#include "core/analysis/memory/memory_report.h"
#include "core/io/trace_set_loader.h"
#include "core/summary/job_overview.h"
#include "core/summary/job_summarizer.h"
#include "core/summary/sqlite_db.h"
#include "core/summary/summary_memory.h"
#include "core/summary/summary_schema.h"
#include "tests/support/test_main.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <string>

using namespace ks::core;

namespace {

std::string sharedTraces()
{
    return std::string(KS_SHARED_DIR) + "/traces";
}

std::string summarizeFolder(const std::string& folder, const QTemporaryDir& dir, AnalysisMode mode)
{
    const std::string out = dir.path().toStdString() + "/job.kssum";
    SummarizeOptions options;
    options.analysis.mode = mode;
    auto report = summarizeJob({ folder }, out, options);
    if (!report)
        qFatal("%s", report.error().describe().c_str());
    return out;
}

} // namespace

class TestSummaryMemory : public QObject
{
    Q_OBJECT

private slots:

    void storedMemoryEqualsTheAnalysis_data()
    {
        QTest::addColumn<QString>("folder");
        QTest::addColumn<bool>("compat");
        for (const char* folder : { "h100_qwen05b", "mi300_qwen05b" }) {
            QTest::newRow(folder) << QString::fromLatin1(folder) << false;
            QTest::newRow((std::string(folder) + " hta-compat").c_str())
                << QString::fromLatin1(folder) << true;
        }
    }

    void storedMemoryEqualsTheAnalysis()
    {
        QFETCH(QString, folder);
        QFETCH(bool, compat);
        if (!QDir(QString::fromStdString(sharedTraces())).exists())
            QSKIP("../shared/traces is absent");
        const std::string path = sharedTraces() + "/" + folder.toStdString();
        QTemporaryDir dir;
        const std::string summary =
            summarizeFolder(path, dir, compat ? AnalysisMode::HtaCompat : AnalysisMode::Default);
        auto job = readJobOverview(summary);
        QVERIFY2(job.ok(), job ? "" : job.error().describe().c_str());
        const SummaryMemory& stored = job.value().memory;
        QVERIFY(stored.stored);

        auto loaded = loadTraceSet({ path }, LoadOptions {}, nullptr, nullptr);
        QVERIFY(loaded.ok());
        MemoryOptions options;
        options.tbCompat = compat; // as the session's HTA-compatible mode computes `memory`
        const MemoryReport report = memoryReport(loaded.value(), options);
        QCOMPARE(report.ranks.size(), std::size_t { 1 });
        const RankMemory& rank = report.ranks.front();
        QVERIFY(rank.records > 0);

        // Peaks: every device, bytes, time and the op live there.
        QCOMPARE(stored.peaks.size(), rank.devices.size());
        std::int64_t gpuPeak = -1;
        std::int64_t cpuPeak = -1;
        for (const DeviceMemorySummary& d : rank.devices) {
            const auto p = std::find_if(stored.peaks.begin(), stored.peaks.end(),
                [&](const SummaryMemoryPeak& x) { return x.device == d.device; });
            QVERIFY2(p != stored.peaks.end(), d.device.c_str());
            QCOMPARE(p->rank, rank.rank);
            QCOMPARE(p->peakAllocated, d.peakAllocated);
            QCOMPARE(p->peakReserved, d.peakReserved);
            QCOMPARE(p->peakNs, d.peakTime ? std::optional<std::int64_t>(*d.peakTime) : std::nullopt);
            QCOMPARE(p->timeBaseNs, rank.timeBase);
            QCOMPARE(p->peakOp, d.peakOp);
            QCOMPARE(p->capacity, d.capacity);
            QVERIFY(p->peakTimeUs().has_value());
            QCOMPARE(*p->peakTimeUs(), static_cast<double>(*d.peakTime - rank.timeBase) / 1000.0);
            std::int64_t& peak = d.device.rfind("GPU", 0) == 0 ? gpuPeak : cpuPeak;
            peak = std::max(peak, d.peakAllocated);
        }
        // The plugin knows no HIP device (mi300 in HTA-compatible mode): the CPU's peak then.
        QVERIFY(gpuPeak > 0 || (compat && folder.startsWith(QStringLiteral("mi300")) && cpuPeak > 0));
        QCOMPARE(stored.rankPeak(rank.rank), std::optional<std::int64_t>(gpuPeak > 0 ? gpuPeak : cpuPeak));

        // Growth per step: allocated at each ProfilerStep's start and end.
        QCOMPARE(stored.steps.size(), rank.steps.size());
        QVERIFY(!rank.steps.empty());
        for (const StepMemory& s : rank.steps) {
            const auto x = std::find_if(stored.steps.begin(), stored.steps.end(),
                [&](const SummaryMemoryStep& y) { return y.device == s.device && y.step == s.step; });
            QVERIFY(x != stored.steps.end());
            QCOMPARE(x->startNs, s.start);
            QCOMPARE(x->allocatedAtStart, s.allocatedAtStart);
            QCOMPARE(x->allocatedAtEnd, s.allocatedAtEnd);
            QCOMPARE(x->growth(), s.growth());
            QCOMPARE(x->peakAllocated, s.peakAllocated);
        }

        // Top operators: per device the statistics' largest self allocation sizes, in order.
        std::map<std::string, std::vector<std::int64_t>> expected;
        for (const OperatorMemoryRow& r : rank.stats)
            if (r.selfAllocationSize > 0)
                expected[r.device].push_back(r.selfAllocationSize);
        std::size_t kept = 0;
        for (auto& [deviceName, sizes] : expected) {
            // A named copy: clang 14 cannot capture a structured binding in a lambda.
            const std::string& device = deviceName;
            std::sort(sizes.rbegin(), sizes.rend());
            sizes.resize(std::min(sizes.size(), kSummaryMemoryTopOps));
            std::vector<std::int64_t> got;
            for (const SummaryMemoryOp& o : stored.topOps)
                if (o.device == device) {
                    got.push_back(o.selfAllocationSize);
                    const auto row = std::find_if(rank.stats.begin(), rank.stats.end(),
                        [&](const OperatorMemoryRow& r) { return r.device == device && r.op == o.op; });
                    QVERIFY2(row != rank.stats.end(), o.op.c_str());
                    QCOMPARE(o.calls, row->calls);
                    QCOMPARE(o.selfAllocationSize, row->selfAllocationSize);
                    QCOMPARE(o.selfAllocationCount, row->selfAllocationCount);
                    QCOMPARE(o.allocationSize, row->allocationSize);
                }
            QCOMPARE(got, sizes);
            kept += got.size();
        }
        QCOMPARE(stored.topOps.size(), kept);
        QVERIFY(kept > 0);
    }

    // A summary without the memory tables (written before they existed, or their
    // tables lost): it opens, job mode reads it, and it says it holds no memory data.
    void summaryWithoutMemoryTablesStillOpens()
    {
        if (!QDir(QString::fromStdString(sharedTraces())).exists())
            QSKIP("../shared/traces is absent");
        QTemporaryDir dir;
        const std::string summary =
            summarizeFolder(sharedTraces() + "/h100_qwen05b", dir, AnalysisMode::Default);
        {
            auto db = SqliteDb::open(summary, SqliteDb::Mode::Create);
            QVERIFY(db.ok());
            for (const std::string_view table : { kMemoryPeaksTable, kMemoryStepsTable, kMemoryTopOpsTable })
                QVERIFY(!db.value().exec("DROP TABLE " + std::string(table)));
        }
        auto job = readJobOverview(summary);
        QVERIFY2(job.ok(), job ? "" : job.error().describe().c_str());
        QVERIFY(!job.value().memory.stored);
        QVERIFY(job.value().memory.peaks.empty());
        QVERIFY(!job.value().memory.rankPeak(0).has_value());
        QCOMPARE(job.value().ranks.size(), std::size_t { 1 });
        QVERIFY(job.value().ranks.front().ok());
    }

    // A rank without [memory] events stores no memory rows and says why.
    void rankWithoutMemoryEventsSaysWhy()
    {
        const std::string folder = sharedTraces() + "/cpu_only";
        if (!QDir(QString::fromStdString(folder)).exists())
            QSKIP("../shared/traces/cpu_only is absent");
        QTemporaryDir dir;
        const std::string summary = summarizeFolder(folder, dir, AnalysisMode::Default);
        auto job = readJobOverview(summary);
        QVERIFY(job.ok());
        QVERIFY(job.value().memory.stored);
        QVERIFY(job.value().memory.peaks.empty());
        SummaryMeta meta;
        auto db = openSummary(summary, meta);
        QVERIFY(db.ok());
        auto s = db.value().prepare("SELECT reason FROM analysis_status WHERE analysis = 'memory'");
        QVERIFY(s.ok());
        auto row = s.value().step();
        QVERIFY(row.ok() && row.value());
        QVERIFY(s.value().columnText(0).find("[memory]") != std::string::npos);
    }
};

KS_TEST_MAIN(tst_summary_memory, TestSummaryMemory)
#include "tst_summary_memory.moc"
