// MainWindow: the Memory Snapshot view. Its widget lives in widgets/memory_snapshot/
// and its row in view_registry.cpp; here a .pickle given to openPaths() (the
// command line, File > Open, Open Recent, a drop) goes to it instead of the
// trace loader, "Compare with…" asks for the second file, and what fails is
// said on the message bar, naming the file. The trace the window shows is
// handed to the view (every rank: it aligns with the rank the snapshot fits,
// or the one chosen in its Steps tab) so that it aligns the snapshot with
// it, in either order of opening; a range chosen in its Steps tab zooms the
// timeline to it.
#include "app/gui/main_window/main_window.h"
#include "app/gui/opening/recent_files.h"
#include "app/gui/session/trace_session.h"
#include "widgets/common/format.h"
#include "widgets/common/message_bar.h"
#include "widgets/common/view_navigator.h"
#include "widgets/memory_snapshot/active_memory_plot.h"
#include "widgets/memory_snapshot/snapshot_view.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QStatusBar>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace ks::app {

namespace {

    // A snapshot by its name, or by its first bytes: every pickle since
    // protocol 2 starts with PROTO (0x80) and its number; no trace does.
    bool isSnapshotFile(const QString& path)
    {
        const QFileInfo info(path);
        if (!info.isFile())
            return false;
        const QString suffix = info.suffix().toLower();
        if (suffix == QStringLiteral("pickle") || suffix == QStringLiteral("pkl"))
            return true;
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return false;
        const QByteArray head = file.read(2);
        return head.size() == 2 && quint8(head[0]) == 0x80 && head[1] >= 2 && head[1] <= 5;
    }

} // namespace

void MainWindow::setupSnapshot()
{
    m_snapshot = qobject_cast<widgets::SnapshotView*>(m_navigator->view(QStringLiteral("memorySnapshot")));
    Q_ASSERT(m_snapshot);
    m_snapshot->setObjectName(QStringLiteral("snapshotView"));
    connect(m_snapshot, &widgets::SnapshotView::compareRequested, this, &MainWindow::compareSnapshotDialog);
    auto failed = [this](const QString& message) {
        m_messages->showMessage(
            tr("Could not open the memory snapshot: %1").arg(message), widgets::MessageBar::Type::Error);
        statusBar()->clearMessage();
    };
    // Every rank: a snapshot is one process's, and the view finds which (or the user says).
    connect(m_session, &TraceSession::loaded, m_snapshot, &widgets::SnapshotView::setTrace);
    connect(m_snapshot, &widgets::SnapshotView::rangeActivated, this, [this](qint64 start, qint64 end) {
        if (!traceSet() || traceSet()->ranks.empty())
            return;
        const core::TimeNs margin = std::max<core::TimeNs>((end - start) / 20, 1000);
        auto zoom = [this, range = widgets::TimeRange { start - margin, end + margin }] {
            m_timelineState->setVisibleRange(range, widgets::TimelineViewState::History::Record);
        };
        // A timeline still building resets its view when done: zoom after that.
        if (m_timeline->isPreparing())
            connect(m_timeline, &widgets::TimelineWidget::dataChanged, this, zoom, Qt::SingleShotConnection);
        else
            zoom();
    });
    connect(m_snapshot, &widgets::SnapshotView::failed, this, failed);
    connect(m_snapshot, &widgets::SnapshotView::comparisonFailed, this, failed);
    connect(m_snapshot, &widgets::SnapshotView::loaded, this, [this] {
        growSnapshotView();
        statusBar()->showMessage(tr("Loaded %1").arg(widgets::displayName(m_snapshot->path())), 5000);
    });
    // The picture is complete once nothing of the snapshot computes any more (screenshots wait for it).
    for (auto signal : { &widgets::SnapshotView::stateShown, &widgets::SnapshotView::comparisonShown,
             &widgets::SnapshotView::stepsShown }) {
        connect(m_snapshot, signal, this, [this] {
            if (!m_snapshot->isBusy() && !m_loader->isLoading())
                emit viewReady();
        });
    }
    for (auto signal : { &widgets::SnapshotView::failed, &widgets::SnapshotView::comparisonFailed }) {
        connect(m_snapshot, signal, this, [this] {
            if (!m_snapshot->isBusy() && !m_loader->isLoading())
                emit viewReady();
        });
    }
}

void MainWindow::whenSnapshotShown(std::function<void()> then)
{
    // One context object per wait, so that the read's outcome, whichever it is, ends both
    // connections: a failed read must not leave `then` for the next snapshot opened.
    auto* wait = new QObject(this);
    const auto done = [this, wait] {
        m_snapshot->disconnect(wait);
        wait->deleteLater();
    };
    connect(m_snapshot, &widgets::SnapshotView::loaded, wait, [done, then = std::move(then)] {
        done();
        then();
    });
    connect(m_snapshot, &widgets::SnapshotView::failed, wait, [done] { done(); });
}

