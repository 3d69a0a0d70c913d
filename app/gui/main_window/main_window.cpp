#include "app/gui/main_window/main_window.h"

#include "app/gui/compare_window.h"
#include "app/gui/dialogs/shortcuts_dialog.h"
#include "app/gui/opening/load_progress_bar.h"
#include "app/gui/opening/recent_files.h"
#include "app/gui/views/welcome_page.h"
#include "widgets/common/diagnostics_panel.h"
#include "widgets/common/format.h"
#include "widgets/common/message_bar.h"
#include "widgets/common/task_pools.h"
#include "widgets/common/task_tracker.h"
#include "widgets/common/trace_set_summary_view.h"
#include "widgets/common/view_navigator.h"
#include "widgets/timeline/view/timeline_view.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QStyle>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>

#include <algorithm>

namespace ks::app {

namespace {

    const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
    const QString kStateKey = QStringLiteral("mainWindow/state");
    const QString kLastDirKey = QStringLiteral("mainWindow/lastDirectory");
    const QString kLabelWidthKey = QStringLiteral("timeline/labelWidth");

    // The local files and folders of a drag, in the order given.
    QStringList localPaths(const QMimeData* mime)
    {
        QStringList paths;
        if (!mime || !mime->hasUrls())
            return paths;
        for (const QUrl& url : mime->urls()) {
            if (url.isLocalFile() && QFileInfo::exists(url.toLocalFile()))
                paths.append(url.toLocalFile());
        }
        return paths;
    }

    // The platform's keys for a standard action, or the usual Linux key where the
    // platform theme binds none (Quit and FullScreen are unbound without a desktop theme).
    QList<QKeySequence> standardKeys(QKeySequence::StandardKey key, const QKeySequence& fallback)
    {
        QList<QKeySequence> keys = QKeySequence::keyBindings(key);
        if (keys.isEmpty())
            keys.append(fallback);
        return keys;
    }

