#include "core/synth/json_writer.h"

#include <cmath>
#include <cstdio>
#include <system_error>

namespace ks::core {

JsonWriter::JsonWriter(OutputSink& sink, std::size_t bufferSize)
    : m_sink(sink)
    , m_buffer(bufferSize < 4096 ? 4096 : bufferSize)
{
}

void JsonWriter::makeRoom(std::size_t n)
{
    flush();
    if (n > m_buffer.size())
        m_buffer.resize(n);
}

bool JsonWriter::flush()
{
    if (m_used > 0) {
        // After a sink error the bytes are dropped; ok() reports the failure.
        m_sink.write(m_buffer.data(), m_used);
        m_flushed += m_used;
        m_used = 0;
    }
    return ok();
}

void JsonWriter::quoted(std::string_view text)
{
    static constexpr char kHex[] = "0123456789abcdef";
    // Worst case every byte becomes \u00XX.
    char* out = reserve(text.size() * 6 + 2);
    char* p = out;
    *p++ = '"';
    for (const char c : text) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 0x20 && c != '"' && c != '\\') {
            *p++ = c;
            continue;
        }
        *p++ = '\\';
        switch (c) {
        case '"':
            *p++ = '"';
            break;
        case '\\':
            *p++ = '\\';
            break;
        case '\n':
            *p++ = 'n';
            break;
        case '\t':
            *p++ = 't';
            break;
        case '\r':
            *p++ = 'r';
            break;
        default:
            *p++ = 'u';
            *p++ = '0';
            *p++ = '0';
            *p++ = kHex[u >> 4];
            *p++ = kHex[u & 0xf];
        }
    }
    *p++ = '"';
    m_used += static_cast<std::size_t>(p - out);
}

void JsonWriter::number(double value)
{
    if (!std::isfinite(value)) {
        raw("null"); // JSON has no NaN or infinity
        return;
    }
    char* out = reserve(32);
    m_used += static_cast<std::size_t>(std::to_chars(out, out + 32, value).ptr - out);
}

void JsonWriter::fixed(double value, int decimals)
{
    // 40 characters hold any value this project prints (< 1e20) with <= 9 decimals.
    char* out = reserve(48);
    const auto result = std::to_chars(out, out + 48, value, std::chars_format::fixed, decimals);
    if (result.ec != std::errc() || !std::isfinite(value)) {
        number(value);
        return;
    }
    m_used += static_cast<std::size_t>(result.ptr - out);
}

Result<WrittenFile> finishTraceFile(
    JsonWriter& json, std::unique_ptr<OutputSink> sink, const std::string& path, std::uint64_t events)
{
    json.flush();
    if (!sink->error())
        sink->finish();
    if (sink->error()) {
        const Error error = *sink->error();
        sink.reset(); // close the file before removing it
        std::remove(path.c_str());
        return error;
    }
    return WrittenFile { path, events, json.bytesWritten(), sink->bytesOut() };
}

} // namespace ks::core
