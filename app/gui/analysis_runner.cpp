#include "app/gui/analysis_runner.h"

#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/frame/analysis_catalog.h"
#include "core/analysis/frame/frame_window.h"
#include "core/analysis/operators/operator_stats.h"

#include <algorithm>

namespace ks::app {

namespace {

    // X3 needs default-mode frames: the ones just built, or a second set in HTA-compatible mode.
    void addJobPath(AnalysisResults& results, const core::TraceSet& set, core::FrameSet frames,
        core::AnalysisMode mode, const core::ParallelFor& parallelFor)
    {
        if (mode != core::AnalysisMode::Default) {
            auto built = core::buildFrames(set, core::AnalysisOptions {}, parallelFor);
            if (!built) {
                results.jobPathError = QString::fromStdString(built.error().describe());
                return;
            }
            frames = std::move(built).value();
        }
        auto shared = std::make_shared<const core::FrameSet>(std::move(frames));
        auto job = core::jobCriticalPath(*shared, {}, parallelFor);
        if (!job) {
            results.jobPathError = QString::fromStdString(job.error().message);
            return;
        }
        results.defaultFrames = std::move(shared);
        results.jobPath = std::make_shared<const core::JobCriticalPath>(std::move(job).value());
    }

    std::shared_ptr<const core::AnalysisOutput> operatorsOutput(
        const TraceSetPtr& set, const std::optional<AnalysisWindow>& window)
    {
        core::OperatorStatsOptions options;
        if (window) {
            options.windowStart = window->start;
            options.windowEnd = window->end;
        }
        const core::OperatorStats stats = core::operatorStats(*set, options);
        if (stats.error)
            return std::make_shared<const core::AnalysisOutput>(
                core::AnalysisOutput::notApplicable(stats.error->describe()));
        if (stats.rows.empty())
            return std::make_shared<const core::AnalysisOutput>(core::AnalysisOutput::notApplicable(
                window ? "no CPU operator starts in the selected range" : "no CPU operators in the trace"));
        return std::make_shared<const core::AnalysisOutput>(core::AnalysisOutput::of(
            core::HtaResult::dataFrame(core::operatorStatsTable(stats, options.by))));
    }

    // A cancelled computation returns early with partial results: the tracker never delivers them.
    AnalysisResultsPtr compute(const TraceSetPtr& set, core::AnalysisMode mode,
        const std::optional<AnalysisWindow>& window, const widgets::JobContext& job)
    {
        auto results = std::make_shared<AnalysisResults>();
        core::AnalysisOptions options;
        options.mode = mode;
        options.cancel = job.cancel; // every call's options are copies of these
        const core::ParallelFor& parallelFor = job.parallelFor;
        auto frames = core::buildFrames(*set, options, parallelFor);
        if (!frames) {
            results->error = QString::fromStdString(frames.error().describe());
            return results;
        }
        if (window)
            core::restrictFramesToWindow(frames.value(), window->start, window->end);
        std::vector<std::int64_t> ranks;
        for (const core::RankFrame& frame : frames.value().ranks)
            ranks.push_back(frame.rank);
        const QStringList shown = AnalysisRunner::shownCalls();
        std::vector<core::AnalysisCall> calls;
        for (core::AnalysisCall& call : core::analysisCalls(options, ranks)) {
            // The catalog lists get_gpu_kernel_breakdown twice (num_kernels 10 and 5): the first is HTA's
            // default.
            const bool seen = std::any_of(calls.begin(), calls.end(),
                [&](const core::AnalysisCall& c) { return c.htaCall == call.htaCall; });
            if (!seen && shown.contains(QString::fromStdString(call.htaCall)))
                calls.push_back(std::move(call));
        }
        // Two more outputs past the catalog's calls: X1's rank overview, which HTA has
        // no call for, and the operator statistics (read from the traces, not the frames).
        std::vector<std::shared_ptr<const core::AnalysisOutput>> outputs(calls.size() + 2);
        // The calls only read the frames: all cores at once.
        parallelFor(outputs.size(), [&](std::size_t i) {
            if (i == calls.size() + 1)
                outputs[i] = operatorsOutput(set, window);
            else
                outputs[i] = std::make_shared<const core::AnalysisOutput>(i == calls.size()
                        ? core::rankOverview(frames.value(), options)
                        : calls[i].run(frames.value(), calls[i].options));
        });
        if (job.cancelled())
            return results; // some outputs were skipped
        for (std::size_t i = 0; i < calls.size(); ++i)
            results->byCall[calls[i].htaCall] = outputs[i];
        results->byCall[AnalysisRunner::kRankOverviewKey] = outputs[calls.size()];
        results->byCall[AnalysisRunner::kOperatorStatsKey] = outputs.back();
        addJobPath(*results, *set, std::move(frames).value(), mode, parallelFor);
        return results;
    }

} // namespace

AnalysisRunner::AnalysisRunner(widgets::JobPools* pools, QObject* parent)
    : QObject(parent)
    , m_jobs(pools, this)
    , m_operatorJobs(pools, this)
{
    qRegisterMetaType<AnalysisResultsPtr>();
}

AnalysisRunner::~AnalysisRunner() = default;

QStringList AnalysisRunner::shownCalls()
{
    return { QStringLiteral("get_temporal_breakdown"), QStringLiteral("get_idle_time_breakdown"),
        QStringLiteral("get_gpu_kernel_breakdown"), QStringLiteral("get_comm_comp_overlap"),
        QStringLiteral("get_memory_bw_summary"), QStringLiteral("get_queue_length_summary"),
        QStringLiteral("get_cuda_kernel_launch_stats") };
}

void AnalysisRunner::start(TraceSetPtr set, core::AnalysisMode mode, std::optional<AnalysisWindow> window)
{
    if (!set) {
        clear();
        return;
    }
    m_jobs.start([set = std::move(set), mode, window](
                     const widgets::JobContext& job) { return compute(set, mode, window, job); },
        [this](AnalysisResultsPtr results) { emit finished(std::move(results)); });
    emit started();
}

void AnalysisRunner::startOperators(TraceSetPtr set, std::optional<AnalysisWindow> window)
{
    if (!set) {
        m_operatorJobs.cancel();
        return;
    }
    m_operatorJobs.start(
        [set = std::move(set), window](const widgets::JobContext&) { return operatorsOutput(set, window); },
        [this](std::shared_ptr<const core::AnalysisOutput> output) {
            emit operatorsFinished(std::move(output));
        });
}

void AnalysisRunner::clear()
{
    m_jobs.cancel();
    m_operatorJobs.cancel();
}

} // namespace ks::app
