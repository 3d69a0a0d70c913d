#pragma once

// What the Overview page shows, computed off the GUI thread: the job's headline
// numbers and its insights, from loaded traces or from a job summary.

#include "core/common/parallel_for.h"
#include "core/common/progress.h"
#include "core/insights/finding.h"
#include "core/model/trace_set.h"
#include "core/session/trace_analyses.h"

#include <QString>

#include <memory>
#include <optional>
#include <vector>

namespace ks::core {
struct FrameSet;
struct JobOverview;
} // namespace ks::core

namespace ks::widgets {

struct OverviewData
{
    QString scope; // "2 ranks, whole trace", "job summary: 1000 ranks"
    bool fromSummary = false;
    // Headline numbers; unset when the input cannot give them.
    std::optional<double> stepTimeUs; // mean over ranks and iterations
    std::size_t iterationCount = 0;
    std::optional<double> gpuBusyPct; // 100 - idle %, mean over ranks and iterations
    std::optional<double> exposedCommPct;
    std::optional<double> dataLoadingPct; // X1's dataloader_pct, mean over ranks and iterations
    std::optional<double> tensorCorePct; // X1's tensor_core_pct, mean over ranks and iterations
    std::optional<double> mfuPct; // from the efficiency analysis: modelled FLOPs / (steps x peak)
    QString mfuNote; // what the MFU is against, or why there is none
    std::vector<std::int64_t> stragglers; // ranks
    QString stragglerSource; // "insights", "GPU busy time above the median", ...
    std::vector<std::int64_t> iterations; // ProfilerStep numbers present, for the page's selector
    core::InsightsReport report;
    QString error; // the frames could not be built, the summary could not be read
};

// From a load's session: `iteration` restricts to one ProfilerStep, `window`
// (absolute ns, [start, end)) to the events starting in it. `scopeWindow` is
// the window the session's analyses cover (none: the whole trace): with no
// iteration and the same window the page reads the session's results (its
// frames, job path and insights: nothing computed twice); otherwise it narrows
// the session's frames to what is chosen.
OverviewData computeOverview(core::TraceAnalyses& analyses, std::optional<std::int64_t> iteration,
    std::optional<core::AnalysisWindow> window, std::optional<core::AnalysisWindow> scopeWindow,
    const core::ParallelFor& parallelFor, const core::CancelToken* cancel);

// From a job summary: its stored findings and X1 table.
OverviewData overviewOfSummary(const core::JobOverview& job);

} // namespace ks::widgets
