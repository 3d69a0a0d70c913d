// The Memory Snapshot view in the window (app/gui/main_window/main_window_snapshot.cpp):
// without a trace it fills the window whatever the saved layout (a first start, and one
// whose saved state and recent files make the welcome page tall); a trace opened after it
// brings the timeline and its panels back, as they were. The view commands given with the
// file (--view, as the screenshots are made) wait for it to be read, and go with a read that fails.
#include "app/gui/main_window/main_window.h"
#include "tests/support/pickle_writer.h"
#include "tests/support/test_main.h"
#include "tests/support/trace_fixtures.h"
#include "widgets/memory_snapshot/active_memory_plot.h"
#include "widgets/memory_snapshot/snapshot_view.h"

#include <QDockWidget>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>

using ks::app::MainWindow;
using ks::test::Py;

namespace {

// A snapshot of one device: `allocations` allocations, none freed.
QString writeSnapshot(const QTemporaryDir& dir, int allocations = 3)
{
    std::vector<Py> events;
    for (int i = 0; i < allocations; ++i)
        events.push_back(Py::dict({ { "action", Py::str("alloc") }, { "addr", Py::integer(0x1000 * (i + 1)) },
            { "size", Py::integer(1024 * (i + 1)) }, { "stream", Py::integer(0) }, { "frames", Py::list({}) },
            { "time_us", Py::integer(1000 + i) } }));
    const Py value = Py::dict(
        { { "segments", Py::list({}) }, { "device_traces", Py::list({ Py::list(std::move(events)) }) } });
    const QString path = dir.filePath(QStringLiteral("snap.pickle"));
    std::ofstream(path.toStdString(), std::ios::binary) << ks::test::pickleOf(value);
    return path;
}

bool openSnapshot(MainWindow& window, const QString& path)
{
    QSignalSpy loaded(window.snapshotView(), &ks::widgets::SnapshotView::loaded);
    window.openPaths({ path });
    return loaded.wait(30000);
}

// The height under the menu bar and over the status bar.
int bodyHeight(const MainWindow& window)
{
    return window.height() - window.menuBar()->height() - window.statusBar()->height();
}

QDockWidget* dock(const MainWindow& window, const char* name)
{
    return window.findChild<QDockWidget*>(QLatin1String(name));
}

} // namespace

class TestSnapshotWindow : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;
    QTemporaryDir m_dir;

    void checkFills(MainWindow& window)
    {
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(openSnapshot(window, writeSnapshot(m_dir)));
        QTest::qWait(50); // the layout's second pass
        QVERIFY2(window.navigatorDock()->height() >= bodyHeight(window) - 40,
            qPrintable(
                QStringLiteral("%1 of %2").arg(window.navigatorDock()->height()).arg(bodyHeight(window))));
        QVERIFY(window.navigatorDock()->width() >= window.width() - 10);
        // The timeline's panels, empty without a trace, out of the way.
        QVERIFY(!dock(window, "detailsDock")->isVisible());
        QVERIFY(!dock(window, "searchDock")->isVisible());
    }

private slots:

    void initTestCase()
    {
        QVERIFY(m_settingsDir.isValid());
        QVERIFY(m_dir.isValid());
        ks::test::useTestSettings(m_settingsDir, QStringLiteral("tst_snapshot_window"));
        QSettings().clear();
    }

    void viewCommandsWaitForTheSnapshot()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy loaded(window.snapshotView(), &ks::widgets::SnapshotView::loaded);
        window.openPaths({ writeSnapshot(m_dir, 40) });
        QVERIFY(window.snapshotView()->isReading());
        // As main() applies --view: at once, before the snapshot is read.
        window.applyViewCommands(QStringLiteral("snapshotzoom=10:30;snapshotrow=12;snapshottab=events"));
        QVERIFY(loaded.count() > 0 || loaded.wait(30000));
        // Read, it shows its last event on the whole axis; the commands came after that.
        QCOMPARE(window.snapshotView()->selectedRow(), 12);
        QCOMPARE(window.snapshotView()->plot()->selectedRow(), 12);
        QCOMPARE(window.snapshotView()->plot()->visibleSteps(), std::make_pair(10.0, 30.0));
        QCOMPARE(window.snapshotView()->tabs()->currentWidget(), window.snapshotView()->tabs()->widget(1));
        QTRY_VERIFY_WITH_TIMEOUT(
            window.snapshotView()->stateText().contains(QStringLiteral("event 12")), 30000);
        // Once read, a command applies at once.
        window.applyViewCommands(QStringLiteral("snapshotrow=5"));
        QCOMPARE(window.snapshotView()->selectedRow(), 5);
        window.close();
    }

    // A command given with a snapshot that cannot be read is dropped with it: it must not
    // apply to the next snapshot opened.
    void viewCommandsOfAFailedReadAreDropped()
    {
        MainWindow window;
        window.resize(1280, 800);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const QString broken = m_dir.filePath(QStringLiteral("broken.pickle"));
        std::ofstream(broken.toStdString(), std::ios::binary) << "not a pickle";
        QSignalSpy failed(window.snapshotView(), &ks::widgets::SnapshotView::failed);
        window.openPaths({ broken });
        QVERIFY(window.snapshotView()->isReading());
        window.applyViewCommands(QStringLiteral("snapshotrow=12;snapshotzoom=10:30"));
        QVERIFY(failed.count() > 0 || failed.wait(30000));

        QVERIFY(openSnapshot(window, writeSnapshot(m_dir, 40)));
        QTest::qWait(50); // a command left connected would have run at `loaded`
        QVERIFY(window.snapshotView()->selectedRow() != 12);
        QVERIFY(window.snapshotView()->plot()->visibleSteps() != std::make_pair(10.0, 30.0));
        window.close();
    }

    void fillsTheWindowWithoutATrace()
    {
        // A first start: no saved layout.
        {
            MainWindow window;
            checkFills(window);
            if (QTest::currentTestFailed())
                return;
            // A trace opened after it: the timeline and its panels back.
            const QString trace = m_dir.filePath(QStringLiteral("rank0.json"));
            QVERIFY(ks::test::writeFile(trace, ks::test::tinyTrace(0, 1)));
            QSignalSpy ended(&window, &MainWindow::loadEnded);
            window.openPaths({ trace });
            QVERIFY(!window.isLoading() || ended.wait(60000));
            QVERIFY(dock(window, "detailsDock")->isVisible());
            QVERIFY(dock(window, "searchDock")->isVisible());
            QVERIFY(window.navigatorDock()->height() < bodyHeight(window) * 9 / 10);
            window.close(); // saves the layout and the recent files
        }
        // Saved settings (the layout with the timeline, two recent files on the welcome page).
        QVERIFY(QSettings().allKeys().size() > 0);
        MainWindow window;
        checkFills(window);
        window.close();
        // What it saved is the layout from before the snapshot hid the panels.
        MainWindow again;
        again.resize(1280, 800);
        again.show();
        QVERIFY(QTest::qWaitForWindowExposed(&again));
        QVERIFY(dock(again, "detailsDock")->isVisible());
    }
};

KS_TEST_MAIN(tst_snapshot_window, TestSnapshotWindow)
#include "tst_snapshot_window.moc"
