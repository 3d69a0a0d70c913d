// MainWindow: the timeline as central view, its panels (details, search
// results, range, ranks, rank summary), their View menu toggles, the timeline's
// menu actions, view export and diagnostics examples shown on the timeline.
#include "app/gui/main_window/main_window.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/common/diagnostics_model.h"
#include "widgets/common/diagnostics_panel.h"
#include "widgets/common/message_bar.h"
#include "widgets/common/trace_set_summary_view.h"
#include "widgets/common/view_navigator.h"
#include "widgets/timeline/model/slice_queries.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_search.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/panels/range_aggregation_panel.h"
#include "widgets/timeline/panels/rank_list_panel.h"
#include "widgets/timeline/panels/search_results_panel.h"
#include "widgets/timeline/panels/slice_details_panel.h"
#include "widgets/timeline/view/timeline_view.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QStatusBar>
#include <QStyle>
#include <QTabWidget>
#include <QTableView>

#include <algorithm>

namespace ks::app {

using widgets::TimelineViewState;

void MainWindow::setupTimeline()
{
    m_timelineState = new TimelineViewState(this);
    m_timeline = new widgets::TimelineWidget(m_timelineState, m_pools.get(), this);
}

QDockWidget* MainWindow::addPanelDock(QWidget* panel, const QString& title, const QString& name,
    Qt::DockWidgetArea area, const QKeySequence& key)
{
    auto* dock = new QDockWidget(title, this);
    dock->setObjectName(name);
    dock->setWidget(panel);
    // Panels may shrink below their natural size: the timeline needs the room.
    panel->setMinimumSize(120, 60);
    addDockWidget(area, dock);
    dock->toggleViewAction()->setShortcut(key);
    m_panelDocks.append(dock);
    return dock;
}

void MainWindow::setupTimelineDocks()
{
    m_details = new widgets::SliceDetailsPanel(m_timelineState, this);
    m_searchResults = new widgets::SearchResultsPanel(this);
    m_range = new widgets::RangeAggregationPanel(m_timelineState, m_pools.get(), this);
    m_rankList = new widgets::RankListPanel(m_timelineState, this);
    m_detailsDock = addPanelDock(m_details, tr("Details"), QStringLiteral("detailsDock"),
        Qt::RightDockWidgetArea, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I));
    m_ranksDock = addPanelDock(m_rankList, tr("Ranks"), QStringLiteral("ranksDock"), Qt::RightDockWidgetArea,
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_K));
    m_searchDock = addPanelDock(m_searchResults, tr("Search Results"), QStringLiteral("searchDock"),
        Qt::BottomDockWidgetArea, QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F));
    m_rangeDock = addPanelDock(m_range, tr("Range"), QStringLiteral("rangeDock"), Qt::BottomDockWidgetArea,
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    tabifyDockWidget(m_detailsDock, m_ranksDock);
    m_detailsDock->raise();
    // Search and Range are tabbed once the navigator is beside them (setupNavigator).
}

void MainWindow::applyDefaultDockSizes()
{
    // The timeline keeps half the window's height; side panels
    // about a fifth of the width; the bottom row, where the analysis charts need
    // room to read, the rest of the height on a laptop screen (a 1280x800 roofline
    // has a plot of AnalysisChart::kMinPlotHeight) and up to 440 pixels on a larger
    // one, most of it for the navigator.
    resizeDocks({ m_detailsDock }, { std::clamp(width() / 5, 280, 420) }, Qt::Horizontal);
    resizeDocks({ m_navigatorDock }, { defaultBottomRowHeight() }, Qt::Vertical);
    resizeDocks({ m_searchDock, m_navigatorDock }, { width() / 5, width() * 4 / 5 }, Qt::Horizontal);
}

int MainWindow::defaultBottomRowHeight() const
{
    const int belowMenu = height() - menuBar()->sizeHint().height() - statusBar()->sizeHint().height();
    const int bottomRow =
        belowMenu - (height() + 1) / 2 - 2 * style()->pixelMetric(QStyle::PM_DockWidgetSeparatorExtent);
    return std::clamp(bottomRow, 170, 440);
}

