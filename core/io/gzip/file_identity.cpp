#include "core/io/gzip/file_identity.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <sys/stat.h>

namespace ks::core {

FileIdentity identifyFile(const std::string& path)
{
    FileIdentity id;

    struct stat st
    {
    };

    if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        return id;
    id.size = static_cast<std::uint64_t>(st.st_size);
    id.modifiedNs = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
    std::FILE* f = std::fopen(path.c_str(), "rb");
    if (!f)
        return id;
    std::array<unsigned char, 8> last {};
    const long tail = static_cast<long>(std::min<std::uint64_t>(id.size, last.size()));
    if (std::fseek(f, -tail, SEEK_END) == 0
        && std::fread(last.data(), 1, static_cast<std::size_t>(tail), f) == static_cast<std::size_t>(tail)) {
        for (int i = 0; i < tail; ++i)
            id.lastBytes = (id.lastBytes << 8) | last[static_cast<std::size_t>(i)];
        id.known = true;
    }
    std::fclose(f);
    return id;
}

} // namespace ks::core
