#include "core/report/critical_path_trace_writer.h"

#include "core/io/gzip/input_stream.h"
#include "core/io/json/json_scan.h"
#include "core/io/json/trace_events_splitter.h"
#include "core/report/hta_overlay_flows.h"
#include "core/synth/output_sink.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace ks::core {

namespace {

    constexpr std::size_t kFlushBytes = 1 << 20;
    constexpr std::size_t kChunkBytes = 8 << 20;
    // Flow ids of the path arrows, far above Kineto's correlation ids so they never join its ac2g flows.
    constexpr std::uint64_t kFlowIdBase = 1'000'000'000'000ULL;

    Error writerError(const std::string& path, std::string message)
    {
        return Error { ErrorCode::InvalidArgument, std::move(message), path, {} };
    }

    // µs text of an absolute ns time, as Kineto writes it (three decimals).
    std::string microsecondsText(std::int64_t ns)
    {
        char buf[48];
        const bool negative = ns < 0;
        const std::uint64_t abs =
            negative ? static_cast<std::uint64_t>(-(ns + 1)) + 1 : static_cast<std::uint64_t>(ns);
        std::snprintf(buf, sizeof buf, "%s%llu.%03llu", negative ? "-" : "",
            static_cast<unsigned long long>(abs / 1000), static_cast<unsigned long long>(abs % 1000));
        return buf;
    }

