#include "core/analysis/hta/memory_bandwidth.h"

#include "core/analysis/frame/kernel_type.h"
#include "core/analysis/hta/counters_support.h"
#include "core/analysis/tables/microseconds.h"
#include "core/analysis/tables/numpy_argsort.h"
#include "core/analysis/tables/pandas_numerics.h"

#include <algorithm>
#include <string>
#include <string_view>

namespace ks::core {

namespace {

    // One change of a copy kind's bandwidth: +bw at an op's start, -bw at its end.
    struct BwPoint
    {
        std::uint32_t label = 0; // HTA's row label: op i's start is i, its end n + i
        std::uint32_t row = 0; // the memory op's frame row
        std::int64_t tsNs = 0;
        double tsUs = 0.0; // the value HTA sorts and writes
        double delta = 0.0;
        double value = 0.0; // running sum after this point
        std::string kind; // "Memcpy HtoD", "Memset", ...
    };

    struct BwSeries
    {
        const RankFrame* frame = nullptr;
        std::vector<BwPoint> points; // by kind (ascending name), in time order within a kind
    };

    double bandwidthOf(const RankFrame& frame, const FrameRow& row)
    {
        const std::uint32_t extra = frame.trace->extraRow(row.slice);
        return extra == kNoRow ? 0.0 : frame.trace->extra.memoryBandwidthGBps[extra];
    }

    bool isMemoryOp(const FrameRow& row, AnalysisMode mode)
    {
        // Q3: HTA takes any row with a stream; default mode only device activity.
        const bool gpu = mode == AnalysisMode::HtaCompat ? row.stream != -1 : row.device;
        return gpu && row.kernelType == KernelType::Memory;
    }

    // HTA's two frames concatenated: every op's start, then every op's end.
    std::vector<BwPoint> collectPoints(const RankFrame& frame, AnalysisMode mode)
    {
        std::vector<std::uint32_t> ops;
        for (std::uint32_t i = 0; i < frame.rows.size(); ++i)
            if (isMemoryOp(frame.rows[i], mode))
                ops.push_back(i);
        const auto n = static_cast<std::uint32_t>(ops.size());
        std::vector<BwPoint> points(2 * static_cast<std::size_t>(n));
        for (std::uint32_t k = 0; k < n; ++k) {
            const FrameRow& row = frame.rows[ops[k]];
            const double bw = bandwidthOf(frame, row);
            std::string kind = memoryKernelSubType(frame.name(row));
            // HTA stretches 0 µs ops to 1 µs so the end point never precedes the start.
            const std::int64_t durNs = row.dur == 0 ? 1000 : row.dur;
            const double tsUs = microseconds(row.ts);
            // ts + dur in float64 as pandas adds them; ns/1000.0 is the double Python reads from the µs text.
            points[k] = { k, ops[k], row.ts, tsUs, bw, 0.0, kind };
            points[n + k] = { n + k, ops[k], row.ts + durNs, tsUs + microseconds(durNs), -bw, 0.0,
                std::move(kind) };
        }
        return points;
    }

    // Q9: HTA's order at equal timestamps is numpy's unstable quicksort; default
    // mode puts decrements (op ends) before increments there.
    void sortByTime(std::vector<BwPoint>& points, AnalysisMode mode)
    {
        if (mode == AnalysisMode::HtaCompat) {
            std::vector<double> keys;
            keys.reserve(points.size());
            for (const BwPoint& p : points)
                keys.push_back(p.tsUs);
            std::vector<BwPoint> sorted;
            sorted.reserve(points.size());
            for (std::uint32_t i : numpyArgsort<std::uint32_t>(keys))
                sorted.push_back(std::move(points[i]));
            points = std::move(sorted);
            return;
        }
        std::stable_sort(points.begin(), points.end(), [](const BwPoint& a, const BwPoint& b) {
            return a.tsNs != b.tsNs ? a.tsNs < b.tsNs : a.delta < b.delta;
        });
    }

