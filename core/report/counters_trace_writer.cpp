#include "core/report/counters_trace_writer.h"

#include "core/analysis/memory_bandwidth.h"
#include "core/analysis/queue_length.h"
#include "core/report/hta_json_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ks::core {

namespace {

    void appendCell(std::string& out, const Cell& cell)
    {
        if (const auto* i = std::get_if<std::int64_t>(&cell))
            out += std::to_string(*i);
        else if (const auto* d = std::get_if<double>(&cell))
            out += pythonFloatText(*d);
        else if (const auto* s = std::get_if<std::string>(&cell))
            appendJsonString(out, *s);
        else
            out += "null";
    }

    // A series time (µs since the aligned start) back in the trace's own time. An
    // integer column stays an integer; a float column is written with its exact
    // ns digits (HTA writes the float sum, which is the same number).
    void appendTime(std::string& out, const Cell& ts, std::int64_t minTsNs)
    {
        const auto* asInt = std::get_if<std::int64_t>(&ts);
        const std::int64_t relNs =
            asInt ? *asInt * 1000 : std::llround(cellAsDouble(ts).value_or(0.0) * 1000.0);
        const std::int64_t ns = relNs + minTsNs;
        if (asInt && ns % 1000 == 0) {
            out += std::to_string(ns / 1000);
            return;
        }
        const bool negative = ns < 0;
        const std::uint64_t abs =
            negative ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
        char text[48];
        std::snprintf(text, sizeof text, "%s%llu.%03llu", negative ? "-" : "",
            static_cast<unsigned long long>(abs / 1000), static_cast<unsigned long long>(abs % 1000));
        std::string digits = text;
        while (digits.back() == '0' && digits[digits.size() - 2] != '.')
            digits.pop_back();
        out += digits;
    }

    const Table* rankSeries(const AnalysisOutput& output, std::int64_t rank)
    {
        if (!output.ok || output.result.kind != HtaResult::Kind::Dict)
            return nullptr;
        for (const auto& [key, value] : output.result.entries)
            if (key == std::to_string(rank) && value.kind == HtaResult::Kind::DataFrame)
                return &value.frame;
        return nullptr;
    }

    struct Columns
    {
        std::size_t ts, pid, value, extra; // extra: stream (queue length) or name (bandwidth)

        bool valid(const Table& t) const
        {
            const std::size_t n = t.columns.size();
            return ts < n && pid < n && value < n && extra < n;
        }
    };

    void appendQueueLength(std::vector<std::string>& events, const Table& t, std::int64_t minTsNs)
    {
        const Columns c { t.columnIndex("ts"), t.columnIndex("pid"), t.columnIndex("queue_length"),
            t.columnIndex("stream") };
        if (!c.valid(t))
            return;
        for (const auto& row : t.rows) {
            std::string e = "{\"pid\": ";
            appendCell(e, row[c.pid]);
            e += ", \"ts\": ";
            appendTime(e, row[c.ts], minTsNs);
            e += ", \"args\": {\"Queue Length\": ";
            appendCell(e, row[c.value]);
            e += "}, \"ph\": \"C\", \"name\": \"Queue Length\", \"id\": ";
            appendCell(e, row[c.extra]);
            e += '}';
            events.push_back(std::move(e));
        }
    }

    void appendBandwidth(std::vector<std::string>& events, const Table& t, std::int64_t minTsNs)
    {
        const Columns c { t.columnIndex("ts"), t.columnIndex("pid"), t.columnIndex("memory_bw_gbps"),
            t.columnIndex("name") };
        if (!c.valid(t))
            return;
        for (const auto& row : t.rows) {
            std::string e = "{\"pid\": ";
            appendCell(e, row[c.pid]);
            e += ", \"ts\": ";
            appendTime(e, row[c.ts], minTsNs);
            e += ", \"args\": {\"Memcpy BW\": ";
            appendCell(e, row[c.value]);
            e += "}, \"ph\": \"C\", \"name\": ";
            appendCell(e, row[c.extra]);
            e += '}';
            events.push_back(std::move(e));
        }
    }

} // namespace

std::vector<std::string> counterEvents(
    const FrameSet& frames, const AnalysisOptions& options, std::int64_t rank)
{
    std::vector<std::string> events;
    const AnalysisOutput queue = queueLengthTimeSeries(frames, options);
    if (const Table* t = rankSeries(queue, rank))
        appendQueueLength(events, *t, frames.minTs);
    const AnalysisOutput bandwidth = memoryBwTimeSeries(frames, options);
    if (const Table* t = rankSeries(bandwidth, rank))
        appendBandwidth(events, *t, frames.minTs);
    return events;
}

std::string countersTracePath(const std::string& inputPath)
{
    return suffixedTracePath(inputPath, "_with_counters");
}

Result<TraceWriteSummary> writeCountersTrace(const FrameSet& frames, const AnalysisOptions& options,
    std::int64_t rank, const std::string& outputPath, bool gzip)
{
    const auto frame = std::find_if(
        frames.ranks.begin(), frames.ranks.end(), [rank](const RankFrame& f) { return f.rank == rank; });
    if (frame == frames.ranks.end())
        return Error { ErrorCode::NotApplicable, "no rank " + std::to_string(rank) + " in the trace", {},
            {} };
    TraceWriteRequest request;
    request.inputPath = frame->trace->path;
    request.outputPath = outputPath;
    request.gzip = gzip;
    request.appended = counterEvents(frames, options, rank);
    return writeTrace(request);
}

} // namespace ks::core