void MainWindow::setupTimelineActions(QMenu* viewMenu, QMenu* fileMenu, QAction* before)
{
    auto* png = new QAction(tr("Export View as &PNG…"), this);
    png->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    png->setStatusTip(tr("Save the visible tracks and time range as an image"));
    connect(png, &QAction::triggered, this, [this] { exportViewDialog(false); });
    auto* svg = new QAction(tr("Export View as &SVG…"), this);
    svg->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    svg->setStatusTip(tr("Save the visible tracks and time range as a vector drawing"));
    connect(svg, &QAction::triggered, this, [this] { exportViewDialog(true); });
    fileMenu->insertAction(before, png);
    fileMenu->insertAction(before, svg);
    setupTimelineMenu();
    viewMenu->addSeparator();
    for (QDockWidget* dock : m_panelDocks)
        viewMenu->addAction(dock->toggleViewAction());
}

void MainWindow::setupTimelineMenu()
{
    widgets::TimelineView* view = m_timeline->view();
    // A menu of its own: Help → Keyboard Shortcuts lists it as a group.
    QMenu* menu = menuBar()->addMenu(tr("&Timeline"));
    menu->setObjectName(QStringLiteral("timelineMenu"));
    // Single-key shortcuts act only while the timeline has focus: they must not
    // steal letters from the search field or the tables.
    auto add = [&](const QString& text, const QKeySequence& key, auto slot, bool local = true) {
        QAction* a = menu->addAction(text);
        a->setShortcut(key);
        a->setShortcutContext(local ? Qt::WidgetShortcut : Qt::WindowShortcut);
        if (local)
            view->addAction(a);
        else
            addAction(a);
        connect(a, &QAction::triggered, this, slot);
        return a;
    };
    const auto centre = [view] { return view->labelWidth() + view->geometryNow().trackWidth() / 2; };
    add(tr("Zoom In"), QKeySequence(Qt::Key_W), [view, centre] { view->zoomBy(0.8, centre()); });
    add(tr("Zoom Out"), QKeySequence(Qt::Key_S), [view, centre] { view->zoomBy(1.25, centre()); });
    add(tr("Pan Left"), QKeySequence(Qt::Key_A),
        [view] { view->panByPixels(-view->geometryNow().trackWidth() * 0.15); });
    add(tr("Pan Right"), QKeySequence(Qt::Key_D),
        [view] { view->panByPixels(view->geometryNow().trackWidth() * 0.15); });
    add(tr("Fit All"), QKeySequence(Qt::Key_F), [this] { m_timelineState->fitAll(); });
    add(tr("Zoom to Selection"), QKeySequence(Qt::Key_Z), [view] { view->zoomToSelection(); });
    add(
        tr("Zoom Back"), QKeySequence(Qt::ALT | Qt::Key_Left), [this] { m_timelineState->goBack(); }, false);
    add(
        tr("Zoom Forward"), QKeySequence(Qt::ALT | Qt::Key_Right), [this] { m_timelineState->goForward(); },
        false);
    menu->addSeparator();
    add(tr("Go to GPU Work"), QKeySequence(Qt::Key_BracketRight), [this, view] {
        view->revealSlice(widgets::linkedSlice(*m_timeline->data(), m_timelineState->selectedSlice(), true));
    });
    add(tr("Go to Launch"), QKeySequence(Qt::Key_BracketLeft), [this, view] {
        view->revealSlice(widgets::linkedSlice(*m_timeline->data(), m_timelineState->selectedSlice(), false));
    });
    menu->addSeparator();
    add(
        tr("Find Slices…"), QKeySequence::Find, [this] { m_timeline->focusSearch(); }, false);
    add(
        tr("Next Match"), QKeySequence(Qt::Key_F3), [this] { m_timeline->stepSearch(true); }, false);
    add(
        tr("Previous Match"), QKeySequence(Qt::SHIFT | Qt::Key_F3), [this] { m_timeline->stepSearch(false); },
        false);
    menu->addSeparator();
    QAction* byName = add(tr("Colour by Name"), QKeySequence(Qt::Key_C), [this](bool on) {
        m_timelineState->setColorMode(on ? widgets::ColorMode::Name : widgets::ColorMode::KernelType);
    });
    byName->setCheckable(true);
    QAction* byPath = add(tr("Colour by Critical Path"), QKeySequence(Qt::Key_P), [this](bool on) {
        m_timelineState->setColorMode(on ? widgets::ColorMode::CriticalPath : widgets::ColorMode::KernelType);
    });
    byPath->setCheckable(true);
    byPath->setStatusTip(
        tr("Each rank's critical path in one colour, everything else faded (computed on first use)"));
    QAction* byJobPath = add(tr("Colour by Job Critical Path"), QKeySequence(Qt::SHIFT | Qt::Key_P),
        [this](bool on) { showJobPathOnTimeline(on); });
    byJobPath->setCheckable(true);
    byJobPath->setStatusTip(tr("The job's critical path across ranks on every rank's tracks, coloured by "
                               "bound type, with arrows where it hops between ranks"));
    QAction* flows = add(tr("Show All Flows in View"), QKeySequence(Qt::Key_L),
        [this](bool on) { m_timelineState->setShowAllFlows(on); });
    flows->setCheckable(true);
    QAction* align = add(tr("Align Ranks on Their Start"), QKeySequence(Qt::Key_R), [this](bool on) {
        m_timelineState->setAlignment(on ? widgets::Alignment::RankStart : widgets::Alignment::AsRecorded);
    });
    align->setCheckable(true);
    add(tr("Align Ranks on Selected Collective"), QKeySequence(Qt::SHIFT | Qt::Key_R), [this, view] {
        if (!view->alignOn(m_timelineState->selectedSlice()))
            statusBar()->showMessage(
                tr("Select a GPU kernel (e.g. an nccl collective) to align the ranks on"), 5000);
    });
    connect(m_timelineState, &TimelineViewState::appearanceChanged, byName,
        [this, byName, byPath, byJobPath, flows] {
            byName->setChecked(m_timelineState->colorMode() == widgets::ColorMode::Name);
            byPath->setChecked(m_timelineState->colorMode() == widgets::ColorMode::CriticalPath);
            byJobPath->setChecked(m_timelineState->colorMode() == widgets::ColorMode::JobPath);
            flows->setChecked(m_timelineState->showAllFlows());
        });
    connect(m_timelineState, &TimelineViewState::alignmentChanged, align,
        [this, align] { align->setChecked(m_timelineState->alignment() == widgets::Alignment::RankStart); });
}