    QAction* makeAction(QObject* parent, QStyle::StandardPixmap icon, const QString& text, const QString& tip)
    {
        auto* action = new QAction(QApplication::style()->standardIcon(icon), text, parent);
        action->setStatusTip(tip);
        return action;
    }

} // namespace

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
    , m_pools(std::make_unique<widgets::TaskPools>())
    , m_loader(new LoadController(m_pools.get(), this))
    , m_recent(new RecentFiles(this))
    , m_session(new TraceSession(m_pools.get(), this))
{
    setObjectName(QStringLiteral("mainWindow"));
    setAcceptDrops(true);
    setupActions();
    setupTimeline();
    setupCentralWidget();
    setupDocks();
    setupJobMode();
    setupMenus();
    setupConnections();
    m_defaultState = saveState(kStateVersion);
    restoreSettings();
    rebuildRecentMenu();
    updateTitle();
    updateActions();
}

MainWindow::~MainWindow() = default;

void MainWindow::setupActions()
{
    m_openFileAction = makeAction(this, QStyle::SP_DialogOpenButton, tr("&Open File…"),
        tr("Open one or more trace files (.json, .json.gz) or a memory snapshot (.pickle)"));
    m_openFileAction->setShortcut(QKeySequence::Open);
    m_openFolderAction = makeAction(
        this, QStyle::SP_DirOpenIcon, tr("Open &Folder…"), tr("Open a folder with one trace file per rank"));
    m_openFolderAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    m_newWindowAction = new QAction(tr("&New Window"), this);
    m_newWindowAction->setShortcut(QKeySequence::New);
    m_newWindowAction->setStatusTip(tr("Open another window, to look at a second trace beside this one"));
    m_openInNewWindowAction = new QAction(tr("Open File in New &Window…"), this);
    m_openInNewWindowAction->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O));
    m_openInNewWindowAction->setStatusTip(
        tr("Open trace files in a window of their own (or drop them with Ctrl held)"));
    m_reloadAction =
        makeAction(this, QStyle::SP_BrowserReload, tr("&Reload"), tr("Load the open trace again from disk"));
    m_reloadAction->setShortcut(QKeySequence::Refresh);
    m_closeAction =
        makeAction(this, QStyle::SP_DialogCloseButton, tr("&Close Trace"), tr("Close the open trace"));
    m_closeAction->setShortcut(QKeySequence::Close);
    m_cancelAction =
        makeAction(this, QStyle::SP_BrowserStop, tr("C&ancel Loading"), tr("Stop the running load"));
    m_cancelAction->setShortcut(QKeySequence(Qt::Key_Escape));
    m_quitAction = makeAction(this, QStyle::SP_DialogCloseButton, tr("&Quit"), tr("Quit Kinetoscope"));
    m_quitAction->setShortcuts(standardKeys(QKeySequence::Quit, QKeySequence(Qt::CTRL | Qt::Key_Q)));
    m_quitAction->setMenuRole(QAction::QuitRole);
    m_clearRecentAction = new QAction(tr("Clear &Recent"), this);

    m_fullScreenAction = new QAction(tr("&Full Screen"), this);
    m_fullScreenAction->setShortcuts(standardKeys(QKeySequence::FullScreen, QKeySequence(Qt::Key_F11)));
    m_fullScreenAction->setCheckable(true);
    m_resetLayoutAction = new QAction(tr("&Reset Layout"), this);
    m_resetLayoutAction->setStatusTip(tr("Put the panels back where they were at first start"));

    m_shortcutsAction = new QAction(tr("&Keyboard Shortcuts"), this);
    m_shortcutsAction->setShortcuts({ QKeySequence(Qt::CTRL | Qt::Key_Slash), QKeySequence(Qt::Key_F1) });
    m_aboutAction = new QAction(tr("&About Kinetoscope"), this);
    m_aboutAction->setMenuRole(QAction::AboutRole);
    m_aboutQtAction = new QAction(tr("About &Qt"), this);
    m_aboutQtAction->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::setupMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_openFileAction);
    file->addAction(m_openFolderAction);
    // D1-D3: a window of its own, so the open trace stays where it is.
    QAction* compare = file->addAction(tr("&Compare Traces…"), this, [] {
        auto* window = new CompareWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        window->show();
    });
    // Ctrl+Shift+D already shows the import diagnostics.
    compare->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_D));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    file->addSeparator();
    file->addAction(m_newWindowAction);
    file->addAction(m_openInNewWindowAction);
    file->addSeparator();
    file->addAction(m_saveJobSummaryAction);
    file->addSeparator();
    file->addAction(m_reloadAction);
    file->addAction(m_closeAction);
    file->addAction(m_cancelAction);
    file->addSeparator();
    file->addAction(m_preferencesAction);
    QAction* quitSeparator = file->addSeparator();
    file->addAction(m_quitAction);

    m_viewMenu = menuBar()->addMenu(tr("&View"));
    setupTimelineActions(m_viewMenu, file, quitSeparator);
    m_viewMenu->addAction(m_navigatorDock->toggleViewAction());
    setupAnalysesMenu();
    m_viewMenu->addSeparator();
    m_viewMenu->addAction(m_fullScreenAction);
    m_viewMenu->addAction(m_resetLayoutAction);
    setupCommandPalette(m_viewMenu);

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_shortcutsAction);
    help->addSeparator();
    help->addAction(m_aboutAction);
    help->addAction(m_aboutQtAction);
}

void MainWindow::setupCentralWidget()
{
    m_messages = new widgets::MessageBar(this);
    m_progress = new LoadProgressBar(this);
    m_welcome = new WelcomePage(m_openFileAction, m_openFolderAction, this);
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_welcome);
    m_pages->addWidget(m_timeline);

    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    auto* bars = new QVBoxLayout;
    bars->setContentsMargins(8, 6, 8, 0);
    bars->setSpacing(6);
    bars->addWidget(m_messages);
    bars->addWidget(m_progress);
    layout->addLayout(bars);
    layout->addWidget(m_pages, 1);
    setCentralWidget(central);

    m_statusSummary = new QLabel(this);
    m_statusSummary->setObjectName(QStringLiteral("statusSummary"));
    statusBar()->addPermanentWidget(m_statusSummary);
}

void MainWindow::setupDocks()
{
    setupTimelineDocks();
    setupSession();
    // The registry makes every view of the navigator; the window then wires those it acts on.
    setupNavigator();
    findWindowViews();
    setupOverview();
    setupEfficiency();
    setupMemory();
    setupSnapshot();
    setupJobPathDock();
}

