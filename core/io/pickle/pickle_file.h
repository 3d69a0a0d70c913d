#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace ks::core {

// A pickle file's bytes, mapped read-only, that the reader gives back to the
// system as it goes: the unpickler reads forward only and copies every
// string it keeps, so the pages behind it are never read again, and dropping
// them keeps a 100 MB snapshot's input from adding its size to the peak.
// Where the file cannot be mapped its bytes are read into memory instead.
class PickleFile
{
public:
    PickleFile() = default;
    PickleFile(const PickleFile&) = delete;
    PickleFile& operator=(const PickleFile&) = delete;
    ~PickleFile();

    // Empty string on success, else what went wrong (for the error line).
    std::string open(const std::string& path, std::uint64_t size);

    std::span<const std::uint8_t> bytes() const { return m_bytes; }

    // Every byte before `offset` will not be read again.
    void consumed(std::uint64_t offset);

private:
    std::span<const std::uint8_t> m_bytes;
    void* m_map = nullptr;
    std::uint64_t m_released = 0; // bytes given back, page aligned
    std::string m_heap; // the fallback copy
};

} // namespace ks::core