void MainWindow::connectTimeline()
{
    widgets::TimelineView* view = m_timeline->view();
    connect(m_timeline, &widgets::TimelineWidget::ready, this, &MainWindow::viewReady);
    connect(m_timeline, &widgets::TimelineWidget::jobFailed, this, [this](const QString& message) {
        m_messages->showMessage(message, widgets::MessageBar::Type::Error);
    });
    connect(m_timeline, &widgets::TimelineWidget::dataChanged, this, [this] {
        const auto timelineData = m_timeline->data();
        m_details->setData(timelineData);
        m_range->setData(timelineData);
        m_rankList->setData(timelineData);
        m_searchResults->setResults(timelineData, m_timeline->searchResults(), m_timelineState->alignment());
    });
    connect(m_timeline, &widgets::TimelineWidget::searchResultsChanged, this, [this] {
        m_searchResults->setResults(
            m_timeline->data(), m_timeline->searchResults(), m_timelineState->alignment());
        if (m_timeline->searchResults() && !m_timeline->searchResults()->query.isEmpty()
            && m_searchDock->isVisible())
            m_searchDock->raise();
    });
    connect(m_timelineState, &TimelineViewState::selectedSliceChanged, m_searchResults,
        &widgets::SearchResultsPanel::setCurrentSlice);
    connect(m_timelineState, &TimelineViewState::selectedSliceChanged, this, [this](widgets::SliceRef ref) {
        if (ref.valid() && m_detailsDock->isVisible())
            m_detailsDock->raise();
    });
    connect(m_timelineState, &TimelineViewState::selectedRangeChanged, this, [this] {
        if (m_timelineState->selectedRange() && m_rangeDock->isVisible())
            m_rangeDock->raise();
    });
    auto reveal = [view](widgets::SliceRef ref) { view->revealSlice(ref); };
    connect(m_details, &widgets::SliceDetailsPanel::sliceActivated, this, reveal);
    connect(m_searchResults, &widgets::SearchResultsPanel::sliceActivated, this, reveal);
    connect(m_rankList, &widgets::RankListPanel::rankActivated, view, &widgets::TimelineView::scrollToRank);
    connect(m_diagnostics->view(), &QTableView::activated, this, &MainWindow::showDiagnosticExample);
    connect(m_diagnostics->view(), &QTableView::doubleClicked, this, &MainWindow::showDiagnosticExample);
}