    std::string jsonText(std::string_view text)
    {
        std::string out = "\"";
        for (const char c : text) {
            if (c == '"' || c == '\\')
                out += '\\';
            if (static_cast<unsigned char>(c) < 0x20) {
                char buf[8];
                std::snprintf(
                    buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
                out += buf;
                continue;
            }
            out += c;
        }
        return out + '"';
    }

    // Calls f(quoted key, value start, value end) for each member of the JSON
    // object at the start of `object` until f returns true; returns the end of
    // the last member read, or npos when `object` is not an object.
    template <class F>
    std::size_t forEachMember(std::string_view object, F&& f)
    {
        std::size_t pos = json::skipWhitespace(object, 0);
        if (pos >= object.size() || object[pos] != '{')
            return std::string_view::npos;
        ++pos;
        while (true) {
            pos = json::skipWhitespace(object, pos);
            if (pos >= object.size() || object[pos] != '"')
                break;
            const json::ScanResult key = json::scanString(object, pos);
            if (key.status != json::ScanStatus::Complete)
                break;
            const std::string_view keyText = object.substr(pos, key.end - pos);
            pos = json::skipWhitespace(object, key.end);
            if (pos >= object.size() || object[pos] != ':')
                break;
            const std::size_t valueStart = json::skipWhitespace(object, pos + 1);
            const json::ScanResult value = json::scanValue(object, valueStart);
            if (value.status != json::ScanStatus::Complete)
                break;
            if (f(keyText, valueStart, value.end))
                break;
            pos = json::skipWhitespace(object, value.end);
            if (pos < object.size() && object[pos] == ',')
                ++pos;
        }
        return pos;
    }

    // Adds "critical":1 to the event object's args (creating args if absent).
    std::string markCritical(std::string_view event)
    {
        std::size_t argsStart = std::string_view::npos;
        const std::size_t scanned =
            forEachMember(event, [&](std::string_view key, std::size_t valueStart, std::size_t) {
                if (key != "\"args\"" || event[valueStart] != '{')
                    return false;
                argsStart = valueStart;
                return true;
            });
        if (scanned == std::string_view::npos)
            return std::string(event);
        if (argsStart != std::string_view::npos) {
            const bool empty = event[json::skipWhitespace(event, argsStart + 1)] == '}';
            std::string out(event.substr(0, argsStart + 1));
            out += empty ? "\"critical\":1" : "\"critical\":1,";
            out += event.substr(argsStart + 1);
            return out;
        }
        const std::size_t open = json::skipWhitespace(event, 0);
        const bool emptyObject = event[json::skipWhitespace(event, open + 1)] == '}';
        std::string out(event.substr(0, open + 1));
        out += emptyObject ? "\"args\":{\"critical\":1}" : "\"args\":{\"critical\":1},";
        out += event.substr(open + 1);
        return out;
    }

    // What HTA's arrow ends read from a raw event: pid, tid, ts, dur, args.device.
    void captureEndpoint(std::string_view event, RawFlowEndpoint& ep)
    {
        ep.seen = true;
        forEachMember(event, [&](std::string_view key, std::size_t begin, std::size_t end) {
            const std::string_view value = event.substr(begin, end - begin);
            if (key == "\"pid\"")
                ep.pid = value;
            else if (key == "\"tid\"")
                ep.tid = value;
            else if (key == "\"ts\"")
                ep.ts = value;
            else if (key == "\"dur\"")
                ep.dur = value;
            else if (key == "\"args\"")
                forEachMember(value, [&](std::string_view argKey, std::size_t b, std::size_t e) {
                    if (argKey != "\"device\"")
                        return false;
                    ep.device = value.substr(b, e - b);
                    return true;
                });
            return false;
        });
    }

    std::string threadValue(const RankTrace& trace, std::int64_t value, bool isName)
    {
        return isName ? jsonText(trace.name(NameId(static_cast<std::uint32_t>(value))))
                      : std::to_string(value);
    }

    // One end of a flow arrow, inside the slice of its node: the start, or just before the end.
    std::string flowEvent(
        const CriticalPathGraph& g, std::uint32_t node, const CpEdge& e, std::size_t id, bool start)
    {
        const CpNode& n = g.nodes[node];
        const RankTrace& trace = *g.frame->trace;
        const std::uint32_t slice = g.frame->rows[n.row].slice;
        const std::int64_t begin = trace.slices.start[slice];
        const std::int64_t dur = trace.slices.duration(slice);
        const std::int64_t ts = n.isStart ? begin : begin + dur - std::min<std::int64_t>(1000, dur);
        const ThreadKey& key = trace.tracks[trace.trackOf(slice).value].key;
        std::string out = start ? R"({"ph":"s",)" : R"({"ph":"f","bp":"e",)";
        out += "\"id\":" + std::to_string(kFlowIdBase + id)
            + ",\"pid\":" + threadValue(trace, key.pid, key.pidIsName)
            + ",\"tid\":" + threadValue(trace, key.tid, key.tidIsName) + ",\"ts\":" + microsecondsText(ts)
            + ",\"cat\":" + jsonText(cpEdgeTypeName(e.type))
            + R"(,"name":"critical_path","args":{"weight_us":)" + microsecondsText(e.weight) + "}}";
        return out;
    }

    // Copies the events, marking the critical ones; keeps the other top-level keys for the end.
    class OverlayHandler final : public TraceEventsHandler
    {
    public:
        OverlayHandler(OutputSink& sink, const std::unordered_set<std::int64_t>& critical,
            std::unordered_map<std::int64_t, RawFlowEndpoint>& endpoints, CriticalPathTraceSummary& summary)
            : m_sink(sink)
            , m_critical(critical)
            , m_endpoints(endpoints)
            , m_summary(summary)
        {
            m_buffer = "{\"traceEvents\":[";
        }

        std::optional<Error> onEvents(
            std::string_view elements, std::uint64_t firstIndex, std::size_t count, std::uint64_t) override
        {
            std::size_t pos = 0;
            for (std::size_t k = 0; k < count; ++k) {
                pos = json::skipWhitespace(elements, pos);
                if (pos < elements.size() && elements[pos] == ',')
                    pos = json::skipWhitespace(elements, pos + 1);
                const json::ScanResult end = json::scanValue(elements, pos);
                if (end.status != json::ScanStatus::Complete)
                    return Error { ErrorCode::NotJson, "cannot cut traceEvents element", {}, {} };
                const std::string_view event = elements.substr(pos, end.end - pos);
                const auto index = static_cast<std::int64_t>(firstIndex + k);
                if (auto ep = m_endpoints.find(index); ep != m_endpoints.end())
                    captureEndpoint(event, ep->second);
                if (m_summary.events++ > 0)
                    m_buffer += ',';
                if (m_critical.count(index)) {
                    m_buffer += markCritical(event);
                    ++m_summary.markedEvents;
                } else {
                    m_buffer += event;
                }
                pos = end.end;
                if (!flushIfFull())
                    return m_sink.error();
            }
            return std::nullopt;
        }

        void onTopLevelKey(std::string_view key, std::string_view rawValue) override
        {
            if (key != "traceEvents")
                m_keys.emplace_back(std::string(key), std::string(rawValue));
        }

        void append(const std::string& text) { m_buffer += text; }

        bool finish()
        {
            m_buffer += ']';
            for (const auto& [key, value] : m_keys) {
                m_buffer += ',';
                m_buffer += jsonText(key);
                m_buffer += ':';
                m_buffer += value;
            }
            m_buffer += "}\n";
            return m_sink.write(m_buffer.data(), m_buffer.size()) && m_sink.finish();
        }

        bool flushIfFull()
        {
            if (m_buffer.size() < kFlushBytes)
                return true;
            const bool ok = m_sink.write(m_buffer.data(), m_buffer.size());
            m_buffer.clear();
            return ok;
        }

    private:
        OutputSink& m_sink;
        const std::unordered_set<std::int64_t>& m_critical;
        std::unordered_map<std::int64_t, RawFlowEndpoint>& m_endpoints;
        CriticalPathTraceSummary& m_summary;
        std::string m_buffer;
        std::vector<std::pair<std::string, std::string>> m_keys;
    };

    // The path edges drawn as arrows. HTA-compatible: the types HTA draws
    // (hta-semantics §11.7). Default: every edge between two different events
    // but an operator's own span, kernel-kernel delays included.
    std::vector<std::uint32_t> drawnEdges(const CriticalPathGraph& graph, bool hta)
    {
        std::vector<std::uint32_t> drawn;
        for (const std::uint32_t id : graph.pathEdges) {
            const CpEdge& e = graph.edges[id];
            const bool draw = hta ? htaDrawsEdge(e.type)
                                  : e.type != CpEdgeType::Operator
                    && graph.nodes[e.src].eventIndex != graph.nodes[e.dst].eventIndex;
            if (draw)
                drawn.push_back(id);
        }
        return drawn;
    }

    bool sameFile(const std::string& a, const std::string& b)
    {
        std::error_code ec;
        return std::filesystem::exists(b, ec) && std::filesystem::equivalent(a, b, ec);
    }

    bool endsWith(const std::string& text, std::string_view suffix)
    {
        return text.size() >= suffix.size()
            && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
    }

} // namespace

Result<CriticalPathTraceSummary> writeCriticalPathTrace(
    const CriticalPathGraph& graph, const std::string& outputPath)
{
    if (!graph.frame || !graph.frame->trace)
        return writerError(outputPath, "no trace to overlay");
    const std::string& inputPath = graph.frame->trace->path;
    if (sameFile(inputPath, outputPath))
        return writerError(outputPath, "refusing to overwrite the input trace");
    auto input = openInputStream(inputPath, InflateBackend::Auto);
    if (!input)
        return input.error();
    auto sink = openOutputFile(outputPath, endsWith(outputPath, ".gz"), 6);
    if (!sink)
        return sink.error();

    std::unordered_set<std::int64_t> critical;
    for (const std::uint32_t node : graph.pathNodes)
        critical.insert(graph.nodes[node].eventIndex);
    const bool hta = graph.mode == AnalysisMode::HtaCompat;
    const std::vector<std::uint32_t> drawn = drawnEdges(graph, hta);
    // HTA builds its arrows from the raw events: collect theirs while copying.
    std::unordered_map<std::int64_t, RawFlowEndpoint> endpoints;
    if (hta)
        for (const std::uint32_t id : drawn)
            for (const std::uint32_t node : { graph.edges[id].src, graph.edges[id].dst })
                endpoints.emplace(graph.nodes[node].eventIndex, RawFlowEndpoint {});
    CriticalPathTraceSummary summary;
    OverlayHandler handler(*sink.value(), critical, endpoints, summary);
    auto split = splitTraceEvents(*input.value(), inputPath, handler, kChunkBytes, nullptr, nullptr);
    if (!split)
        return split.error();
    std::size_t flowId = 0;
    for (const std::uint32_t id : drawn) {
        const CpEdge& e = graph.edges[id];
        std::string ends[2];
        if (hta) {
            for (const bool start : { true, false }) {
                const CpNode& node = graph.nodes[start ? e.src : e.dst];
                const RawFlowEndpoint& ep = endpoints.at(node.eventIndex);
                const auto ts = htaFlowTimestamp(ep, node.isStart);
                if (!ep.seen || !ts)
                    return writerError(outputPath,
                        "event " + std::to_string(node.eventIndex)
                            + " has no numeric ts/dur to draw an arrow");
                ends[start ? 0 : 1] = htaFlowEvent(ep, *ts, e, flowId, start);
            }
        } else {
            ends[0] = flowEvent(graph, e.src, e, flowId, true);
            ends[1] = flowEvent(graph, e.dst, e, flowId, false);
        }
        if (summary.events + summary.flowEvents > 0)
            handler.append(",");
        handler.append(ends[0]);
        handler.append(",");
        handler.append(ends[1]);
        summary.flowEvents += 2;
        ++flowId;
        if (!handler.flushIfFull())
            break;
    }
    if (!handler.finish())
        return sink.value()->error().value_or(writerError(outputPath, "cannot write"));
    summary.bytesWritten = sink.value()->bytesOut();
    return summary;
}

} // namespace ks::core