QStringList MainWindow::openSnapshots(const QStringList& given)
{
    QStringList paths;
    QStringList others;
    for (const QString& path : given)
        (isSnapshotFile(path) ? paths : others) << path;
    if (paths.isEmpty())
        return others;
    if (paths.size() > 2)
        m_messages->showMessage(tr("Opened %1 and compared it with %2; a third snapshot is not compared.")
                                    .arg(widgets::displayName(paths[0]), widgets::displayName(paths[1])),
            widgets::MessageBar::Type::Information);
    showSnapshotView();
    statusBar()->showMessage(tr("Loading %1…").arg(widgets::displayName(paths[0])));
    m_snapshot->openSnapshot(paths[0]);
    if (paths.size() >= 2)
        whenSnapshotShown([this, other = paths[1]] { m_snapshot->compareWith(other); });
    m_recent->add(paths);
    return others; // a trace beside the snapshot: the loader opens it, the view aligns the two
}

void MainWindow::showSnapshotView()
{
    showView(QStringLiteral("memorySnapshot"));
    growSnapshotView();
}

void MainWindow::growSnapshotView()
{
    if (m_loader->isLoading() || (traceSet() && !traceSet()->ranks.empty())) {
        // Most of the height, as much as the timeline's minimum leaves (again once loaded: the
        // first layout may not be done).
        const int belowMenu = height() - menuBar()->sizeHint().height() - statusBar()->sizeHint().height();
        resizeDocks({ m_navigatorDock }, { belowMenu * 4 / 5 }, Qt::Vertical);
        return;
    }
    enterSnapshotLayout();
}

void MainWindow::enterSnapshotLayout()
{
    if (!m_stateBeforeJob.isEmpty() || m_navigatorDock->isFloating()
        || dockWidgetArea(m_navigatorDock) == Qt::NoDockWidgetArea)
        return; // job mode's layout, or a navigator the user floated: theirs
    if (m_stateBeforeSnapshot.isEmpty()) {
        m_stateBeforeSnapshot = saveState(kStateVersion);
        for (QDockWidget* dock : m_panelDocks)
            dock->hide();
        // The welcome page's least height (its recent files) would hold the view down.
        m_pages->hide();
        m_navigatorDock->show();
    }
    // Every pixel the central bars leave; the layout clamps it. Asked again once laid out: a
    // restored or default layout applied after this call (first show) would undo it.
    const auto fill = [this] {
        if (m_stateBeforeSnapshot.isEmpty())
            return;
        const bool vertical = dockWidgetArea(m_navigatorDock) == Qt::BottomDockWidgetArea
            || dockWidgetArea(m_navigatorDock) == Qt::TopDockWidgetArea;
        resizeDocks(
            { m_navigatorDock }, { vertical ? height() : width() }, vertical ? Qt::Vertical : Qt::Horizontal);
    };
    fill();
    QTimer::singleShot(0, this, fill);
}

void MainWindow::leaveSnapshotLayout()
{
    if (m_stateBeforeSnapshot.isEmpty())
        return;
    m_pages->show();
    restoreState(m_stateBeforeSnapshot, kStateVersion);
    m_stateBeforeSnapshot.clear();
}

void MainWindow::compareSnapshotDialog()
{
    const QString file = QFileDialog::getOpenFileName(this, tr("Compare with Memory Snapshot"),
        QFileInfo(m_snapshot->path()).absolutePath(),
        tr("PyTorch memory snapshots (*.pickle *.pkl);;All files (*)"));
    if (file.isEmpty())
        return;
    m_snapshot->compareWith(file);
}

bool MainWindow::applySnapshotViewCommand(const QString& key, const QString& value)
{
    const QStringList keys { QStringLiteral("snapshotrow"), QStringLiteral("snapshotzoom"),
        QStringLiteral("snapshotrange"), QStringLiteral("snapshottab") };
    if (!keys.contains(key))
        return false;
    // Given with the file (--view), a command arrives before the snapshot is read, and reading
    // it shows its last event on the whole axis: each waits for it, then applies.
    if (m_snapshot->isReading()) {
        whenSnapshotShown([this, key, value] { applySnapshotViewCommand(key, value); });
        return true;
    }
    if (key == QStringLiteral("snapshotrow")) {
        m_snapshot->selectRow(value.toInt());
        return true;
    }
    if (key == QStringLiteral("snapshotzoom")) { // FIRST:LAST, in memory_viz steps
        m_snapshot->plot()->setVisibleSteps(value.section(QLatin1Char(':'), 0, 0).toDouble(),
            value.section(QLatin1Char(':'), 1, 1).toDouble());
        return true;
    }
    if (key == QStringLiteral("snapshotrange")) { // an index into the alignment's ranges, once aligned
        const auto range = value.toULongLong();
        if (m_snapshot->steps()) {
            m_snapshot->selectRange(range);
            return true;
        }
        // stepsShown also says "no trace yet": wait for the alignment itself.
        auto pending = std::make_shared<QMetaObject::Connection>();
        *pending = connect(m_snapshot, &widgets::SnapshotView::stepsShown, this, [this, range, pending] {
            if (!m_snapshot->steps())
                return;
            disconnect(*pending);
            m_snapshot->selectRange(range);
        });
        return true;
    }
    m_snapshot->showTab(value); // snapshottab
    return true;
}

} // namespace ks::app
