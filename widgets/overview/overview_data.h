#pragma once

// What the Overview page shows, computed off the GUI thread: the job's headline
// numbers and its insights, from loaded traces or from a job summary.

#include "core/common/parallel_for.h"
#include "core/common/progress.h"
#include "core/insights/finding.h"
#include "core/model/trace_set.h"

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
    std::optional<double> mfuPct; // from the efficiency analysis (issue 21): modelled FLOPs / (steps x peak)
    QString mfuNote; // what the MFU is against, or why there is none
    std::vector<std::int64_t> stragglers; // ranks
    QString stragglerSource; // "insights", "GPU busy time above the median", ...
    std::vector<std::int64_t> iterations; // ProfilerStep numbers present, for the page's selector
    core::InsightsReport report;
    QString error; // the frames could not be built, the summary could not be read
};

// From loaded traces: `iteration` restricts to one ProfilerStep, `window`
// (absolute ns, [start, end)) to the events starting in it. `builtFrames`, when
// given, are the set's default-mode frames over the whole trace (or over
// `window` already), read instead of building a second copy beside them.
OverviewData computeOverview(const core::TraceSet& set, const core::FrameSet* builtFrames,
    std::optional<std::int64_t> iteration, std::optional<std::pair<core::TimeNs, core::TimeNs>> window,
    const core::ParallelFor& parallelFor, const core::CancelToken* cancel);

// From a job summary: its stored findings and X1 table.
OverviewData overviewOfSummary(const core::JobOverview& job);

} // namespace ks::widgets
