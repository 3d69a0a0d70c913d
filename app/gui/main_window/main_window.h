#pragma once

#include "app/gui/opening/load_controller.h"
#include "app/gui/session/trace_session.h"
#include "core/analysis/efficiency/efficiency.h"
#include "core/summary/job_overview.h"

#include <QHash>
#include <QMainWindow>
#include <QPointer>
#include <QStringList>

#include <functional>
#include <memory>
#include <vector>

class QAction;
class QKeySequence;
class QModelIndex;
class QDockWidget;
class QLabel;
class QMenu;
class QSettings;
class QStackedWidget;

namespace ks::widgets {
class AnalysisTableView;
class JobModeView;
class AnalysisView;
class AnalysisChart;
enum class ChartFormat;
class DiagnosticsPanel;
class EfficiencyView;
class TaskPools;
class TaskTracker;
class JobPathPanel;
class OverviewPage;
class WhatIfDialog;
class MessageBar;
class RangeAggregationPanel;
class RankListPanel;
class SearchResultsPanel;
class SnapshotView;
class SliceDetailsPanel;
class TimelineViewState;
class TimelineWidget;
class TraceSetSummaryView;
class ViewNavigator;
class CommandPalette;
struct PaletteCommand;
} // namespace ks::widgets

namespace ks::app {

class JobSummaryLoader;
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
    // A second window (owned by itself, deleted when closed) opening `paths`
    // when given: two traces side by side.
    MainWindow* openInNewWindow(const QStringList& paths);

    TraceSetPtr traceSet() const { return m_session->traceSet(); }

    // The load's owner: its analyses, lanes and what-if.
    TraceSession* session() const { return m_session; }

    QStringList currentPaths() const { return m_paths; }

    bool isLoading() const;

    LoadController* loadController() const { return m_loader; }

    RecentFiles* recentFiles() const { return m_recent; }

    widgets::TraceSetSummaryView* summaryView() const { return m_summary; }

    widgets::DiagnosticsPanel* diagnosticsPanel() const { return m_diagnostics; }

    widgets::MessageBar* messageBar() const { return m_messages; }

    LoadProgressBar* progressBar() const { return m_progress; }

    // The analysis navigator: every view of viewSpecs(), grouped.
    widgets::ViewNavigator* navigator() const { return m_navigator; }

    QDockWidget* navigatorDock() const { return m_navigatorDock; }

    // The dock a view moves to when torn off the navigator (null for an unknown id).
    QDockWidget* viewDock(const QString& id) const { return m_viewDocks.value(id); }

    // Selects a view in the navigator (and shows the navigator), or raises its own
    // window when torn off. False for an unknown id.
    bool showView(const QString& id);
    // Moves a view out of the navigator into a floating dock of its own, and back.
    void tearOffView(const QString& id);
    void returnView(const QString& id);

    // The command palette (Ctrl+K, Ctrl+Shift+P); made on first use.
    void showCommandPalette();

    widgets::CommandPalette* commandPalette() const { return m_palette; }

    // What the palette offers now: menu actions, ranks, iterations.
    std::vector<widgets::PaletteCommand> paletteCommands() const;

    QAction* cancelAction() const { return m_cancelAction; }

    widgets::TimelineWidget* timeline() const { return m_timeline; }

    widgets::TimelineViewState* timelineState() const { return m_timelineState; }

    widgets::SliceDetailsPanel* detailsPanel() const { return m_details; }

    widgets::SearchResultsPanel* searchPanel() const { return m_searchResults; }

    widgets::RangeAggregationPanel* rangePanel() const { return m_range; }

    // Job mode (a .kssum, a folder of parts, or more ranks than Preferences allow).
    widgets::JobModeView* jobView() const { return m_jobView; }

    JobSummaryLoader* jobLoader() const { return m_jobLoader; }

    LoadController* jobRankLoader() const { return m_jobRankLoader; }

    bool inJobMode() const;

    QAction* saveJobSummaryAction() const { return m_saveJobSummaryAction; }

