#pragma once

#include "app/gui/load_controller.h"

#include <QMainWindow>
#include <QPointer>
#include <QStringList>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;

namespace ks::widgets {
class DiagnosticsPanel;
class MessageBar;
class TraceSetSummaryView;
} // namespace ks::widgets

namespace ks::app {

class LoadProgressBar;
class RecentFiles;
class ShortcutsDialog;
class WelcomePage;

// The Kinetoscope window: menus, docks, settings and user messages around the
// views of the widgets library. Opens traces from the File menu, the command
// line, Open Recent and drag and drop, all through openPaths(); loading runs in
// LoadController, never on this thread.
class MainWindow : public QMainWindow
{
    Q_OBJECT

public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Opens files and folders together as one trace set (a folder = one file per rank).
    void openPaths(const QStringList& paths);
    void closeTrace();

    TraceSetPtr traceSet() const { return m_set; }

    QStringList currentPaths() const { return m_paths; }

    bool isLoading() const;

    LoadController* loadController() const { return m_loader; }

    RecentFiles* recentFiles() const { return m_recent; }

    widgets::TraceSetSummaryView* summaryView() const { return m_summary; }

    widgets::DiagnosticsPanel* diagnosticsPanel() const { return m_diagnostics; }

    widgets::MessageBar* messageBar() const { return m_messages; }

    LoadProgressBar* progressBar() const { return m_progress; }

    QDockWidget* diagnosticsDock() const { return m_diagnosticsDock; }

    QAction* cancelAction() const { return m_cancelAction; }

signals:
    // A load ended: finished (views updated), failed or cancelled.
    void loadEnded();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void setupActions();
    void setupMenus();
    void setupCentralWidget();
    void setupDocks();
    void setupConnections();
    void restoreSettings();
    void saveSettings() const;

    void openFileDialog();
    void openFolderDialog();
    void reload();
    void rebuildRecentMenu();
    void showAbout();
    void showShortcuts();
    void resetLayout();

    void onLoadStarted(const QStringList& paths);
    void onLoadFinished(const TraceSetPtr& set, const QStringList& paths, qint64 elapsedMs);
    void onLoadFailed(const QString& message, const QStringList& paths);
    void onLoadCancelled(const QStringList& paths);
    void onLoadingChanged(bool loading);
    void reportFailures(const core::TraceSet& set);
    void updateTitle();
    void updateActions();
    QString startDirectory() const;
    void rememberDirectory(const QString& path);

    LoadController* m_loader = nullptr;
    RecentFiles* m_recent = nullptr;
    TraceSetPtr m_set;
    QStringList m_paths;

    widgets::MessageBar* m_messages = nullptr;
    LoadProgressBar* m_progress = nullptr;
    QStackedWidget* m_pages = nullptr;
    WelcomePage* m_welcome = nullptr;
    widgets::TraceSetSummaryView* m_summary = nullptr;
    widgets::DiagnosticsPanel* m_diagnostics = nullptr;
    QDockWidget* m_diagnosticsDock = nullptr;
    QLabel* m_statusSummary = nullptr;
    QPointer<ShortcutsDialog> m_shortcutsDialog;
    QByteArray m_defaultState;

    QAction* m_openFileAction = nullptr;
    QAction* m_openFolderAction = nullptr;
    QAction* m_reloadAction = nullptr;
    QAction* m_closeAction = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_quitAction = nullptr;
    QAction* m_clearRecentAction = nullptr;
    QAction* m_fullScreenAction = nullptr;
    QAction* m_resetLayoutAction = nullptr;
    QAction* m_showDiagnosticsAction = nullptr;
    QAction* m_shortcutsAction = nullptr;
    QAction* m_aboutAction = nullptr;
    QAction* m_aboutQtAction = nullptr;
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
};

} // namespace ks::app
