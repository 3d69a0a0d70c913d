#pragma once

#include "core/common/result.h"
#include "core/model/args_index.h"

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

    // Hands what re-reading needs besides element offsets (inflate access points) to the store.
    virtual void moveIndexInto(ArgsIndex& index) { index.gzip = isGzip(); }
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

// Opens a loaded file again to read its JSON from `jsonOffset` on: a plain file
// from there, a gzip file from the last access point of `index` before it
// (`startOffset` says where the stream starts; the caller skips to jsonOffset).
Result<std::unique_ptr<InputStream>> reopenInputStream(
    const std::string& path, const ArgsIndex& index, std::uint64_t jsonOffset, std::uint64_t& startOffset);

} // namespace ks::core