    // The analysis views of the navigator (C1), in viewSpecs() order.
    QList<widgets::AnalysisView*> analysisViews() const { return m_analysisViews; }

    QAction* htaCompatAction() const { return m_htaCompatAction; }

    QAction* restrictToRangeAction() const { return m_restrictToRangeAction; }

    // The analysis docks' lane is computing (the job path follows it).
    bool analysesRunning() const;
    // The job's critical path is computing, or waits for the docks' lane.
    bool jobPathRunning() const;

    AnalysisRunner* analysisRunner() const { return m_session->runner(); }

    widgets::JobPathPanel* jobPathPanel() const { return m_jobPath; }

    // The Overview page, the navigator's first view.
    widgets::OverviewPage* overviewPage() const { return m_overview; }

    // The Memory Snapshot view (main_window_snapshot.cpp): a .pickle opened from any path of openPaths().
    widgets::SnapshotView* snapshotView() const { return m_snapshot; }

    // The roofline view, a view of the navigator's Efficiency group.
    widgets::EfficiencyView* efficiencyView() const { return m_efficiency; }

    // A what-if recomputation is asked for or running (screenshots wait for it).
    bool whatIfRunning() const;
    // One line per analysis dock, then the Job Critical Path dock and the Rank
    // Overview's stragglers: "objectName<TAB>state<TAB>text", the state one of
    // result, not-applicable, not-computed, error, computing, message (hidden --dock-report).
    QStringList dockReport() const;

    // Hidden, for screenshots and demos: "range=10:12;search=nccl;select=kernel"
    // (see applyViewCommands in main_window_timeline.cpp).
    void applyViewCommands(const QString& commands);

    // The first window on a screen: maximised on a small screen
    // (up to kSmallScreen), else 90 % of it, centred. main() calls it when no
    // size was remembered or asked for.
    void fitToScreen();

    bool geometryRestored() const { return m_geometryRestored; }

    static constexpr QSize kSmallScreen { 1440, 900 };

