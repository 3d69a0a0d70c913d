// Rules about a GPU that waits for its host: slow launches (gpu_idle_host_bound),
// host syncs (gpu_idle_sync), kernels shorter than their launch (short_kernels)
// and launches the GPU started late (launch_delay_outliers).

#include "core/analysis/hta/idle_time_breakdown.h"
#include "core/insights/rule_support.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string_view>
#include <unordered_set>

namespace ks::core {

namespace {

    // What the launch rules read first: the rank's kernel launches joined to their GPU
    // work, or why the rule cannot run (no GPU, no path, no correlation ids).
    std::optional<std::string> launchesMissing(
        InsightsContext& c, const RankFrame& frame, std::vector<LaunchRecord>& launches)
    {
        if (!hasDeviceWork(frame))
            return std::string(kNoGpu);
        if (auto why = pathMissing(c))
            return why;
        launches = kernelLaunches(frame, c.options());
        if (launches.empty())
            return "no kernel launches joined to GPU work (no correlation ids)";
        return std::nullopt;
    }

    // ---- gpu_idle_host_bound -------------------------------------------------

    constexpr std::string_view kLaunchCalls = "^(cudaLaunchKernel|cudaLaunchKernelExC|cuLaunchKernel|"
                                              "cuLaunchKernelEx|hipLaunchKernel|hipExtModuleLaunchKernel)$";

    const RuleInfo kHostBound { "gpu_idle_host_bound",
        "GPU idle between kernels because the CPU launches too slowly",
        { { "min_gain_pct", 1.0,
            "report when removing launch calls, launch delays and kernel gaps gives back at least this "
            "%" } },
        "idle" };

    // Host-wait idle per the idle time breakdown (A2), summed over the rank's streams.
    std::pair<double, double> hostWaitIdleUs(InsightsContext& c)
    {
        const AnalysisOutput idle = idleTimeBreakdown(c.frames(), c.options());
        double hostWait = 0;
        double all = 0;
        if (!idle.ok)
            return { 0, 0 };
        const HtaResult& first = idle.result.kind == HtaResult::Kind::Tuple && !idle.result.items.empty()
            ? idle.result.items.front()
            : idle.result;
        const Table& t = first.frame;
        const auto category = t.find(idle_time_breakdown::kIdleCategory);
        const auto time = t.find(idle_time_breakdown::kIdleTime);
        if (!category || !time)
            return { 0, 0 };
        for (const auto& row : t.rows) {
            const double us = cellAsDouble(row[*time]).value_or(0);
            all += us;
            if (cellAsText(row[*category]) != "other")
                hostWait += us;
        }
        return { hostWait, all };
    }

    bool isLaunchCall(std::string_view name)
    {
        return name == "cudaLaunchKernel" || name == "cudaLaunchKernelExC" || name == "cuLaunchKernel"
            || name == "cuLaunchKernelEx" || name == "hipLaunchKernel" || name == "hipExtModuleLaunchKernel";
    }

    RuleOutcome hostBound(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        if (!hasDeviceWork(frame))
            return RuleOutcome::na(std::string(kNoGpu));
        if (auto why = pathMissing(c))
            return RuleOutcome::na(*why);
        // CUDA graphs and fusion remove the launch calls' CPU time, the launch
        // delays and the gaps between kernels that slow launches leave.
        const std::vector<std::string> whatIf { std::string(kLaunchCalls) + "=0", "kind:launch_overhead=0",
            "kind:kernel_kernel_gap=0" };
        const double gain = c.whatIfGainPct(whatIf).value_or(0);
        if (gain < p["min_gain_pct"])
            return RuleOutcome::none();
        const auto isLaunchWait = [](const PathSegment& s) {
            return s.piece.bound == PathBound::LaunchOverhead || s.piece.bound == PathBound::KernelGap
                || (s.piece.bound == PathBound::Cpu && isLaunchCall(s.piece.name));
        };
        const TimeNs onPath = c.pathTimeOf(isLaunchWait);
        const auto [hostWaitUs, idleUs] = hostWaitIdleUs(c);
        Finding f =
            newFinding(kHostBound, "GPU idle waiting for kernel launches (host bound)", gain, { frame.rank });
        f.evidence.push_back("launch calls, launch delays and kernel gaps on the critical path: "
            + formatMs(onPath) + " (" + formatPct(c.pctOfMeasured(onPath)) + " of " + c.measuredWhat() + ")");
        f.evidence.push_back("GPU idle waiting for the host (idle time breakdown, host_wait + kernel_wait): "
            + formatMs(static_cast<TimeNs>(hostWaitUs * 1000)) + " of "
            + formatMs(static_cast<TimeNs>(idleUs * 1000)) + " idle");
        f.suggestion =
            "Launch fewer, larger pieces of work: capture the step in CUDA graphs "
            "(torch.cuda.graphs, torch.compile(mode=\"reduce-overhead\")), fuse ops with torch.compile, "
            "or raise the batch size so each kernel runs longer than its launch.";
        f.where.push_back(pathWhere(c, frame.rank, isLaunchWait));
        f.gainBasis =
            "what-if: launch calls, launch overhead and kernel-kernel gaps removed from the critical path";
        f.whatIf = whatIf;
        return { { f }, std::nullopt };
    }

