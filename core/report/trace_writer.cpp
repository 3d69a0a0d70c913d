#include "core/report/trace_writer.h"

#include "core/io/gzip/input_stream.h"
#include "core/io/json/json_scan.h"
#include "core/io/json/trace_events_splitter.h"

#include <zlib.h>

#include <cstdio>
#include <filesystem>
#include <memory>

namespace ks::core {

namespace {

    constexpr std::size_t kFlushBytes = 1u << 20;
    constexpr std::size_t kChunkBytes = 8u << 20;

    Error writeError(const std::string& path, const std::string& what)
    {
        return Error { ErrorCode::Unreadable, "cannot write: " + what, path, {} };
    }

    // A file written through a buffer, deflated when asked.
    class OutputFile
    {
    public:
        ~OutputFile()
        {
            if (m_deflating)
                deflateEnd(&m_z);
            if (m_file)
                std::fclose(m_file);
        }

        std::optional<Error> open(const std::string& path, bool gzip)
        {
            m_path = path;
            m_file = std::fopen(path.c_str(), "wb");
            if (!m_file)
                return writeError(path, "cannot create the file");
            if (gzip) {
                // windowBits 15 + 16: a gzip header and trailer around the deflate stream.
                if (deflateInit2(&m_z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
                    return writeError(path, "zlib deflateInit2 failed");
                m_deflating = true;
            }
            return std::nullopt;
        }

        void put(std::string_view text) { m_buffer.append(text); }

        std::string& buffer() { return m_buffer; }

        std::optional<Error> flushIfLarge()
        {
            return m_buffer.size() >= kFlushBytes ? flush(false) : std::nullopt;
        }

        std::optional<Error> finish()
        {
            if (auto e = flush(true))
                return e;
            const bool bad = std::ferror(m_file) != 0;
            const bool closed = std::fclose(m_file) == 0;
            m_file = nullptr;
            if (bad || !closed)
                return writeError(m_path, "I/O error (disk full?)");
            return std::nullopt;
        }

    private:
        std::optional<Error> flush(bool last)
        {
            if (!m_deflating) {
                if (!m_buffer.empty()
                    && std::fwrite(m_buffer.data(), 1, m_buffer.size(), m_file) != m_buffer.size())
                    return writeError(m_path, "I/O error (disk full?)");
                m_buffer.clear();
                return std::nullopt;
            }
            m_z.next_in = reinterpret_cast<Bytef*>(m_buffer.data());
            m_z.avail_in = static_cast<uInt>(m_buffer.size());
            unsigned char out[1 << 16];
            for (;;) {
                m_z.next_out = out;
                m_z.avail_out = sizeof out;
                const int rc = deflate(&m_z, last ? Z_FINISH : Z_NO_FLUSH);
                if (rc == Z_STREAM_ERROR)
                    return writeError(m_path, "zlib deflate failed");
                const std::size_t made = sizeof out - m_z.avail_out;
                if (made && std::fwrite(out, 1, made, m_file) != made)
                    return writeError(m_path, "I/O error (disk full?)");
                if (last ? rc == Z_STREAM_END : (m_z.avail_in == 0 && m_z.avail_out != 0))
                    break;
            }
            m_buffer.clear();
            return std::nullopt;
        }

        std::string m_path;
        std::FILE* m_file = nullptr;
        z_stream m_z {};
        bool m_deflating = false;
        std::string m_buffer;
    };

    // Receives the input document in pieces and writes the output as it goes.
    class CopyHandler final : public TraceEventsHandler
    {
    public:
        CopyHandler(OutputFile& out, TraceEventEditor* editor)
            : m_out(out)
            , m_editor(editor)
        {
            m_out.put("{");
        }

        std::optional<Error> onEvents(
            std::string_view elements, std::uint64_t firstIndex, std::size_t count, std::uint64_t) override
        {
            startEvents();
            if (!m_editor) {
                m_out.put(m_events ? ",\n" : "\n");
                m_out.put(elements);
                m_events += count;
                return m_out.flushIfLarge();
            }
            std::size_t pos = 0;
            for (std::size_t i = 0; i < count; ++i) {
                pos = json::skipWhitespace(elements, pos);
                if (i && pos < elements.size() && elements[pos] == ',')
                    pos = json::skipWhitespace(elements, pos + 1);
                const json::ScanResult v = json::scanValue(elements, pos);
                const std::string_view element = elements.substr(pos, v.end - pos);
                m_out.put(m_events ? ",\n" : "\n");
                m_replacement.clear();
                if (m_editor->edit(firstIndex + i, element, m_replacement)) {
                    m_out.put(m_replacement);
                    ++m_edited;
                } else {
                    m_out.put(element);
                }
                ++m_events;
                pos = v.end;
            }
            return m_out.flushIfLarge();
        }

        void onTopLevelKey(std::string_view key, std::string_view rawValue) override
        {
            std::string member;
            appendJsonString(member, key);
            member += ": ";
            member.append(rawValue);
            if (m_eventsStarted) {
                m_trailing.push_back(std::move(member));
            } else {
                m_out.put(m_keys++ ? ",\n" : "\n");
                m_out.put(member);
            }
        }

        std::optional<Error> finish(const std::vector<std::string>& appended)
        {
            startEvents();
            for (const std::string& e : appended) {
                m_out.put(m_events++ ? ",\n" : "\n");
                m_out.put(e);
                if (auto err = m_out.flushIfLarge())
                    return err;
            }
            m_out.put("\n]");
            for (const std::string& member : m_trailing) {
                m_out.put(",\n");
                m_out.put(member);
            }
            m_out.put("\n}\n");
            return std::nullopt;
        }

        std::uint64_t edited() const { return m_edited; }

    private:
        void startEvents()
        {
            if (m_eventsStarted)
                return;
            m_eventsStarted = true;
            m_out.put(m_keys ? ",\n\"traceEvents\": [" : "\n\"traceEvents\": [");
        }

        OutputFile& m_out;
        TraceEventEditor* m_editor;
        bool m_eventsStarted = false;
        std::size_t m_keys = 0;
        std::uint64_t m_events = 0;
        std::uint64_t m_edited = 0;
        std::vector<std::string> m_trailing;
        std::string m_replacement;
    };

    bool sameFile(const std::string& a, const std::string& b)
    {
        std::error_code ec;
        return std::filesystem::exists(b, ec) && std::filesystem::equivalent(a, b, ec);
    }

} // namespace

Result<TraceWriteSummary> writeTrace(const TraceWriteRequest& request)
{
    if (sameFile(request.inputPath, request.outputPath))
        return Error { ErrorCode::InvalidArgument, "refusing to overwrite the input trace",
            request.outputPath, {} };
    auto input = openInputStream(request.inputPath, InflateBackend::Auto);
    if (!input)
        return input.error();
    const std::string partial = request.outputPath + ".partial";
    TraceWriteSummary summary;
    {
        OutputFile out;
        if (auto e = out.open(partial, request.gzip))
            return writeError(
                request.outputPath, e->message.substr(std::string_view("cannot write: ").size()));
        CopyHandler handler(out, request.editor);
        auto split =
            splitTraceEvents(*input.value(), request.inputPath, handler, kChunkBytes, nullptr, nullptr);
        std::optional<Error> failure;
        if (!split)
            failure = split.error();
        if (!failure)
            failure = handler.finish(request.appended);
        if (!failure)
            failure = out.finish();
        if (failure) {
            std::error_code ec;
            std::filesystem::remove(partial, ec);
            return *failure;
        }
        summary.inputEvents = split.value().events;
        summary.editedEvents = handler.edited();
        summary.appendedEvents = request.appended.size();
    }
    std::error_code ec;
    std::filesystem::rename(partial, request.outputPath, ec);
    if (ec) {
        std::filesystem::remove(partial, ec);
        return writeError(request.outputPath, "cannot rename the finished file: " + ec.message());
    }
    summary.bytesWritten = std::filesystem::file_size(request.outputPath, ec);
    return summary;
}

bool isGzipPath(const std::string& path)
{
    return path.size() >= 3 && path.compare(path.size() - 3, 3, ".gz") == 0;
}

std::string suffixedTracePath(const std::string& path, const std::string& suffix)
{
    const std::filesystem::path p(path);
    const std::string name = p.filename().string();
    std::string renamed;
    std::size_t from = 0;
    for (std::size_t at = name.find(".json"); at != std::string::npos; at = name.find(".json", from)) {
        renamed += name.substr(from, at - from) + suffix + ".json";
        from = at + 5;
    }
    if (from == 0)
        renamed = name + suffix + ".json";
    else
        renamed += name.substr(from);
    return (p.parent_path() / renamed).string();
}

std::vector<JsonMember> objectMembers(std::string_view object)
{
    std::vector<JsonMember> members;
    std::size_t pos = json::skipWhitespace(object, 0);
    if (pos >= object.size() || object[pos] != '{')
        return members;
    pos = json::skipWhitespace(object, pos + 1);
    while (pos < object.size() && object[pos] != '}') {
        const json::ScanResult key = json::scanString(object, pos);
        if (key.status != json::ScanStatus::Complete)
            return {};
        std::size_t colon = json::skipWhitespace(object, key.end);
        if (colon >= object.size() || object[colon] != ':')
            return {};
        const std::size_t valueStart = json::skipWhitespace(object, colon + 1);
        const json::ScanResult value = json::scanValue(object, valueStart);
        if (value.status != json::ScanStatus::Complete)
            return {};
        members.push_back(
            { object.substr(pos, key.end - pos), object.substr(valueStart, value.end - valueStart) });
        pos = json::skipWhitespace(object, value.end);
        if (pos < object.size() && object[pos] == ',')
            pos = json::skipWhitespace(object, pos + 1);
    }
    return members;
}

} // namespace ks::core
