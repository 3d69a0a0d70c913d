#include "core/report/counters_trace_writer.h"

#include "core/analysis/hta/memory_bandwidth.h"
#include "core/analysis/hta/queue_length.h"
#include "core/common/json_text.h"
#include "core/report/hta_json_writer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string_view>

namespace ks::core {

namespace {

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

    // How one series' rows become C events: which columns, and the counter's name
    // (fixed, or from a column) and optional id column (HTA gives queue length the stream).
    struct CounterColumns
    {
        std::string_view argKey; // the value's key in "args"
        ColumnId ts, pid, value;
        std::optional<ColumnId> name; // else the name is argKey
        std::optional<ColumnId> id;
    };

    void appendCounters(
        std::vector<std::string>& events, const Table& t, const CounterColumns& c, std::int64_t minTsNs)
    {
        const auto ts = t.find(c.ts);
        const auto pid = t.find(c.pid);
        const auto value = t.find(c.value);
        const auto name = c.name ? t.find(*c.name) : std::nullopt;
        const auto id = c.id ? t.find(*c.id) : std::nullopt;
        if (!ts || !pid || !value || (c.name && !name) || (c.id && !id))
            return;
        for (const auto& row : t.rows) {
            std::string e = "{\"pid\": ";
            appendCellJson(e, row[*pid]);
            e += ", \"ts\": ";
            appendTime(e, row[*ts], minTsNs);
            e += ", \"args\": {";
            appendJsonString(e, c.argKey);
            e += ": ";
            appendCellJson(e, row[*value]);
            e += "}, \"ph\": \"C\", \"name\": ";
            if (name)
                appendCellJson(e, row[*name]);
            else
                appendJsonString(e, c.argKey);
            if (id) {
                e += ", \"id\": ";
                appendCellJson(e, row[*id]);
            }
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
        appendCounters(events, *t,
            { "Queue Length", queue_length::kTs, queue_length::kPid, queue_length::kQueueLength, {},
                queue_length::kStream },
            frames.minTs);
    const AnalysisOutput bandwidth = memoryBwTimeSeries(frames, options);
    if (const Table* t = rankSeries(bandwidth, rank))
        appendCounters(events, *t,
            { "Memcpy BW", memory_bandwidth::kTs, memory_bandwidth::kPid, memory_bandwidth::kBandwidth,
                memory_bandwidth::kName, {} },
            frames.minTs);
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
