#pragma once

#include "core/io/gzip/input_stream.h"

#include <algorithm>
#include <cstring>
#include <string_view>

namespace ks::fuzz {

// Serves a byte buffer as already-inflated JSON, so the splitter and the event
// parser see the fuzzer's bytes with no file or gzip layer in between.
class MemoryInputStream final : public core::InputStream
{
public:
    explicit MemoryInputStream(std::string_view bytes)
        : m_bytes(bytes)
    {
    }

    core::Result<std::size_t> read(char* buffer, std::size_t capacity) override
    {
        const std::size_t n = std::min(capacity, m_bytes.size() - m_position);
        if (n > 0)
            std::memcpy(buffer, m_bytes.data() + m_position, n);
        m_position += n;
        return n;
    }

    std::uint64_t fileBytesRead() const override { return m_position; }

    std::uint64_t fileBytesTotal() const override { return m_bytes.size(); }

    bool isGzip() const override { return false; }

    const char* backendName() const override { return "memory"; }

private:
    std::string_view m_bytes;
    std::size_t m_position = 0;
};

} // namespace ks::fuzz
