#include "widgets/timeline/model/critical_path_marks.h"

#include "core/analysis/critical_path/critical_path.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/model/trace_set.h"

#include <algorithm>

namespace ks::widgets {

bool CriticalPathMarks::contains(std::uint32_t slice) const
{
    return std::binary_search(slices.begin(), slices.end(), slice);
}

bool CriticalPathMarks::anyIn(std::uint32_t first, std::uint32_t last) const
{
    const auto it = std::lower_bound(slices.begin(), slices.end(), first);
    return it != slices.end() && *it < last;
}

CriticalPathMarks computeCriticalPathMarks(
    const core::TraceSet& set, int rankIndex, const core::CancelToken* cancel)
{
    CriticalPathMarks marks;
    if (rankIndex < 0 || static_cast<std::size_t>(rankIndex) >= set.ranks.size()) {
        marks.problem = QStringLiteral("no such rank");
        return marks;
    }
    // One rank per frame set: the rows of every rank at once would cost 64 bytes per slice of the job.
    core::TraceSet one;
    one.ranks = { set.ranks[static_cast<std::size_t>(rankIndex)] };
    core::AnalysisOptions options;
    options.mode = core::AnalysisMode::Default;
    options.cancel = cancel;
    auto frames = core::buildFrames(one, options);
    if (!frames) {
        marks.problem = QString::fromStdString(frames.error().message);
        return marks;
    }
    if (frames.value().ranks.empty()) {
        marks.problem = QStringLiteral("no events");
        return marks;
    }
    // The whole trace (no annotation): what bounds this rank from its first event to its last.
    auto graph = core::buildCriticalPath(
        frames.value(), frames.value().ranks.front().rank, std::string(), {}, options);
    if (!graph) {
        marks.problem = QString::fromStdString(graph.error().message);
        return marks;
    }
    const core::CriticalPathGraph& g = graph.value();
    if (!g.success) {
        marks.problem = g.problems.empty() ? QStringLiteral("the event graph is not valid")
                                           : QString::fromStdString(g.problems.front());
        return marks;
    }
    // A slice is on the path when one of its nodes (its start or end) is: the
    // events HTA's overlay trace marks "critical".
    marks.slices.reserve(g.pathNodes.size());
    for (const std::uint32_t node : g.pathNodes)
        marks.slices.push_back(g.frame->rows[g.nodes[node].row].slice);
    std::sort(marks.slices.begin(), marks.slices.end());
    marks.slices.erase(std::unique(marks.slices.begin(), marks.slices.end()), marks.slices.end());
    marks.pathWeight = g.pathWeight;
    return marks;
}

} // namespace ks::widgets
