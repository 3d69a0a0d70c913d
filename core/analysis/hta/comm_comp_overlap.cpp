#include "core/analysis/hta/comm_comp_overlap.h"

#include "core/analysis/hta/kernel_breakdown_support.h"
#include "core/analysis/tables/pandas_numerics.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ks::core {

namespace {

    struct SweepPoint
    {
        double time = 0.0;
        int delta = 0;
    };

    void addPoints(std::vector<SweepPoint>& points, const std::vector<Span>& merged, int weight)
    {
        for (const Span& s : merged) {
            points.push_back({ s.start, weight });
            points.push_back({ s.end, -weight });
        }
    }

    // §6: comm spans count 1, compute spans 2; time with a running value of exactly 3 overlaps.
    // The running value after the last point at a time does not depend on how ties are
    // ordered, and zero-length steps add nothing, so a stable sort gives HTA's total.
    double overlapTime(const std::vector<Span>& comm, const std::vector<Span>& comp)
    {
        std::vector<SweepPoint> points;
        addPoints(points, comm, 1);
        addPoints(points, comp, 2);
        std::stable_sort(points.begin(), points.end(),
            [](const SweepPoint& a, const SweepPoint& b) { return a.time < b.time; });
        double overlap = 0.0;
        int running = 0;
        for (std::size_t i = 0; i + 1 < points.size(); ++i) {
            running += points[i].delta;
            if (running == 3)
                overlap += points[i + 1].time - points[i].time;
        }
        return overlap;
    }

    // overlap / Σ merged comm time: NaN (null) without communication, as in HTA.
    double overlapPercent(const RankFrame& frame, AnalysisMode mode)
    {
        const std::vector<KernelSpan> spans = gpuWorkSpans(frame, mode);
        const std::vector<Span> comm = mergeSpans(spansOfType(spans, KernelType::Communication), mode);
        const std::vector<Span> comp = mergeSpans(spansOfType(spans, KernelType::Computation), mode);
        double commTime = 0.0;
        for (const Span& s : comm)
            commTime += s.end - s.start;
        return roundHalfEven(100.0 * (overlapTime(comm, comp) / commTime), 2);
    }

} // namespace

AnalysisOutput commCompOverlap(const FrameSet& frames, const AnalysisOptions& options)
{
    Table table;
    table.name = "comm_comp_overlap";
    table.columns = { comm_comp_overlap::kRank.column(), comm_comp_overlap::kOverlapPctg.column() };
    for (const RankFrame& frame : frames.ranks) {
        std::vector<Cell> row(2);
        row[0] = frame.rank;
        if (const double pct = overlapPercent(frame, options.mode); !std::isnan(pct))
            row[1] = pct;
        table.addRow(row);
    }
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(table)));
}

} // namespace ks::core
