// Job mode's rank table (JobRankModel): the peak memory column is filled from
// the summary's memory tables — on a real trace with [memory] events it shows
// the memory analysis' largest GPU peak — and stays empty for a summary
// without them.

#include "core/analysis/memory/memory_report.h"
#include "core/io/trace_set_loader.h"
#include "core/summary/job_overview.h"
#include "core/summary/job_summarizer.h"
#include "core/summary/sqlite_db.h"
#include "core/summary/summary_schema.h"
#include "tests/support/test_main.h"
#include "widgets/common/format.h"
#include "widgets/job/job_rank_model.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using ks::widgets::JobRankModel;

namespace {

std::string h100Folder()
{
    return std::string(KS_SHARED_DIR) + "/traces/h100_qwen05b";
}

std::shared_ptr<const ks::core::JobOverview> jobOf(const std::string& summary)
{
    auto job = ks::core::readJobOverview(summary);
    if (!job)
        qFatal("%s", job.error().describe().c_str());
    return std::make_shared<const ks::core::JobOverview>(std::move(job).value());
}

} // namespace

class TestJobRankModel : public QObject
{
    Q_OBJECT

private slots:

    void peakMemoryColumnIsFilled()
    {
        if (!QDir(QString::fromStdString(h100Folder())).exists())
            QSKIP("../shared/traces/h100_qwen05b is absent");
        QTemporaryDir dir;
        const std::string summary = dir.path().toStdString() + "/job.kssum";
        QVERIFY(ks::core::summarizeJob({ h100Folder() }, summary, {}).ok());

        auto loaded = ks::core::loadTraceSet({ h100Folder() }, ks::core::LoadOptions {}, nullptr, nullptr);
        QVERIFY(loaded.ok());
        const ks::core::MemoryReport report = ks::core::memoryReport(loaded.value(), {});
        std::int64_t gpuPeak = -1;
        for (const ks::core::DeviceMemorySummary& d : report.ranks.at(0).devices)
            if (d.device.rfind("GPU", 0) == 0)
                gpuPeak = std::max(gpuPeak, d.peakAllocated);
        QVERIFY(gpuPeak > 0);

        JobRankModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setJob(jobOf(summary));
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.headerData(JobRankModel::PeakMemoryColumn, Qt::Horizontal).toString(),
            QStringLiteral("Peak memory"));
        const QModelIndex cell = model.index(0, JobRankModel::PeakMemoryColumn);
        QCOMPARE(cell.data(Qt::UserRole).toLongLong(), gpuPeak);
        QCOMPARE(cell.data().toString(), ks::widgets::formatBytes(static_cast<std::uint64_t>(gpuPeak)));
        QVERIFY(!cell.data().toString().isEmpty());

        // The same summary without its memory tables: the column is empty, nothing else changes.
        {
            auto db = ks::core::SqliteDb::open(summary, ks::core::SqliteDb::Mode::Create);
            QVERIFY(db.ok());
            for (const std::string_view table :
                { ks::core::kMemoryPeaksTable, ks::core::kMemoryStepsTable, ks::core::kMemoryTopOpsTable })
                QVERIFY(!db.value().exec("DROP TABLE " + std::string(table)));
        }
        const QString events = model.index(0, JobRankModel::EventsColumn).data().toString();
        model.setJob(jobOf(summary));
        QCOMPARE(model.index(0, JobRankModel::PeakMemoryColumn).data().toString(), QString());
        QCOMPARE(model.index(0, JobRankModel::EventsColumn).data().toString(), events);
    }
};

KS_TEST_MAIN(tst_job_rank_model, TestJobRankModel)
#include "tst_job_rank_model.moc"
