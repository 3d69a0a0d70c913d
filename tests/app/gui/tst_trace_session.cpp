// The app's session on a real two-rank load: the analysis views, the job path,
// its stragglers, the Overview (its insights and MFU), the Efficiency view and
// the timeline all read results the load's TraceAnalyses computed once.
#include "app/gui/main_window/main_window.h"
#include "app/gui/session/trace_session.h"
#include "core/session/trace_analyses.h"
#include "tests/support/test_main.h"
#include "widgets/analysis/rank_overview_panel.h"
#include "widgets/efficiency/efficiency_view.h"
#include "widgets/job_path/job_path_panel.h"
#include "widgets/overview/overview_page.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QDir>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTest>

using namespace ks;

class TestTraceSession : public QObject
{
    Q_OBJECT

private slots:

    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void aLoadComputesEachResultOnce()
    {
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/two_ranks_sampled");
        if (!QDir(folder).exists())
            QSKIP("../shared/traces/two_ranks_sampled is absent");
        app::MainWindow window;
        window.show();
        QSignalSpy path(&window, &app::MainWindow::jobPathReady);
        QSignalSpy efficiency(window.efficiencyView(), &widgets::EfficiencyView::computed);
        window.openPaths({ folder });
        QVERIFY(path.wait(120000));
        QTRY_VERIFY_WITH_TIMEOUT(
            window.overviewPage()->data() && !window.overviewPage()->isComputing(), 120000);
        QTRY_VERIFY_WITH_TIMEOUT(!efficiency.isEmpty(), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(window.timeline()->data() && !window.timeline()->isPreparing(), 60000);
        QVERIFY(window.overviewPage()->data()->error.isEmpty());

        const auto analyses = window.session()->analyses();
        QVERIFY(analyses);
        QCOMPARE(analyses->traces().ranks.size(), std::size_t(2));
        const core::SessionComputations c = analyses->computations();
        QCOMPARE(c.jobPath, std::size_t(1)); // the views' path: the insights and stragglers read it
        QCOMPARE(c.collectiveMatch, std::size_t(1)); // the timeline's match is the path's
        QCOMPARE(c.frames, std::size_t(1)); // the views', the path's and the Overview's frames are one
        QCOMPARE(c.insights, std::size_t(1));
        QCOMPARE(c.efficiency, std::size_t(1)); // the Efficiency view's report gives the Overview's MFU
        QCOMPARE(c.outputs, window.session()->shownOutputs().size()); // each view's output once
        QCOMPARE(window.timeline()->data()->collectives.get(), analyses->collectiveMatch().get());

        // What the job path lane delivered is the session's kept path.
        const app::JobPathResultsPtr results = window.session()->jobPathResults();
        QVERIFY(results && results->job);
        QCOMPARE(results->job.get(), analyses->keptJobPath({}).get());
        QVERIFY(window.jobPathPanel()->summaryText().startsWith(QStringLiteral("Path ")));

        // Reopening the Overview on the same scope reads what is kept.
        QSignalSpy updated(window.overviewPage(), &widgets::OverviewPage::updated);
        window.overviewPage()->setAnalyses(analyses);
        QVERIFY(updated.wait(60000));
        QCOMPARE(analyses->computations().jobPath, std::size_t(1));
        QCOMPARE(analyses->computations().insights, std::size_t(1));
    }

    // A new load is a new session: nothing of the last one is read.
    void aNewLoadIsANewSession()
    {
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/ddp_gloo_2ranks");
        if (!QDir(folder).exists())
            QSKIP("../shared/traces/ddp_gloo_2ranks is absent");
        app::MainWindow window;
        QSignalSpy path(&window, &app::MainWindow::jobPathReady);
        window.openPaths({ folder });
        QVERIFY(path.wait(120000));
        const auto first = window.session()->analyses();
        window.openPaths({ folder });
        QVERIFY(path.wait(120000));
        const auto second = window.session()->analyses();
        QVERIFY(first && second && first != second);
        QCOMPARE(second->computations().jobPath, std::size_t(1));
        window.closeTrace();
        QVERIFY(!window.session()->analyses());
        QVERIFY(!window.session()->jobPathResults());
    }
};

KS_TEST_MAIN(tst_trace_session, TestTraceSession)
#include "tst_trace_session.moc"
