#include "core/analysis/hta/temporal_breakdown.h"

#include "core/analysis/hta/kernel_breakdown_support.h"
#include "core/analysis/tables/pandas_numerics.h"

#include <cmath>
#include <optional>
#include <string>

namespace ks::core {

namespace {

    // One rank's times in frame units (see KernelSpan).
    struct RankTimes
    {
        double idle = 0.0;
        double compute = 0.0;
        double nonCompute = 0.0;
        double kernel = 0.0;
    };

    // Σ(end − start) as pandas computes it: end.sum() − ts.sum(), pairwise float sums.
    double mergedLength(const std::vector<Span>& merged)
    {
        std::vector<double> starts;
        std::vector<double> ends;
        starts.reserve(merged.size());
        ends.reserve(merged.size());
        for (const Span& s : merged) {
            starts.push_back(s.start);
            ends.push_back(s.end);
        }
        return pairwiseSum(ends) - pairwiseSum(starts);
    }

    // §3: the span from the first merged start to the last merged end; idle = span − busy.
    // Busy counts every GPU-work row, OTHER types included (sync events in compat, Q3).
    std::optional<RankTimes> rankTimes(const RankFrame& frame, AnalysisMode mode)
    {
        const std::vector<KernelSpan> spans = gpuWorkSpans(frame, mode);
        if (spans.empty())
            return std::nullopt;
        const std::vector<Span> merged = mergeSpans(spans, mode);
        RankTimes t;
        t.kernel = merged.back().end - merged.front().start;
        t.idle = t.kernel - mergedLength(merged);
        t.compute = mergedLength(mergeSpans(spansOfType(spans, KernelType::Computation), mode));
        t.nonCompute = t.kernel - t.compute - t.idle;
        return t;
    }

    // HTA asserts these; a trace with ns-rounded durations of −1 can break them.
    bool consistent(const RankTimes& t)
    {
        return t.idle <= t.kernel && t.compute <= t.kernel && t.nonCompute >= 0.0;
    }

    Table temporalTable()
    {
        Table t;
        t.name = "temporal_breakdown";
        using namespace temporal_breakdown;
        for (const ColumnId& c : { kRank, kIdleTime, kComputeTime, kNonComputeTime, kKernelTime, kIdlePctg,
                 kComputePctg, kNonComputePctg })
            t.columns.push_back(c.column());
        return t;
    }

    // Percentages as HTA: round(100 * (x / kernel_time), 2) on the µs values.
    Cell percentCell(double partUs, double kernelUs)
    {
        const double pct = roundHalfEven(100.0 * (partUs / kernelUs), 2);
        return std::isnan(pct) ? Cell {} : Cell { pct };
    }

    void addRankRow(Table& table, std::int64_t rank, const RankTimes& t, AnalysisMode mode)
    {
        const double idle = spanUnitsToUs(t.idle, mode);
        const double compute = spanUnitsToUs(t.compute, mode);
        const double nonCompute = spanUnitsToUs(t.nonCompute, mode);
        const double kernel = spanUnitsToUs(t.kernel, mode);
        table.addRow({ rank, idle, compute, nonCompute, kernel, percentCell(idle, kernel),
            percentCell(compute, kernel), percentCell(nonCompute, kernel) });
    }

} // namespace

AnalysisOutput temporalBreakdown(const FrameSet& frames, const AnalysisOptions& options)
{
    const AnalysisMode mode = options.mode;
    Table table = temporalTable();
    bool anyGpuWork = false;
    for (const RankFrame& frame : frames.ranks) {
        const std::optional<RankTimes> times = rankTimes(frame, mode);
        if (!times) {
            // HTA raises IndexError for the whole call; default mode keeps the rank, without values.
            if (mode == AnalysisMode::HtaCompat)
                return AnalysisOutput::notApplicable("no GPU work on rank " + std::to_string(frame.rank));
            table.addRow({ frame.rank, Cell {}, Cell {}, Cell {}, Cell {}, Cell {}, Cell {}, Cell {} });
            continue;
        }
        if (mode == AnalysisMode::HtaCompat && !consistent(*times))
            return AnalysisOutput::notApplicable("inconsistent GPU times on rank "
                + std::to_string(frame.rank)
                + " (HTA's assertion fails: negative durations from its ns rounding)");
        anyGpuWork = true;
        addRankRow(table, frame.rank, *times, mode);
    }
    if (!anyGpuWork)
        return AnalysisOutput::notApplicable("no GPU work on any selected rank");
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(table)));
}

} // namespace ks::core
