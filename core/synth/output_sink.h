#pragma once

#include "core/common/result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace ks::core {

// Where generated JSON goes: a plain file, a gzip file, or nowhere (counting
// only, used to calibrate sizes). Errors are kept, not thrown: after the first
// failure write() returns false and error() says why.
class OutputSink
{
public:
    virtual ~OutputSink() = default;

    virtual bool write(const char* data, std::size_t size) = 0;
    // Flushes everything and closes; the file is complete only after this.
    virtual bool finish() = 0;
    // Bytes that reached the destination (compressed size for gzip).
    virtual std::uint64_t bytesOut() const = 0;

    const std::optional<Error>& error() const { return m_error; }

protected:
    std::optional<Error> m_error;
};

// Discards the data and counts it.
class CountingSink : public OutputSink
{
public:
    bool write(const char*, std::size_t size) override
    {
        m_bytes += size;
        return true;
    }

    bool finish() override { return true; }

    std::uint64_t bytesOut() const override { return m_bytes; }

private:
    std::uint64_t m_bytes = 0;
};

// Opens `path` for writing, truncating it. With gzip the stream is deflated with
// zlib at `gzipLevel` (1 fastest .. 9 smallest) into a .gz member.
Result<std::unique_ptr<OutputSink>> openOutputFile(const std::string& path, bool gzip, int gzipLevel);

} // namespace ks::core