void MainWindow::setupConnections()
{
    connect(m_openFileAction, &QAction::triggered, this, &MainWindow::openFileDialog);
    connect(m_openFolderAction, &QAction::triggered, this, &MainWindow::openFolderDialog);
    connect(m_newWindowAction, &QAction::triggered, this, [this] { openInNewWindow({}); });
    connect(m_openInNewWindowAction, &QAction::triggered, this, [this] {
        const QStringList files =
            QFileDialog::getOpenFileNames(this, tr("Open Trace Files in New Window"), startDirectory(),
                tr("Kineto traces (*.json *.json.gz *.pt.trace.json *.pt.trace.json.gz);;"
                   "PyTorch memory snapshots (*.pickle *.pkl);;All files (*)"));
        if (files.isEmpty())
            return;
        rememberDirectory(files.front());
        openInNewWindow(files);
    });
    connect(m_reloadAction, &QAction::triggered, this, &MainWindow::reload);
    connect(m_closeAction, &QAction::triggered, this, &MainWindow::closeTrace);
    connect(m_cancelAction, &QAction::triggered, m_loader, &LoadController::cancel);
    connect(m_quitAction, &QAction::triggered, this, &QWidget::close);
    connect(m_clearRecentAction, &QAction::triggered, m_recent, &RecentFiles::clear);
    connect(m_fullScreenAction, &QAction::toggled, this, [this](bool on) {
        setWindowState(on ? windowState() | Qt::WindowFullScreen : windowState() & ~Qt::WindowFullScreen);
    });
    connect(m_resetLayoutAction, &QAction::triggered, this, &MainWindow::resetLayout);
    connect(m_shortcutsAction, &QAction::triggered, this, &MainWindow::showShortcuts);
    connect(m_aboutAction, &QAction::triggered, this, &MainWindow::showAbout);
    connect(m_aboutQtAction, &QAction::triggered, qApp, &QApplication::aboutQt);

    connect(m_recent, &RecentFiles::changed, this, &MainWindow::rebuildRecentMenu);
    connect(m_welcome, &WelcomePage::recentActivated, this, &MainWindow::openPaths);
    connect(m_progress, &LoadProgressBar::cancelRequested, m_loader, &LoadController::cancel);

    connect(m_loader, &LoadController::loadStarted, this, &MainWindow::onLoadStarted);
    connect(m_loader, &LoadController::progressChanged, m_progress, &LoadProgressBar::setStatus);
    connect(m_loader, &LoadController::loadFinished, this, &MainWindow::onLoadFinished);
    connect(m_loader, &LoadController::loadFailed, this, &MainWindow::onLoadFailed);
    connect(m_loader, &LoadController::loadCancelled, this, &MainWindow::onLoadCancelled);
    connect(m_loader, &LoadController::loadingChanged, this, &MainWindow::onLoadingChanged);
    connectTimeline();
}

void MainWindow::restoreSettings()
{
    QSettings settings;
    m_geometryRestored = restoreGeometry(settings.value(kGeometryKey).toByteArray());
    if (!m_geometryRestored)
        resize(1280, 800); // main() fits the first window to its screen (fitToScreen)
    restoreNavigator(settings); // torn-off views move to their docks before the docks are placed
    m_layoutRestored = restoreState(settings.value(kStateKey).toByteArray(), kStateVersion);
    for (const QString& id : m_navigator->viewIds()) {
        if (m_navigator->isTornOff(id) && m_viewDocks.value(id)->isHidden())
            returnView(id);
    }
    if (const QVariant w = settings.value(kLabelWidthKey); w.isValid())
        m_timeline->view()->setLabelWidth(w.toInt());
}

void MainWindow::fitToScreen()
{
    // The first window fits the screen it opens on: maximised
    // on a laptop-sized screen, where every pixel is needed; elsewhere a
    // comfortable size, centred, that leaves the desktop visible around it.
    const QScreen* shown = screen() ? screen() : QGuiApplication::primaryScreen();
    if (!shown) {
        resize(1280, 800);
        return;
    }
    const QRect available = shown->availableGeometry();
    if (available.width() <= kSmallScreen.width() || available.height() <= kSmallScreen.height()) {
        resize(available.size());
        setWindowState(windowState() | Qt::WindowMaximized);
        return;
    }
    const QSize size(std::min(available.width() * 9 / 10, 1800), std::min(available.height() * 9 / 10, 1100));
    resize(size);
    move(available.center() - QPoint(size.width() / 2, size.height() / 2));
}

void MainWindow::saveSettings() const
{
    QSettings settings; // saveNavigator writes into it too
    settings.setValue(kGeometryKey, saveGeometry());
    // In job mode the docks are hidden for the strips: remember them as they were.
    // ... and without a trace the snapshot's: the docks as they were before it hid them.
    settings.setValue(kStateKey,
        !m_stateBeforeJob.isEmpty()            ? m_stateBeforeJob
            : !m_stateBeforeSnapshot.isEmpty() ? m_stateBeforeSnapshot
                                               : saveState(kStateVersion));
    settings.setValue(kLabelWidthKey, m_timeline->view()->labelWidth());
    saveNavigator(settings);
}

