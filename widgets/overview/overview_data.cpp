#include "widgets/overview/overview_data.h"

#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/frame/frame_window.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/insights/insights.h"
#include "core/summary/job_overview.h"
#include "core/summary/summary_insights.h"

#include <QCoreApplication>

#include <algorithm>
#include <set>

namespace ks::widgets {

namespace {

    QString tr(const char* text)
    {
        return QCoreApplication::translate("ks::widgets::OverviewPage", text);
    }

    // Means of X1's step time and busy share over its rows, and its flagged ranks.
    void headlineFromRankOverview(const core::Table& t, OverviewData& data)
    {
        const auto step = t.find(core::rank_overview::kStepTime);
        const auto idle = t.find(core::rank_overview::kIdlePct);
        const auto rank = t.find(core::rank_overview::kRank);
        const auto iteration = t.find(core::rank_overview::kIteration);
        const auto flag = t.find(core::rank_overview::kStraggler);
        double stepSum = 0;
        double busySum = 0;
        std::size_t steps = 0;
        std::size_t busy = 0; // CPU-only ranks have a step time but no idle share
        std::set<std::int64_t> iterations;
        std::set<std::int64_t> flagged;
        for (const auto& row : t.rows) {
            const auto s = step ? core::cellAsDouble(row[*step]) : std::nullopt;
            const auto i = idle ? core::cellAsDouble(row[*idle]) : std::nullopt;
            if (!s)
                continue;
            stepSum += *s;
            ++steps;
            if (i) {
                busySum += 100.0 - *i;
                ++busy;
            }
            if (iteration)
                if (const auto it = core::cellAsDouble(row[*iteration]))
                    iterations.insert(static_cast<std::int64_t>(*it));
            if (flag && rank && core::cellAsDouble(row[*flag]).value_or(0) > 0)
                flagged.insert(static_cast<std::int64_t>(core::cellAsDouble(row[*rank]).value_or(-1)));
        }
        if (steps > 0) {
            data.stepTimeUs = stepSum / static_cast<double>(steps);
            data.iterationCount = iterations.size();
        }
        if (busy > 0)
            data.gpuBusyPct = busySum / static_cast<double>(busy);
        if (data.stragglers.empty() && !flagged.empty()) {
            data.stragglers.assign(flagged.begin(), flagged.end());
            data.stragglerSource = tr("GPU busy time above the median rank's");
        }
    }

    void stragglersFromFindings(OverviewData& data)
    {
        for (const core::Finding& f : data.report.findings)
            if (f.rule == "straggler")
                data.stragglers.insert(data.stragglers.end(), f.ranks.begin(), f.ranks.end());
        if (!data.stragglers.empty())
            data.stragglerSource = tr("the ranks the others wait for (critical path)");
    }

} // namespace

OverviewData computeOverview(const core::TraceSet& set, std::optional<std::int64_t> iteration,
    std::optional<std::pair<core::TimeNs, core::TimeNs>> window, const core::ParallelFor& parallelFor,
    const core::CancelToken* cancel)
{
    OverviewData data;
    core::AnalysisOptions options;
    options.cancel = cancel;
    auto all = core::buildFrames(set, options, parallelFor);
    if (all && !all.value().iterations.empty())
        data.iterations = all.value().iterations;
    if (iteration)
        options.iterations = std::vector<std::int64_t> { *iteration };
    auto frames = iteration ? core::buildFrames(set, options, parallelFor) : std::move(all);
    if (!frames) {
        data.error = QString::fromStdString(frames.error().message);
        return data;
    }
    if (window)
        core::restrictFramesToWindow(frames.value(), window->first, window->second);
    const std::size_t ranks = frames.value().ranks.size();
    data.scope = (ranks == 1 ? tr("1 rank") : tr("%1 ranks").arg(ranks)) + QStringLiteral(", ")
        + (iteration     ? tr("iteration %1").arg(*iteration)
                : window ? tr("selected range")
                         : tr("whole trace"));
    data.report = core::runInsights(frames.value(), options, {}, parallelFor);
    data.exposedCommPct = data.report.exposedCommPct;
    stragglersFromFindings(data);
    const core::AnalysisOutput overview = core::rankOverview(frames.value(), options);
    if (overview.ok && overview.result.kind == core::HtaResult::Kind::DataFrame)
        headlineFromRankOverview(overview.result.frame, data);
    return data;
}

OverviewData overviewOfSummary(const core::JobOverview& job)
{
    OverviewData data;
    data.fromSummary = true;
    data.scope = tr("job summary: %1 ranks").arg(job.ranks.size());
    auto report = core::insightsFromSummary(job.path, {});
    if (!report)
        data.error = QString::fromStdString(report.error().describe());
    else
        data.report = std::move(report).value();
    // Job mode's marks first: a slow rank computes longer and waits less, so
    // X1's busy-time flag (the fallback) often misses it.
    for (const std::size_t row : core::computeOutlierRows(job.profiles))
        data.stragglers.push_back(job.ranks[row].rank);
    if (!data.stragglers.empty())
        data.stragglerSource = tr("GPU compute far above the median rank's (as job mode marks them)");
    headlineFromRankOverview(job.rankOverview, data);
    return data;
}

} // namespace ks::widgets
