#pragma once

#include "core/common/result.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

namespace ks::core {

// A file opened for sequential reading, closed on destruction.
class FileReader
{
public:
    static Result<FileReader> open(const std::string& path);
    FileReader(FileReader&& other) noexcept;
    FileReader& operator=(FileReader&& other) noexcept;
    FileReader(const FileReader&) = delete;
    FileReader& operator=(const FileReader&) = delete;
    ~FileReader();

    Result<std::size_t> read(char* buffer, std::size_t capacity);
    // Moves to byte `offset` (re-reading an event from a recorded offset).
    std::optional<Error> seek(std::uint64_t offset);

    std::uint64_t size() const { return m_size; }

    std::uint64_t position() const { return m_position; }

    const std::string& path() const { return m_path; }

private:
    FileReader() = default;
    std::FILE* m_file = nullptr;
    std::string m_path;
    std::uint64_t m_size = 0;
    std::uint64_t m_position = 0;
};

} // namespace ks::core
