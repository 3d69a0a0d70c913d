// The command palette (Ctrl+K, Ctrl+Shift+P) finds menu
// actions, views, ranks and iterations by a few letters and runs them; on the
// real H100 trace (one rank, ProfilerStep#6).
#include "app/gui/main_window/main_window.h"
#include "tests/support/test_main.h"
#include "widgets/common/command_palette.h"
#include "widgets/common/view_navigator.h"
#include "widgets/diff/iteration_alignment.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QFileInfo>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace ks;

class TestCommandPalette : public QObject
{
    Q_OBJECT

private slots:

    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void scoresPreferWordsAsTyped()
    {
        QCOMPARE(widgets::paletteScore(QStringLiteral("Idle Time"), QStringLiteral("xyz")), -1);
        QVERIFY(widgets::paletteScore(QStringLiteral("Analyses › Idle Time"), QStringLiteral("idle")) >= 0);
        QVERIFY(
            widgets::paletteScore(QStringLiteral("Analyses › Kernel Launches"), QStringLiteral("kl")) >= 0);
        // A phrase typed as written beats scattered letters.
        QVERIFY(widgets::paletteScore(QStringLiteral("Analyses › Idle Time"), QStringLiteral("idle"))
            > widgets::paletteScore(
                QStringLiteral("File › Open Folder in a Different Location"), QStringLiteral("idle")));
    }

    void findsAndRunsViewsRanksAndIterations()
    {
        const QString trace = QStringLiteral(KS_SHARED_DIR "/traces/h100_qwen05b");
        if (!QFileInfo::exists(trace))
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/h100_qwen05b");
        app::MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy ready(&window, &app::MainWindow::viewReady);
        window.openPaths({ trace });
        QVERIFY(ready.wait(120000));

        // Ctrl+K opens it over everything there is to do.
        QTest::keyClick(&window, Qt::Key_K, Qt::ControlModifier);
        widgets::CommandPalette* palette = window.commandPalette();
        QVERIFY(palette && palette->isVisible());
        const QStringList all = palette->shownTexts();
        for (const QString& wanted :
            { QStringLiteral("Analyses › Idle Time"), QStringLiteral("File › Open File…"),
                QStringLiteral("Rank 0"), QStringLiteral("Iteration 6") })
            QVERIFY2(all.contains(wanted), qPrintable(wanted));

        // "idle t" selects the Idle Time view; Enter shows it in the navigator.
        QTest::keyClicks(palette->field(), QStringLiteral("idle t"));
        QCOMPARE(palette->shownTexts().value(0), QStringLiteral("Analyses › Idle Time"));
        QTest::keyClick(palette->field(), Qt::Key_Return);
        QVERIFY(!palette->isVisible());
        QCOMPARE(window.navigator()->currentView(), QStringLiteral("idle"));

        // Ctrl+Shift+P, "iteration 6": the timeline shows that step.
        QTest::keyClick(&window, Qt::Key_P, Qt::ControlModifier | Qt::ShiftModifier);
        QVERIFY(palette->isVisible());
        QTest::keyClicks(palette->field(), QStringLiteral("iteration 6"));
        QCOMPARE(palette->shownTexts().value(0), QStringLiteral("Iteration 6"));
        palette->runSelected();
        const auto data = window.timeline()->data();
        const auto start = widgets::iterationStart(data->trace(0), 6);
        const auto end = widgets::iterationEnd(data->trace(0), 6);
        QVERIFY(start && end);
        QCOMPARE(window.timelineState()->visibleRange().start, *start);
        QCOMPARE(window.timelineState()->visibleRange().end, *end);
    }
};

KS_TEST_MAIN(tst_command_palette, TestCommandPalette)
#include "tst_command_palette.moc"
