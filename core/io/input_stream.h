#pragma once

#include "core/common/result.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace ks::core {

// A sequential source of (inflated) JSON bytes.
class InputStream
{
public:
    virtual ~InputStream() = default;
    // Reads up to `capacity` bytes; returns 0 at the end. An error names what is wrong.
    virtual Result<std::size_t> read(char* buffer, std::size_t capacity) = 0;
    // Bytes consumed from the file so far (compressed bytes for gzip): drives progress.
    virtual std::uint64_t fileBytesRead() const = 0;
    virtual std::uint64_t fileBytesTotal() const = 0;
    virtual bool isGzip() const = 0;
    virtual const char* backendName() const = 0;
};

enum class InflateBackend : std::uint8_t
{
    Auto,
    Zlib,
    Isal
};

// Opens a file; gzip is recognised by its magic bytes, not its name.
Result<std::unique_ptr<InputStream>> openInputStream(const std::string& path, InflateBackend backend);

bool isalAvailable();

} // namespace ks::core