    // ---- gpu_idle_sync -------------------------------------------------------

    const RuleInfo kSync { "gpu_idle_sync", "GPU waits on host syncs",
        { { "min_gain_pct", 0.5,
            "report when the GPU idle after syncs holds at least this % of the critical path" } },
        "idle" };

    constexpr std::array<std::string_view, 8> kSyncCalls = { "cudaDeviceSynchronize", "cudaStreamSynchronize",
        "cudaEventSynchronize", "cudaMemcpy", "hipDeviceSynchronize", "hipStreamSynchronize",
        "hipEventSynchronize", "hipMemcpy" };

    bool isSyncCall(std::string_view name)
    {
        return std::find(kSyncCalls.begin(), kSyncCalls.end(), name) != kSyncCalls.end();
    }

    RuleOutcome hostSync(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        if (!hasDeviceWork(frame))
            return RuleOutcome::na(std::string(kNoGpu));
        if (auto why = pathMissing(c))
            return RuleOutcome::na(*why);
        const DeviceRowsByStart device(frame);
        std::vector<const FrameRow*> syncs;
        std::vector<Interval> idle; // GPU idle from its last work before the sync's end to its next work
        std::map<std::string, std::size_t> byCause; // "cudaStreamSynchronize in aten::item" -> count
        for (const FrameRow& row : frame.rows) {
            if (row.device || !isSyncCall(frame.name(row)))
                continue;
            const FrameRow* next = device.nextAt(row.end());
            if (!next)
                continue; // nothing ran after it: the GPU did not wait for it within the trace
            const TimeNs from = device.lastEndBefore(row.end());
            if (next->ts <= from)
                continue;
            syncs.push_back(&row);
            idle.push_back({ from, next->ts });
            const std::string op = enclosingOperator(frame, row);
            ++byCause[std::string(frame.name(row)) + (op.empty() ? "" : " in " + op)];
        }
        if (syncs.empty())
            return RuleOutcome::none();
        TimeNs idleTotal = 0;
        for (const Interval& i : mergeIntervals(idle))
            idleTotal += i.end - i.start;
        const TimeNs onPath = c.pathTimeWithin(frame.rank, idle);
        const double gain = c.pctOfMeasured(onPath);
        if (gain < p["min_gain_pct"])
            return RuleOutcome::none();
        std::vector<std::pair<std::string, std::size_t>> causes(byCause.begin(), byCause.end());
        std::stable_sort(
            causes.begin(), causes.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        Finding f = newFinding(kSync,
            "GPU waits after " + std::to_string(syncs.size()) + " host sync(s), mostly "
                + causes.front().first,
            gain, { frame.rank });
        for (const auto& [cause, n] : causes)
            f.evidence.push_back(std::to_string(n) + " x " + cause);
        f.evidence.push_back("GPU idle after the syncs: " + formatMs(idleTotal)
            + ", of it on the critical path: " + formatMs(onPath) + " (" + formatPct(gain) + " of "
            + c.measuredWhat() + ")");
        f.suggestion =
            "Keep values on the GPU inside the loop: avoid .item(), .cpu(), .tolist(), printing tensors "
            "and torch.cuda.synchronize() per step; use non_blocking=True copies into pinned memory and "
            "read results once per N steps.";
        RankWhere where = rowsWhere(c, frame.rank, syncs);
        where.ranges.clear();
        for (const Interval& i : idle) {
            if (where.ranges.size() == kMaxWherePerRank)
                break;
            where.ranges.push_back(c.absoluteRange(i.start, i.end));
        }
        f.where.push_back(std::move(where));
        f.iterations = iterationsOf(syncs);
        f.gainBasis = "time on the critical path while the GPU waited for work after the syncs";
        return { { f }, std::nullopt };
    }

    // ---- short_kernels -------------------------------------------------------

    const RuleInfo kShort { "short_kernels", "many kernels shorter than their launch",
        { { "min_count", 50, "at least this many kernels run shorter than their launch call" },
            { "min_share_pct", 30, "and they are at least this % of the rank's launches" } },
        "launchStats" };

    RuleOutcome shortKernels(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        std::vector<LaunchRecord> launches;
        if (auto why = launchesMissing(c, frame, launches))
            return RuleOutcome::na(*why);
        const LaunchOutliers& outliers = c.launchOutliers().front();
        const std::size_t n = outliers.shortKernels.size();
        const double share = 100.0 * static_cast<double>(n) / static_cast<double>(launches.size());
        if (static_cast<double>(n) < p["min_count"] || share < p["min_share_pct"])
            return RuleOutcome::none();
        std::unordered_set<std::int64_t> gpu;
        std::unordered_set<std::int64_t> cpu;
        TimeNs gpuTime = 0;
        TimeNs cpuTime = 0;
        for (const LaunchRecord& l : outliers.shortKernels) {
            gpu.insert(l.gpuEventIndex);
            cpu.insert(l.cpuEventIndex);
            gpuTime += l.gpuDurationNs;
            cpuTime += l.cpuDurationNs;
        }
        // Fusing them removes their launches: the launch calls, the launch delays and the gaps they leave.
        const auto isTheirs = [&](const PathSegment& s) {
            if (s.piece.bound == PathBound::Cpu)
                return cpu.count(s.piece.eventIndex) > 0;
            return (s.piece.bound == PathBound::LaunchOverhead || s.piece.bound == PathBound::KernelGap)
                && gpu.count(s.piece.eventIndex) > 0;
        };
        const TimeNs onPath = c.pathTimeOf(isTheirs);
        const double gain = c.pctOfMeasured(onPath);
        Finding f = newFinding(kShort,
            std::to_string(n) + " kernels run shorter than their launch (" + formatPct(share)
                + " of launches)",
            gain, { frame.rank });
        f.evidence.push_back(std::to_string(n) + " of " + std::to_string(launches.size())
            + " launches: GPU time " + formatMs(gpuTime) + " against " + formatMs(cpuTime)
            + " of launch calls");
        f.evidence.push_back(
            "their launches and the gaps before them on the critical path: " + formatMs(onPath));
        f.suggestion = "Fuse the small ops (torch.compile, fused optimizers such as foreach/fused Adam, "
                       "fused kernels) or capture them in a CUDA graph so one launch covers many.";
        f.where.push_back(pathWhere(c, frame.rank, isTheirs));
        f.gainBasis = "time on the critical path in the short kernels' launch calls, launch delays and gaps";
        return { { f }, std::nullopt };
    }

    // ---- launch_delay_outliers -----------------------------------------------

    const RuleInfo kDelay { "launch_delay_outliers", "kernels that started long after their launch",
        { { "delay_us", 100, "a launch delay above this is an outlier (HTA's launch_delay_cutoff)" },
            { "min_count", 1, "report from this many outliers" } },
        "launchStats" };

    RuleOutcome launchDelays(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        std::vector<LaunchRecord> launches;
        if (auto why = launchesMissing(c, frame, launches))
            return RuleOutcome::na(*why);
        const auto cutoff = static_cast<TimeNs>(p["delay_us"] * 1000.0);
        std::unordered_set<std::int64_t> late;
        TimeNs worst = 0;
        TimeNs total = 0;
        for (const LaunchRecord& l : launches)
            if (l.launchDelayNs > cutoff) {
                late.insert(l.gpuEventIndex);
                worst = std::max(worst, l.launchDelayNs);
                total += l.launchDelayNs;
            }
        if (late.empty() || static_cast<double>(late.size()) < p["min_count"])
            return RuleOutcome::none();
        const auto isLate = [&](const PathSegment& s) {
            return s.piece.bound == PathBound::LaunchOverhead && late.count(s.piece.eventIndex) > 0;
        };
        const TimeNs onPath = c.pathTimeOf(isLate);
        const double gain = c.pctOfMeasured(onPath);
        Finding f = newFinding(kDelay,
            std::to_string(late.size()) + " kernels started more than " + formatMs(cutoff)
                + " after their launch",
            gain, { frame.rank });
        f.evidence.push_back(std::to_string(late.size()) + " of " + std::to_string(launches.size())
            + " launches (launch statistics): worst delay " + formatMs(worst) + ", together "
            + formatMs(total));
        f.evidence.push_back("their delays on the critical path: " + formatMs(onPath));
        f.suggestion =
            "A long launch delay means the GPU queue was full or the stream waited: look at what ran "
            "on the stream before (queue length counters); if the queue is shallow, look for other "
            "processes or MPS sharing the GPU.";
        f.where.push_back(pathWhere(c, frame.rank, isLate));
        if (f.where.front().events.empty()) // none on the path: show the worst launches anyway
            for (const LaunchRecord& l : launches)
                if (late.count(l.gpuEventIndex) && f.where.front().events.size() < kMaxWherePerRank)
                    f.where.front().events.push_back(l.gpuEventIndex);
        f.gainBasis = "time on the critical path in the outliers' launch delays";
        return { { f }, std::nullopt };
    }

} // namespace

std::vector<Rule> gpuIdleRules()
{
    return { { kHostBound, RuleScope::Rank, hostBound }, { kSync, RuleScope::Rank, hostSync },
        { kShort, RuleScope::Rank, shortKernels }, { kDelay, RuleScope::Rank, launchDelays } };
}

} // namespace ks::core
