// Rules on the GPU's busy time that Nsight Systems' expert system has:
// gpu_starvation (idle gaps longer than a threshold between the GPU's first and
// last work: the gaps before the first and after the last are the profile's
// edges, not starvation) and low_gpu_utilisation (the span cut into fixed
// windows, those busy less than a share). Their gains are the fix re-timed:
// the host's work in the idle time runs beside the GPU's work before it (low
// end) or leaves the loop (high end). They overlap each other and the gpu_idle_*
// rules (the same idle time): the Overview re-times two of them together.

#include "core/insights/rule_support.h"

#include <algorithm>

namespace ks::core {

namespace {

    // The rank's GPU work, every stream merged (frame time).
    std::vector<Interval> gpuBusy(const RankFrame& frame)
    {
        std::vector<Interval> busy;
        for (const FrameRow& row : frame.rows)
            if (row.device && row.dur > 0)
                busy.push_back({ row.ts, row.end() });
        return mergeIntervals(std::move(busy));
    }

    // The idle stretches between merged busy intervals.
    std::vector<Interval> gapsBetween(const std::vector<Interval>& busy)
    {
        std::vector<Interval> gaps;
        for (std::size_t i = 1; i < busy.size(); ++i)
            gaps.push_back({ busy[i - 1].end, busy[i].start });
        return gaps;
    }

    TimeNs overlap(const std::vector<Interval>& merged, Interval window)
    {
        TimeNs sum = 0;
        auto it = std::lower_bound(merged.begin(), merged.end(), window.start,
            [](const Interval& i, TimeNs t) { return i.end <= t; });
        for (; it != merged.end() && it->start < window.end; ++it)
            sum += std::min(it->end, window.end) - std::max(it->start, window.start);
        return sum;
    }

    // Each idle stretch (ascending, not overlapping) with the GPU's busy time since
    // the stretch before it (or its first work): the work the host could have run
    // beside, so that the GPU finds its next work queued. Feeding the GPU closes each
    // stretch by at most that.
    std::vector<WaitedStretch> besideTheWorkBefore(
        const std::vector<Interval>& busy, const std::vector<Interval>& idle)
    {
        std::vector<WaitedStretch> out;
        TimeNs from = busy.empty() ? 0 : busy.front().start;
        for (const Interval& i : idle) {
            out.push_back({ i, overlap(busy, { from, i.start }) });
            from = i.end;
        }
        return out;
    }

    // The fix re-timed, low and high end, in % of the measured time.
    // Not kept as the finding's what-if: gpu_starvation and low_gpu_utilisation suggest
    // the same fix for much the same idle time, and their edits re-timed together would
    // shorten the same host work twice. Fixing both counts their shared idle time once
    // (the gain intervals), as for a finding without a what-if.
    struct FedGain
    {
        double low = 0;
        double high = 0;
    };

    FedGain feedingTheGpu(InsightsContext& c, std::int64_t rank, const std::vector<WaitedStretch>& stretches)
    {
        FedGain g;
        const HostPathPieces host = hostPathPieces(c, rank);
        TimeNs closable = 0;
        const WhatIfRankEdits edits = closingEdits(c, rank, host, stretches, closable);
        std::vector<WaitedStretch> offTheLoop = stretches;
        for (WaitedStretch& s : offTheLoop)
            s.wait = s.idle.end - s.idle.start;
        const WhatIfRankEdits all = closingEdits(c, rank, host, offTheLoop, closable);
        g.low = edits.empty() ? 0 : c.whatIfGainPct({}, { edits }).value_or(0);
        g.high = std::max(g.low, all.empty() ? 0 : c.whatIfGainPct({}, { all }).value_or(0));
        return g;
    }

    constexpr const char* kFedModel =
        "model: the host's work in each idle stretch runs beside the GPU's work before it (since the "
        "previous stretch), so the stretch closes by at most that GPU time; the path re-timed: ";