void MainWindow::showDiagnosticExample(const QModelIndex& index)
{
    const auto timelineData = m_timeline->data();
    if (!timelineData || !index.isValid())
        return;
    const QModelIndex fileIndex = index.siblingAtColumn(widgets::DiagnosticsModel::FileColumn);
    const QString file = fileIndex.data(Qt::ToolTipRole).toString();
    const QString kind = index.data(widgets::DiagnosticsModel::KindRole).toString();
    for (int r = 0; r < timelineData->rankCount(); ++r) {
        const core::RankTrace& t = timelineData->trace(r);
        if (QDir::toNativeSeparators(QString::fromStdString(t.path)) != file)
            continue;
        for (std::size_t k = 0; k < core::kDiagnosticKindCount; ++k) {
            const auto diagnostic = static_cast<core::DiagnosticKind>(k);
            if (QString::fromUtf8(core::diagnosticName(diagnostic).data(),
                    static_cast<qsizetype>(core::diagnosticName(diagnostic).size()))
                != kind)
                continue;
            const std::int64_t event = t.diagnostics.entry(diagnostic).exampleEventIndex;
            const widgets::SliceRef ref = widgets::sliceOfEvent(*timelineData, r, event);
            if (ref.valid()) {
                m_timeline->view()->revealSlice(ref, true);
                m_timeline->view()->setFocus();
                statusBar()->showMessage(
                    tr("Showing traceEvents[%1] of %2").arg(event).arg(timelineData->rank(r).label), 5000);
            } else {
                statusBar()->showMessage(event >= 0
                        ? tr("traceEvents[%1] is not a slice on the timeline").arg(event)
                        : tr("This anomaly has no example event"),
                    5000);
            }
            return;
        }
    }
}

bool MainWindow::exportView(const QString& path)
{
    if (path.endsWith(QStringLiteral(".svg"), Qt::CaseInsensitive))
        return m_timeline->exportSvg(path);
    return m_timeline->exportImage(path);
}

void MainWindow::exportViewDialog(bool svg)
{
    if (!m_timeline->data()) {
        statusBar()->showMessage(tr("Open a trace first"), 3000);
        return;
    }
    const QString filter = svg ? tr("SVG drawing (*.svg)") : tr("PNG image (*.png)");
    const QString suffix = svg ? QStringLiteral(".svg") : QStringLiteral(".png");
    QString path =
        QFileDialog::getSaveFileName(this, svg ? tr("Export View as SVG") : tr("Export View as PNG"),
            QDir::home().filePath(QStringLiteral("timeline") + suffix), filter);
    if (path.isEmpty())
        return;
    if (!path.endsWith(suffix, Qt::CaseInsensitive))
        path += suffix;
    if (exportView(path))
        statusBar()->showMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)), 5000);
    else
        m_messages->showMessage(
            tr("Could not write %1").arg(QDir::toNativeSeparators(path)), widgets::MessageBar::Type::Error);
}

