// The Memory Snapshot view's Steps tab: the snapshot aligned with the Kineto trace of the same
// run (which rank, the ranges as marks on the plot, a range chosen on both).

#include "core/model/trace_set.h"
#include "widgets/common/format.h"
#include "widgets/common/task_tracker.h"
#include "widgets/memory_snapshot/active_memory_plot.h"
#include "widgets/memory_snapshot/snapshot_steps_page.h"
#include "widgets/memory_snapshot/snapshot_view.h"

#include <algorithm>

namespace ks::widgets {

void SnapshotView::setTrace(std::shared_ptr<const core::TraceSet> set)
{
    m_trace = set && !set->ranks.empty() ? std::move(set) : nullptr;
    m_traceRank = -1;
    align();
}

void SnapshotView::setTraceRank(int rankIndex)
{
    m_traceRank = rankIndex;
    align();
}

void SnapshotView::align()
{
    m_steps = nullptr;
    m_alignTasks->cancel();
    if (!m_data)
        return;
    m_plot->setMarks({}, 0);
    if (!m_trace) {
        m_stepsPage->showRanks(nullptr);
        m_stepsPage->showMessage(tr(
            "Open the Kineto trace of the same run (File > Open, or both files on the command line) to see "
            "which ProfilerStep or annotation each rise of memory belongs to."));
        emit stepsShown();
        return;
    }
    const std::size_t ranks = m_trace->ranks.size();
    m_stepsPage->showMessage(ranks == 1 || m_traceRank >= 0
            ? tr("Aligning with rank %1's trace…")
                  .arg(m_trace->ranks[std::size_t(std::max(m_traceRank, 0))]->rank)
            : tr("Aligning with the trace: which of its %1 ranks the snapshot fits…").arg(ranks));
    m_alignTasks->start(
        [data = m_data, set = m_trace, rank = m_traceRank](const TaskContext&) {
            return std::make_shared<const SnapshotSteps>(alignViewData(*data, *set, rank));
        },
        [this](SnapshotStepsPtr steps) {
            m_steps = std::move(steps);
            showSteps();
            emit stepsShown();
        },
        [this](const TaskFailure& failure) {
            m_stepsPage->showMessage(
                tr("Could not align the snapshot with the trace: %1").arg(failure.message));
            emit stepsShown();
        });
}

void SnapshotView::showSteps()
{
    if (!m_steps)
        return; // the page says why (no trace yet, or aligning)
    m_stepsPage->showRanks(m_steps.get());
    const core::SnapshotAlignment& a = m_steps->alignment;
    if (a.error.empty()) {
        m_stepsPage->showSteps(*m_steps, m_data->summaryOf(m_device).device);
        m_plot->setMarks(m_steps->marks[std::size_t(m_device)], m_steps->lanes);
        return;
    }
    // The core names the file by its path: the window's title already says which it is.
    QString error = toQString(a.error);
    const QString path = toQString(m_data->snapshot->path) + QStringLiteral(": ");
    if (error.startsWith(path))
        error = displayName(m_path) + QStringLiteral(": ") + error.mid(path.size());
    m_stepsPage->showMessage(tr("Not aligned with rank %1's trace: %2").arg(m_steps->rank).arg(error)
        + (m_steps->ranks.size() > 1 ? tr(" Choose another rank above.") : QString()));
}

void SnapshotView::selectRange(std::size_t range)
{
    if (!m_steps || range >= m_steps->alignment.ranges.size())
        return;
    const std::vector<StepMark>& marks = m_plot->marks();
    const auto mark =
        std::find_if(marks.begin(), marks.end(), [range](const StepMark& m) { return m.range == range; });
    if (mark != marks.end()) {
        m_plot->setSelectedMark(int(mark - marks.begin()));
        // A margin each side: the memory just before and after the range is the comparison.
        const double margin = std::max(4.0, (mark->endStep - mark->firstStep) * 0.15);
        m_plot->setVisibleSteps(mark->firstStep - margin, mark->endStep + margin);
    }
    m_stepsPage->selectRange(range);
    const core::RangeMemory& r = m_steps->alignment.ranges[range];
    emit rangeActivated(m_steps->storeNs(r.startUs), m_steps->storeNs(r.endUs));
}

} // namespace ks::widgets
