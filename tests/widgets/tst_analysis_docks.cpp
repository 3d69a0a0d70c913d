// The main window's analysis docks: computed off the GUI thread after a load,
// tabbed together, restorable, remembered with the layout.
#include "app/gui/main_window.h"
#include "widgets/analysis/analysis_table_model.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/analysis/analysis_view.h"

#include <QAction>
#include <QDockWidget>
#include <QFileInfo>
#include <QSignalSpy>
#include <QTest>

using namespace ks;

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
        QCOMPARE(docks.size(), 9);
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
        window.show();
        QSignalSpy ready(&window, &app::MainWindow::analysesReady);
        window.openPaths({ folder });
        QVERIFY(ready.wait(120000));
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
};

QTEST_MAIN(TestAnalysisDocks)
#include "tst_analysis_docks.moc"
