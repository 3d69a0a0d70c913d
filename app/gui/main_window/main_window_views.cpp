// MainWindow: the analysis navigator. Every row of
// viewSpecs() becomes a page of one ViewNavigator in the "Analyses" dock; a view
// torn off moves into a ViewDock of its own and back when that closes. The
// navigator's choice and the torn-off views are remembered with the layout.
#include "app/gui/main_window/main_window.h"
#include "app/gui/views/view_dock.h"
#include "app/gui/views/view_registry.h"
#include "widgets/analysis/analysis_view.h"
#include "widgets/common/diagnostics_panel.h"
#include "widgets/common/trace_set_summary_view.h"
#include "widgets/common/view_navigator.h"
#include "widgets/efficiency/efficiency_view.h"
#include "widgets/job_path/job_path_panel.h"
#include "widgets/overview/overview_page.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>
#include <QMenuBar>
#include <QScrollArea>
#include <QSettings>
#include <QTimer>

#include <algorithm>

namespace ks::app {

namespace {

    const QString kCurrentViewKey = QStringLiteral("navigator/current");
    const QString kTornOffKey = QStringLiteral("navigator/tornOff");

    QString viewTitle(const ViewSpec& spec)
    {
        return QCoreApplication::translate("ks::app::ViewRegistry", spec.title);
    }

} // namespace

void MainWindow::setupNavigator()
{
    m_navigator = new widgets::ViewNavigator(this);
    m_navigator->setObjectName(QStringLiteral("viewNavigator"));
    for (int group = 0; group < kViewGroupCount; ++group)
        m_navigator->addGroup(viewGroupTitle(static_cast<ViewGroup>(group)));
    for (const ViewSpec& spec : viewSpecs()) {
        const QString id = QString::fromLatin1(spec.id);
        QWidget* view = spec.factory(ViewContext { m_session, m_pools.get(), this });
        // Views may be narrower than their natural width; below their least height
        // (a chart's readable plot) the navigator scrolls them.
        view->setMinimumWidth(200);
        if (auto* analysis = qobject_cast<widgets::AnalysisView*>(view)) {
            analysis->setObjectName(id + QStringLiteral("View"));
            wireAnalysisView(analysis);
            m_analysisViews.append(analysis);
        }
        m_navigator->addView(id, viewTitle(spec), static_cast<int>(spec.group), view);

        auto* dock = new ViewDock(viewTitle(spec), this);
        dock->setObjectName(id + QStringLiteral("ViewDock"));
        addDockWidget(Qt::RightDockWidgetArea, dock);
        dock->hide();
        connect(dock, &ViewDock::closed, this, [this, id] { returnView(id); });
        m_viewDocks.insert(id, dock);
    }
    m_navigatorDock = new QDockWidget(tr("Analyses"), this);
    m_navigatorDock->setObjectName(QStringLiteral("analysesDock"));
    m_navigatorDock->setWidget(m_navigator);
    m_navigatorDock->toggleViewAction()->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A));
    m_navigatorDock->toggleViewAction()->setStatusTip(tr("Show or hide the analysis navigator"));
    // Split before tabbing: splitting a tabbed dock would put the navigator among its tabs.
    splitDockWidget(m_searchDock, m_navigatorDock, Qt::Horizontal);
    tabifyDockWidget(m_searchDock, m_rangeDock);
    m_searchDock->raise();
    connect(m_navigator, &widgets::ViewNavigator::tearOffRequested, this, &MainWindow::tearOffView);
    connect(m_navigator, &widgets::ViewNavigator::returnRequested, this, &MainWindow::returnView);
    connect(m_navigator, &widgets::ViewNavigator::tornOffViewActivated, this, [this](const QString& id) {
        m_viewDocks.value(id)->show();
        m_viewDocks.value(id)->raise();
    });
    // Once the chosen view is shown and laid out: its least height is known then.
    connect(m_navigator, &widgets::ViewNavigator::currentViewChanged, this,
        [this](const QString& id) { QTimer::singleShot(0, this, [this, id] { makeRoomForView(id, 3); }); });
    m_navigator->showView(QStringLiteral("overview"));
}

void MainWindow::findWindowViews()
{
    m_overview = qobject_cast<widgets::OverviewPage*>(m_navigator->view(QStringLiteral("overview")));
    m_summary = qobject_cast<widgets::TraceSetSummaryView*>(m_navigator->view(QStringLiteral("rankSummary")));
    m_efficiency = qobject_cast<widgets::EfficiencyView*>(m_navigator->view(QStringLiteral("efficiency")));
    m_jobPath = qobject_cast<widgets::JobPathPanel*>(m_navigator->view(QStringLiteral("jobPath")));
    m_diagnostics =
        qobject_cast<widgets::DiagnosticsPanel*>(m_navigator->view(QStringLiteral("diagnostics")));
    Q_ASSERT(m_overview && m_summary && m_efficiency && m_jobPath && m_diagnostics);
    // After the views' own subscriptions: they show the results before the window says they are in.
    connect(m_session, &TraceSession::analysesReady, this, &MainWindow::onAnalysesReady);
}

