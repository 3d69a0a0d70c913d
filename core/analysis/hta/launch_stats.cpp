#include "core/analysis/hta/launch_stats.h"

#include "core/analysis/frame/launch_api.h"
#include "core/analysis/hta/launch_outliers.h"
#include "core/analysis/tables/microseconds.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace ks::core {

namespace {

    // Q6: HTA 0.6.1 knows cudaLaunchKernel(ExC), MTIA and the async copies and sets only;
    // default mode every launch API of CUDA and HIP, graph launches included.
    bool isLaunch(LaunchKind kind, bool includeMemory)
    {
        return kind == LaunchKind::Kernel || kind == LaunchKind::Graph
            || (includeMemory && kind == LaunchKind::Memory);
    }

    // HTA (§9): any row named like a launch contributes its correlation; the CPU side is
    // then every stream -1 row with such a correlation, the GPU side every other row.
    void htaSides(const RankFrame& frame, bool includeMemory, std::vector<const FrameRow*>& cpu,
        std::vector<const FrameRow*>& gpu)
    {
        std::unordered_set<std::int64_t> correlations;
        const LaunchNames names(frame.trace->strings, AnalysisMode::HtaCompat, HtaLaunchList::LaunchStats);
        for (const FrameRow& row : frame.rows)
            if (isLaunch(names.kindOf(frame.trace->slices.name[row.slice]), includeMemory))
                correlations.insert(row.correlation);
        for (const FrameRow& row : frame.rows)
            if (correlations.count(row.correlation))
                (row.stream == -1 ? cpu : gpu).push_back(&row);
    }

    // Default mode: launch calls on the CPU, device activity on the GPU (Q3, Q6).
    void launchSides(const RankFrame& frame, bool includeMemory, std::vector<const FrameRow*>& cpu,
        std::vector<const FrameRow*>& gpu)
    {
        const LaunchNames names(frame.trace->strings, AnalysisMode::Default, HtaLaunchList::LaunchStats);
        for (const FrameRow& row : frame.rows) {
            if (row.correlation < 0)
                continue;
            if (row.device)
                gpu.push_back(&row);
            else if (row.stream < 0
                && isLaunch(names.kindOf(frame.trace->slices.name[row.slice]), includeMemory))
                cpu.push_back(&row);
        }
    }

    LaunchRecord recordOf(const FrameRow& cpu, const FrameRow& gpu)
    {
        LaunchRecord r;
        r.correlation = cpu.correlation;
        r.cpuEventIndex = cpu.eventIndex;
        r.gpuEventIndex = gpu.eventIndex;
        r.cpuDurationNs = cpu.dur;
        r.gpuDurationNs = gpu.dur;
        // Two time points: their difference fits (time_range.h); ts - ts - dur need not.
        r.launchDelayNs = std::max<std::int64_t>(0, gpu.ts - cpu.end());
        return r;
    }

    Table launchTable(const RankFrame& frame, const std::vector<LaunchRecord>& launches, bool compat)
    {
        Table t;
        t.name = "cuda_kernel_launch_stats_rank_" + std::to_string(frame.rank);
        t.indexColumns = { "index" };
        const AnalysisMode mode = compat ? AnalysisMode::HtaCompat : AnalysisMode::Default;
        using namespace launch_stats;
        for (const ColumnId& c : { kIndex, kCorrelation, kCpuDuration, kGpuDuration, kLaunchDelay })
            t.columns.push_back(c.column(mode));
        // Default mode keeps exact ns, so its µs are always real numbers.
        const bool realDur = !compat || frame.floatDurations;
        const bool realDelay = realDur || frame.floatTimestamps;
        for (std::size_t i = 0; i < launches.size(); ++i) {
            const LaunchRecord& r = launches[i];
            t.addRow({ static_cast<std::int64_t>(i), r.correlation,
                microsecondsCell(r.cpuDurationNs, realDur), microsecondsCell(r.gpuDurationNs, realDur),
                microsecondsCell(r.launchDelayNs, realDelay) });
        }
        return t;
    }

} // namespace

std::vector<LaunchRecord> kernelLaunches(const RankFrame& frame, const AnalysisOptions& options)
{
    std::vector<const FrameRow*> cpu, gpu;
    if (options.htaCompat())
        htaSides(frame, options.launches.includeMemoryEvents, cpu, gpu);
    else
        launchSides(frame, options.launches.includeMemoryEvents, cpu, gpu);
    // pandas inner merge without sort: launches in row order, each with its device rows in row order.
    std::unordered_map<std::int64_t, std::vector<const FrameRow*>> gpuByCorrelation;
    for (const FrameRow* row : gpu)
        gpuByCorrelation[row->correlation].push_back(row);
    std::vector<LaunchRecord> launches;
    for (const FrameRow* launch : cpu)
        if (auto it = gpuByCorrelation.find(launch->correlation); it != gpuByCorrelation.end())
            for (const FrameRow* work : it->second)
                launches.push_back(recordOf(*launch, *work));
    return launches;
}

std::vector<LaunchOutliers> launchStatsOutliers(const FrameSet& frames, const AnalysisOptions& options)
{
    const double runtimeCutoffNs = options.launches.runtimeCutoffUs * 1000.0;
    const double delayCutoffNs = options.launches.launchDelayCutoffUs * 1000.0;
    std::vector<LaunchOutliers> result;
    for (const RankFrame& frame : frames.ranks) {
        LaunchOutliers o;
        o.rank = frame.rank;
        for (const LaunchRecord& r : kernelLaunches(frame, options)) {
            const auto cpu = static_cast<double>(r.cpuDurationNs);
            if (cpu <= runtimeCutoffNs && r.gpuDurationNs < r.cpuDurationNs)
                o.shortKernels.push_back(r);
            if (cpu > runtimeCutoffNs)
                o.runtimeOutliers.push_back(r);
            if (static_cast<double>(r.launchDelayNs) > delayCutoffNs)
                o.launchDelayOutliers.push_back(r);
        }
        result.push_back(std::move(o));
    }
    return result;
}

AnalysisOutput cudaKernelLaunchStats(const FrameSet& frames, const AnalysisOptions& options)
{
    // HTA answers with a (possibly empty) frame for every rank, even without GPU work.
    HtaResult result;
    result.kind = HtaResult::Kind::Dict;
    for (const RankFrame& frame : frames.ranks)
        result.entries.emplace_back(std::to_string(frame.rank),
            HtaResult::dataFrame(launchTable(frame, kernelLaunches(frame, options), options.htaCompat())));
    return AnalysisOutput::of(std::move(result));
}

} // namespace ks::core
