// MainWindow: the command palette. Each time it opens it is
// filled with what can be done now: every enabled menu action (the navigator's
// views are in the Analyses menu), every rank (scrolled to on the timeline, or
// picked and loaded in job mode) and every iteration (the timeline zoomed to it).
#include "app/gui/main_window/main_window.h"
#include "core/model/rank_trace.h"
#include "widgets/common/command_palette.h"
#include "widgets/diff/iteration_alignment.h"
#include "widgets/job/job_mode_view.h"
#include "widgets/job/job_strip_view.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/view/timeline_view.h"
#include "widgets/timeline/view/timeline_widget.h"

#include <QAction>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QPointer>
#include <QRegularExpression>

#include <set>
#include <string_view>

namespace ks::app {

namespace {

    QString plainText(const QAction* action)
    {
        QString text = action->text();
        text.remove(QRegularExpression(QStringLiteral("&(?!&)")));
        return text.simplified();
    }

    void addMenuCommands(std::vector<widgets::PaletteCommand>& commands, const QMenu* menu,
        const QString& path, const QAction* skip)
    {
        for (QAction* action : menu->actions()) {
            if (action->isSeparator() || !action->isVisible() || action == skip)
                continue;
            const QString text = path + QStringLiteral(" › ") + plainText(action);
            if (const QMenu* sub = action->menu()) {
                addMenuCommands(commands, sub, text, skip);
                continue;
            }
            if (!action->isEnabled())
                continue;
            commands.push_back({ text, action->shortcut().toString(QKeySequence::NativeText),
                [action = QPointer<QAction>(action)] {
                    if (action)
                        action->trigger();
                } });
        }
    }

    // The ProfilerStep numbers a rank has, ascending.
    std::set<std::int64_t> stepsOf(const core::RankTrace& trace)
    {
        constexpr std::string_view kPrefix = "ProfilerStep#";
        std::set<std::int64_t> steps;
        for (std::uint32_t n = 0; n < trace.strings.size(); ++n) {
            const std::string_view name = trace.strings.view(core::NameId(n));
            if (name.substr(0, kPrefix.size()) != kPrefix)
                continue;
            bool ok = false;
            const qint64 step = QString::fromUtf8(
                name.substr(kPrefix.size()).data(), static_cast<qsizetype>(name.size() - kPrefix.size()))
                                    .toLongLong(&ok);
            if (ok)
                steps.insert(step);
        }
        return steps;
    }

} // namespace

void MainWindow::setupCommandPalette(QMenu* menu)
{
    m_paletteAction = new QAction(tr("&Command Palette…"), this);
    m_paletteAction->setObjectName(QStringLiteral("commandPaletteAction"));
    m_paletteAction->setShortcuts(
        { QKeySequence(Qt::CTRL | Qt::Key_K), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P) });
    m_paletteAction->setStatusTip(tr("Find any command, view, rank or iteration by typing a few letters"));
    connect(m_paletteAction, &QAction::triggered, this, &MainWindow::showCommandPalette);
    menu->insertAction(menu->actions().value(0), m_paletteAction);
}

std::vector<widgets::PaletteCommand> MainWindow::paletteCommands() const
{
    std::vector<widgets::PaletteCommand> commands;
    for (QAction* top : menuBar()->actions()) {
        if (top->menu())
            addMenuCommands(commands, top->menu(), plainText(top), m_paletteAction);
    }
    auto* self = const_cast<MainWindow*>(this);
    if (inJobMode()) {
        const auto job = m_jobView->job();
        for (std::size_t row = 0; job && row < job->ranks.size(); ++row) {
            const auto r = static_cast<qsizetype>(row);
            commands.push_back({ tr("Rank %1").arg(job->ranks[row].rank), tr("load its trace"), [self, r] {
                                    self->m_jobView->strips()->setSelectedRows(
                                        { static_cast<std::size_t>(r) });
                                    self->loadJobRanks({ r });
                                } });
        }
        return commands;
    }
    const std::shared_ptr<const widgets::TimelineData> timeline = m_timeline->data();
    if (!timeline)
        return commands;
    for (int r = 0; r < timeline->rankCount(); ++r)
        commands.push_back({ tr("Rank %1").arg(timeline->trace(r).rank), tr("show on the timeline"),
            [self, r] { self->m_timeline->view()->scrollToRank(r); } });
    if (timeline->rankCount() > 0) {
        for (const std::int64_t step : stepsOf(timeline->trace(0))) {
            commands.push_back(
                { tr("Iteration %1").arg(step), tr("zoom the timeline to it"), [self, timeline, step] {
                     const auto start = widgets::iterationStart(timeline->trace(0), step);
                     const auto end = widgets::iterationEnd(timeline->trace(0), step);
                     if (!start || !end)
                         return;
                     const widgets::TimeNs offset = timeline->offset(0, self->m_timelineState->alignment());
                     self->m_timelineState->setVisibleRange(
                         widgets::TimeRange { *start - offset, *end - offset },
                         widgets::TimelineViewState::History::Record);
                 } });
        }
    }
    return commands;
}

void MainWindow::showCommandPalette()
{
    if (!m_palette) {
        m_palette = new widgets::CommandPalette(this);
        m_palette->resize(std::min(640, width() - 40), std::min(420, height() - 80));
    }
    m_palette->setCommands(paletteCommands());
    m_palette->move(mapToGlobal(QPoint((width() - m_palette->width()) / 2, 60)));
    m_palette->show();
    m_palette->raise();
    m_palette->activateWindow();
    m_palette->field()->setFocus();
}

} // namespace ks::app
