// Rules about a GPU that waits for its host: slow launches (gpu_idle_host_bound),
// host syncs (gpu_idle_sync), kernels shorter than their launch (short_kernels)
// and launches the GPU started late (launch_delay_outliers).

#include "core/analysis/frame/launch_api.h"
#include "core/analysis/frame/sync_api.h"
#include "core/analysis/hta/idle_time_breakdown.h"
#include "core/insights/rule_support.h"

#include <algorithm>
#include <array>
#include <limits>
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

    const RuleInfo kHostBound { "gpu_idle_host_bound",
        "GPU idle between kernels because the CPU launches too slowly",
        { { "min_gain_pct", 1.0,
              "report when capturing each step's launches in a CUDA graph gives back at least this %" },
            { "residual_dispatch_pct", 10,
                "the low end's share of the captured region's host dispatch that remains (guards, graph "
                "breaks, the replay)" } },
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

    // Kernel and graph launches of every API (launch_api.h); copies are not launch overhead.
    bool isLaunchCall(std::string_view name)
    {
        const LaunchKind kind = launchKindOf(name);
        return kind == LaunchKind::Kernel || kind == LaunchKind::Graph;
    }

    // Per step (ProfilerStep; the whole rank without), the stretch from its first
    // kernel launch's start to its last one's end: what a CUDA graph (or
    // torch.compile's reduce-overhead mode) captures. Frame time base, by start.
    std::vector<Interval> capturedRegions(const RankFrame& frame, TimeNs& medianLaunch)
    {
        std::map<std::int64_t, Interval> byStep;
        std::vector<TimeNs> durations;
        for (const FrameRow& row : frame.rows) {
            if (row.device || !isLaunchCall(frame.name(row)))
                continue;
            durations.push_back(row.dur);
            auto [it, inserted] = byStep.try_emplace(row.iteration, Interval { row.ts, row.end() });
            if (!inserted) {
                it->second.start = std::min(it->second.start, row.ts);
                it->second.end = std::max(it->second.end, row.end());
            }
        }
        std::vector<Interval> regions;
        for (const auto& [step, region] : byStep)
            regions.push_back(region);
        regions = mergeIntervals(std::move(regions));
        medianLaunch = 0;
        if (!durations.empty()) {
            std::nth_element(durations.begin(),
                durations.begin() + static_cast<std::ptrdiff_t>(durations.size() / 2), durations.end());
            medianLaunch = durations[durations.size() / 2];
        }
        return regions;
    }

    // The CPU's time inside the regions scaled by `factor`: the captured dispatch.
    WhatIfRankEdits dispatchEdits(std::int64_t rank, const std::vector<Interval>& regions, double factor)
    {
        WhatIfRankEdits edits;
        edits.rank = rank;
        for (const Interval& r : regions)
            edits.windows.push_back({ r.start, r.end, PathBound::Cpu, factor });
        return edits;
    }

    RuleOutcome hostBound(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        if (!hasDeviceWork(frame))
            return RuleOutcome::na(std::string(kNoGpu));
        if (auto why = pathMissing(c))
            return RuleOutcome::na(*why);
        TimeNs medianLaunch = 0;
        const std::vector<Interval> regions = capturedRegions(frame, medianLaunch);
        if (regions.empty())
            return RuleOutcome::na("no kernel launch calls on the CPU");
        // The fix (CUDA graphs, torch.compile) replays each captured region with one
        // launch: the CPU's dispatch inside it shrinks, the launch delays and the
        // gaps between kernels go, the kernels keep their time. The low end keeps a
        // residue of the dispatch, the high end none; both pay one launch per region.
        // A region replayed takes as long as its kernels plus the launch, or as the
        // dispatch that remains, whichever is longer. The path re-timed with the
        // region's CPU time scaled misses the Python between top-level ops (the path
        // chains them with no weight), so the region's own length is the measure;
        // the re-timed what-if is what the Overview combines with other fixes.
        std::vector<std::vector<Interval>> kernels(regions.size()); // what each region's launches started
        for (const FrameRow& row : frame.rows) {
            if (!row.device || row.indexCorrelation <= 0)
                continue;
            const FrameRow* call = frame.rowOfEvent(row.indexCorrelation);
            if (!call || call->device || !isLaunchCall(frame.name(*call)))
                continue;
            const auto it = std::upper_bound(regions.begin(), regions.end(), call->ts,
                [](TimeNs t, const Interval& i) { return t < i.end; });
            if (it != regions.end() && it->start <= call->ts)
                kernels[static_cast<std::size_t>(it - regions.begin())].push_back({ row.ts, row.end() });
        }
        TimeNs kernelTime = 0;
        std::vector<TimeNs> busy(regions.size());
        for (std::size_t r = 0; r < regions.size(); ++r) {
            busy[r] = totalLength(mergeIntervals(std::move(kernels[r])));
            kernelTime += busy[r];
        }
        const auto saved = [&](double remains) {
            TimeNs total = 0;
            for (std::size_t r = 0; r < regions.size(); ++r) {
                const TimeNs length = regions[r].end - regions[r].start;
                const auto dispatch = static_cast<TimeNs>(remains * static_cast<double>(length));
                total += std::max<TimeNs>(0, length - std::max(busy[r] + medianLaunch, dispatch));
            }
            return c.pctOfMeasured(total);
        };
        const std::vector<std::string> whatIf { "kind:launch_overhead=0", "kind:kernel_kernel_gap=0" };
        const double residual = std::clamp(p["residual_dispatch_pct"], 0.0, 100.0) / 100.0;
        const double replays = c.pctOfMeasured(static_cast<TimeNs>(regions.size()) * medianLaunch);
        const std::vector<WhatIfRankEdits> low { dispatchEdits(frame.rank, regions, residual) };
        const double retimed = std::max(0.0, c.whatIfGainPct(whatIf, low).value_or(0) - replays);
        const double gain = std::max(saved(residual), retimed);
        const double high = std::max(gain, saved(0.0));
        if (gain < p["min_gain_pct"])
            return RuleOutcome::none();
        const auto isLaunchWait = [](const PathSegment& s) {
            return s.piece.bound == PathBound::LaunchOverhead || s.piece.bound == PathBound::KernelGap
                || (s.piece.bound == PathBound::Cpu && isLaunchCall(s.piece.name));
        };
        TimeNs regionTime = 0;
        for (const Interval& r : regions)
            regionTime += r.end - r.start;
        std::vector<Interval> cpuInRegions = regions;
        const TimeNs dispatchOnPath = c.pathTimeOf([&](const PathSegment& s) {
            if (s.rank != frame.rank || s.piece.bound != PathBound::Cpu)
                return false;
            const auto it = std::upper_bound(cpuInRegions.begin(), cpuInRegions.end(), s.piece.start,
                [](TimeNs t, const Interval& i) { return t < i.end; });
            return it != cpuInRegions.end() && it->start <= s.piece.start;
        });
        const TimeNs onPath = c.pathTimeOf(isLaunchWait);
        const auto [hostWaitUs, idleUs] = hostWaitIdleUs(c);
        Finding f =
            newFinding(kHostBound, "GPU idle waiting for kernel launches (host bound)", gain, { frame.rank });
        f.gainHighPct = high;
        f.evidence.push_back("CPU dispatch inside the " + std::to_string(regions.size())
            + " captured region(s) (first to last kernel launch of each step, " + formatMs(regionTime)
            + ") on the critical path: " + formatMs(dispatchOnPath) + " ("
            + formatPct(c.pctOfMeasured(dispatchOnPath)) + " of " + c.measuredWhat() + ")");
        // Not a part of the dispatch above: launch delays and kernel gaps are GPU-side
        // pieces of the path, and launch calls outside the regions count too.
        f.evidence.push_back("launch calls, launch delays and kernel gaps on the critical path (the symptom, "
                             "anywhere in the trace): "
            + formatMs(onPath));
        f.evidence.push_back("GPU idle waiting for the host (idle time breakdown, host_wait + kernel_wait): "
            + formatMs(static_cast<TimeNs>(hostWaitUs * 1000)) + " of "
            + formatMs(static_cast<TimeNs>(idleUs * 1000)) + " idle");
        f.evidence.push_back("model: each region replays as one CUDA graph and takes as long as its kernels ("
            + formatMs(kernelTime) + " in all) plus one " + formatMs(medianLaunch)
            + " launch, or as the CPU's dispatch that remains, " + formatPct(residual * 100)
            + " of the region (low end: guards, graph breaks) or none (high end): gain " + formatPct(gain)
            + " to " + formatPct(high)
            + "; re-timed on the path with the region's CPU time scaled: " + formatPct(retimed));
        f.suggestion =
            "Launch fewer, larger pieces of work: capture the step in CUDA graphs "
            "(torch.cuda.graphs, torch.compile(mode=\"reduce-overhead\")), fuse ops with torch.compile, "
            "or raise the batch size so each kernel runs longer than its launch.";
        f.where.push_back(pathWhere(c, frame.rank, isLaunchWait));
        f.gainBasis =
            "what-if: each step's launches captured in a CUDA graph (the CPU's dispatch from its "
            "first to its last launch shrinks, launch overhead and kernel gaps go), re-timed on the "
            "critical path";
        f.whatIf = whatIf;
        f.whatIfEdits = low;
        return { { f }, std::nullopt };
    }

    // ---- gpu_idle_sync -------------------------------------------------------

    const RuleInfo kSync { "gpu_idle_sync", "GPU waits on host syncs",
        { { "min_gain_pct", 0.5,
            "report when the GPU idle after syncs holds at least this % of the critical path (the gain's "
            "high end)" } },
        "idle" };

    // A call that holds the host until the GPU is done: a sync or a blocking copy
    // (an event query returns at once, an async copy waits only when pageable).
    bool isSyncCall(std::string_view name)
    {
        const SyncCall call = syncCallOf(name);
        return call == SyncCall::DeviceSync || call == SyncCall::StreamSync || call == SyncCall::EventSync
            || call == SyncCall::Copy;
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
        // Without the sync the host does not wait: it spends the wait issuing what
        // comes next, so the GPU keeps its queue (closingEdits).
        std::vector<WaitedStretch> waited;
        for (std::size_t i = 0; i < syncs.size(); ++i)
            waited.push_back({ idle[i], syncs[i]->dur });
        TimeNs closable = 0;
        const WhatIfRankEdits edits = closingEdits(c, frame.rank, std::move(waited), closable);
        const std::vector<WhatIfRankEdits> fix { edits };
        const double gain = c.whatIfGainPct({}, fix).value_or(c.pctOfMeasured(closable));
        const double high = std::max(gain, c.pctOfMeasured(onPath));
        if (high < p["min_gain_pct"])
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
            + ", of it on the critical path: " + formatMs(onPath) + " (" + formatPct(c.pctOfMeasured(onPath))
            + " of " + c.measuredWhat() + ")");
        f.evidence.push_back("model: without the syncs the host issues the next work while the GPU runs, so "
                             "each idle stretch closes by the time the host waited in the syncs before it ("
            + formatMs(closable) + " of the path; low end, re-timed); the high end closes all of it: gain "
            + formatPct(gain) + " to " + formatPct(high));
        f.gainHighPct = high;
        f.whatIfEdits = fix;
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
        f.gainBasis = "what-if: the syncs removed, the GPU keeps its queue as far as the host's wait in them "
                      "allows, re-timed on the critical path";
        return { { f }, std::nullopt };
    }

    // ---- short_kernels -------------------------------------------------------

    const RuleInfo kShort { "short_kernels", "many kernels shorter than their launch",
        { { "min_count", 50, "at least this many kernels run shorter than their launch call" },
            { "min_share_pct", 30, "and they are at least this % of the rank's launches" },
            { "residual_launch_pct", 10,
                "the low end's: the share of the launch calls' host time left (one graph launch or fused "
                "kernel launch covers many)" } },
        "launchStats" };

    // Per short kernel, the gap before it on its stream (from the previous GPU work's end).
    std::vector<Interval> gapsBefore(const RankFrame& frame, const std::unordered_set<std::int64_t>& kernels)
    {
        std::map<std::int64_t, std::vector<const FrameRow*>> byStream;
        for (const FrameRow& row : frame.rows)
            if (row.device)
                byStream[row.stream].push_back(&row);
        std::vector<Interval> gaps;
        for (auto& [stream, rows] : byStream) {
            std::stable_sort(
                rows.begin(), rows.end(), [](const FrameRow* a, const FrameRow* b) { return a->ts < b->ts; });
            TimeNs previousEnd = std::numeric_limits<TimeNs>::min();
            for (const FrameRow* row : rows) {
                if (kernels.count(row->eventIndex) && previousEnd != std::numeric_limits<TimeNs>::min()
                    && previousEnd < row->ts)
                    gaps.push_back({ previousEnd, row->ts });
                previousEnd = std::max(previousEnd, row->end());
            }
        }
        return mergeIntervals(std::move(gaps));
    }

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
        const auto isTheirs = [&](const PathSegment& s) {
            if (s.piece.bound == PathBound::Cpu)
                return cpu.count(s.piece.eventIndex) > 0;
            return (s.piece.bound == PathBound::LaunchOverhead || s.piece.bound == PathBound::KernelGap)
                && gpu.count(s.piece.eventIndex) > 0;
        };
        const TimeNs onPath = c.pathTimeOf(isTheirs);
        // The fix (fusing the small ops, or a CUDA graph) launches many kernels with one
        // call: the launch calls leave the host. The low end is a graph replay: the calls
        // keep `residual_launch_pct` of their time and the kernels still run one by one,
        // with their launch delays and the gaps between them. The high end is fusion: the
        // calls go, and with them the kernels' launch delays and the gaps before them.
        const double residual = std::clamp(p["residual_launch_pct"], 0.0, 100.0) / 100.0;
        WhatIfRankEdits graph;
        graph.rank = frame.rank;
        WhatIfRankEdits fused;
        fused.rank = frame.rank;
        for (const LaunchRecord& l : outliers.shortKernels) {
            if (const FrameRow* call = frame.rowOfEvent(l.cpuEventIndex)) {
                graph.rows[rowIndexOf(frame, *call)] = residual;
                fused.rows[rowIndexOf(frame, *call)] = 0.0;
            }
            if (const FrameRow* kernel = frame.rowOfEvent(l.gpuEventIndex))
                fused.launchDelays[rowIndexOf(frame, *kernel)] = 0.0;
        }
        for (const Interval& gap : gapsBefore(frame, gpu))
            fused.windows.push_back({ gap.start, gap.end, PathBound::KernelGap, 0.0 });
        const std::vector<WhatIfRankEdits> fix { graph };
        const double gain = c.whatIfGainPct({}, fix).value_or(c.pctOfMeasured(onPath));
        const double high = std::max(gain, c.whatIfGainPct({}, { fused }).value_or(gain));
        Finding f = newFinding(kShort,
            std::to_string(n) + " kernels run shorter than their launch (" + formatPct(share)
                + " of launches)",
            gain, { frame.rank });
        f.gainHighPct = high;
        f.evidence.push_back(std::to_string(n) + " of " + std::to_string(launches.size())
            + " launches: GPU time " + formatMs(gpuTime) + " against " + formatMs(cpuTime)
            + " of launch calls");
        f.evidence.push_back(
            "their launches and the gaps before them on the critical path: " + formatMs(onPath));
        f.evidence.push_back(
            "model: one call launches many of them (fused ops or a CUDA graph), re-timed on the "
            "critical path; the low end keeps "
            + formatPct(100.0 * residual)
            + " of the launch calls' host time and every launch delay and gap (a graph replays the kernels "
              "one by one), the high end none of them (fused): gain "
            + formatPct(gain) + " to " + formatPct(high));
        f.suggestion = "Fuse the small ops (torch.compile, fused optimizers such as foreach/fused Adam, "
                       "fused kernels) or capture them in a CUDA graph so one launch covers many.";
        f.where.push_back(pathWhere(c, frame.rank, isTheirs));
        f.gainBasis = "what-if: the short kernels' launch calls cut to " + formatPct(100.0 * residual)
            + " (one launch covers many), re-timed on the critical path";
        f.whatIfEdits = fix;
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
        std::vector<const LaunchRecord*> outliers;
        std::vector<TimeNs> delays;
        delays.reserve(launches.size());
        TimeNs worst = 0;
        TimeNs total = 0;
        for (const LaunchRecord& l : launches) {
            delays.push_back(l.launchDelayNs);
            if (l.launchDelayNs > cutoff) {
                late.insert(l.gpuEventIndex);
                outliers.push_back(&l);
                worst = std::max(worst, l.launchDelayNs);
                total += l.launchDelayNs;
            }
        }
        if (late.empty() || static_cast<double>(late.size()) < p["min_count"])
            return RuleOutcome::none();
        std::nth_element(
            delays.begin(), delays.begin() + static_cast<std::ptrdiff_t>(delays.size() / 2), delays.end());
        const TimeNs typical = delays[delays.size() / 2];
        const auto isLate = [&](const PathSegment& s) {
            return s.piece.bound == PathBound::LaunchOverhead && late.count(s.piece.eventIndex) > 0;
        };
        const TimeNs onPath = c.pathTimeOf(isLate);
        // The fix (whatever held the stream or the GPU: a full queue, another process)
        // starts each outlier sooner: at the cutoff after its launch (low end) or as
        // soon as the rank's median launch (high end), re-timed on the path (a kernel
        // that waited for the work before it on its stream gains nothing).
        const auto edits = [&](TimeNs delay) {
            WhatIfRankEdits e;
            e.rank = frame.rank;
            for (const LaunchRecord* l : outliers)
                if (const FrameRow* kernel = frame.rowOfEvent(l->gpuEventIndex))
                    // The path's launch piece runs from the call's start: the call stays.
                    e.launchDelays[rowIndexOf(frame, *kernel)] = std::min(1.0,
                        static_cast<double>(l->cpuDurationNs + delay)
                            / static_cast<double>(l->cpuDurationNs + l->launchDelayNs));
            return e;
        };
        const std::vector<WhatIfRankEdits> fix { edits(cutoff) };
        const double gain = c.whatIfGainPct({}, fix).value_or(c.pctOfMeasured(onPath));
        const double high = std::max(gain, c.whatIfGainPct({}, { edits(typical) }).value_or(gain));
        Finding f = newFinding(kDelay,
            std::to_string(late.size()) + " kernels started more than " + formatMs(cutoff)
                + " after their launch",
            gain, { frame.rank });
        f.gainHighPct = high;
        f.evidence.push_back(std::to_string(late.size()) + " of " + std::to_string(launches.size())
            + " launches (launch statistics): worst delay " + formatMs(worst) + ", together "
            + formatMs(total));
        f.evidence.push_back("their delays on the critical path: " + formatMs(onPath));
        f.evidence.push_back("model: each outlier starts " + formatMs(cutoff)
            + " after its launch (low end) or after the rank's median delay, " + formatMs(typical)
            + " (high end), re-timed on the critical path: gain " + formatPct(gain) + " to "
            + formatPct(high));
        f.suggestion =
            "A long launch delay means the GPU queue was full or the stream waited: look at what ran "
            "on the stream before (queue length counters); if the queue is shallow, look for other "
            "processes or MPS sharing the GPU.";
        f.where.push_back(pathWhere(c, frame.rank, isLate));
        if (f.where.front().events.empty()) // none on the path: show the worst launches anyway
            for (const LaunchRecord& l : launches)
                if (late.count(l.gpuEventIndex) && f.where.front().events.size() < kMaxWherePerRank)
                    f.where.front().events.push_back(l.gpuEventIndex);
        f.gainBasis = "what-if: the outliers' launch delays cut to " + formatMs(cutoff)
            + ", re-timed on the critical path";
        f.whatIfEdits = fix;
        return { { f }, std::nullopt };
    }

} // namespace

std::vector<Rule> gpuIdleRules()
{
    return { { kHostBound, RuleScope::Rank, hostBound }, { kSync, RuleScope::Rank, hostSync },
        { kShort, RuleScope::Rank, shortKernels }, { kDelay, RuleScope::Rank, launchDelays } };
}

} // namespace ks::core
