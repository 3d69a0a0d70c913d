#include "app/gui/analysis_runner.h"

#include "app/gui/qt_parallel_for.h"
#include "core/analysis/analysis_catalog.h"
#include "core/analysis/frame_window.h"
#include "core/analysis/operator_stats.h"
#include "core/analysis/rank_overview.h"

#include <QFutureWatcher>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>

namespace ks::app {

namespace {

    std::shared_ptr<const core::AnalysisOutput> operatorsOutput(
        const TraceSetPtr& set, const std::optional<AnalysisWindow>& window)
    {
        core::OperatorStatsOptions options;
        if (window) {
            options.windowStart = window->start;
            options.windowEnd = window->end;
        }
        const core::OperatorStats stats = core::operatorStats(*set, options);
        if (stats.rows.empty())
            return std::make_shared<const core::AnalysisOutput>(core::AnalysisOutput::notApplicable(
                window ? "no CPU operator starts in the selected range" : "no CPU operators in the trace"));
        return std::make_shared<const core::AnalysisOutput>(core::AnalysisOutput::of(
            core::HtaResult::dataFrame(core::operatorStatsTable(stats, options.by))));
    }

    AnalysisResultsPtr compute(const TraceSetPtr& set, core::AnalysisMode mode,
        const std::optional<AnalysisWindow>& window, QThreadPool* pool)
    {
        auto results = std::make_shared<AnalysisResults>();
        core::AnalysisOptions options;
        options.mode = mode;
        const core::ParallelFor parallelFor = makeQtParallelFor(pool);
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
        for (std::size_t i = 0; i < calls.size(); ++i)
            results->byCall[calls[i].htaCall] = outputs[i];
        results->byCall[AnalysisRunner::kRankOverviewKey] = outputs[calls.size()];
        results->byCall[AnalysisRunner::kOperatorStatsKey] = outputs.back();
        return results;
    }

} // namespace

AnalysisRunner::AnalysisRunner(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<AnalysisResultsPtr>();
    m_pool.setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
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
    const std::uint64_t generation = ++m_generation;
    if (!set)
        return;
    m_running = true;
    emit started();
    auto* watcher = new QFutureWatcher<AnalysisResultsPtr>(this);
    connect(watcher, &QFutureWatcher<AnalysisResultsPtr>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return; // a newer start or a clear() superseded this one
        m_running = false;
        emit finished(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(&m_pool,
        [set = std::move(set), mode, window, pool = &m_pool] { return compute(set, mode, window, pool); }));
}

void AnalysisRunner::startOperators(TraceSetPtr set, std::optional<AnalysisWindow> window)
{
    const std::uint64_t generation = ++m_operatorsGeneration;
    if (!set)
        return;
    using Output = std::shared_ptr<const core::AnalysisOutput>;
    auto* watcher = new QFutureWatcher<Output>(this);
    connect(watcher, &QFutureWatcher<Output>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_operatorsGeneration)
            emit operatorsFinished(watcher->result());
    });
    watcher->setFuture(
        QtConcurrent::run(&m_pool, [set = std::move(set), window] { return operatorsOutput(set, window); }));
}

void AnalysisRunner::clear()
{
    ++m_generation;
    ++m_operatorsGeneration;
    m_running = false;
}

} // namespace ks::app
