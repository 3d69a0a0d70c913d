#include "core/session/trace_analyses.h"

#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/frame/frame_window.h"
#include "core/analysis/hta/annotated_kernels.h"
#include "core/analysis/memory/memory_tables.h"
#include "core/analysis/operators/operator_stats.h"
#include "core/common/cancelled_error.h"
#include "core/session/analysis_catalog.h"
#include "core/session/memory_estimates.h"

#include <algorithm>

namespace ks::core {

namespace {

    bool cancelled(const SessionWork& work)
    {
        return work.cancel && work.cancel->isCancelled();
    }

    std::shared_ptr<const AnalysisOutput> shared(AnalysisOutput output)
    {
        return std::make_shared<const AnalysisOutput>(std::move(output));
    }

    // The operator statistics (key_averages' rules) of the ops starting in the window.
    AnalysisOutput operatorsOutput(const TraceSet& set, const std::optional<AnalysisWindow>& window)
    {
        OperatorStatsOptions options;
        if (window) {
            options.windowStart = window->start;
            options.windowEnd = window->end;
        }
        const OperatorStats stats = operatorStats(set, options);
        if (stats.error)
            return AnalysisOutput::notApplicable(stats.error->describe());
        if (stats.rows.empty())
            return AnalysisOutput::notApplicable(
                window ? "no CPU operator starts in the selected range" : "no CPU operators in the trace");
        return AnalysisOutput::of(HtaResult::dataFrame(operatorStatsTable(stats, options.by)));
    }

} // namespace

TraceAnalyses::TraceAnalyses(std::shared_ptr<const TraceSet> traces)
    : m_traces(std::move(traces))
{
    for (const auto& rank : m_traces->ranks)
        m_rankTraces.push_back(rank.get());
}

TraceAnalyses::~TraceAnalyses() = default;

Result<std::shared_ptr<const FrameSet>> TraceAnalyses::frames(
    const FrameScope& scope, const SessionWork& work)
{
    return m_frames.get(FramesKey { scope }, [&]() -> Result<std::shared_ptr<const FrameSet>> {
        AnalysisOptions options = scope.options;
        options.cancel = work.cancel;
        auto built = buildFrames(*m_traces, options, work.parallelFor);
        if (!built)
            return built.error();
        if (scope.window)
            restrictFramesToWindow(built.value(), scope.window->start, scope.window->end);
        return std::shared_ptr<const FrameSet>(std::make_shared<const FrameSet>(std::move(built).value()));
    });
}

std::shared_ptr<const AnalysisOutput> TraceAnalyses::computeOutput(
    OutputKey key, const FrameScope& scope, const FrameSet* frames)
{
    switch (key) {
    case OutputKey::OperatorStats:
        return shared(operatorsOutput(*m_traces, scope.window));
    case OutputKey::Memory: {
        // HTA-compatible mode is the plugin's numbers here (the memory tools' compat).
        MemoryOptions options;
        options.tbCompat = scope.options.htaCompat();
        options.htaTimeBase = scope.options.htaCompat(); // HTA #223's tables from HTA's min_ts
        if (scope.options.ranks)
            options.ranks = *scope.options.ranks;
        if (scope.options.iterations)
            options.iterations = *scope.options.iterations;
        if (scope.window)
            options.range = MemoryRange { scope.window->start, scope.window->end };
        auto report = memory(options, SessionWork {});
        if (!report)
            return shared(AnalysisOutput::notApplicable(report.error().message));
        return shared(memoryOutput(*report.value()));
    }
    case OutputKey::RankOverview:
        return shared(rankOverview(*frames, scope.options));
    case OutputKey::KernelsByAnnotation:
        return shared(kernelTimeByAnnotation(*frames, scope.options));
    default:
        break;
    }
    std::vector<std::int64_t> ranks; // HTA's `ranks=` argument where a call takes one
    for (const RankFrame& frame : frames->ranks)
        ranks.push_back(frame.rank);
    for (const AnalysisCall& call : analysisCalls(scope.options, ranks))
        if (call.key == key)
            return shared(call.run(*frames, call.options));
    return shared(AnalysisOutput::notApplicable(
        std::string(outputKeyName(key)) + " is not one of the catalog's calls"));
}

Result<OutputSet> TraceAnalyses::outputs(
    const FrameScope& scope, const std::vector<OutputKey>& keys, const SessionWork& work)
{
    // Kept outputs are read back without their frames (which may be gone: they are
    // kept while held); the frames are built once for those still to compute.
    std::shared_ptr<const FrameSet> frameSet;
    if (std::any_of(keys.begin(), keys.end(), [&](OutputKey key) {
            return readsFrames(key) && !m_outputs.peek(OutputKeyOfScope { scope, key });
        })) {
        auto built = frames(scope, work);
        if (!built)
            return built.error();
        frameSet = std::move(built).value();
    }
    std::vector<Result<std::shared_ptr<const AnalysisOutput>>> computed(keys.size(), cancelledError());
    // The outputs only read the frames (or the traces): all at once.
    work.parallelFor(keys.size(), [&](std::size_t i) {
        computed[i] = m_outputs.get(
            OutputKeyOfScope { scope, keys[i] }, [&]() -> Result<std::shared_ptr<const AnalysisOutput>> {
                std::shared_ptr<const FrameSet> f = frameSet;
                if (!f && readsFrames(keys[i])) { // dropped from the kept ones since the check above
                    auto built = frames(scope, work);
                    if (!built)
                        return built.error();
                    f = std::move(built).value();
                }
                return computeOutput(keys[i], scope, f.get());
            });
    });
    if (cancelled(work))
        return cancelledError(); // some outputs were skipped
    OutputSet out;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        if (!computed[i])
            return computed[i].error();
        out[keys[i]] = computed[i].value();
    }
    return out;
}