void MainWindow::resetLayout()
{
    m_stateBeforeSnapshot.clear();
    m_pages->show();
    for (const QString& id : m_navigator->viewIds())
        returnView(id);
    restoreState(m_defaultState, kStateVersion);
    for (QDockWidget* dock : m_panelDocks)
        dock->show();
    m_navigatorDock->show();
    applyDefaultDockSizes();
}

void MainWindow::showEvent(QShowEvent* event)
{
    QMainWindow::showEvent(event);
    if (m_shownOnce)
        return;
    m_shownOnce = true;
    // Dock sizes only hold once the window has its real size.
    if (!m_layoutRestored)
        QTimer::singleShot(0, this, &MainWindow::applyDefaultDockSizes);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    m_loader->cancel();
    saveSettings();
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (!localPaths(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dragMoveEvent(QDragMoveEvent* event)
{
    if (!localPaths(event->mimeData()).isEmpty())
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QStringList paths = localPaths(event->mimeData());
    if (paths.isEmpty())
        return;
    event->acceptProposedAction();
    // Ctrl+drop onto a window showing a trace keeps it: the drop opens beside it.
    if ((event->modifiers() & Qt::ControlModifier) && traceSet())
        openInNewWindow(paths);
    else
        openPaths(paths);
}

MainWindow* MainWindow::openInNewWindow(const QStringList& paths)
{
    auto* window = new MainWindow;
    window->setAttribute(Qt::WA_DeleteOnClose);
    // Cascaded, so the new window does not hide exactly behind or over this one.
    window->resize(size());
    window->move(pos() + QPoint(32, 32));
    window->show();
    window->openPaths(paths);
    return window;
}

QString MainWindow::startDirectory() const
{
    if (!m_paths.isEmpty())
        return QFileInfo(m_paths.front()).absolutePath();
    return QSettings().value(kLastDirKey, QDir::homePath()).toString();
}

void MainWindow::rememberDirectory(const QString& path)
{
    QSettings().setValue(kLastDirKey, QFileInfo(path).absolutePath());
}

void MainWindow::openFileDialog()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open Trace Files"), startDirectory(),
        tr("Kineto traces (*.json *.json.gz *.pt.trace.json *.pt.trace.json.gz);;"
           "PyTorch memory snapshots (*.pickle *.pkl);;All files (*)"));
    if (files.isEmpty())
        return;
    rememberDirectory(files.front());
    openPaths(files);
}

void MainWindow::openFolderDialog()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Open Trace Folder"), startDirectory());
    if (folder.isEmpty())
        return;
    rememberDirectory(folder);
    openPaths({ folder });
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QList<QStringList> entries = m_recent->entries();
    for (int i = 0; i < entries.size(); ++i) {
        const QStringList paths = entries[i];
        // &1 … &9, then &0: each entry is one keystroke away once the menu is open.
        const QString label = i < 10
            ? QStringLiteral("&%1  %2").arg((i + 1) % 10).arg(widgets::displayNames(paths))
            : widgets::displayNames(paths);
        QAction* action = m_recentMenu->addAction(label);
        action->setToolTip(QDir::toNativeSeparators(paths.join(QChar(u'\n'))));
        action->setStatusTip(QDir::toNativeSeparators(paths.join(QStringLiteral(", "))));
        connect(action, &QAction::triggered, this, [this, paths] { openPaths(paths); });
    }
    if (!entries.isEmpty())
        m_recentMenu->addSeparator();
    m_recentMenu->addAction(m_clearRecentAction);
    m_recentMenu->setToolTipsVisible(true);
    m_clearRecentAction->setEnabled(!entries.isEmpty());
    m_welcome->setRecent(entries);
}

void MainWindow::showShortcuts()
{
    if (!m_shortcutsDialog) {
        m_shortcutsDialog = new ShortcutsDialog(menuBar(), this);
        m_shortcutsDialog->setAttribute(Qt::WA_DeleteOnClose);
    }
    m_shortcutsDialog->show();
    m_shortcutsDialog->raise();
    m_shortcutsDialog->activateWindow();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Kinetoscope"),
        tr("<h3>Kinetoscope %1</h3>"
           "<p>A fast desktop viewer for PyTorch profiler (Kineto) traces: one file per rank, "
           "a folder per job, any size.</p>"
           "<p>Built with Qt %2.</p>")
            .arg(QCoreApplication::applicationVersion(), QString::fromLatin1(qVersion())));
}

} // namespace ks::app