namespace {

    // "A:B" in ms relative to the trace start -> display range.
    std::optional<widgets::TimeRange> msRange(const QString& text, core::TimeNs origin)
    {
        const QStringList parts = text.split(QChar(u':'));
        bool ok0 = false;
        bool ok1 = false;
        const double a = parts.value(0).toDouble(&ok0);
        const double b = parts.value(1).toDouble(&ok1);
        if (parts.size() != 2 || !ok0 || !ok1)
            return std::nullopt;
        return widgets::TimeRange { origin + static_cast<core::TimeNs>(a * 1e6),
            origin + static_cast<core::TimeNs>(b * 1e6) };
    }

    // The longest launched GPU slice in the display range, for a demo selection.
    widgets::SliceRef longestLaunchedKernel(
        const widgets::TimelineData& data, widgets::TimeRange range, const widgets::Alignment& a)
    {
        widgets::SliceRef best;
        core::TimeNs bestDur = -1;
        for (int r = 0; r < data.rankCount(); ++r) {
            const core::RankTrace& t = data.trace(r);
            const core::TimeNs off = data.offset(r, a);
            for (std::uint32_t track = 0; track < t.tracks.size(); ++track) {
                if (t.tracks[track].kind != core::TrackKind::GpuStream)
                    continue;
                t.forEachSliceInRange(
                    core::TrackId(track), range.start + off, range.end + off, [&](std::uint32_t s) {
                        if (t.slices.duration(s) > bestDur && !t.linksTo(s).empty()) {
                            bestDur = t.slices.duration(s);
                            best = { r, s };
                        }
                    });
            }
        }
        return best;
    }

} // namespace

