#include "core/io/gzip/file_reader.h"

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <utility>

namespace ks::core {

Result<FileReader> FileReader::open(const std::string& path)
{
    struct stat st
    {
    };

    if (::stat(path.c_str(), &st) != 0)
        return Error { ErrorCode::Unreadable, std::string("cannot open: ") + std::strerror(errno), path, {} };
    if (S_ISDIR(st.st_mode))
        return Error { ErrorCode::Unreadable, "is a folder, not a file", path, {} };
    // A FIFO or device would block or never end: only regular files are traces.
    if (!S_ISREG(st.st_mode))
        return Error { ErrorCode::Unreadable, "not a regular file (a pipe, socket or device)", path, {} };
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return Error { ErrorCode::Unreadable, std::string("cannot open: ") + std::strerror(errno), path, {} };
    FileReader reader;
    reader.m_file = f;
    reader.m_path = path;
    reader.m_size = static_cast<std::uint64_t>(st.st_size);
    return reader;
}

FileReader::FileReader(FileReader&& other) noexcept
    : m_file(std::exchange(other.m_file, nullptr))
    , m_path(std::move(other.m_path))
    , m_size(other.m_size)
    , m_position(other.m_position)
{
}

FileReader& FileReader::operator=(FileReader&& other) noexcept
{
    if (this != &other) {
        if (m_file)
            std::fclose(m_file);
        m_file = std::exchange(other.m_file, nullptr);
        m_path = std::move(other.m_path);
        m_size = other.m_size;
        m_position = other.m_position;
    }
    return *this;
}

FileReader::~FileReader()
{
    if (m_file)
        std::fclose(m_file);
}

std::optional<Error> FileReader::seek(std::uint64_t offset)
{
    if (offset > m_size || ::fseeko(m_file, static_cast<off_t>(offset), SEEK_SET) != 0)
        return Error { ErrorCode::Unreadable, "cannot seek to byte " + std::to_string(offset), m_path, {} };
    m_position = offset;
    return std::nullopt;
}

Result<std::size_t> FileReader::read(char* buffer, std::size_t capacity)
{
    const std::size_t n = std::fread(buffer, 1, capacity, m_file);
    if (n < capacity && std::ferror(m_file))
        return Error { ErrorCode::Unreadable, std::string("read error: ") + std::strerror(errno), m_path,
            m_position };
    m_position += n;
    return n;
}

} // namespace ks::core
