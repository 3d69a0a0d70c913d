// The main window's analysis docks: computed off the GUI thread after a load,
// tabbed together, restorable, remembered with the layout.
#include "app/gui/main_window/main_window.h"
#include "app/gui/views/view_registry.h"
#include "core/insights/rule.h"
#include "tests/support/test_main.h"
#include "widgets/analysis/analysis_table_model.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/common/view_navigator.h"
#include "widgets/memory/memory_view.h"
#include "widgets/timeline/model/timeline_view_state.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTest>

using namespace ks;

namespace {

// Opens `path` (skipping when the shared traces are absent is the caller's) and
// waits for the docks' first results; false when they never came.
bool openAndAwaitAnalyses(app::MainWindow& window, QSignalSpy& ready, const QString& path)
{
    window.show();
    window.openPaths({ path });
    return ready.wait(120000);
}

} // namespace

class TestAnalysisDocks : public QObject
{
    Q_OBJECT

private slots:

    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true); // settings of its own, not the user's
    }

    // The analyses are pages of one navigator; a view torn off
    // lives in a dock of its own, goes back when that closes, and the choice and
    // the torn-off views are remembered across windows.
    // A finding's "open the analysis" link goes to the view its rule declares: every
    // declared view is one the registry makes.
    void everyRuleProvesItselfInARegisteredView()
    {
        app::MainWindow window;
        int linked = 0;
        for (const core::Rule& rule : core::insightRules()) {
            if (rule.info.proofView.empty())
                continue;
            ++linked;
            const QString id =
                QString::fromUtf8(rule.info.proofView.data(), qsizetype(rule.info.proofView.size()));
            QVERIFY2(window.navigator()->view(id),
                qPrintable(
                    QString::fromUtf8(rule.info.id.data(), qsizetype(rule.info.id.size())) + u' ' + id));
        }
        QVERIFY(linked >= 10); // all but memory_pressure's
    }

    void viewsAreInTheNavigatorAndTearOff()
    {
        {
            app::MainWindow window;
            const QList<widgets::AnalysisView*> views = window.analysisViews();
            QCOMPARE(views.size(), app::analysisViewCount()); // every analysis view the registry lists
            widgets::ViewNavigator* navigator = window.navigator();
            for (widgets::AnalysisView* view : views)
                QVERIFY(navigator->view(view->objectName().chopped(4)) == view);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            QVERIFY(window.showView(QStringLiteral("idle")));
            QCOMPARE(navigator->currentView(), QStringLiteral("idle"));
            QVERIFY(views.at(1)->isVisible());

            window.tearOffView(QStringLiteral("idle"));
            QVERIFY(navigator->isTornOff(QStringLiteral("idle")));
            QDockWidget* dock = window.viewDock(QStringLiteral("idle"));
            QCOMPARE(dock->widget(), views.at(1));
            QVERIFY(dock->isVisible() && dock->isFloating());
            dock->close();
            QVERIFY(!navigator->isTornOff(QStringLiteral("idle")));
            QVERIFY(views.at(1)->isVisible());

            window.tearOffView(QStringLiteral("kernelTypes"));
            QVERIFY(window.showView(QStringLiteral("operators")));
            window.close(); // saves the layout
        }
        app::MainWindow again;
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QCOMPARE(again.navigator()->currentView(), QStringLiteral("operators"));
        QVERIFY(again.navigator()->isTornOff(QStringLiteral("kernelTypes")));
        QVERIFY(again.viewDock(QStringLiteral("kernelTypes"))->isVisible());
        again.viewDock(QStringLiteral("kernelTypes"))->close();
        again.close();
    }

    // Ctrl+1…8 go to the eight groups (each its first view at first), Ctrl+9 back
    // to the view before, and again forth.
    void groupShortcuts()
    {
        app::MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QStringList firstOfGroup = { QStringLiteral("overview"), QStringLiteral("temporal"),
            QStringLiteral("kernelTypes"), QStringLiteral("efficiency"), QStringLiteral("operators"),
            QStringLiteral("memory"), QStringLiteral("rankOverview"), QStringLiteral("diagnostics") };
        QCOMPARE(window.navigator()->groupTitles().size(), firstOfGroup.size());
        for (int group = firstOfGroup.size() - 1; group >= 0; --group) {
            QTest::keyClick(&window, static_cast<Qt::Key>(Qt::Key_1 + group), Qt::ControlModifier);
            QCOMPARE(window.navigator()->currentView(), firstOfGroup[group]);
            QCOMPARE(window.navigator()->groupOf(firstOfGroup[group]), group);
        }
        QTest::keyClick(&window, Qt::Key_9, Qt::ControlModifier);
        QCOMPARE(window.navigator()->currentView(), QStringLiteral("temporal"));
        QTest::keyClick(&window, Qt::Key_9, Qt::ControlModifier);
        QCOMPARE(window.navigator()->currentView(), QStringLiteral("overview"));
    }

    void analysesComputeAfterLoad()
    {
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/two_ranks_sampled");
        if (!QFileInfo::exists(folder))
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/two_ranks_sampled");
        app::MainWindow window;
        QSignalSpy ready(&window, &app::MainWindow::analysesReady);
        QVERIFY(openAndAwaitAnalyses(window, ready, folder));
        for (widgets::AnalysisView* view : window.analysisViews()) {
            if (view->kind() == widgets::AnalysisChartKind::TableOnly
                || view->kind() == widgets::AnalysisChartKind::UserAnnotations) {
                // HTA calls shown as tables: a result, or why they do not apply here.
                QVERIFY2(view->hasResult() || view->message().startsWith(QStringLiteral("Not applicable")),
                    qPrintable(view->objectName() + QStringLiteral(": ") + view->message()));
                continue;
            }
            QVERIFY2(view->hasResult(), qPrintable(view->objectName()));
            QVERIFY(view->chart()->plottableCount() > 0);
        }
        widgets::AnalysisView* idle = window.analysisViews().at(1);
        auto idleHeader = [idle] {
            const widgets::AnalysisTableModel* model = idle->tables().front()->model();
            for (int c = 0; c < model->columnCount(); ++c) {
                const QString name = model->headerData(c, Qt::Horizontal, widgets::kRawTextRole).toString();
                if (name.startsWith(QStringLiteral("idle_time")) && name != QStringLiteral("idle_time_ratio"))
                    return name;
            }
            return QString();
        };
        QCOMPARE(idleHeader(), QStringLiteral("idle_time_us"));
        // The HTA-compatible switch recomputes in that mode: HTA's column names.
        window.htaCompatAction()->setChecked(true);
        QVERIFY(window.analysesRunning());
        QVERIFY(!idle->hasResult()); // "computing…" meanwhile
        QVERIFY(ready.wait(120000));
        QCOMPARE(idleHeader(), QStringLiteral("idle_time"));
        window.closeTrace();
        QVERIFY(!idle->hasResult());
        QVERIFY(!window.analysesRunning());
    }

    void operatorsDockFollowsSelectedRange()
    {
        // rpc_recipe: 7 operator rows (PyTorch's key_averages table); the first
        // aten::zeros (140.780 µs, 24.897 µs long) holds one aten::empty and one aten::zero_.
        const QString file = QStringLiteral(KS_SHARED_DIR "/traces/rpc_recipe/rpc_builtin_ops.json");
        if (!QFileInfo::exists(file))
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/rpc_recipe");
        app::MainWindow window;
        QSignalSpy ready(&window, &app::MainWindow::analysesReady);
        QVERIFY(openAndAwaitAnalyses(window, ready, file));
        auto* view = window.findChild<widgets::AnalysisView*>(QStringLiteral("operatorsView"));
        QVERIFY(view);
        QVERIFY(view->hasResult());
        QVERIFY(view->chart()->plottableCount() > 0);
        auto rows = [view] { return view->tables().front()->model()->rowCount(); };
        QCOMPARE(rows(), 7);

        // A selected range restricts the table to the ops starting in it.
        window.timelineState()->setSelectedRange(widgets::TimeRange { 140000, 170000 });
        QTRY_COMPARE_WITH_TIMEOUT(view->hasResult() && rows() == 3, true, 60000);
        // Restrict to Selected Range: every dock recomputes for the window.
        window.restrictToRangeAction()->setChecked(true);
        QVERIFY(ready.wait(120000));
        QCOMPARE(rows(), 3);
        window.timelineState()->setSelectedRange(std::nullopt);
        QVERIFY(ready.wait(120000));
        QCOMPARE(rows(), 7);
    }

    // The Memory view computes when shown and follows the timeline's selected range;
    // a range it selects (dragged on its chart) becomes the timeline's.
    void memoryViewFollowsSelectedRange()
    {
        const QString file = QStringLiteral(KS_SHARED_DIR "/traces/h100_qwen05b");
        if (!QFileInfo::exists(file))
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/h100_qwen05b");
        app::MainWindow window;
        QSignalSpy ready(&window, &app::MainWindow::analysesReady);
        QVERIFY(openAndAwaitAnalyses(window, ready, file));
        auto* view = window.findChild<widgets::MemoryView*>(QStringLiteral("memoryView"));
        QVERIFY(view);
        QSignalSpy computed(view, &widgets::MemoryView::computed);
        QVERIFY(window.showView(QStringLiteral("memory")));
        QVERIFY(computed.wait(60000));
        QVERIFY2(view->messageText().isEmpty(), qPrintable(view->messageText()));
        const auto rows = [view] { return view->allocationsTable()->proxy()->rowCount(); };
        const int all = rows();
        QVERIFY(all > 100);

        const core::TimeNs start = window.traceSet()->startNs();
        window.timelineState()->setSelectedRange(
            widgets::TimeRange { start + 30'000'000, start + 40'000'000 });
        QVERIFY(computed.wait(60000));
        QVERIFY2(rows() > 0 && rows() < all, qPrintable(QString::number(rows())));
        QVERIFY(view->data().range);

        emit view->rangeSelected(std::nullopt); // as a click on the chart clears it
        QVERIFY(!window.timelineState()->selectedRange());
        QVERIFY(computed.wait(60000));
        QCOMPARE(rows(), all);

        // An allocation clicked: the timeline shows its lifetime.
        emit view->allocationActivated(start + 20'000'000, start + 21'000'000);
        const widgets::TimeRange shown = window.timelineState()->visibleRange();
        QVERIFY(shown.start <= start + 20'000'000 && shown.end >= start + 21'000'000);
        QVERIFY(shown.span() < 2'000'000);
    }
};

KS_TEST_MAIN(tst_analysis_docks, TestAnalysisDocks)
#include "tst_analysis_docks.moc"
