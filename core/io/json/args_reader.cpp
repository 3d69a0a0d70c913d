#include "core/io/json/args_reader.h"

#include "core/io/gzip/file_identity.h"
#include "core/io/gzip/input_stream.h"
#include "core/io/json/fixed_point.h"
#include "core/io/json/json_scan.h"
#include "core/io/json/trace_elements.h"
#include "core/io/store_builder/typed_args.h"

#include <algorithm>
#include <memory>

namespace ks::core {

namespace {

    constexpr std::size_t kReadChunk = std::size_t { 256 } * 1024;
    // A plain file is read on rather than sought when the next element is this close.
    constexpr std::uint64_t kPlainReadOn = std::uint64_t { 1 } << 20;

    Error changed(const RankTrace& trace, const std::string& detail)
    {
        return Error { ErrorCode::FileChanged, "the file changed since it was opened (" + detail + ")",
            trace.path, {} };
    }

    // The members of one traceEvents element that re-reading checks and returns.
    struct ElementFields
    {
        std::string_view args; // the raw value; "" when absent
        std::string_view name; // the raw token, quotes included
        std::string_view ts;
    };

    std::optional<ElementFields> fieldsOf(std::string_view element)
    {
        ElementFields f;
        const bool ok = forEachMember(element, [&f](std::string_view key, std::string_view value) {
            if (key == "args")
                f.args = value;
            else if (key == "name")
                f.name = value;
            else if (key == "ts")
                f.ts = value;
        });
        return ok ? std::optional<ElementFields>(f) : std::nullopt;
    }

    // Reads traceEvents elements of a loaded file by index, forward: each element
    // is found from the last checkpoint before it (or the element read before it),
    // and a stream is only reopened when going on would read more than starting
    // again from the nearest access point.
    class ElementReader
    {
    public:
        explicit ElementReader(const RankTrace& trace)
            : m_trace(trace)
        {
        }

        // The text of traceEvents[eventIndex]; valid until the next call.
        Result<std::string_view> element(std::uint32_t eventIndex);

        // The args of an element checked to be the stored event starting at `ts` named `name`.
        Result<std::string_view> args(std::uint32_t eventIndex, TimeNs ts, std::string_view name);

    private:
        std::optional<Error> open(std::uint64_t jsonOffset);
        bool worthReadingOn(std::uint64_t jsonOffset) const;
        std::optional<Error> fill(); // appends a chunk; error at the end of the JSON
        // Makes the buffer reach jsonOffset, dropping what lies well before it.
        std::optional<Error> dropBefore(std::uint64_t jsonOffset);

        const RankTrace& m_trace;
        std::unique_ptr<InputStream> m_stream;
        std::string m_buffer; // JSON from m_base on
        std::uint64_t m_base = 0;
        bool m_haveLast = false; // the last element found: where later ones may be sought from
        std::uint32_t m_lastEvent = 0;
        std::uint64_t m_lastOffset = 0;
    };

    bool ElementReader::worthReadingOn(std::uint64_t jsonOffset) const
    {
        const std::uint64_t end = m_base + m_buffer.size();
        if (!m_stream || jsonOffset < m_base)
            return false;
        if (!m_trace.args.gzip)
            return jsonOffset <= end + kPlainReadOn;
        const InflatePoint* point = m_trace.args.pointBefore(jsonOffset);
        return (point ? point->jsonOffset : 0) <= end;
    }

    std::optional<Error> ElementReader::open(std::uint64_t jsonOffset)
    {
        m_stream.reset();
        m_buffer.clear();
        if (!m_trace.args.file.known)
            return Error { ErrorCode::FileChanged, "the args were not recorded (not loaded from a file)",
                m_trace.path, {} };
        if (identifyFile(m_trace.path) != m_trace.args.file)
            return changed(m_trace, "size, time or last bytes differ");
        std::uint64_t start = 0;
        auto stream = reopenInputStream(m_trace.path, m_trace.args, jsonOffset, start);
        if (!stream)
            return changed(m_trace, stream.error().message);
        m_stream = std::move(stream).value();
        m_base = start;
        return std::nullopt;
    }

    std::optional<Error> ElementReader::fill()
    {
        const std::size_t old = m_buffer.size();
        m_buffer.resize(old + kReadChunk);
        auto n = m_stream->read(m_buffer.data() + old, kReadChunk);
        if (!n) {
            m_buffer.resize(old);
            return changed(m_trace, n.error().message);
        }
        m_buffer.resize(old + n.value());
        if (n.value() == 0)
            return changed(m_trace, "the JSON ends before the event");
        return std::nullopt;
    }

    std::optional<Error> ElementReader::dropBefore(std::uint64_t jsonOffset)
    {
        while (m_base + m_buffer.size() < jsonOffset) {
            m_base += m_buffer.size();
            m_buffer.clear();
            if (auto err = fill())
                return err;
        }
        // Erased only once a chunk's worth is behind: erasing up to every element
        // would move the rest of the buffer once per element of a batch read.
        const auto behind = static_cast<std::size_t>(jsonOffset - m_base);
        if (behind >= kReadChunk) {
            m_buffer.erase(0, behind);
            m_base = jsonOffset;
        }
        return std::nullopt;
    }

