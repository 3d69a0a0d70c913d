#include "app/gui/command_line.h"
#include "app/gui/dialogs/shortcuts_dialog.h"
#include "app/gui/main_window/main_window.h"
#include "app/gui/opening/load_controller.h"
#include "app/gui/opening/load_progress_bar.h"
#include "app/gui/opening/recent_files.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/common/diagnostics_model.h"
#include "widgets/common/diagnostics_panel.h"
#include "widgets/common/message_bar.h"
#include "widgets/common/rank_summary_model.h"
#include "widgets/common/trace_set_summary_view.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QDropEvent>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QPointer>
#include <QScreen>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <QUrl>

using ks::app::MainWindow;
using ks::widgets::MessageBar;
using ks::widgets::RankSummaryModel;

namespace {

constexpr int kLoadTimeoutMs = 60'000;

bool waitForLoad(MainWindow& window)
{
    if (!window.isLoading())
        return true;
    QSignalSpy ended(&window, &MainWindow::loadEnded);
    return ended.wait(kLoadTimeoutMs);
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    QTemporaryDir m_dir;

    QString writeRankFolder(const QString& name, int ranks, int corruptRank = -1)
    {
        const QString folder = m_dir.filePath(name);
        QDir().mkpath(folder);
        for (int r = 0; r < ranks; ++r) {
            const QByteArray bytes = r == corruptRank
                ? QByteArrayLiteral("{\"traceEvents\": [ {\"ph\": \"X\", \"na")
                : ks::test::tinyTrace(r, ranks);
            if (!ks::test::writeFile(folder + QStringLiteral("/rank-%1.json").arg(r), bytes))
                return {};
        }
        return folder;
    }

private slots:

    void initTestCase()
    {
        QVERIFY(m_settingsDir.isValid());
        QVERIFY(m_dir.isValid());
        ks::test::useTestSettings(m_settingsDir, QStringLiteral("tst_main_window"));
    }

    void init() { QSettings().clear(); }

    void opensCommandLinePaths()
    {
        const QString folder = writeRankFolder(QStringLiteral("cli"), 2);
        QVERIFY(!folder.isEmpty());
        const QStringList files { folder + QStringLiteral("/rank-0.json"),
            folder + QStringLiteral("/rank-1.json") };
        ks::app::GuiOptions options;
        QString error;
        QVERIFY(ks::app::parseGuiCommandLine(
            { QStringLiteral("kinetoscope"), files[0], files[1] }, options, error));
        QCOMPARE(options.paths, files);
        QVERIFY(options.screenshotPath.isEmpty());

        MainWindow window;
        window.openPaths(options.paths);
        QVERIFY(window.isLoading());
        QVERIFY(waitForLoad(window));
        QVERIFY(window.traceSet());
        QCOMPARE(window.summaryView()->rankModel()->rankRowCount(), 2);
        QCOMPARE(window.summaryView()->rankModel()->failureRowCount(), 0);
        QCOMPARE(window.windowTitle(), QStringLiteral("rank-0.json and rank-1.json — Kinetoscope"));
        QVERIFY(!window.messageBar()->isVisibleTo(&window));
        QVERIFY(!window.progressBar()->isVisibleTo(&window));
        QCOMPARE(window.recentFiles()->entries().size(), 1);
    }

    void hiddenScreenshotOption()
    {
        ks::app::GuiOptions options;
        QString error;
        QVERIFY(ks::app::parseGuiCommandLine(
            { QStringLiteral("kinetoscope"), QStringLiteral("--screenshot"), QStringLiteral("/tmp/x.png"),
                QStringLiteral("--window-size"), QStringLiteral("1400x900"), QStringLiteral("/a") },
            options, error));
        QCOMPARE(options.screenshotPath, QStringLiteral("/tmp/x.png"));
        QCOMPARE(options.windowSize, QSize(1400, 900));
        QCOMPARE(options.paths, QStringList { QStringLiteral("/a") });
        QVERIFY(!ks::app::parseGuiCommandLine(
            { QStringLiteral("kinetoscope"), QStringLiteral("--window-size"), QStringLiteral("big") },
            options, error));
        QVERIFY(!error.isEmpty());
    }

    void opensDroppedFolder()
    {
        const QString folder = writeRankFolder(QStringLiteral("dropped"), 3);
        QVERIFY(!folder.isEmpty());
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));