    // Writes the visible timeline, as shown, to a PNG or SVG (by the extension).
    bool exportView(const QString& path);

signals:
    // A load ended: finished (views updated), failed or cancelled.
    void loadEnded();
    // Job mode shows a job read from its summary.
    void jobReady();
    // The full traces of ranks picked in job mode are shown (or failed, or were cancelled).
    void jobRanksLoaded();
    // The views are complete: the timeline of a loaded trace set is prepared
    // (counters included), or a load ended without a trace.
    void viewReady();
    // The analysis docks show the results for the current trace set and mode
    // (or why they have none). The job path comes later: jobPathReady.
    void analysesReady();
    // The Job Critical Path dock and the Rank Overview's stragglers show the
    // path, or why there is none (not computed, an error).
    void jobPathReady();
    void whatIfFinished();

protected:
    void closeEvent(QCloseEvent* event) override;
    void showEvent(QShowEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragMoveEvent(QDragMoveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    static constexpr int kStateVersion = 4; // of saveState: 2 timeline docks, 3 analysis docks, 4 navigator

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
    void setupTimeline();
    void setupTimelineDocks();
    void setupTimelineActions(QMenu* viewMenu, QMenu* fileMenu, QAction* before);
    void setupTimelineMenu();
    void connectTimeline();
    QDockWidget* addPanelDock(QWidget* panel, const QString& title, const QString& name,
        Qt::DockWidgetArea area, const QKeySequence& key);
    void exportViewDialog(bool svg);
    void showDiagnosticExample(const QModelIndex& index);
    // The job's critical path dock (main_window_job_path.cpp).
    void setupJobPathDock();
    void showJobPath(const JobPathResultsPtr& results);
    void onJobPathStarted();
    void onWhatIfStarted(const QStringList& rules);
    void onWhatIfFailed(const QString& text);
    void showWhatIf(const std::shared_ptr<const core::JobCriticalPath>& after);
    void computeJobPathAnyway();
    void computeJobPathPerIteration();
    void showJobPathSegment(std::int64_t rank, std::int64_t eventIndex);
    void showJobPathOnTimeline(bool on);
    // The job path's state in the Rank Overview's straggler list.
    void showStragglers();
    void openWhatIfDialog();
    void showWhatIfError(const QString& text);
    // The job path's screenshot commands: straggler=N, whatifdialog=RULE[,RULE], whatifshot=PNG.
    bool applyJobPathViewCommand(const QString& key, const QString& value);
    void runWhatIf(const QStringList& rules);
    void showShortcuts();
    void resetLayout();
    void applyDefaultDockSizes();
    // The bottom row's height in the default layout: what the timeline's half leaves.
    int defaultBottomRowHeight() const;
    // The navigator's dock grown (up to defaultBottomRowHeight) until the view fits
    // unscrolled, measuring again up to `rounds` times.
    void makeRoomForView(const QString& id, int rounds);
    void setupSession();
    // The navigator's views the window acts on, found by id once the navigator made them.
    void findWindowViews();
    void setupOverview();
    // The Overview follows the selected range (main_window_analyses.cpp).
    std::optional<AnalysisWindow> overviewWindow() const;
    // The range the analyses are restricted to (Restrict to Selected Range), if any.
    std::optional<AnalysisWindow> analysesWindow() const;
    // Now with the job path's frames, or once the running analyses hand them over.
    void updateOverview();
    void setupNavigator();
    void wireAnalysisView(widgets::AnalysisView* view);
    void setupViewActions();
    void setupCommandPalette(QMenu* menu);
    void restoreNavigator(const QSettings& settings);
    void saveNavigator(QSettings& settings) const;
    void setupAnalysesMenu();
    void startAnalyses();
    void runAnalyses(bool anyway); // anyway: over the memory budget too
    void onSelectedRangeChanged();
    widgets::AnalysisView* analysisView(const QString& id) const;
    std::optional<AnalysisWindow> selectedWindow() const;
    void onAnalysesReady();
    void exportChartDialog(widgets::AnalysisView* view, widgets::ChartFormat format);
    // Asks for a size and a file, then saves `chart` there (`baseName` + the format's suffix offered).
    void exportChart(widgets::AnalysisChart& chart, const QString& baseName, widgets::ChartFormat format);
    void exportTableDialog(widgets::AnalysisTableView* table);
    void findOnTimeline(const QString& name);
    // The Efficiency view's connections (main_window_efficiency.cpp).
    void setupEfficiency();
    void setupMemory();
    // The Memory Snapshot view's connections and opening (main_window_snapshot.cpp).
    void setupSnapshot();
    // Opens the memory snapshots (.pickle) among `paths` in their view: the first, compared
    // with a second when given. Returns the other paths (they open as traces).
    QStringList openSnapshots(const QStringList& paths);
    // Runs `then` once the snapshot being read is shown; dropped if the read fails.
    void whenSnapshotShown(std::function<void()> then);
    void compareSnapshotDialog();
    void showSnapshotView();
    // The snapshot view takes the window's height: with a trace, most of it under the
    // timeline; without one, all of it (enterSnapshotLayout), whatever the saved layout.
    void growSnapshotView();
    // Without a trace: the welcome page and the timeline's panels (empty without one) hidden,
    // the docks as they were kept to come back (leaveSnapshotLayout: a trace opened, Reset Layout).
    void enterSnapshotLayout();
    void leaveSnapshotLayout();
    // "snapshotrow=N;snapshottab=state|events|peak|steps|compare;snapshotzoom=FIRST:LAST;
    // snapshotrange=N" (screenshots; N of snapshotrange: a range of the alignment, once aligned);
    // false for other keys.
    bool applySnapshotViewCommand(const QString& key, const QString& value);
    void showEfficiencyCalls(const std::vector<core::EfficiencyCall>& calls);

    void setupJobMode();
    // Opens paths in job mode when they call for it (job_paths.h); false for a plain load,
    // with the trace files listed (the load reads this listing).
    bool openInJobMode(const QStringList& paths, core::TraceInputs* listed = nullptr);
    void onJobReady(
        const std::shared_ptr<const core::JobOverview>& job, const QStringList& paths, qint64 elapsedMs);
    void loadJobRanks(const QList<qsizetype>& rows);
    void saveJobSummaryDialog();
    void showPreferences();
    void closeJob();
    // "ranks=17,512": selects those ranks' strips and loads them in full.
    void applyJobViewCommands(const QString& commands);

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

    // The threads of every background job of this window; created first, so it
    // outlives none of the widgets it is handed to (see TaskPools' destructor).
    std::unique_ptr<widgets::TaskPools> m_pools;
    LoadController* m_loader = nullptr;
    RecentFiles* m_recent = nullptr;
    QStringList m_paths;

    widgets::MessageBar* m_messages = nullptr;
    LoadProgressBar* m_progress = nullptr;
    QStackedWidget* m_pages = nullptr;
    WelcomePage* m_welcome = nullptr;
    widgets::TraceSetSummaryView* m_summary = nullptr;
    widgets::DiagnosticsPanel* m_diagnostics = nullptr;
    widgets::TimelineViewState* m_timelineState = nullptr;
    widgets::TimelineWidget* m_timeline = nullptr;
    widgets::SliceDetailsPanel* m_details = nullptr;
    widgets::SearchResultsPanel* m_searchResults = nullptr;
    widgets::RangeAggregationPanel* m_range = nullptr;
    widgets::RankListPanel* m_rankList = nullptr;
    QDockWidget* m_detailsDock = nullptr;
    QDockWidget* m_searchDock = nullptr;
    QDockWidget* m_rangeDock = nullptr;
    QDockWidget* m_ranksDock = nullptr;
    widgets::JobPathPanel* m_jobPath = nullptr;
    widgets::OverviewPage* m_overview = nullptr; // the page, the navigator's Overview view
    widgets::WhatIfDialog* m_whatIfDialog = nullptr; // made on first use
    bool m_whatIfShowsPath = false; // asked before the path was in: show its view when it runs
    QList<QDockWidget*> m_panelDocks;
    TraceSession* m_session = nullptr; // the load, its analyses and lanes
    QList<widgets::AnalysisView*> m_analysisViews;
    widgets::ViewNavigator* m_navigator = nullptr;
    QDockWidget* m_navigatorDock = nullptr;
    QHash<QString, QDockWidget*> m_viewDocks; // one per view, holding it while torn off
    QList<QAction*> m_viewActions; // "Go to" a view or a group, for the menu and the palette
    widgets::CommandPalette* m_palette = nullptr;
    QAction* m_paletteAction = nullptr;
    QMenu* m_analysesMenu = nullptr;
    widgets::EfficiencyView* m_efficiency = nullptr;
    widgets::SnapshotView* m_snapshot = nullptr;
    QAction* m_htaCompatAction = nullptr;
    QAction* m_restrictToRangeAction = nullptr;
    QLabel* m_statusSummary = nullptr;
    QPointer<ShortcutsDialog> m_shortcutsDialog;
    QByteArray m_defaultState;
    bool m_layoutRestored = false;
    bool m_geometryRestored = false;
    bool m_shownOnce = false;

    QAction* m_openFileAction = nullptr;
    QAction* m_openFolderAction = nullptr;
    QAction* m_newWindowAction = nullptr;
    QAction* m_openInNewWindowAction = nullptr;
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
    QAction* m_saveJobSummaryAction = nullptr;
    QAction* m_preferencesAction = nullptr;
    JobSummaryLoader* m_jobLoader = nullptr;
    LoadController* m_jobRankLoader = nullptr;
    widgets::JobModeView* m_jobView = nullptr;
    QByteArray m_stateBeforeJob; // the docks as they were before job mode hid them
    QByteArray m_stateBeforeSnapshot; // ... before a snapshot without a trace hid them
    QMenu* m_recentMenu = nullptr;
    QMenu* m_viewMenu = nullptr;
};

} // namespace ks::app