    Result<std::string_view> ElementReader::element(std::uint32_t eventIndex)
    {
        std::uint32_t event = 0;
        std::uint64_t offset = 0;
        if (!m_trace.args.checkpointBefore(eventIndex, event, offset))
            return Error { ErrorCode::FileChanged,
                "no offset was recorded for traceEvents[" + std::to_string(eventIndex) + "]", m_trace.path,
                {} };
        if (m_haveLast && m_lastEvent >= event && m_lastEvent <= eventIndex && m_lastOffset >= m_base) {
            event = m_lastEvent;
            offset = m_lastOffset;
        }
        if (!worthReadingOn(offset))
            if (auto err = open(offset))
                return *err;
        if (auto err = dropBefore(offset))
            return *err;
        auto pos = static_cast<std::size_t>(offset - m_base);
        for (;;) {
            pos = json::skipWhitespace(m_buffer, pos);
            if (pos >= m_buffer.size()) {
                if (auto err = fill())
                    return *err;
                continue;
            }
            const json::ScanResult value = json::scanValue(m_buffer, pos);
            if (value.status == json::ScanStatus::NeedMore) {
                if (auto err = fill())
                    return *err;
                continue;
            }
            if (value.status == json::ScanStatus::Invalid)
                return changed(
                    m_trace, "no JSON element where traceEvents[" + std::to_string(event) + "] was");
            if (event == eventIndex) {
                m_haveLast = true;
                m_lastEvent = event;
                m_lastOffset = m_base + pos;
                return std::string_view(m_buffer).substr(pos, value.end - pos);
            }
            std::size_t next = json::skipWhitespace(m_buffer, value.end);
            while (next >= m_buffer.size()) {
                if (auto err = fill())
                    return *err;
                next = json::skipWhitespace(m_buffer, value.end);
            }
            if (m_buffer[next] != ',')
                return changed(m_trace, "traceEvents ends before element " + std::to_string(eventIndex));
            pos = next + 1;
            ++event;
        }
    }

    Result<std::string_view> ElementReader::args(std::uint32_t eventIndex, TimeNs ts, std::string_view name)
    {
        auto text = element(eventIndex);
        if (!text)
            return text.error();
        const auto fields = fieldsOf(text.value());
        std::string_view tsToken = fields ? fields->ts : std::string_view();
        if (tsToken.size() >= 2 && tsToken.front() == '"') // a string holding a number, as the loader accepts
            tsToken = tsToken.substr(1, tsToken.size() - 2);
        const auto tsNs = microsecondsTextToNanoseconds(tsToken);
        std::string nameText; // a missing or non-string name was loaded as ""
        if (fields && !fields->name.empty())
            nameText = tokenToString(fields->name).value_or("");
        if (!fields || tsNs != ts || nameText != name)
            return changed(
                m_trace, "traceEvents[" + std::to_string(eventIndex) + "] is not the event loaded");
        if (fields->args.empty() || fields->args.front() != '{')
            return std::string_view();
        return fields->args;
    }

    // A slice's args as the load kept them (KeptArgs), read as the file's are: an
    // args value that is not an object is no args.
    std::optional<std::string_view> keptSliceArgs(const RankTrace& trace, std::uint32_t slice)
    {
        const auto kept = trace.keptArgs.find(trace.slices.eventIndex[slice]);
        if (kept && (kept->empty() || kept->front() != '{'))
            return std::string_view();
        return kept;
    }

} // namespace

Result<std::string> sliceArgs(const RankTrace& trace, std::uint32_t slice)
{
    if (slice >= trace.slices.size() || (trace.slices.flags[slice] & kSliceHasArgs) == 0)
        return std::string();
    if (const auto kept = keptSliceArgs(trace, slice))
        return std::string(*kept);
    ElementReader reader(trace);
    auto text =
        reader.args(trace.slices.eventIndex[slice], trace.slices.start[slice], trace.sliceName(slice));
    if (!text)
        return text.error();
    return std::string(text.value());
}

Result<std::string> instantArgs(const RankTrace& trace, std::uint32_t row)
{
    if (row >= trace.instants.size())
        return std::string();
    ElementReader reader(trace);
    auto text = reader.args(
        trace.instants.eventIndex[row], trace.instants.ts[row], trace.name(trace.instants.name[row]));
    if (!text)
        return text.error();
    return std::string(text.value());
}

std::optional<Error> forEachSliceArgs(const RankTrace& trace, std::vector<std::uint32_t> slices,
    const std::function<void(std::uint32_t slice, std::string_view text)>& visit)
{
    std::erase_if(slices, [&trace](std::uint32_t s) {
        return s >= trace.slices.size() || (trace.slices.flags[s] & kSliceHasArgs) == 0;
    });
    std::sort(slices.begin(), slices.end(), [&trace](std::uint32_t a, std::uint32_t b) {
        return trace.slices.eventIndex[a] < trace.slices.eventIndex[b];
    });
    ElementReader reader(trace); // opens the file only when a slice's args were not kept
    for (std::uint32_t slice : slices) {
        if (const auto kept = keptSliceArgs(trace, slice)) {
            visit(slice, *kept);
            continue;
        }
        auto text =
            reader.args(trace.slices.eventIndex[slice], trace.slices.start[slice], trace.sliceName(slice));
        if (!text)
            return text.error();
        visit(slice, text.value());
    }
    return std::nullopt;
}

std::optional<Error> forEachTraceElement(const RankTrace& trace, std::vector<std::uint32_t> eventIndices,
    const std::function<void(std::uint32_t eventIndex, std::string_view element)>& visit)
{
    std::sort(eventIndices.begin(), eventIndices.end());
    ElementReader reader(trace);
    for (std::uint32_t index : eventIndices) {
        auto text = reader.element(index);
        if (!text)
            return text.error();
        visit(index, text.value());
    }
    return std::nullopt;
}

} // namespace ks::core
