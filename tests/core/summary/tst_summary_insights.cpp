// Insights on a job summary: the rank rules' findings stored
// per rank by summarize read back to the same report as the folder gives for
// those rules; the job rules answer from the summary too; old summaries are refused.

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/hta/user_annotation_breakdown.h"
#include "core/insights/insights.h"
#include "core/io/trace_set_loader.h"
#include "core/summary/job_summarizer.h"
#include "core/summary/summary_insights.h"
#include "core/summary/summary_reader.h"
#include "tests/support/test_main.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace ks::core;

namespace {

QString sharedTraces()
{
    return QStringLiteral(KS_SHARED_DIR "/traces/");
}

std::vector<std::string> rankRules()
{
    std::vector<std::string> ids;
    for (const Rule& r : insightRules())
        if (r.scope == RuleScope::Rank)
            ids.emplace_back(r.info.id);
    return ids;
}

} // namespace

class TestSummaryInsights : public QObject
{
    Q_OBJECT

private slots:

    void summaryAgreesWithFolder_data()
    {
        QTest::addColumn<QString>("folder");
        for (const char* f : { "two_ranks_sampled", "cuda_event_sync", "critical_path_alexnet",
                 "ddp_gloo_2ranks", "h100_qwen05b", "mi300_qwen05b" })
            QTest::newRow(f) << QString::fromLatin1(f);
    }

    void summaryAgreesWithFolder()
    {
        QFETCH(QString, folder);
        const std::string path = QString(sharedTraces() + folder).toStdString();
        if (!QDir(sharedTraces() + folder).exists())
            QSKIP("../shared is absent");
        QTemporaryDir dir;
        const std::string out = dir.path().toStdString() + "/job.kssum";
        QVERIFY(summarizeJob({ path }, out, SummarizeOptions {}).ok());

        auto set = loadTraceSet({ path }, {}, nullptr, nullptr);
        QVERIFY(set.ok());
        auto frames = buildFrames(set.value(), AnalysisOptions {});
        QVERIFY(frames.ok());
        InsightsOptions rankOnly;
        rankOnly.rules = rankRules();
        const InsightsReport fromFolder = runInsights(frames.value(), AnalysisOptions {}, rankOnly);
        auto fromSummary = insightsFromSummary(out, rankOnly);
        QVERIFY2(fromSummary.ok(), fromSummary.ok() ? "" : fromSummary.error().describe().c_str());
        const InsightsReport& s = fromSummary.value();
        QCOMPARE(s.findings.size(), fromFolder.findings.size());
        for (std::size_t i = 0; i < s.findings.size(); ++i) {
            const Finding& a = fromFolder.findings[i];
            const Finding& b = s.findings[i];
            QCOMPARE(b.rule, a.rule);
            QCOMPARE(b.subject, a.subject); // mi300_qwen05b: low_efficiency for gemm and for attention
            QCOMPARE(b.title, a.title);
            QCOMPARE(b.gainPct, a.gainPct);
            QCOMPARE(b.ranks, a.ranks);
            QCOMPARE(b.iterations, a.iterations);
            QCOMPARE(b.evidence, a.evidence);
            QCOMPARE(b.where.size(), a.where.size());
            QCOMPARE(b.where.front().events, a.where.front().events);
        }
        QCOMPARE(s.notApplicable.size(), fromFolder.notApplicable.size());
        for (std::size_t i = 0; i < s.notApplicable.size(); ++i) {
            QCOMPARE(s.notApplicable[i].rule, fromFolder.notApplicable[i].rule);
            QCOMPARE(s.notApplicable[i].reason, fromFolder.notApplicable[i].reason);
        }
        // The job rules answer from what the summary stores (the collectives' arrivals, the
        // utilisation bins: tst_summary_job_answers): none asks for the traces.
        auto all = insightsFromSummary(out, InsightsOptions {});
        QVERIFY(all.ok());
        for (const RuleNotApplicable& na : all.value().notApplicable)
            QVERIFY2(na.reason.find("open the traces") == std::string::npos, na.reason.c_str());
    }

    void selectedRanksOnly()
    {
        const std::string path = QString(sharedTraces() + QStringLiteral("two_ranks_sampled")).toStdString();
        if (!QDir(sharedTraces()).exists())
            QSKIP("../shared is absent");
        QTemporaryDir dir;
        const std::string out = dir.path().toStdString() + "/job.kssum";
        QVERIFY(summarizeJob({ path }, out, SummarizeOptions {}).ok());
        auto one = insightsFromSummary(out, InsightsOptions {}, { 1 });
        QVERIFY(one.ok());
        for (const Finding& f : one.value().findings)
            QCOMPARE(f.ranks, std::vector<std::int64_t> { 1 });
    }

    // The user-annotation breakdown of each rank, as analyze computes it.
    void userAnnotationsPerRank()
    {
        const std::string path =
            QString(sharedTraces() + QStringLiteral("critical_path_alexnet")).toStdString();
        if (!QDir(sharedTraces()).exists())
            QSKIP("../shared is absent");
        QTemporaryDir dir;
        const std::string out = dir.path().toStdString() + "/job.kssum";
        QVERIFY(summarizeJob({ path }, out, SummarizeOptions {}).ok());
        auto set = loadTraceSet({ path }, {}, nullptr, nullptr);
        auto frames = buildFrames(set.value(), AnalysisOptions {});
        AnalysisOptions cpu;
        cpu.annotations.useGpuAnnotation = false;
        const AnalysisOutput expected = userAnnotationBreakdown(frames.value(), cpu);
        QVERIFY(expected.ok);
        const Table& t = expected.result.frame;
        SummaryMeta meta;
        auto db = openSummary(out, meta);
        QVERIFY(db.ok());
        auto select = db.value().prepare(
            "SELECT rank, name, sum_us, mean_us FROM user_annotations WHERE source = 'cpu' ORDER BY name");
        QVERIFY(select.ok());
        std::size_t rows = 0;
        for (auto step = select.value().step(); step && step.value(); step = select.value().step()) {
            const std::string name = select.value().columnText(1);
            const auto row = std::find_if(t.rows.begin(), t.rows.end(), [&](const auto& r) {
                return cellAsText(r[*t.find(user_annotation_breakdown::kName)]) == name;
            });
            QVERIFY2(row != t.rows.end(), name.c_str());
            QCOMPARE(select.value().columnDouble(2),
                cellAsDouble((*row)[*t.find(user_annotation_breakdown::kSum)]).value());
            ++rows;
        }
        QCOMPARE(rows, t.rows.size());
        // No GPU annotations in this trace: said in analysis_status, not an error.
        auto status =
            db.value().prepare("SELECT reason FROM analysis_status WHERE analysis = 'user_annotations_gpu'");
        QVERIFY(status.ok());
        QVERIFY(status.value().step().value());
        QVERIFY(status.value().columnText(0).find("gpu_user_annotation") != std::string::npos);
    }

    void notASummaryIsOneLine()
    {
        QTemporaryDir dir;
        const std::string path = dir.path().toStdString() + "/bad.kssum";
        QFile f(QString::fromStdString(path));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("not sqlite");
        f.close();
        auto r = insightsFromSummary(path, InsightsOptions {});
        QVERIFY(!r.ok());
        QVERIFY(r.error().describe().find("bad.kssum") != std::string::npos);
    }
};

KS_TEST_MAIN(tst_summary_insights, TestSummaryInsights)
#include "tst_summary_insights.moc"
