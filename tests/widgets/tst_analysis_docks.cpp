// The main window's analysis docks: computed off the GUI thread after a load,
// tabbed together, restorable, remembered with the layout.
#include "app/gui/main_window.h"
#include "widgets/analysis/analysis_table_model.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/timeline/view/timeline_view_state.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QSignalSpy>
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

    void docksAreTabbedAndRestorable()
    {
        app::MainWindow window;
        const QList<QDockWidget*> docks = window.analysisDocks();
        QCOMPARE(docks.size(), 10);
        for (QDockWidget* dock : docks.mid(1))
            QVERIFY(window.tabifiedDockWidgets(docks.front()).contains(dock));
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QDockWidget* idle = docks.at(1);
        idle->close();
        const QByteArray state = window.saveState(3);
        idle->toggleViewAction()->trigger();
        QVERIFY(!idle->isHidden());
        QVERIFY(window.restoreState(state, 3));
        QVERIFY(idle->isHidden());
    }

    void analysesComputeAfterLoad()
    {
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/two_ranks_sampled");
        if (!QFileInfo::exists(folder))
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/two_ranks_sampled");
        app::MainWindow window;
        QSignalSpy ready(&window, &app::MainWindow::analysesReady);
        QVERIFY(openAndAwaitAnalyses(window, ready, folder));
        for (QDockWidget* dock : window.analysisDocks()) {
            auto* view = qobject_cast<widgets::AnalysisView*>(dock->widget());
            QVERIFY(view);
            QVERIFY2(view->hasResult(), qPrintable(dock->objectName()));
            QVERIFY(view->chart()->plottableCount() > 0);
        }
        auto* idle = qobject_cast<widgets::AnalysisView*>(window.analysisDocks().at(1)->widget());
        auto idleHeader = [idle] {
            const widgets::AnalysisTableModel* model = idle->tables().front()->model();
            for (int c = 0; c < model->columnCount(); ++c) {
                const QString name = model->headerData(c, Qt::Horizontal).toString();
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
        QDockWidget* dock = window.analysisDocks().back();
        QCOMPARE(dock->objectName(), QStringLiteral("operatorsDock"));
        QCOMPARE(dock->toggleViewAction()->shortcut(), QKeySequence(Qt::ALT | Qt::Key_0));
        auto* view = qobject_cast<widgets::AnalysisView*>(dock->widget());
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
};

QTEST_MAIN(TestAnalysisDocks)
#include "tst_analysis_docks.moc"
