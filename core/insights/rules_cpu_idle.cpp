// cpu_idle: TraceLens's CPU idle, the time neither the host nor the GPU does
// anything the trace records: no CPU slice runs (ops, runtime calls, Python
// functions; the step annotations that span everything are not work) and no GPU
// work either, between the rank's first and last event. What runs there is
// unprofiled (Python without with_stack, the garbage collector, waiting on a
// lock, a file, another process). The critical path does not cross such a
// stretch (it joins the recorded work either side), so the gain is the
// stretches' length, at most the measured time the path leaves out.

#include "core/insights/rule_support.h"

#include <algorithm>

namespace ks::core {

namespace {

    bool isWork(const RankFrame& frame, const FrameRow& row)
    {
        if (row.device)
            return true;
        // Step and user annotations span the work they name; they are not work themselves.
        return frame.category(row) != "user_annotation" && !frame.name(row).starts_with("ProfilerStep#");
    }

    const RuleInfo kCpuIdle { "cpu_idle",
        "time neither the host nor the GPU does recorded work (TraceLens's CPU idle)",
        { { "min_gap_us", 100, "an idle stretch counts from this long" },
            { "min_gain_pct", 1.0,
                "report when the idle stretches hold at least this % of the critical path" } },
        "temporal" };

    RuleOutcome cpuIdle(InsightsContext& c, const RuleParams& p)
    {
        const RankFrame& frame = onlyRank(c);
        if (auto why = pathMissing(c))
            return RuleOutcome::na(*why);
        std::vector<Interval> work;
        for (const FrameRow& row : frame.rows)
            if (row.dur > 0 && isWork(frame, row))
                work.push_back({ row.ts, row.end() });
        if (work.size() < 2)
            return RuleOutcome::na("fewer than two recorded slices of work on this rank");
        const std::vector<Interval> merged = mergeIntervals(std::move(work));
        const auto minGap = static_cast<TimeNs>(p["min_gap_us"] * 1000);
        std::vector<Interval> idle;
        for (std::size_t i = 1; i < merged.size(); ++i)
            if (merged[i].start - merged[i - 1].end >= minGap)
                idle.push_back({ merged[i - 1].end, merged[i].start });
        if (idle.empty())
            return RuleOutcome::none();
        // The critical path joins the work either side of a stretch without crossing it (nothing
        // recorded runs there), so the stretch is measured time off the path: removing its cause
        // gives back at most its length, and no more than the measured time the path leaves out.
        const TimeNs offPath = std::max<TimeNs>(0, c.measured() - c.path().value().path.length);
        const TimeNs gained = std::min(totalLength(idle), offPath);
        const double gain = c.pctOfMeasured(gained);
        if (gain < p["min_gain_pct"])
            return RuleOutcome::none();
        std::sort(idle.begin(), idle.end(),
            [](const Interval& a, const Interval& b) { return a.end - a.start > b.end - b.start; });
        Finding f = newFinding(kCpuIdle,
            std::to_string(idle.size()) + " stretch(es) with neither the host nor the GPU working", gain,
            { frame.rank });
        f.evidence.push_back(std::to_string(idle.size()) + " stretches of " + formatMs(minGap) + " or more, "
            + formatMs(totalLength(idle)) + " in all; the longest "
            + formatMs(idle.front().end - idle.front().start) + ", "
            + formatMs(idle.front().start - merged.front().start) + " after the rank's first work");
        f.evidence.push_back("measured time the critical path leaves out: " + formatMs(offPath)
            + "; the stretches " + formatMs(gained) + " of it (" + formatPct(gain) + " of " + c.measuredWhat()
            + ")");
        f.where.push_back(intervalsWhere(c, frame.rank, idle));
        f.suggestion =
            "Something the profiler does not record runs here: profile with with_stack=True (Python "
            "functions) to see it; usual causes are Python work between ops, the garbage collector "
            "(gc.freeze, fewer temporary objects), logging or checkpoint I/O, and waiting on a "
            "DataLoader worker or another process.";
        f.gainBasis = "the idle stretches' length, at most the measured time off the critical path";
        return { { f }, std::nullopt };
    }

} // namespace

std::vector<Rule> cpuIdleRules()
{
    return { { kCpuIdle, RuleScope::Rank, cpuIdle } };
}

} // namespace ks::core