std::shared_ptr<const CollectiveMatch> TraceAnalyses::collectiveMatch()
{
    return m_match
        .get(0,
            [&]() -> Result<std::shared_ptr<const CollectiveMatch>> {
                return std::shared_ptr<const CollectiveMatch>(
                    std::make_shared<const CollectiveMatch>(matchCollectives(m_rankTraces)));
            })
        .value();
}

Result<std::shared_ptr<const SessionJobPath>> TraceAnalyses::jobPath(
    const JobPathScope& scope, const SessionWork& work)
{
    return m_jobPaths.get(scope, [&]() -> Result<std::shared_ptr<const SessionJobPath>> {
        auto built = frames(defaultModeScope(scope.frames), work);
        if (!built)
            return built.error();
        auto result = std::make_shared<SessionJobPath>();
        result->frames = std::move(built).value();
        result->iteration = scope.iteration;
        auto kept = std::make_shared<KeptJobPath>();
        JobPathOptions options;
        options.iteration = scope.iteration;
        options.cancel = work.cancel;
        options.releaseFreedMemory = work.releaseFreedMemory;
        options.keepTiming = &kept->timing; // the insights re-time this path for their gains
        // The timeline's match, when the frames are every rank in the set's order.
        std::shared_ptr<const CollectiveMatch> match;
        if (matchCoversFrames(*result->frames, m_rankTraces)) {
            match = collectiveMatch();
            options.collectives = match.get();
        }
        kept->path.emplace(jobCriticalPath(*result->frames, options, work.parallelFor));
        kept->timing.cancel = nullptr; // the request's token: not the kept path's
        if (cancelled(work))
            return cancelledError();
        if (kept->path->ok())
            result->stragglers = findStragglers(kept->path->value());
        result->kept = std::move(kept);
        return std::shared_ptr<const SessionJobPath>(std::move(result));
    });
}

std::shared_ptr<const EfficiencyReport> TraceAnalyses::efficiency(const EfficiencyOptions& options)
{
    return m_efficiency
        .get(options,
            [&]() -> Result<std::shared_ptr<const EfficiencyReport>> {
                return std::shared_ptr<const EfficiencyReport>(
                    std::make_shared<const EfficiencyReport>(efficiencyReport(*m_traces, options)));
            })
        .value();
}

Result<std::shared_ptr<const MemoryReport>> TraceAnalyses::memory(
    const MemoryOptions& options, const SessionWork& work)
{
    return m_memory.get(options, [&]() -> Result<std::shared_ptr<const MemoryReport>> {
        auto report = std::make_shared<const MemoryReport>(memoryReport(*m_traces, options, work.cancel));
        if (cancelled(work))
            return cancelledError();
        return std::shared_ptr<const MemoryReport>(std::move(report));
    });
}

Result<std::shared_ptr<const InsightsReport>> TraceAnalyses::insights(
    const FrameScope& scope, InsightsOptions options, const SessionWork& work)
{
    const FrameScope frameScope = defaultModeScope(scope);
    auto compute = [&]() -> Result<std::shared_ptr<const InsightsReport>> {
        JobPathScope pathScope { frameScope, std::nullopt };
        // The job rules' path: the single selected iteration's, else everything's (InsightsContext).
        const auto& iterations = frameScope.options.iterations;
        if (iterations && iterations->size() == 1)
            pathScope.iteration = iterations->front();
        AnalysisOptions analysis = frameScope.options;
        analysis.cancel = work.cancel;
        // One rank: its job path runs on one thread, so the analyses its rank rules read
        // besides the path (the rooflines, the memory analysis) run beside it on another.
        auto frames = this->frames(frameScope, work);
        if (!frames)
            return frames.error();
        std::optional<Result<std::shared_ptr<const SessionJobPath>>> path;
        if (frames.value()->ranks.size() == 1) {
            const SessionWork oneThread { runSequentially, work.cancel, work.releaseFreedMemory };
            work.parallelFor(2, [&](std::size_t i) {
                if (i == 0)
                    path.emplace(jobPath(pathScope, oneThread));
                else
                    prepareRankAnalyses(*frames.value(), analysis, options);
            });
        } else
            path.emplace(jobPath(pathScope, work));
        if (!*path)
            return path->error();
        options.jobPath = path->value()->kept;
        auto report = std::make_shared<const InsightsReport>(
            runInsights(*path->value()->frames, analysis, options, work.parallelFor));
        if (cancelled(work))
            return cancelledError();
        return std::shared_ptr<const InsightsReport>(std::move(report));
    };
    if (!options.isDefault())
        return compute();
    return m_insights.get(frameScope, compute);
}

std::shared_ptr<const SessionJobPath> TraceAnalyses::keptJobPath(const JobPathScope& scope) const
{
    return m_jobPaths.peek(scope);
}

SessionComputations TraceAnalyses::computations() const
{
    SessionComputations c;
    c.frames = m_frames.computations();
    c.outputs = m_outputs.computations();
    c.collectiveMatch = m_match.computations();
    c.jobPath = m_jobPaths.computations();
    c.efficiency = m_efficiency.computations();
    c.insights = m_insights.computations();
    c.memory = m_memory.computations();
    return c;
}

std::uint64_t TraceAnalyses::keptFramesBytes() const
{
    std::uint64_t bytes = 0;
    for (const auto& frames : m_frames.values())
        bytes += framesBytes(*frames);
    return bytes;
}

} // namespace ks::core
