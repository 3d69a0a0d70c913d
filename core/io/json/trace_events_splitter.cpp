#include "core/io/json/trace_events_splitter.h"

#include "core/io/json/json_scan.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace ks::core {

namespace {

    constexpr std::size_t kReadBlock = 1u << 20;
    constexpr std::size_t kMaxTopLevelValue = 256u << 20;
    constexpr std::uint64_t kProgressEvery = 4u << 20;

    enum class State : std::uint8_t
    {
        DocumentStart,
        KeyOrObjectEnd, // after '{'
        CommaOrObjectEnd, // after a member
        Colon,
        MemberValue,
        ElementOrArrayEnd, // after '[' of traceEvents
        CommaOrArrayEnd, // after an element
        DocumentEnd,
    };

    // The splitter's working state: a sliding window over the inflated stream.
    class Splitter
    {
    public:
        Splitter(InputStream& input, const std::string& path, TraceEventsHandler& handler,
            std::size_t chunkBytes, ProgressSink* progress, const CancelToken* cancel)
            : m_input(input)
            , m_path(path)
            , m_handler(handler)
            , m_chunkBytes(std::max<std::size_t>(chunkBytes, 1)) // a piece holds at least one event
            , m_progress(progress)
            , m_cancel(cancel)
        {
            m_buffer.resize(std::max<std::size_t>(m_chunkBytes * 2, kReadBlock * 2));
        }

        Result<SplitSummary> run();

    private:
        std::string_view window() const { return { m_buffer.data(), m_end }; }

        std::uint64_t absolute(std::size_t pos) const { return m_base + pos; }

        Error errorAt(ErrorCode code, std::string message, std::size_t pos) const
        {
            return Error { code, std::move(message), m_path, absolute(pos) };
        }

        // Reads more input, keeping bytes from `keepFrom` on. Returns false at end of input.
        Result<bool> fill(std::size_t& keepFrom);
        std::optional<Error> flushChunk();
        Result<bool> step(); // one state transition; false when more input is needed
        void reportProgress(bool force);

        InputStream& m_input;
        const std::string& m_path;
        TraceEventsHandler& m_handler;
        std::size_t m_chunkBytes;
        ProgressSink* m_progress;
        const CancelToken* m_cancel;

        std::vector<char> m_buffer;
        std::size_t m_end = 0; // valid bytes in m_buffer
        std::size_t m_pos = 0; // scan position
        std::uint64_t m_base = 0; // absolute offset of m_buffer[0]
        bool m_inputDone = false;

        State m_state = State::DocumentStart;
        bool m_bareArray = false;
        std::string m_key;
        static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
        std::size_t m_chunkStart = kNone;
        std::size_t m_chunkEnd = 0;
        std::size_t m_chunkCount = 0;
        std::uint64_t m_eventsSeen = 0;
        std::uint64_t m_lastProgress = 0;
        SplitSummary m_summary;
    };

    Result<bool> Splitter::fill(std::size_t& keepFrom)
    {
        if (m_inputDone)
            return false;
        if (keepFrom > 0) {
            std::memmove(m_buffer.data(), m_buffer.data() + keepFrom, m_end - keepFrom);
            m_end -= keepFrom;
            m_pos -= keepFrom;
            m_base += keepFrom;
            if (m_chunkStart != kNone) {
                m_chunkStart -= keepFrom;
                m_chunkEnd -= keepFrom;
            }
            keepFrom = 0;
        }
        if (m_buffer.size() - m_end < kReadBlock)
            m_buffer.resize(m_buffer.size() * 2);
        auto n = m_input.read(m_buffer.data() + m_end, m_buffer.size() - m_end);
        if (!n)
            return n.error();
        if (n.value() == 0) {
            m_inputDone = true;
            return false;
        }
        m_end += n.value();
        reportProgress(false);
        return true;
    }

    void Splitter::reportProgress(bool force)
    {
        if (!m_progress)
            return;
        const std::uint64_t done = m_input.fileBytesRead();
        if (!force && done - m_lastProgress < kProgressEvery)
            return;
        m_lastProgress = done;
        m_progress->report(LoadProgress { "parsing", done, m_input.fileBytesTotal(), 0, 0 });
    }

    std::optional<Error> Splitter::flushChunk()
    {
        if (m_chunkStart == kNone)
            return std::nullopt;
        const std::string_view piece(m_buffer.data() + m_chunkStart, m_chunkEnd - m_chunkStart);
        auto err =
            m_handler.onEvents(piece, m_eventsSeen - m_chunkCount, m_chunkCount, absolute(m_chunkStart));
        m_chunkStart = kNone;
        m_chunkCount = 0;
        return err;
    }

