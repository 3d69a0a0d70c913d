// Job mode: a summary opens in job mode, strips follow the
// profiles and show a straggler, picked ranks load in full and close again,
// the Preferences threshold decides when a folder is summarised, and per-rank
// charts become distributions above 32 ranks.
#include "app/gui/main_window/main_window.h"
#include "app/gui/opening/job_paths.h"
#include "app/gui/opening/job_summary_loader.h"
#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/tables/table.h"
#include "core/summary/job_summarizer.h"
#include "core/synth/synthetic_trace_generator.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/charts/analysis_chart.h"
#include "widgets/charts/breakdown_charts.h"
#include "widgets/charts/rank_overview_chart.h"
#include "widgets/common/task_pools.h"
#include "widgets/job/job_mode_view.h"
#include "widgets/job/job_rank_model.h"
#include "widgets/job/job_strip_view.h"
#include "widgets/job/strip_colors.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using ks::app::MainWindow;
using ks::widgets::JobStripView;

namespace {

constexpr int kTimeoutMs = 120'000;

ks::core::SynthOptions synthJob(const QString& dir, int ranks, std::vector<int> stragglers)
{
    ks::core::SynthOptions options;
    options.ranks = ranks;
    options.targetBytes = 120'000;
    options.outDir = dir.toStdString();
    options.seed = 5;
    options.pythonFunctions = false;
    options.stragglers = std::move(stragglers);
    options.slowdown = 2.0;
    return options;
}

// A job of three ranks over ten bins, made by hand: all compute, all
// communication, half compute and half idle.
std::shared_ptr<ks::core::JobOverview> handMadeJob()
{
    auto job = std::make_shared<ks::core::JobOverview>();
    for (std::int64_t r = 0; r < 3; ++r)
        job->ranks.push_back({ r, r, "rank" + std::to_string(r) + ".json", "ok", "", 1, 1, 0, 10'000 });
    job->profiles.binWidthNs = 1000;
    job->profiles.bins = 10;
    job->profiles.streams = { 1, 1, 1 };
    for (int b = 0; b < 10; ++b)
        job->profiles.shares.push_back({ 1, 0, 0, 0 });
    for (int b = 0; b < 10; ++b)
        job->profiles.shares.push_back({ 0, 1, 0, 0 });
    for (int b = 0; b < 10; ++b)
        job->profiles.shares.push_back({ 0.5f, 0, 0, 0 });
    return job;
}

double colorDistance(QRgb a, QRgb b)
{
    return std::hypot(qRed(a) - qRed(b), qGreen(a) - qGreen(b), qBlue(a) - qBlue(b));
}

// One rank's row of the strip image as its mean colour distance to another's.
double rowDistance(const QImage& image, int a, int b)
{
    double sum = 0;
    for (int x = 0; x < image.width(); ++x)
        sum += colorDistance(image.pixel(x, a), image.pixel(x, b));
    return sum / image.width();
}

ks::core::Table temporalTable(int ranks, int oddRank)
{
    ks::core::Table t;
    t.columns = { { "rank", "" }, { "idle_time_pctg", "%" }, { "compute_time_pctg", "%" },
        { "non_compute_time_pctg", "%" } };
    for (int r = 0; r < ranks; ++r) {
        const double compute = r == oddRank ? 90.0 : 50.0 + (r % 5);
        t.addRow({ std::int64_t { r }, 100.0 - compute - 10.0, compute, 10.0 });
    }
    return t;
}

} // namespace

class TestJobMode : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    QTemporaryDir m_dir;
    QString m_jobFolder; // 8 ranks, rank 3 slow
    QString m_summary;

private slots:

    // The rank table says what a user sorts by, outliers first.
    void rankTableShowsOutliersFirst()
    {
        auto job = std::make_shared<ks::core::JobOverview>();
        job->profiles.binWidthNs = 1000;
        job->profiles.bins = 10;
        for (std::int64_t r = 0; r < 5; ++r) {
            job->ranks.push_back({ r, r, "rank" + std::to_string(r) + ".json", r == 4 ? "failed" : "ok",
                r == 4 ? "rank4.json: not JSON" : "", 1, 1000 + r, 0, 10'000 });
            job->profiles.streams.push_back(1);
            for (int b = 0; b < 10; ++b)
                job->profiles.shares.push_back(r == 4 ? ks::core::KindShares { 0, 0, 0, 0 }
                        : r == 2                      ? ks::core::KindShares { 0.9f, 0.1f, 0, 0 }
                                                      : ks::core::KindShares { 0.4f, 0.2f, 0, 0 });
        }
        for (const ks::core::ColumnId& id : ks::core::rank_overview::kColumns)
            job->rankOverview.columns.push_back(id.column());
        for (std::int64_t r = 0; r < 4; ++r)
            job->rankOverview.addRow({ r, std::int64_t { 1 }, r == 2 ? 2000.0 : 1000.0, 10.0, 60.0, 30.0,
                50.0, 900.0, std::int64_t { 0 } });
        ks::widgets::JobModeView view(nullptr);
        view.setJob(job);
        auto* table = view.findChild<QTableView*>(QStringLiteral("jobRankTable"));
        QVERIFY(table);
        const QAbstractItemModel* model = table->model();
        auto cell = [model](int row, int column) { return model->index(row, column).data().toString(); };
        using M = ks::widgets::JobRankModel;
        // The failed file, then the straggler, then the others by rank.
        QCOMPARE(cell(0, M::RankColumn), QStringLiteral("4"));
        QCOMPARE(cell(0, M::FlagColumn), QStringLiteral("failed"));
        QCOMPARE(cell(1, M::RankColumn), QStringLiteral("2"));
        QCOMPARE(cell(1, M::FlagColumn), QStringLiteral("straggler"));
        QCOMPARE(cell(1, M::StepTimeColumn), QStringLiteral("2.00 ms"));
        QCOMPARE(cell(1, M::ComputeColumn), QStringLiteral("90.0 %"));
        QCOMPARE(cell(2, M::RankColumn), QStringLiteral("0"));
        QCOMPARE(cell(2, M::FlagColumn), QString());
        QCOMPARE(cell(2, M::StepTimeColumn), QStringLiteral("1.00 ms"));
        QCOMPARE(cell(2, M::BusyColumn), QStringLiteral("60.0 %"));
        // Half of its 20 % communication overlapped compute: 10 % exposed.
        QCOMPARE(cell(2, M::ExposedCommunicationColumn), QStringLiteral("10.0 %"));
        QCOMPARE(cell(3, M::RankColumn), QStringLiteral("1"));
        QCOMPARE(cell(4, M::RankColumn), QStringLiteral("3"));
        for (int row = 0; row < model->rowCount(); ++row)
            QVERIFY(cell(row, M::FlagColumn) != QStringLiteral("ok"));
        QCOMPARE(
            model->headerData(M::StepTimeColumn, Qt::Horizontal).toString(), QStringLiteral("Step time"));
    }

    void initTestCase()
    {
        ks::test::useTestSettings(m_settingsDir, QStringLiteral("tst_job_mode"));
        m_jobFolder = m_dir.filePath(QStringLiteral("job"));
        QVERIFY(ks::core::generateSyntheticTraces(synthJob(m_jobFolder, 8, { 3 })).ok());
        m_summary = m_dir.filePath(QStringLiteral("job.kssum"));
        QVERIFY(ks::core::summarizeJob({ m_jobFolder.toStdString() }, m_summary.toStdString(), {}).ok());
    }

    // The rank labels beside a thousand strips stay whole: inside the widget (rank 0's
    // at the very top too, it was cut in half) and none over another, at any height.
    void rankLabelsStayWhole()
    {
        auto job = std::make_shared<ks::core::JobOverview>();
        for (std::int64_t r = 0; r < 1000; ++r) {
            job->ranks.push_back({ r, r, "rank" + std::to_string(r) + ".json", "ok", "", 1, 1, 0, 10'000 });
            job->profiles.streams.push_back(1);
            job->profiles.shares.push_back({ 1, 0, 0, 0 });
        }
        job->profiles.binWidthNs = 10'000;
        job->profiles.bins = 1;
        JobStripView view;
        view.setJob(job);
        for (const int height : { 120, 333, 700 }) {
            view.resize(500, height);
            const auto labels = view.rankLabels();
            QVERIFY(labels.size() >= 2);
            QCOMPARE(labels.front().second, QStringLiteral("rank 0"));
            for (std::size_t i = 0; i < labels.size(); ++i) {
                QVERIFY2(view.rect().contains(labels[i].first), qPrintable(labels[i].second));
                if (i > 0)
                    QVERIFY2(labels[i].first.top() > labels[i - 1].first.bottom(),
                        qPrintable(QStringLiteral("%1 over %2 at %3 px")
                                       .arg(labels[i].second, labels[i - 1].second)
                                       .arg(height)));
            }
        }
    }

    void stripColoursFollowTheProfiles()
    {
        JobStripView view;
        view.resize(400, 200);
        view.setJob(handMadeJob());
        const QImage& image = view.stripImage();
        QCOMPARE(image.height(), 3);
        const auto palette = ks::widgets::StripPalette::standard();
        QCOMPARE(QColor(image.pixel(5, 0)), QColor(palette.kinds[0]));
        QCOMPARE(QColor(image.pixel(5, 1)), QColor(palette.kinds[1]));
        // Half busy is the blend of compute and idle, not compute.
        const QRgb half = image.pixel(5, 2);
        QCOMPARE(QColor(half), QColor(ks::widgets::stripColor(palette, { 0.5f, 0, 0, 0 })));
        QVERIFY(colorDistance(half, palette.kinds[0]) > 40);
        QVERIFY(colorDistance(half, palette.idle) > 40);
        // Hover reads out rank and busy %.
        const QRect area = view.stripArea();
        const int rowHeight = std::min(12, area.height() / 3);
        const QString text = view.describeAt(QPoint(area.center().x(), area.top() + 2 * rowHeight + 1));
        QVERIFY2(text.startsWith(QStringLiteral("rank 2")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("busy 50 %")), qPrintable(text));
    }

    void summaryOpensInJobModeAndTheStragglerStandsOut()
    {
        MainWindow window;
        window.resize(1200, 800);
        window.show();
        QSignalSpy ready(&window, &MainWindow::jobReady);
        window.openPaths({ m_summary });
        QVERIFY(ready.wait(kTimeoutMs));
        QVERIFY(window.inJobMode());
        auto* pages = qobject_cast<QStackedWidget*>(window.jobView()->parentWidget());
        QVERIFY(pages);
        QCOMPARE(pages->currentWidget(), window.jobView());
        JobStripView* strips = window.jobView()->strips();
        QCOMPARE(strips->job()->ranks.size(), std::size_t(8));
        QVERIFY(window.saveJobSummaryAction()->isEnabled());
        const QImage image = strips->stripImage();
        QCOMPARE(image.height(), 8);
        // The slow rank differs from every other rank more than any two others differ.
        double othersMax = 0;
        for (int a = 0; a < 8; ++a)
            for (int b = a + 1; b < 8; ++b)
                if (a != 3 && b != 3)
                    othersMax = std::max(othersMax, rowDistance(image, a, b));
        for (int r = 0; r < 8; ++r)
            if (r != 3)
                QVERIFY2(rowDistance(image, 3, r) > 1.5 * othersMax,
                    qPrintable(QStringLiteral("rank %1: %2 vs %3")
                                   .arg(r)
                                   .arg(rowDistance(image, 3, r))
                                   .arg(othersMax)));
        // And it is the one row drawn with the straggler mark.
        QCOMPARE(strips->stragglerRows(), std::vector<std::size_t> { 3 });
        // The heat map and the skew table come from the summary.
        QVERIFY(window.jobView()->heatMap() != nullptr);
        QVERIFY(window.jobView()->skewTable()->table() != nullptr);
        QVERIFY(!window.jobView()->skewTable()->table()->rows.empty());
        // Save Job Summary copies a summary that opens again.
        const QString saved = m_dir.filePath(QStringLiteral("saved.kssum"));
        QString error;
        QVERIFY(window.jobLoader()->saveSummary(saved, &error));
        QVERIFY(ks::core::readJobOverview(saved.toStdString()).ok());
    }

    void selectedRanksLoadInFullAndClose()
    {
        MainWindow window;
        window.resize(1200, 800);
        QSignalSpy ready(&window, &MainWindow::jobReady);
        window.openPaths({ m_summary });
        QVERIFY(ready.wait(kTimeoutMs));
        JobStripView* strips = window.jobView()->strips();
        strips->setSelectedRows({ 1, 3 });
        QSignalSpy loaded(&window, &MainWindow::jobRanksLoaded);
        auto* load = window.jobView()->findChild<QPushButton*>(QStringLiteral("loadSelectedRanks"));
        QVERIFY(load && load->isEnabled());
        load->click();
        QVERIFY(loaded.wait(kTimeoutMs));
        auto set = window.jobView()->loadedRanks();
        QVERIFY(set);
        QCOMPARE(set->ranks.size(), std::size_t(2));
        QCOMPARE(set->ranks[0]->rank, std::int64_t(1));
        QCOMPARE(set->ranks[1]->rank, std::int64_t(3));
        QVERIFY(window.jobView()->detailTimeline()->isVisibleTo(window.jobView()));
        // Closing lets go of the traces: the window holds no reference any more.
        std::weak_ptr<const ks::core::TraceSet> watch = set;
        set.reset();
        window.jobView()->findChild<QPushButton*>(QStringLiteral("closeLoadedRanks"))->click();
        QVERIFY(!window.jobView()->loadedRanks());
        QTRY_VERIFY_WITH_TIMEOUT(watch.expired(), 10'000);
        // Double-click on a strip asks for that one rank.
        QSignalSpy requested(window.jobView(), &ks::widgets::JobModeView::ranksRequested);
        window.show();
        const QRect area = strips->stripArea();
        const int rowHeight = std::min(12, area.height() / 8);
        QTest::mouseDClick(
            strips, Qt::LeftButton, {}, QPoint(area.center().x(), area.top() + 5 * rowHeight + 1));
        QCOMPARE(requested.count(), 1);
        QCOMPARE(requested.first().first().value<QList<qsizetype>>(), QList<qsizetype> { 5 });
    }

    void thresholdPreferenceDecidesJobMode()
    {
        ks::app::setJobModeRankThreshold(4);
        QCOMPARE(ks::app::classifyOpening({ m_jobFolder }, ks::app::jobModeRankThreshold()),
            ks::app::JobOpening::Summarize);
        {
            MainWindow window;
            QSignalSpy ready(&window, &MainWindow::jobReady);
            window.openPaths({ m_jobFolder });
            QVERIFY(ready.wait(kTimeoutMs));
            QVERIFY(window.inJobMode());
            QCOMPARE(window.jobView()->job()->ranks.size(), std::size_t(8));
            QVERIFY(!window.traceSet());
        }
        ks::app::setJobModeRankThreshold(64);
        {
            MainWindow window;
            QSignalSpy ended(&window, &MainWindow::loadEnded);
            window.openPaths({ m_jobFolder });
            QVERIFY(ended.wait(kTimeoutMs));
            QVERIFY(!window.inJobMode());
            QVERIFY(window.traceSet());
            QCOMPARE(window.traceSet()->ranks.size(), std::size_t(8));
        }
    }

    void summarisingCanBeCancelled()
    {
        ks::widgets::TaskPools pools;
        ks::app::JobSummaryLoader loader(&pools);
        QSignalSpy cancelled(&loader, &ks::app::JobSummaryLoader::cancelled);
        QSignalSpy ready(&loader, &ks::app::JobSummaryLoader::jobReady);
        loader.summarize({ m_jobFolder });
        QVERIFY(loader.isBusy());
        loader.cancel();
        QVERIFY(!loader.isBusy());
        QCOMPARE(cancelled.count(), 1);
        QTest::qWait(500);
        QCOMPARE(ready.count(), 0);
    }

    void chartsBecomeDistributionsAbove32Ranks()
    {
        ks::widgets::AnalysisChart few;
        ks::widgets::buildTemporalChart(few, temporalTable(8, 2));
        QCOMPARE(few.graphCount(), 0);
        QCOMPARE(few.plottableCount(), 3); // stacked bars

        ks::widgets::AnalysisChart many;
        ks::widgets::buildTemporalChart(many, temporalTable(200, 117));
        QCOMPARE(many.graphCount(), 3); // sorted stacked areas
        QCOMPARE(many.plottableCount(), 3);
        QStringList outliers;
        for (int i = 0; i < many.itemCount(); ++i)
            if (many.item(i)->objectName() == QStringLiteral("outlier"))
                outliers << static_cast<QCPItemText*>(many.item(i))->text();
        QCOMPARE(outliers, QStringList { QStringLiteral("rank 117") });
    }

    void noChartLabelsMoreThan64Categories()
    {
        ks::core::Table t;
        t.columns = { { "rank", "" }, { "iteration", "" }, { "idle_pct", "%" }, { "straggler", "" } };
        for (int r = 0; r < 1000; ++r)
            for (int i = 0; i < 3; ++i)
                t.addRow({ std::int64_t { r }, std::int64_t { i }, double(r % 7), std::int64_t { 0 } });
        ks::widgets::AnalysisChart chart;
        ks::widgets::buildRankOverviewHeatMap(chart, t, ks::widgets::RankOverviewMetric::IdlePct);
        auto ticker = chart.yAxis->ticker().dynamicCast<QCPAxisTickerText>();
        QVERIFY(ticker);
        QVERIFY2(ticker->ticks().size() <= 64, qPrintable(QString::number(ticker->ticks().size())));
        QVERIFY(ticker->ticks().size() >= 32);
    }
};

KS_TEST_MAIN(tst_job_mode, TestJobMode)
#include "tst_job_mode.moc"
