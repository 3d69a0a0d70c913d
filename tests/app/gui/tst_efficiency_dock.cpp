// The Efficiency dock computes after a load, a click on a row
// selects the op's longest call on the timeline, and the Details panel of that call
// shows its FLOPs, bytes, TFLOP/s and % of roofline.

#include "app/gui/main_window/main_window.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/common/view_navigator.h"
#include "widgets/efficiency/efficiency_view.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/panels/slice_details_panel.h"

#include <QDockWidget>
#include <QFileInfo>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using ks::app::MainWindow;

class TestEfficiencyDock : public QObject
{
    Q_OBJECT

    QTemporaryDir m_settingsDir;

private slots:

    void initTestCase() { ks::test::useTestSettings(m_settingsDir, QStringLiteral("tst_efficiency_dock")); }

    void clickSelectsTheCallAndDetailsShowItsNumbers()
    {
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/h100_qwen05b");
        if (!QFileInfo::exists(folder))
            QSKIP("The shared traces are absent");
        MainWindow window;
        auto* view = window.findChild<ks::widgets::EfficiencyView*>();
        QVERIFY(view);
        QVERIFY(window.navigator()->view(QStringLiteral("efficiency"))
            == view); // the navigator's Efficiency group
        QSignalSpy computed(view, &ks::widgets::EfficiencyView::computed);
        window.openPaths({ folder });
        QVERIFY(computed.wait(60000));
        const ks::core::EfficiencyReport* report = view->report();
        QVERIFY(report && !report->rows.empty());

        emit view->table()->view()->clicked(view->table()->proxy()->index(0, 0));
        const ks::widgets::SliceRef selected = window.timelineState()->selectedSlice();
        QVERIFY(selected.valid());
        const ks::core::EfficiencyRow* row = view->rowOfCall(std::uint32_t(selected.rank), selected.slice);
        QVERIFY(row == &report->rows[0]);

        auto* details = window.findChild<ks::widgets::SliceDetailsPanel*>();
        QVERIFY(details);
        const QString text = details->plainText();
        QVERIFY2(text.contains(QStringLiteral("GFLOP")) && text.contains(QStringLiteral("% of roofline")),
            qPrintable(text.right(400)));
    }
};

KS_TEST_MAIN(tst_efficiency_dock, TestEfficiencyDock)
#include "tst_efficiency_dock.moc"