    Result<bool> Splitter::step()
    {
        const std::string_view text = window();
        m_pos = json::skipWhitespace(text, m_pos);
        if (m_pos >= text.size())
            return false;
        const char c = text[m_pos];
        switch (m_state) {
        case State::DocumentStart:
            if (c == '{') {
                m_state = State::KeyOrObjectEnd;
            } else if (c == '[') {
                m_bareArray = true;
                m_summary.hadTraceEvents = true;
                m_state = State::ElementOrArrayEnd;
            } else if (text.substr(m_pos).starts_with("SQLite format 3")) {
                // Job summaries (.kssum) are SQLite files: say so rather than "not JSON".
                return errorAt(ErrorCode::NotJson,
                    "an SQLite file (a job summary?), not a trace: see kinetoscope-cli summary-info", m_pos);
            } else {
                return errorAt(
                    ErrorCode::NotJson, "not JSON: expected '{' at the start of the document", m_pos);
            }
            ++m_pos;
            return true;
        case State::KeyOrObjectEnd:
        case State::CommaOrObjectEnd:
            if (c == '}') {
                ++m_pos;
                m_state = State::DocumentEnd;
                return true;
            }
            if (m_state == State::CommaOrObjectEnd) {
                if (c != ',')
                    return errorAt(
                        ErrorCode::NotJson, "not JSON: expected ',' or '}' between top-level keys", m_pos);
                ++m_pos;
                m_state = State::KeyOrObjectEnd;
                return true;
            }
            if (c != '"')
                return errorAt(ErrorCode::NotJson, "not JSON: expected a key string", m_pos);
            {
                const auto s = json::scanString(text, m_pos);
                if (s.status == json::ScanStatus::NeedMore)
                    return false;
                auto key = json::unescapeString(text.substr(m_pos, s.end - m_pos));
                if (!key)
                    return errorAt(ErrorCode::NotJson, "not JSON: bad escape in a key", m_pos);
                m_key = std::move(*key);
                m_pos = s.end;
                m_state = State::Colon;
            }
            return true;
        case State::Colon:
            if (c != ':')
                return errorAt(ErrorCode::NotJson, "not JSON: expected ':' after a key", m_pos);
            ++m_pos;
            m_state = State::MemberValue;
            return true;
        case State::MemberValue:
            if (m_key == "traceEvents") {
                if (c != '[')
                    return errorAt(ErrorCode::WrongType, "traceEvents is not an array", m_pos);
                m_summary.hadTraceEvents = true;
                ++m_pos;
                m_state = State::ElementOrArrayEnd;
                return true;
            } else {
                const auto v = json::scanValue(text, m_pos);
                if (v.status == json::ScanStatus::Invalid)
                    return errorAt(
                        ErrorCode::NotJson, "not JSON: invalid value of key '" + m_key + "'", v.end);
                if (v.status == json::ScanStatus::NeedMore) {
                    if (text.size() - m_pos > kMaxTopLevelValue)
                        return errorAt(ErrorCode::TooLarge,
                            "top-level key '" + m_key + "' is larger than 256 MB", m_pos);
                    return false;
                }
                m_handler.onTopLevelKey(m_key, text.substr(m_pos, v.end - m_pos));
                m_pos = v.end;
                m_state = State::CommaOrObjectEnd;
            }
            return true;
        case State::ElementOrArrayEnd:
        case State::CommaOrArrayEnd:
            if (c == ']') {
                ++m_pos;
                if (auto err = flushChunk())
                    return *err;
                m_state = m_bareArray ? State::DocumentEnd : State::CommaOrObjectEnd;
                return true;
            }
            if (m_state == State::CommaOrArrayEnd) {
                if (c != ',')
                    return errorAt(ErrorCode::NotJson, "not JSON: expected ',' or ']' between events", m_pos);
                ++m_pos;
                m_state = State::ElementOrArrayEnd;
                return true;
            }
            {
                const auto v = json::scanValue(text, m_pos);
                if (v.status == json::ScanStatus::Invalid)
                    return errorAt(ErrorCode::NotJson, "not JSON: invalid event in traceEvents", v.end);
                if (v.status == json::ScanStatus::NeedMore)
                    return false;
                if (m_chunkStart == kNone)
                    m_chunkStart = m_pos;
                m_chunkEnd = v.end;
                ++m_chunkCount;
                ++m_eventsSeen;
                m_pos = v.end;
                m_state = State::CommaOrArrayEnd;
                if (m_chunkEnd - m_chunkStart >= m_chunkBytes) {
                    if (auto err = flushChunk())
                        return *err;
                    if (m_cancel && m_cancel->isCancelled())
                        return Error { ErrorCode::Cancelled, "cancelled", m_path, {} };
                }
            }
            return true;
        case State::DocumentEnd:
            return errorAt(
                ErrorCode::NotJson, "not JSON: unexpected data after the end of the document", m_pos);
        }
        return true;
    }

    Result<SplitSummary> Splitter::run()
    {
        for (;;) {
            auto advanced = step();
            if (!advanced)
                return advanced.error();
            if (advanced.value())
                continue;
            // Keep the pending chunk and the token being scanned; drop the rest.
            std::size_t keepFrom = m_chunkStart != kNone ? m_chunkStart : m_pos;
            auto more = fill(keepFrom);
            if (!more)
                return more.error();
            if (!more.value())
                break;
        }
        reportProgress(true);
        const std::size_t trailing = json::skipWhitespace(window(), m_pos);
        if (m_state != State::DocumentEnd) {
            if (m_base + m_end == 0)
                return Error { ErrorCode::EmptyFile, "empty file", m_path, {} };
            return errorAt(ErrorCode::NotJson, "not JSON: the document ends early (truncated?)", trailing);
        }
        if (!m_summary.hadTraceEvents)
            return Error { ErrorCode::NoTraceEvents, "no traceEvents: not a Kineto/Chrome trace", m_path,
                {} };
        m_summary.events = m_eventsSeen;
        m_summary.jsonBytes = m_base + m_end;
        return m_summary;
    }

} // namespace

Result<SplitSummary> splitTraceEvents(InputStream& input, const std::string& path,
    TraceEventsHandler& handler, std::size_t chunkBytes, ProgressSink* progress, const CancelToken* cancel)
{
    Splitter splitter(input, path, handler, chunkBytes, progress, cancel);
    return splitter.run();
}

} // namespace ks::core