    std::optional<std::string> needsGpuAndPath(InsightsContext& c, const RankFrame& frame)
    {
        if (!hasDeviceWork(frame))
            return std::string(kNoGpu);
        return pathMissing(c);
    }

    // ---- gpu_starvation ------------------------------------------------------

    const RuleInfo kStarvation { "gpu_starvation",
        "GPU idle gaps longer than a threshold (Nsight's GPU starvation)",
        { { "min_gap_ms", 1.0,
              "an idle gap between two pieces of GPU work counts from this long (the time before the first "
              "and after the last is not a gap)" },
            { "min_gain_pct", 1.0, "report when the gaps hold at least this % of the critical path" } },
        "idle" };

    RuleOutcome gpuStarvation(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        if (auto why = needsGpuAndPath(c, frame))
            return RuleOutcome::na(*why);
        const auto minGap = static_cast<TimeNs>(p["min_gap_ms"] * 1e6);
        std::vector<Interval> gaps;
        for (const Interval& g : gapsBetween(gpuBusy(frame)))
            if (g.end - g.start >= minGap)
                gaps.push_back(g);
        if (gaps.empty())
            return RuleOutcome::none();
        const std::vector<Interval> busy = gpuBusy(frame);
        const TimeNs onPath = c.pathTimeWithin(frame.rank, gaps);
        const FedGain fed = feedingTheGpu(c, frame.rank, besideTheWorkBefore(busy, gaps));
        const double gain = fed.low;
        RankGainIntervals measuredIn { frame.rank, gaps };
        if (gain < p["min_gain_pct"])
            return RuleOutcome::none();
        // Evidence counts from the GPU's first work: the same for the rank alone (a summary) or in its job.
        const TimeNs firstWork = busy.front().start;
        std::sort(gaps.begin(), gaps.end(),
            [](const Interval& a, const Interval& b) { return a.end - a.start > b.end - b.start; });
        Finding f = newFinding(kStarvation,
            std::to_string(gaps.size()) + " GPU idle gap(s) of " + formatMs(minGap) + " or more", gain,
            { frame.rank });
        f.evidence.push_back(std::to_string(gaps.size()) + " gaps, " + formatMs(totalLength(gaps))
            + " in all; the longest " + formatMs(gaps.front().end - gaps.front().start) + ", "
            + formatMs(gaps.front().start - firstWork) + " after the GPU's first work");
        f.evidence.push_back("on the critical path: " + formatMs(onPath) + " ("
            + formatPct(c.pctOfMeasured(onPath)) + " of " + c.measuredWhat() + ")");
        f.evidence.push_back(std::string(kFedModel) + formatPct(gain)
            + "; the host's work in the gaps off the training loop entirely (high end): "
            + formatPct(fed.high));
        f.gainHighPct = fed.high;
        f.where.push_back(intervalsWhere(c, frame.rank, gaps));
        f.gainIntervals.push_back(std::move(measuredIn));
        f.suggestion =
            "Keep the GPU fed through these gaps: look at what the CPU does in them (data loading, "
            "host syncs, Python work between steps, checkpointing); overlap it with GPU work "
            "(DataLoader workers and pin_memory, non_blocking copies, fewer .item() calls) or move "
            "it off the training loop.";
        f.gainBasis = "what-if: the host's work in each gap beside the GPU's work before it, re-timed on the "
                      "critical path (high end: that work off the loop)";
        return { { f }, std::nullopt };
    }

    // ---- low_gpu_utilisation -------------------------------------------------

    const RuleInfo kLowUtilisation { "low_gpu_utilisation",
        "stretches of time the GPU is mostly idle (Nsight's GPU low utilisation)",
        { { "windows", 30, "the GPU's span from its first to its last work is cut into this many windows" },
            { "max_busy_pct", 50, "a window is low when the GPU is busy less than this % of it" },
            { "min_gain_pct", 1.0,
                "report when the low windows' idle time holds at least this % of the critical path" } },
        "idle" };