        QMimeData mime;
        mime.setUrls({ QUrl::fromLocalFile(folder) });
        const QPointF pos(window.width() / 2.0, window.height() / 2.0);
        QDragEnterEvent enter(pos.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent drop(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(&window, &drop);
        QVERIFY(drop.isAccepted());
        QVERIFY(window.isLoading());
        QVERIFY(waitForLoad(window));
        QCOMPARE(window.summaryView()->rankModel()->rankRowCount(), 3);
        QCOMPARE(window.currentPaths(), QStringList { folder });
        QCOMPARE(window.windowTitle(), QStringLiteral("dropped — Kinetoscope"));
    }

    void secondTraceOpensInANewWindow()
    {
        const QString first = writeRankFolder(QStringLiteral("first"), 2);
        const QString second = writeRankFolder(QStringLiteral("second"), 1);
        MainWindow window;
        window.show();
        window.openPaths({ first });
        QVERIFY(waitForLoad(window));
        QCOMPARE(window.windowTitle(), QStringLiteral("first — Kinetoscope"));

        // Ctrl+drop keeps this trace and opens the dropped one beside it.
        QMimeData mime;
        mime.setUrls({ QUrl::fromLocalFile(second) });
        const QPointF pos(window.width() / 2.0, window.height() / 2.0);
        QDragEnterEvent enter(pos.toPoint(), Qt::CopyAction, &mime, Qt::LeftButton, Qt::ControlModifier);
        QCoreApplication::sendEvent(&window, &enter);
        QDropEvent drop(pos, Qt::CopyAction, &mime, Qt::LeftButton, Qt::ControlModifier);
        QCoreApplication::sendEvent(&window, &drop);
        QVERIFY(drop.isAccepted());
        QVERIFY(!window.isLoading());
        QCOMPARE(window.currentPaths(), QStringList { first });
        MainWindow* other = nullptr;
        for (QWidget* w : QApplication::topLevelWidgets())
            if (auto* m = qobject_cast<MainWindow*>(w); m && m != &window)
                other = m;
        QVERIFY(other);
        QVERIFY(other->testAttribute(Qt::WA_DeleteOnClose));
        QVERIFY(waitForLoad(*other));
        QCOMPARE(other->windowTitle(), QStringLiteral("second — Kinetoscope"));
        QCOMPARE(window.windowTitle(), QStringLiteral("first — Kinetoscope"));

        // File → New Window: an empty window; closing it deletes it.
        QPointer<MainWindow> empty = window.openInNewWindow({});
        QVERIFY(empty && !empty->traceSet());
        QCOMPARE(empty->windowTitle(), QStringLiteral("Kinetoscope"));
        other->close();
        empty->close();
        QTRY_VERIFY(!empty);
    }

    void ignoresDropsWithoutLocalFiles()
    {
        MainWindow window;
        QMimeData mime;
        mime.setText(QStringLiteral("not a file"));
        QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        enter.setAccepted(false);
        QCoreApplication::sendEvent(&window, &enter);
        QVERIFY(!enter.isAccepted());
        QVERIFY(!window.isLoading());
    }

    void corruptRankShowsTwoRanksAndOneError()
    {
        const QString folder = writeRankFolder(QStringLiteral("corrupt"), 3, 2);
        QVERIFY(!folder.isEmpty());
        MainWindow window;
        window.openPaths({ folder });
        QVERIFY(waitForLoad(window));
        QVERIFY(window.traceSet());
        const RankSummaryModel* model = window.summaryView()->rankModel();
        QCOMPARE(model->rankRowCount(), 2);
        QCOMPARE(model->failureRowCount(), 1);
        QCOMPARE(
            model->index(2, RankSummaryModel::FileColumn).data().toString(), QStringLiteral("rank-2.json"));
        QVERIFY(model->index(2, RankSummaryModel::StatusColumn).data(RankSummaryModel::FailedRole).toBool());
        QVERIFY(!model->index(2, RankSummaryModel::ErrorTextColumn).data().toString().isEmpty());
        // The error is in the non-modal message bar, naming the file.
        QVERIFY(window.messageBar()->isVisibleTo(&window));
        QCOMPARE(window.messageBar()->type(), MessageBar::Type::Warning);
        QVERIFY2(window.messageBar()->text().contains(QStringLiteral("rank-2.json")),
            qPrintable(window.messageBar()->text()));
        QVERIFY(window.messageBar()->text().contains(QStringLiteral("1 of 3 files")));
        QCOMPARE(
            window.diagnosticsPanel()->model()->count(ks::widgets::DiagnosticsModel::Severity::Error), 1);
    }

    void cancelMidLoadLeavesWindowUsable()
    {
        const QString big = m_dir.filePath(QStringLiteral("big.json"));
        QVERIFY(ks::test::writeBigTrace(big, 1'500'000)); // about 150 MB
        MainWindow window;
        QSignalSpy progress(window.loadController(), &ks::app::LoadController::progressChanged);
        window.openPaths({ big });
        QVERIFY(window.isLoading());
        QVERIFY(window.cancelAction()->isEnabled());
        QVERIFY(window.progressBar()->isVisibleTo(&window));
        // Wait until the core has really started reading, then cancel.
        QTRY_VERIFY_WITH_TIMEOUT(
            window.loadController()->status().bytesDone > 0 || !window.isLoading(), 30'000);
        if (!window.isLoading())
            QSKIP("This machine loaded 150 MB before the test could cancel");
        QVERIFY(window.progressBar()->text().contains(QStringLiteral("big.json")));
        window.cancelAction()->trigger();

        // Usable at once: not loading, a message saying so, nothing half-loaded shown.
        QVERIFY(!window.isLoading());
        QVERIFY(!window.cancelAction()->isEnabled());
        QVERIFY(!window.progressBar()->isVisibleTo(&window));
        QCOMPARE(window.messageBar()->type(), MessageBar::Type::Information);
        QVERIFY(window.messageBar()->text().contains(QStringLiteral("cancelled")));
        QVERIFY(!window.traceSet());

        // And it loads the next trace normally; the cancelled load's result never shows up.
        const QString folder = writeRankFolder(QStringLiteral("after-cancel"), 1);
        window.openPaths({ folder });
        QVERIFY(waitForLoad(window));
        QVERIFY(window.traceSet());
        QCOMPARE(window.summaryView()->rankModel()->rankRowCount(), 1);
        QTest::qWait(200);
        QCOMPARE(window.currentPaths(), QStringList { folder });
        QVERIFY(progress.count() > 0);
    }

    void failedOpenShowsErrorAndKeepsWindow()
    {
        MainWindow window;
        window.openPaths({ m_dir.filePath(QStringLiteral("does-not-exist.json")) });
        QVERIFY(waitForLoad(window));
        QVERIFY(window.messageBar()->isVisibleTo(&window));
        QCOMPARE(window.messageBar()->type(), MessageBar::Type::Error);
        QVERIFY(window.messageBar()->text().contains(QStringLiteral("does-not-exist.json")));
        QCOMPARE(window.windowTitle(), QStringLiteral("Kinetoscope"));
    }

    void recentFilesAreRememberedAndCapped()
    {
        {
            ks::app::RecentFiles recent;
            for (int i = 0; i < 12; ++i)
                recent.add({ QStringLiteral("/traces/job%1").arg(i) });
            recent.add({ QStringLiteral("/traces/job5") });
            QCOMPARE(recent.entries().size(), ks::app::RecentFiles::kMaxEntries);
            QCOMPARE(recent.entries().front(), QStringList { QStringLiteral("/traces/job5") });
        }
        ks::app::RecentFiles reloaded;
        QCOMPARE(reloaded.entries().size(), ks::app::RecentFiles::kMaxEntries);
        QCOMPARE(reloaded.entries().front(), QStringList { QStringLiteral("/traces/job5") });
        QCOMPARE(reloaded.entries()[1], QStringList { QStringLiteral("/traces/job11") });

        MainWindow window;
        auto* menu = window.findChild<QMenu*>(QStringLiteral("recentMenu"));
        QVERIFY(menu);
        // 10 entries, a separator, Clear Recent.
        QCOMPARE(menu->actions().size(), ks::app::RecentFiles::kMaxEntries + 2);
        QVERIFY(menu->actions().front()->text().contains(QStringLiteral("job5")));
    }

    // The first window fits its screen; on a laptop-sized one
    // (the offscreen screen is 800x600) it is maximised.
    void firstWindowFitsItsScreen()
    {
        MainWindow window;
        QVERIFY(!window.geometryRestored());
        const QRect available = window.screen()->availableGeometry();
        window.fitToScreen();
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        if (available.width() <= MainWindow::kSmallScreen.width()
            || available.height() <= MainWindow::kSmallScreen.height())
            QVERIFY(window.windowState() & Qt::WindowMaximized);
        QVERIFY(window.width() <= available.width() && window.height() <= available.height());
    }

    void docksAreRestorableFromViewMenu()
    {
        MainWindow window;
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QDockWidget* dock = window.navigatorDock();
        QVERIFY(dock->isVisible());
        dock->close();
        QVERIFY(!dock->isVisible());
        QAction* toggle = dock->toggleViewAction();
        QVERIFY(!toggle->shortcut().isEmpty());
        toggle->trigger();
        QVERIFY(dock->isVisible());
    }

    void shortcutsDialogListsMenuActions()
    {
        MainWindow window;
        ks::app::ShortcutsDialog dialog(window.menuBar());
        QStringList texts;
        for (QTreeWidgetItemIterator it(dialog.tree()); *it; ++it)
            texts.append((*it)->text(0) + QStringLiteral(" = ") + (*it)->text(1));
        const QString all = texts.join(QChar(u'\n'));
        QVERIFY2(all.contains(QStringLiteral("Open File… = Ctrl+O")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("Open Folder… = Ctrl+Shift+O")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("Cancel Loading = Esc")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("Full Screen = ")), qPrintable(all));
        // Submenus' keys too: the navigator's groups and the previous view.
        QVERIFY2(all.contains(QStringLiteral("Go to Group › Time = Ctrl+2")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("Go to Group › Diagnostics = Ctrl+8")), qPrintable(all));
        QVERIFY2(all.contains(QStringLiteral("Go to Group › Previous View = Ctrl+9")), qPrintable(all));
        // Every action of the File menu but Open Recent and Clear Recent has a key.
        for (const QAction* action : window.menuBar()->actions().front()->menu()->actions()) {
            if (!action->isSeparator() && !action->menu())
                QVERIFY2(!action->shortcuts().isEmpty(), qPrintable(action->text()));
        }
    }

    void opensRealTwoRankTrace()
    {
        const QString folder = QStringLiteral(KS_SHARED_DIR "/traces/two_ranks_sampled");
        if (!QFileInfo::exists(folder))
            QSKIP("The shared traces are absent: " KS_SHARED_DIR "/traces/two_ranks_sampled");
        MainWindow window;
        window.openPaths({ folder });
        QVERIFY(waitForLoad(window));
        QVERIFY2(window.traceSet(), qPrintable(window.messageBar()->text()));
        const RankSummaryModel* model = window.summaryView()->rankModel();
        QCOMPARE(model->rankRowCount(), 2);
        QCOMPARE(model->failureRowCount(), 0);
        QCOMPARE(
            model->index(0, RankSummaryModel::RankColumn).data(RankSummaryModel::SortRole).toLongLong(), 0);
        QCOMPARE(
            model->index(1, RankSummaryModel::RankColumn).data(RankSummaryModel::SortRole).toLongLong(), 1);
        QCOMPARE(
            model->index(0, RankSummaryModel::EventsColumn).data(RankSummaryModel::SortRole).toULongLong(),
            4855ull);
        QCOMPARE(
            model->index(1, RankSummaryModel::EventsColumn).data(RankSummaryModel::SortRole).toULongLong(),
            4720ull);
        QVERIFY(
            model->index(0, RankSummaryModel::GpuStreamsColumn).data(RankSummaryModel::SortRole).toInt() > 0);
    }
};

KS_TEST_MAIN(tst_main_window, TestMainWindow)
#include "tst_main_window.moc"
