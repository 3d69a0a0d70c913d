#include "core/analysis/hta/queue_length.h"

#include "core/analysis/frame/launch_api.h"
#include "core/analysis/hta/counters_support.h"
#include "core/analysis/tables/microseconds.h"
#include "core/analysis/tables/numpy_argsort.h"
#include "core/analysis/tables/pandas_numerics.h"

#include <algorithm>
#include <array>
#include <string_view>

namespace ks::core {

namespace {

    // A launch onto a stream (HTA's list in compat mode, every launch API by default; a
    // graph launch adds one to the queue per kernel it launched), linked to its GPU work.
    bool isLaunch(const RankFrame& frame, const FrameRow& row, const LaunchNames& launches)
    {
        return row.indexCorrelation > 0
            && launches.kindOf(frame.trace->slices.name[row.slice]) != LaunchKind::None;
    }

    // One change of a stream's queue: +1 when a launch starts, -1 when its GPU work starts.
    struct QueuePoint
    {
        std::uint32_t row = 0; // the launch or GPU row (event index, ts)
        std::uint32_t gpuRow = 0; // the GPU row that gives stream, pid and tid
        int delta = 0;
        std::int64_t queueLength = 0;
        std::int64_t ts = 0; // copies of the rows' fields the sorts compare:
        std::int64_t stream = 0; // reading them through the rows misses the cache
    };

    // One rank's series: points by ascending stream, in time order within a stream.
    struct QueueSeries
    {
        const RankFrame* frame = nullptr;
        std::vector<QueuePoint> points;

        std::int64_t streamOf(const QueuePoint& p) const { return p.stream; }
    };

    // Launch points (one per matching GPU row, as pandas' left join repeats the
    // launch) then GPU points, both in row order; HTA concatenates them so.
    Result<std::vector<QueuePoint>> collectPoints(const RankFrame& frame, bool compat)
    {
        auto isGpu = [compat](const FrameRow& r) { return compat ? r.stream != -1 : r.device; };
        // GPU rows by correlation, row order kept among equals: a sorted array
        // joins faster than a map of vectors (one allocation instead of one per kernel).
        std::vector<std::pair<std::int64_t, std::uint32_t>> gpuByCorrelation;
        for (std::uint32_t i = 0; i < frame.rows.size(); ++i)
            if (isGpu(frame.rows[i]))
                gpuByCorrelation.emplace_back(frame.rows[i].correlation, i);
        std::stable_sort(gpuByCorrelation.begin(), gpuByCorrelation.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });
        const LaunchNames launchIds(frame.trace->strings,
            compat ? AnalysisMode::HtaCompat : AnalysisMode::Default, HtaLaunchList::StreamLaunches);
        std::vector<QueuePoint> points;
        std::vector<std::int64_t> launched;
        std::size_t launchRows = 0;
        for (std::uint32_t i = 0; i < frame.rows.size(); ++i) {
            const FrameRow& row = frame.rows[i];
            if (!isLaunch(frame, row, launchIds))
                continue;
            launched.push_back(row.correlation);
            auto [first, last] = std::equal_range(gpuByCorrelation.begin(), gpuByCorrelation.end(),
                std::pair<std::int64_t, std::uint32_t> { row.correlation, 0 },
                [](const auto& a, const auto& b) { return a.first < b.first; });
            if (first == last) {
                ++launchRows; // pandas keeps it with a NaN stream; groupby then drops it
                continue;
            }
            for (auto it = first; it != last; ++it) {
                points.push_back({ i, it->second, +1, 0, row.ts, frame.rows[it->second].stream });
                ++launchRows;
            }
        }
        std::sort(launched.begin(), launched.end());
        std::size_t gpuRows = 0;
        for (std::uint32_t i = 0; i < frame.rows.size(); ++i) {
            if (isGpu(frame.rows[i])
                && std::binary_search(launched.begin(), launched.end(), frame.rows[i].correlation)) {
                points.push_back({ i, i, -1, 0, frame.rows[i].ts, frame.rows[i].stream });
                ++gpuRows;
            }
        }
        if (compat && launchRows != gpuRows)
            return Error { ErrorCode::NotApplicable,
                "HTA's queue-length check fails on rank " + std::to_string(frame.rank) + ": "
                    + std::to_string(launchRows) + " launch rows but " + std::to_string(gpuRows)
                    + " GPU rows",
                frame.trace->path, {} };
        return points;
    }