void MainWindow::makeRoomForView(const QString& id, int rounds)
{
    // A chart chosen in a bottom row the user made short: the row grows back, up to its
    // default height, so the chart shows whole; beyond that the view scrolls.
    const QScrollArea* scroll = m_navigator->scrollArea(id);
    if (!scroll || !scroll->widget() || m_navigator->isTornOff(id) || m_navigatorDock->isFloating()
        || dockWidgetArea(m_navigatorDock) != Qt::BottomDockWidgetArea || !m_navigatorDock->isVisible())
        return;
    const int missing = scroll->widget()->minimumSizeHint().height() - scroll->viewport()->height();
    const int grown = std::min(m_navigatorDock->height() + missing, defaultBottomRowHeight());
    if (missing <= 0 || grown <= m_navigatorDock->height())
        return;
    resizeDocks({ m_navigatorDock }, { grown }, Qt::Vertical);
    // A chart's least height is measured on its layout, more exactly as it grows: ask again.
    if (rounds > 1)
        QTimer::singleShot(0, this, [this, id, rounds] {
            if (m_navigator->currentView() == id)
                makeRoomForView(id, rounds - 1);
        });
}

void MainWindow::setupViewActions()
{
    // Ctrl+1…8: one keystroke to each group (its last shown view); Ctrl+9 the previous view.
    QMenu* groups = m_analysesMenu->addMenu(tr("&Go to Group"));
    groups->setObjectName(QStringLiteral("goToGroupMenu"));
    for (int group = 0; group < kViewGroupCount; ++group) {
        QAction* action = groups->addAction(viewGroupTitle(static_cast<ViewGroup>(group)));
        action->setShortcut(QKeySequence(Qt::CTRL | static_cast<Qt::Key>(Qt::Key_1 + group)));
        action->setObjectName(QStringLiteral("viewGroup%1").arg(group + 1));
        action->setVisible(m_navigator->list()->topLevelItem(group)->childCount() > 0);
        connect(action, &QAction::triggered, this, [this, group] {
            m_navigatorDock->show();
            m_navigatorDock->raise();
            m_navigator->showGroup(group);
        });
        m_viewActions.append(action);
    }
    // Ctrl+9, beside the eight groups: back to the view shown before (again: forth),
    // to compare two views, say a kernel chart and the roofline, with one key.
    groups->addSeparator();
    QAction* previous = groups->addAction(tr("&Previous View"));
    previous->setObjectName(QStringLiteral("previousViewAction"));
    previous->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_9));
    previous->setStatusTip(tr("Show the view shown before this one; again to come back"));
    connect(previous, &QAction::triggered, this, [this] {
        const QString id = m_navigator->previousView();
        if (!id.isEmpty())
            showView(id);
    });
    m_viewActions.append(previous);
    ViewGroup shownGroup = ViewGroup::Overview;
    bool first = true;
    for (const ViewSpec& spec : viewSpecs()) {
        if (first || spec.group != shownGroup)
            m_analysesMenu->addSection(viewGroupTitle(spec.group));
        first = false;
        shownGroup = spec.group;
        const QString id = QString::fromLatin1(spec.id);
        QAction* action = m_analysesMenu->addAction(viewTitle(spec));
        action->setObjectName(id + QStringLiteral("ViewAction"));
        action->setStatusTip(tr("Show %1 in the analysis navigator").arg(viewTitle(spec)));
        connect(action, &QAction::triggered, this, [this, id] { showView(id); });
        if (id == QStringLiteral("diagnostics")) {
            action->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D));
            action->setStatusTip(tr("Show what the importer found in each rank"));
            m_showDiagnosticsAction = action;
        } else if (id == QStringLiteral("jobPath")) {
            action->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_J));
        }
        m_viewActions.append(action);
    }
    m_analysesMenu->addSeparator();
}

bool MainWindow::showView(const QString& id)
{
    if (!m_navigator->view(id))
        return false;
    if (!m_navigator->isTornOff(id)) {
        m_navigatorDock->show();
        m_navigatorDock->raise();
    }
    return m_navigator->showView(id);
}

void MainWindow::tearOffView(const QString& id)
{
    QDockWidget* dock = m_viewDocks.value(id);
    if (!dock)
        return;
    if (QWidget* view = m_navigator->takeView(id)) {
        const QSize size = m_navigator->size().expandedTo(QSize(640, 400));
        dock->setWidget(view);
        dock->setFloating(true);
        dock->resize(size);
        dock->move(mapToGlobal(QPoint((width() - size.width()) / 2, (height() - size.height()) / 2)));
        view->show();
    }
    dock->show();
    dock->raise();
}

void MainWindow::returnView(const QString& id)
{
    QDockWidget* dock = m_viewDocks.value(id);
    if (!dock || !m_navigator->isTornOff(id))
        return;
    m_navigator->returnView(id); // takes the widget out of the dock
    dock->hide();
}

void MainWindow::restoreNavigator(const QSettings& settings)
{
    for (const QString& id : settings.value(kTornOffKey).toStringList()) {
        if (m_navigator->view(id))
            tearOffView(id);
    }
    if (const QString current = settings.value(kCurrentViewKey).toString(); m_navigator->view(current))
        m_navigator->showView(current);
}

void MainWindow::saveNavigator(QSettings& settings) const
{
    QStringList tornOff;
    for (const QString& id : m_navigator->viewIds()) {
        if (m_navigator->isTornOff(id))
            tornOff.append(id);
    }
    settings.setValue(kTornOffKey, tornOff);
    settings.setValue(kCurrentViewKey, m_navigator->currentView());
}

} // namespace ks::app