void MainWindow::applyViewCommands(const QString& commands)
{
    if (inJobMode()) {
        applyJobViewCommands(commands);
        return;
    }
    // The snapshot's commands apply with or without a trace.
    for (const QString& command : commands.split(QChar(u';'), Qt::SkipEmptyParts))
        applySnapshotViewCommand(
            command.section(QChar(u'='), 0, 0).trimmed(), command.section(QChar(u'='), 1));
    const auto timelineData = m_timeline->data();
    if (!timelineData)
        return;
    widgets::TimelineView* view = m_timeline->view();
    for (const QString& command : commands.split(QChar(u';'), Qt::SkipEmptyParts)) {
        const QString key = command.section(QChar(u'='), 0, 0).trimmed();
        const QString value = command.section(QChar(u'='), 1);
        if (applyJobPathViewCommand(key, value))
            continue;
        if (key == QStringLiteral("range")) {
            if (const auto r = msRange(value, timelineData->traceStart))
                m_timelineState->setVisibleRange(*r, TimelineViewState::History::Record);
        } else if (key == QStringLiteral("selectrange")) {
            m_timelineState->setSelectedRange(msRange(value, timelineData->traceStart));
            m_range->recomputeNow();
        } else if (key == QStringLiteral("select") && value == QStringLiteral("kernel")) {
            view->revealSlice(longestLaunchedKernel(
                *timelineData, m_timelineState->visibleRange(), m_timelineState->alignment()));
        } else if (key == QStringLiteral("collective")) {
            // The value-th matched collective instance (in order of first arrival), on its first member.
            const auto& match = timelineData->collectives;
            const auto index = value.toULongLong();
            if (match && index < match->instances.size()) {
                const core::CollectiveMember& m = match->instances[index].members.front();
                view->revealSlice({ static_cast<int>(m.rankIndex), m.slice });
            }
        } else if (key == QStringLiteral("pin") && value == QStringLiteral("launch")) {
            // Pins the thread that launched the selected kernel: both ends of its flow on screen.
            const widgets::SliceRef launch =
                widgets::linkedSlice(*timelineData, m_timelineState->selectedSlice(), false);
            if (launch.valid())
                m_timelineState->setPinned({ launch.rank, widgets::RowKind::Slices,
                                               timelineData->trace(launch.rank).trackOf(launch.slice).value },
                    true);
        } else if (key == QStringLiteral("around")) {
            // The selected slice's start in the middle of a window of `value` ms.
            const widgets::SliceRef ref = m_timelineState->selectedSlice();
            if (ref.valid()) {
                const core::TimeNs mid = timelineData->trace(ref.rank).slices.start[ref.slice]
                    - timelineData->offset(ref.rank, m_timelineState->alignment());
                const auto half = static_cast<core::TimeNs>(value.toDouble() * 5e5);
                m_timelineState->setVisibleRange(
                    { mid - half, mid + half }, TimelineViewState::History::Record);
            }
        } else if (key == QStringLiteral("search")) {
            m_timeline->searchField()->setText(value);
            m_timeline->searchNow(true);
        } else if (key == QStringLiteral("next")) {
            m_timeline->stepSearch(true);
        } else if (key == QStringLiteral("color")) {
            m_timelineState->setColorMode(value == QStringLiteral("name") ? widgets::ColorMode::Name
                    : value == QStringLiteral("critical")                 ? widgets::ColorMode::CriticalPath
                    : value == QStringLiteral("job")                      ? widgets::ColorMode::JobPath
                                                                          : widgets::ColorMode::KernelType);
        } else if (key == QStringLiteral("align") && value == QStringLiteral("selected")) {
            view->alignOn(m_timelineState->selectedSlice());
        } else if (key == QStringLiteral("align")) {
            m_timelineState->setAlignment(value == QStringLiteral("start") ? widgets::Alignment::RankStart
                    : value == QStringLiteral("estimated") ? widgets::Alignment::EstimatedClocks
                                                           : widgets::Alignment::AsRecorded);
        } else if (key == QStringLiteral("flows")) {
            m_timelineState->setShowAllFlows(value == QStringLiteral("all"));
        } else if (key == QStringLiteral("collapse") || key == QStringLiteral("expand")) {
            for (const QString& r : value.split(QChar(u','), Qt::SkipEmptyParts))
                m_timelineState->setCollapsed(r.toInt(), key == QStringLiteral("collapse"));
        } else if (key == QStringLiteral("dock")) {
            for (QDockWidget* dock : m_panelDocks) {
                if (dock->objectName() == value + QStringLiteral("Dock"))
                    dock->raise();
            }
            showView(value); // the views that were docks before the navigator (diagnostics, jobPath)
        } else if (key == QStringLiteral("analysis") || key == QStringLiteral("view")) {
            showView(value);
        } else if (key == QStringLiteral("variant")) {
            // The shown view's chooser (GPU or CPU time; group by kernel or annotation), by title.
            if (auto* analysis = analysisView(m_navigator->currentView()))
                analysis->setCurrentVariant(analysis->variantChooser()->findText(value));
        } else if (key == QStringLiteral("tab")) {
            // A tab of the shown view by its title ("Mean duration" of User Annotations); its
            // chart's tabs exist once the analyses are in.
            const QString id = m_navigator->currentView();
            auto selectTab = [this, id, value] {
                if (QWidget* shown = m_navigator->view(id))
                    for (QTabWidget* tabs : shown->findChildren<QTabWidget*>())
                        for (int t = 0; t < tabs->count(); ++t)
                            if (tabs->tabText(t) == value)
                                tabs->setCurrentIndex(t);
            };
            selectTab();
            if (analysesRunning())
                connect(this, &MainWindow::analysesReady, this, selectTab, Qt::SingleShotConnection);
        } else if (key == QStringLiteral("tearoff")) {
            tearOffView(value);
        } else if (key == QStringLiteral("whatif")) {
            showView(QStringLiteral("jobPath"));
            runWhatIf({ value });
        } else if (key == QStringLiteral("scroll")) {
            view->setScrollY(value.toInt());
        } else if (key == QStringLiteral("export")) {
            exportView(value);
        }
    }
}

} // namespace ks::app
