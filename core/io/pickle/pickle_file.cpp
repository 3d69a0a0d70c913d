#include "core/io/pickle/pickle_file.h"

#include <fcntl.h>
#include <fstream>
#include <sys/mman.h>
#include <unistd.h>

namespace ks::core {

PickleFile::~PickleFile()
{
    if (m_map != nullptr)
        munmap(m_map, m_bytes.size());
}

std::string PickleFile::open(const std::string& path, std::uint64_t size)
{
    if (size == 0)
        return {};
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0) {
        void* map = mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
        ::close(fd);
        if (map != MAP_FAILED) {
            madvise(map, size, MADV_SEQUENTIAL);
            m_map = map;
            m_bytes = std::span<const std::uint8_t>(static_cast<const std::uint8_t*>(map), size);
            return {};
        }
    }
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return "cannot open the file";
    m_heap.resize(size);
    if (!in.read(m_heap.data(), static_cast<std::streamsize>(size)))
        return "cannot read the file";
    m_bytes = std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(m_heap.data()), size);
    return {};
}

void PickleFile::consumed(std::uint64_t offset)
{
    if (m_map == nullptr)
        return;
    const auto page = static_cast<std::uint64_t>(sysconf(_SC_PAGESIZE));
    const std::uint64_t end = offset / page * page;
    if (end <= m_released)
        return;
    // The mapping is private and never written: dropped pages read back from the file if touched.
    madvise(static_cast<char*>(m_map) + m_released, end - m_released, MADV_DONTNEED);
    m_released = end;
}

} // namespace ks::core
