// MainWindow: the Memory view. Its widget lives in widgets/memory/ and its row in
// view_registry.cpp (which hands it each load's session); here it follows the
// range selected on the timeline, a range dragged on its chart becomes the
// timeline's selection (so the other views follow it too), and its chart and
// tables export.
#include "app/gui/main_window/main_window.h"
#include "widgets/analysis/analysis_table_view.h"
#include "widgets/common/view_navigator.h"
#include "widgets/memory/memory_view.h"
#include "widgets/timeline/model/timeline_view_state.h"

#include <algorithm>

namespace ks::app {

void MainWindow::setupMemory()
{
    auto* view = qobject_cast<widgets::MemoryView*>(m_navigator->view(QStringLiteral("memory")));
    Q_ASSERT(view);
    view->setObjectName(QStringLiteral("memoryView"));
    connect(m_timelineState, &widgets::TimelineViewState::selectedRangeChanged, view, [this, view] {
        const std::optional<AnalysisWindow> window = selectedWindow();
        view->setRange(
            window ? std::optional(core::MemoryRange { window->start, window->end }) : std::nullopt);
    });
    connect(view, &widgets::MemoryView::rangeSelected, this, [this](std::optional<core::MemoryRange> range) {
        m_timelineState->setSelectedRange(
            range ? std::optional(widgets::TimeRange { range->start, range->end }) : std::nullopt);
    });
    // An allocation clicked: the timeline shows its lifetime, from its alloc to its free event.
    connect(
        view, &widgets::MemoryView::allocationActivated, this, [this](core::TimeNs start, core::TimeNs end) {
            const core::TimeNs margin = std::max<core::TimeNs>((end - start) / 10, 1000);
            m_timelineState->setVisibleRange(widgets::TimeRange { start - margin, end + margin },
                widgets::TimelineViewState::History::Record);
        });
    connect(view, &widgets::MemoryView::tableExportRequested, this, &MainWindow::exportTableDialog);
    connect(
        view, &widgets::MemoryView::chartExportRequested, this, [this, view](widgets::ChartFormat format) {
            exportChart(*view->chart(), QStringLiteral("memory"), format);
        });
}

} // namespace ks::app