    BwSeries bandwidthSeries(const RankFrame& frame, AnalysisMode mode)
    {
        BwSeries series;
        series.frame = &frame;
        series.points = collectPoints(frame, mode);
        sortByTime(series.points, mode);
        // groupby("name"): kinds in name order, time order kept inside each.
        std::stable_sort(series.points.begin(), series.points.end(),
            [](const BwPoint& a, const BwPoint& b) { return a.kind < b.kind; });
        // cumsum: sequential float64 sums, so rounding noise (tiny non-zero or
        // negative values where the bandwidth returns to 0) is HTA's too.
        double running = 0.0;
        for (std::size_t i = 0; i < series.points.size(); ++i) {
            if (i == 0 || series.points[i].kind != series.points[i - 1].kind)
                running = 0.0;
            running += series.points[i].delta;
            series.points[i].value = running;
        }
        return series;
    }

    std::vector<BwSeries> allSeries(const FrameSet& frames)
    {
        std::vector<BwSeries> all;
        for (const RankFrame& frame : frames.ranks) {
            BwSeries series = bandwidthSeries(frame, frames.mode);
            if (!series.points.empty())
                all.push_back(std::move(series));
        }
        return all;
    }

    Table seriesTable(const BwSeries& series, bool compat)
    {
        const RankFrame& frame = *series.frame;
        // ts + dur is float64 whenever HTA's dur column is.
        const bool floatTs = frame.floatTimestamps || frame.floatDurations;
        Table t;
        t.name = "memory_bw_rank_" + std::to_string(frame.rank);
        using namespace memory_bandwidth;
        for (const ColumnId& c : { kIndex, kTs, kPid, kName, kBandwidth })
            t.columns.push_back(c.column());
        t.indexColumns = { "index" };
        for (const BwPoint& p : series.points) {
            const ThreadKey& key = counters::threadKeyOf(frame, frame.rows[p.row]);
            // In HTA-compatible mode write the very double pandas computed (ts + dur).
            const Cell ts = compat && floatTs ? Cell(p.tsUs) : microsecondsCell(p.tsNs, floatTs);
            t.addRow({ static_cast<std::int64_t>(p.label), ts,
                counters::threadKeyCell(*frame.trace, key.pid, key.pidIsName), p.kind, p.value });
        }
        return t;
    }

    Cell optionalCell(const std::optional<double>& v)
    {
        return v ? Cell(*v) : Cell();
    }

} // namespace

AnalysisOutput memoryBwTimeSeries(const FrameSet& frames, const AnalysisOptions&)
{
    HtaResult dict;
    dict.kind = HtaResult::Kind::Dict;
    for (const BwSeries& series : allSeries(frames))
        dict.entries.emplace_back(std::to_string(series.frame->rank),
            HtaResult::dataFrame(seriesTable(series, frames.mode == AnalysisMode::HtaCompat)));
    return AnalysisOutput::of(std::move(dict));
}

AnalysisOutput memoryBwSummary(const FrameSet& frames, const AnalysisOptions&)
{
    const std::vector<BwSeries> all = allSeries(frames);
    if (all.empty())
        return AnalysisOutput::of(HtaResult::none());
    Table t;
    t.name = "memory_bw_summary";
    t.columns = { memory_bw_summary::kRank.column(), memory_bw_summary::kName.column() };
    // memory_bw_summary's kMean, kMin and kMax among these (tst_result_columns checks they are there).
    for (const char* stat : { "count", "mean", "std", "min", "25%", "50%", "75%", "max" })
        t.columns.push_back(
            { std::string("memory_bw_gbps.") + stat, std::string_view(stat) == "count" ? "" : "GB/s" });
    t.indexColumns = { "rank", "name" };
    for (const BwSeries& series : all) {
        const auto& points = series.points;
        for (std::size_t begin = 0; begin < points.size();) {
            std::size_t end = begin;
            std::vector<double> positive; // HTA drops the zero points (and negative rounding noise)
            for (; end < points.size() && points[end].kind == points[begin].kind; ++end)
                if (points[end].value > 0)
                    positive.push_back(points[end].value);
            if (!positive.empty()) {
                const Describe d = describe(std::move(positive));
                t.addRow({ series.frame->rank, points[begin].kind, static_cast<double>(d.count),
                    optionalCell(d.mean), optionalCell(d.std), optionalCell(d.min), optionalCell(d.q25),
                    optionalCell(d.q50), optionalCell(d.q75), optionalCell(d.max) });
            }
            begin = end;
        }
    }
    if (t.rows.empty()) {
        // pandas' describe() of an empty groupby keeps only the statistics columns.
        t.columns.erase(t.columns.begin(), t.columns.begin() + 2);
        t.indexColumns.clear();
    }
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(t)));
}

} // namespace ks::core