    // Q9: HTA's order at equal timestamps is numpy's unstable quicksort; default
    // mode puts decrements before increments there, otherwise keeping input order.
    void sortByTime(std::vector<QueuePoint>& points, bool compat)
    {
        if (compat) {
            std::vector<double> keys;
            keys.reserve(points.size());
            for (const QueuePoint& p : points)
                keys.push_back(static_cast<double>(p.ts)); // whole µs in ns: same order as HTA's µs
            std::vector<QueuePoint> sorted;
            sorted.reserve(points.size());
            for (std::uint32_t i : numpyArgsort<std::uint32_t>(keys))
                sorted.push_back(points[i]);
            points = std::move(sorted);
            return;
        }
        // Default mode sorts by stream too, in one pass: the same order as the
        // stable sort by time followed by the stable sort by stream below.
        std::stable_sort(points.begin(), points.end(), [](const QueuePoint& a, const QueuePoint& b) {
            if (a.stream != b.stream)
                return a.stream < b.stream;
            return a.ts != b.ts ? a.ts < b.ts : a.delta < b.delta;
        });
    }

    Result<QueueSeries> queueSeries(const RankFrame& frame, bool compat)
    {
        auto points = collectPoints(frame, compat);
        if (!points)
            return points.error();
        QueueSeries series;
        series.frame = &frame;
        series.points = std::move(points).value();
        sortByTime(series.points, compat);
        // groupby("stream"): ascending streams, time order kept inside each.
        if (compat)
            std::stable_sort(series.points.begin(), series.points.end(),
                [&series](const QueuePoint& a, const QueuePoint& b) {
                    return series.streamOf(a) < series.streamOf(b);
                });
        std::int64_t running = 0;
        for (std::size_t i = 0; i < series.points.size(); ++i) {
            if (i == 0 || series.streamOf(series.points[i]) != series.streamOf(series.points[i - 1]))
                running = 0;
            running += series.points[i].delta;
            series.points[i].queueLength = running;
        }
        return series;
    }

    // Every rank's series, ranks without points left out (HTA drops their None).
    Result<std::vector<QueueSeries>> allSeries(const FrameSet& frames)
    {
        const bool compat = frames.mode == AnalysisMode::HtaCompat;
        std::vector<QueueSeries> all;
        for (const RankFrame& frame : frames.ranks) {
            auto series = queueSeries(frame, compat);
            if (!series)
                return series.error();
            if (!series.value().points.empty())
                all.push_back(std::move(series).value());
        }
        return all;
    }

    Table seriesTable(const QueueSeries& series)
    {
        const RankFrame& frame = *series.frame;
        Table t;
        t.name = "queue_length_rank_" + std::to_string(frame.rank);
        using namespace queue_length;
        for (const ColumnId& c : { kIndex, kTs, kPid, kTid, kStream, kQueueLength })
            t.columns.push_back(c.column());
        t.indexColumns = { "index" };
        t.rows.reserve(series.points.size(), t.columns.size());
        for (const QueuePoint& p : series.points) {
            const FrameRow& row = frame.rows[p.row];
            const FrameRow& gpu = frame.rows[p.gpuRow];
            const ThreadKey& key = counters::threadKeyOf(frame, gpu);
            t.addRow({ static_cast<std::int64_t>(row.eventIndex),
                microsecondsCell(row.ts, frame.floatTimestamps),
                counters::threadKeyCell(*frame.trace, key.pid, key.pidIsName),
                counters::threadKeyCell(*frame.trace, key.tid, key.tidIsName), gpu.stream, p.queueLength });
        }
        return t;
    }

    Cell optionalCell(const std::optional<double>& v)
    {
        return v ? Cell(*v) : Cell();
    }

} // namespace

AnalysisOutput queueLengthTimeSeries(const FrameSet& frames, const AnalysisOptions&)
{
    auto all = allSeries(frames);
    if (!all)
        return AnalysisOutput::notApplicable(all.error().message);
    HtaResult dict;
    dict.kind = HtaResult::Kind::Dict;
    for (const QueueSeries& series : all.value())
        dict.entries.emplace_back(
            std::to_string(series.frame->rank), HtaResult::dataFrame(seriesTable(series)));
    return AnalysisOutput::of(std::move(dict));
}

