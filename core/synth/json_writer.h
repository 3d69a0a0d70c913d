#pragma once

#include "core/synth/output_sink.h"
#include "core/synth/synth_options.h"

#include <charconv>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// Buffered JSON text writer for multi-GB outputs: appends into one large
// buffer and hands it to an OutputSink when full. Numbers are formatted with
// std::to_chars straight into the buffer (no streams, no allocation per value).
// Callers write the structure themselves; this class only formats tokens.
class JsonWriter
{
public:
    explicit JsonWriter(OutputSink& sink, std::size_t bufferSize = 1 << 20);
    ~JsonWriter() = default;
    JsonWriter(const JsonWriter&) = delete;
    JsonWriter& operator=(const JsonWriter&) = delete;

    // Text that is already valid JSON (punctuation, keys, pre-escaped names).
    void raw(std::string_view text)
    {
        // An empty view may have a null data(): memcpy from null is undefined even for 0 bytes.
        if (text.empty())
            return;
        char* out = reserve(text.size());
        std::memcpy(out, text.data(), text.size());
        m_used += text.size();
    }

    void ch(char c)
    {
        *reserve(1) = c;
        ++m_used;
    }

    // A JSON string: quotes added, `"`, `\` and control characters escaped.
    void quoted(std::string_view text);

    void integer(std::int64_t value)
    {
        char* out = reserve(24);
        m_used += static_cast<std::size_t>(std::to_chars(out, out + 24, value).ptr - out);
    }

    // Nanoseconds as Kineto writes microseconds: "1700000000123456.789".
    void microseconds(std::int64_t ns)
    {
        char* out = reserve(32);
        char* p = out;
        if (ns < 0) {
            *p++ = '-';
            ns = -ns;
        }
        p = std::to_chars(p, out + 28, ns / 1000).ptr;
        const auto frac = static_cast<int>(ns % 1000);
        p[0] = '.';
        p[1] = static_cast<char>('0' + frac / 100);
        p[2] = static_cast<char>('0' + frac / 10 % 10);
        p[3] = static_cast<char>('0' + frac % 10);
        m_used += static_cast<std::size_t>(p + 4 - out);
    }

    // Shortest text that reads back as the same double.
    void number(double value);
    // Fixed notation with `decimals` digits ("5.300000" as Kineto prints floats).
    void fixed(double value, int decimals);

    // Hands buffered bytes to the sink. False once the sink failed.
    bool flush();

    bool ok() const { return !m_sink.error(); }

    std::uint64_t bytesWritten() const { return m_flushed + m_used; }

private:
    char* reserve(std::size_t n)
    {
        if (m_used + n > m_buffer.size())
            makeRoom(n);
        return m_buffer.data() + m_used;
    }

    void makeRoom(std::size_t n);

    OutputSink& m_sink;
    std::vector<char> m_buffer;
    std::size_t m_used = 0;
    std::uint64_t m_flushed = 0;
};

// Ends a generated trace file: flushes `json` into `sink` and closes it. After a
// write error the file is closed and removed, and the error returned; otherwise
// what was written (`events` is the caller's count).
Result<WrittenFile> finishTraceFile(
    JsonWriter& json, std::unique_ptr<OutputSink> sink, const std::string& path, std::uint64_t events);

} // namespace ks::core