    RuleOutcome lowGpuUtilisation(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        if (auto why = needsGpuAndPath(c, frame))
            return RuleOutcome::na(*why);
        const std::vector<Interval> busy = gpuBusy(frame);
        const TimeNs first = busy.front().start;
        const TimeNs span = busy.back().end - first;
        const auto count = static_cast<TimeNs>(std::clamp(p["windows"], 1.0, 100000.0));
        if (span < count)
            return RuleOutcome::none();
        const std::vector<Interval> gaps = gapsBetween(busy);
        std::vector<Interval> low;
        std::vector<Interval> idle; // the gaps inside the low windows, a piece per gap and window
        double lowest = 100;
        Interval lowestWindow {};
        for (TimeNs i = 0; i < count; ++i) {
            const Interval window { first + span * i / count, first + span * (i + 1) / count };
            const double busyPct = 100.0 * static_cast<double>(overlap(busy, window))
                / static_cast<double>(window.end - window.start);
            if (busyPct >= p["max_busy_pct"])
                continue;
            low.push_back(window);
            if (busyPct < lowest) {
                lowest = busyPct;
                lowestWindow = window;
            }
            for (const Interval& g : gaps)
                if (g.end > window.start && g.start < window.end)
                    idle.push_back({ std::max(g.start, window.start), std::min(g.end, window.end) });
        }
        if (low.empty())
            return RuleOutcome::none();
        const TimeNs onPath = c.pathTimeWithin(frame.rank, idle);
        // A gap's pieces in consecutive low windows are one stretch (a gap crossing a
        // window boundary is in both), fed by the GPU's work before the gap.
        const FedGain fed = feedingTheGpu(c, frame.rank, besideTheWorkBefore(busy, mergeIntervals(idle)));
        const double gain = fed.low;
        if (gain < p["min_gain_pct"])
            return RuleOutcome::none();
        const TimeNs lowTime = totalLength(mergeIntervals(low));
        const TimeNs idleTime = totalLength(mergeIntervals(idle));
        Finding f = newFinding(kLowUtilisation,
            std::to_string(low.size()) + " of " + std::to_string(count) + " windows with the GPU busy under "
                + formatPct(p["max_busy_pct"]),
            gain, { frame.rank });
        f.evidence.push_back("windows of " + formatMs(span / count) + " over the GPU's " + formatMs(span)
            + "; " + std::to_string(low.size()) + " low, the GPU busy "
            + formatPct(100.0 * static_cast<double>(lowTime - idleTime) / static_cast<double>(lowTime))
            + " of them");
        f.evidence.push_back("the lowest: " + formatPct(lowest) + " busy, "
            + formatMs(lowestWindow.start - first) + " to " + formatMs(lowestWindow.end - first)
            + " after the GPU's first work");
        f.evidence.push_back("idle time in them on the critical path: " + formatMs(onPath));
        f.evidence.push_back(std::string(kFedModel) + formatPct(gain)
            + "; the host's work in them off the loop entirely (high end): " + formatPct(fed.high));
        f.gainHighPct = fed.high;
        f.where.push_back(intervalsWhere(c, frame.rank, low));
        f.gainIntervals.push_back({ frame.rank, idle });
        f.suggestion =
            "Find what the host does in these windows (the timeline over them): a GPU that is mostly "
            "idle for long stretches waits for data, the host, or other ranks; batch more work per "
            "launch, overlap data loading, and remove host syncs there.";
        f.gainBasis = "what-if: the host's work in the low windows' idle time beside the GPU's work before "
                      "it, re-timed on the critical path (high end: that work off the loop)";
        return { { f }, std::nullopt };
    }

} // namespace

std::vector<Rule> gpuUtilisationRules()
{
    return { { kStarvation, RuleScope::Rank, gpuStarvation },
        { kLowUtilisation, RuleScope::Rank, lowGpuUtilisation } };
}

} // namespace ks::core
