// cpu_idle: TraceLens's CPU idle, the time neither the host nor the GPU does
// anything the trace records: no CPU slice runs (ops, runtime calls, Python
// functions; the step annotations that span everything are not work) and no GPU
// work either, between the rank's first and last event (or its steps' start and
// end, when they reach further). What runs there is
// unprofiled (Python without with_stack, the garbage collector, waiting on a
// lock, a file, another process). The gain is the stretches' length, at most
// the measured time the path leaves out plus the path's time inside them.

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
        // The steps delimit the measured time: unrecorded work after the last step's last op
        // (or before the first step's first) is still inside a step, not the profile's edge.
        TimeNs stepsStart = merged.front().start;
        TimeNs stepsEnd = merged.back().end;
        for (const FrameRow& row : frame.rows)
            if (!row.device && frame.name(row).starts_with("ProfilerStep#")) {
                stepsStart = std::min(stepsStart, row.ts);
                stepsEnd = std::max(stepsEnd, row.end());
            }
        if (merged.front().start - stepsStart >= minGap)
            idle.insert(idle.begin(), { stepsStart, merged.front().start });
        if (stepsEnd - merged.back().end >= minGap)
            idle.push_back({ merged.back().end, stepsEnd });
        if (idle.empty())
            return RuleOutcome::none();
        // Nothing recorded runs in a stretch, so removing its cause gives back its length as far
        // as the measure holds it: the path either joins the work either side without crossing
        // it (measured time off the path, Kineto's user annotations) or crosses it as the own
        // time of the step annotation around it (old traces record ProfilerStep as an op); no
        // more than those two.
        const TimeNs offPath = std::max<TimeNs>(0, c.measured() - c.path().value().path.length);
        const TimeNs onPath = c.pathTimeWithin(frame.rank, idle);
        const TimeNs gained = std::min(totalLength(idle), offPath + onPath);
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
            + formatMs(std::max<TimeNs>(0, idle.front().start - merged.front().start))
            + " after the rank's first work");
        f.evidence.push_back("measured time the critical path leaves out: " + formatMs(offPath)
            + "; the path's own time inside the stretches (a step annotation's): " + formatMs(onPath)
            + "; the stretches give back " + formatMs(gained) + " (" + formatPct(gain) + " of "
            + c.measuredWhat() + ")");
        f.where.push_back(intervalsWhere(c, frame.rank, idle));
        f.suggestion =
            "Something the profiler does not record runs here: profile with with_stack=True (Python "
            "functions) to see it; usual causes are Python work between ops, the garbage collector "
            "(gc.freeze, fewer temporary objects), logging or checkpoint I/O, and waiting on a "
            "DataLoader worker or another process.";
        f.gainBasis = "the idle stretches' length, at most the measured time off the critical path and the "
                      "path's time inside them";
        return { { f }, std::nullopt };
    }

} // namespace

std::vector<Rule> cpuIdleRules()
{
    return { { kCpuIdle, RuleScope::Rank, cpuIdle } };
}

} // namespace ks::core
