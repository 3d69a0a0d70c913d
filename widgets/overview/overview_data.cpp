#include "widgets/overview/overview_data.h"

#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/frame/frame_window.h"
#include "core/analysis/frame/hta_frame.h"
#include "core/insights/insights.h"
#include "core/session/efficiency_request.h"
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

    // Means of X1's step time, busy, data-loading and Tensor Core shares over its rows, and its flagged
    // ranks.
    void headlineFromRankOverview(const core::Table& t, OverviewData& data)
    {
        const auto step = t.find(core::rank_overview::kStepTime);
        const auto idle = t.find(core::rank_overview::kIdlePct);
        const auto rank = t.find(core::rank_overview::kRank);
        const auto iteration = t.find(core::rank_overview::kIteration);
        const auto flag = t.find(core::rank_overview::kStraggler);
        const auto loading = t.find(core::rank_overview::kDataLoadingPct);
        const auto tensorCores = t.find(core::rank_overview::kTensorCorePct);
        double stepSum = 0;
        double busySum = 0;
        double loadingSum = 0;
        std::size_t loadingRows = 0; // a summary stores no data-loading share
        double tensorCoreSum = 0;
        std::size_t tensorCoreRows = 0; // nor a Tensor Core share; steps without compute kernels have none
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
            if (const auto l = loading ? core::cellAsDouble(row[*loading]) : std::nullopt) {
                loadingSum += *l;
                ++loadingRows;
            }
            if (const auto c = tensorCores ? core::cellAsDouble(row[*tensorCores]) : std::nullopt) {
                tensorCoreSum += *c;
                ++tensorCoreRows;
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
        if (loadingRows > 0)
            data.dataLoadingPct = loadingSum / static_cast<double>(loadingRows);
        if (tensorCoreRows > 0)
            data.tensorCorePct = tensorCoreSum / static_cast<double>(tensorCoreRows);
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

    // MFU of the same steps or range, as `overview` prints it (the session's efficiency report).
    void modelFlopsUtilisation(core::TraceAnalyses& analyses, std::optional<std::int64_t> iteration,
        std::optional<core::AnalysisWindow> window, OverviewData& data)
    {
        const core::EfficiencyRequest request = core::efficiencyRequest(analyses.traces(), {},
            iteration ? std::vector<std::int64_t> { *iteration } : std::vector<std::int64_t> {}, window);
        const core::DeviceChoice& device = request.device;
        const core::EfficiencyReport& report = *analyses.efficiency(request.options);
        if (report.error)
            data.mfuNote = QString::fromStdString(report.error->describe());
        else if (!report.shapesRecorded)
            data.mfuNote = QString::fromLatin1(core::kNoShapesMessage);
        else if (!report.mfu.mfu)
            data.mfuNote = QString::fromStdString(device.note);
        else {
            data.mfuPct = *report.mfu.mfu * 100.0;
            data.mfuNote = tr("of %1 %2 TFLOP/s (%3)")
                               .arg(QString::fromStdString(report.mfu.peakLabel))
                               .arg(report.mfu.peakTflops, 0, 'f', 0)
                               .arg(QString::fromStdString(device.peaks->name));
        }
    }

} // namespace

OverviewData computeOverview(core::TraceAnalyses& analyses, std::optional<std::int64_t> iteration,
    std::optional<core::AnalysisWindow> window, std::optional<core::AnalysisWindow> scopeWindow,
    const core::ParallelFor& parallelFor, const core::CancelToken* cancel)
{
    OverviewData data;
    core::SessionWork work;
    work.parallelFor = parallelFor;
    work.cancel = cancel;
    core::FrameScope scope; // default mode, every rank and iteration
    scope.window = scopeWindow;
    auto built = analyses.frames(scope, work);
    if (!built) {
        data.error = QString::fromStdString(built.error().message);
        return data;
    }
    const core::FrameSet& frames = *built.value();
    data.iterations = frames.iterations;
    const std::size_t ranks = frames.ranks.size();
    data.scope = (ranks == 1 ? tr("1 rank") : tr("%1 ranks").arg(ranks)) + QStringLiteral(", ")
        + (iteration     ? tr("iteration %1").arg(*iteration)
                : window ? tr("selected range")
                         : tr("whole trace"));
    core::AnalysisOutput overview;
    if (!iteration && window == scopeWindow) {
        // What the session's views computed: its insights on its job path, its rank overview.
        auto report = analyses.insights(scope, {}, work);
        if (!report) {
            data.error = QString::fromStdString(report.error().message);
            return data;
        }
        data.report = *report.value();
        auto outputs = analyses.outputs(scope, { core::OutputKey::RankOverview }, work);
        if (outputs)
            overview = *outputs.value().at(core::OutputKey::RankOverview);
    } else {
        // A narrower choice than the session's: its frames narrowed, the insights' own path on them.
        core::AnalysisOptions options;
        options.cancel = cancel;
        if (iteration)
            options.iterations = std::vector<std::int64_t> { *iteration };
        const std::optional<std::pair<core::TimeNs, core::TimeNs>> range =
            window ? std::optional(std::pair(window->start, window->end)) : std::nullopt;
        const core::FrameSet narrowed = core::narrowedFrames(frames, iteration, range);
        data.report = core::runInsights(narrowed, options, {}, parallelFor);
        overview = core::rankOverview(narrowed, options);
    }
    data.exposedCommPct = data.report.exposedCommPct;
    stragglersFromFindings(data);
    modelFlopsUtilisation(analyses, iteration, window, data);
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
    // Else the rank the others wait for at the collectives (a CPU-only gloo job has no GPU compute to mark).
    if (data.stragglers.empty()) {
        for (const core::Finding& f : data.report.findings)
            if (f.rule == "straggler")
                data.stragglers.insert(data.stragglers.end(), f.ranks.begin(), f.ranks.end());
        if (!data.stragglers.empty())
            data.stragglerSource = tr("the rank the others wait for at the collectives (their arrivals)");
    }
    headlineFromRankOverview(job.rankOverview, data);
    return data;
}

} // namespace ks::widgets