Result<std::vector<std::pair<std::int64_t, std::int64_t>>> queueLengthPoints(
    const RankFrame& frame, AnalysisMode mode)
{
    auto series = queueSeries(frame, mode == AnalysisMode::HtaCompat);
    if (!series)
        return series.error();
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    out.reserve(series.value().points.size());
    for (const QueuePoint& p : series.value().points)
        out.emplace_back(static_cast<std::int64_t>(frame.rows[p.row].eventIndex), p.queueLength);
    return out;
}

AnalysisOutput queueLengthSummary(const FrameSet& frames, const AnalysisOptions&)
{
    auto all = allSeries(frames);
    if (!all)
        return AnalysisOutput::notApplicable(all.error().message);
    if (all.value().empty())
        return AnalysisOutput::of(HtaResult::none());
    Table t;
    t.name = "queue_length_summary";
    t.columns = { queue_length_summary::kRank.column(), queue_length_summary::kStream.column() };
    // queue_length_summary's kMean, kMin and kMax among these (tst_result_columns checks they are there).
    for (const char* stat : { "count", "mean", "std", "min", "25%", "50%", "75%", "max" })
        t.columns.push_back({ std::string("queue_length.") + stat, "" });
    t.indexColumns = { "rank", "stream" };
    for (const QueueSeries& series : all.value()) {
        const auto& points = series.points;
        for (std::size_t begin = 0; begin < points.size();) {
            const std::int64_t stream = series.streamOf(points[begin]);
            std::vector<double> values;
            std::size_t end = begin;
            for (; end < points.size() && series.streamOf(points[end]) == stream; ++end)
                values.push_back(static_cast<double>(points[end].queueLength));
            const Describe d = describe(std::move(values));
            t.addRow({ series.frame->rank, stream, static_cast<double>(d.count), optionalCell(d.mean),
                optionalCell(d.std), optionalCell(d.min), optionalCell(d.q25), optionalCell(d.q50),
                optionalCell(d.q75), optionalCell(d.max) });
            begin = end;
        }
    }
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(t)));
}

AnalysisOutput timeBlockedOnFullQueue(const FrameSet& frames, const AnalysisOptions& options)
{
    auto all = allSeries(frames);
    if (!all)
        return AnalysisOutput::notApplicable(all.error().message);
    Table t;
    t.name = "time_blocked_on_full_queue";
    t.columns = { { "rank", "" }, { "stream", "" }, { "duration_at_max_queue_length", "us" },
        { "relative_duration_at_max_queue_length", "" } };
    for (const QueueSeries& series : all.value()) {
        const RankFrame& frame = *series.frame;
        const auto [first, last] = std::minmax_element(frame.rows.begin(), frame.rows.end(),
            [](const FrameRow& a, const FrameRow& b) { return a.ts < b.ts; });
        const double spanUs = microseconds(last->ts - first->ts);
        std::vector<std::vector<Cell>> rankRows;
        const auto& points = series.points;
        for (std::size_t begin = 0; begin < points.size();) {
            const std::int64_t stream = series.streamOf(points[begin]);
            std::size_t end = begin;
            bool full = false;
            std::int64_t blockedNs = 0;
            for (; end < points.size() && series.streamOf(points[end]) == stream; ++end) {
                if (points[end].queueLength < options.queue.maxQueueLength)
                    continue;
                full = true;
                // The stream stays at this value until its next point; the last point has no duration.
                if (end + 1 < points.size() && series.streamOf(points[end + 1]) == stream)
                    blockedNs += points[end + 1].ts - points[end].ts;
            }
            if (full) {
                const double blockedUs = microseconds(blockedNs);
                rankRows.push_back({ frame.rank, stream, blockedUs, blockedUs / spanUs });
            }
            begin = end;
        }
        // Q13: HTA keys its result by rank, so each stream overwrites the previous one.
        if (frames.mode == AnalysisMode::HtaCompat && rankRows.size() > 1)
            rankRows.erase(rankRows.begin(), rankRows.end() - 1);
        for (auto& row : rankRows)
            t.addRow(row);
    }
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(t)));
}

} // namespace ks::core
