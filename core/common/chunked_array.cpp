#include "core/common/chunked_array.h"

#include <new>

#if __has_include(<sys/mman.h>)
#include <sys/mman.h>
#define KS_HAVE_MMAP 1
#else
#define KS_HAVE_MMAP 0
#endif

namespace ks::core::chunked_array_detail {

void* mapChunk(std::size_t bytes)
{
#if KS_HAVE_MMAP
    void* chunk = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (chunk == MAP_FAILED)
        throw std::bad_alloc();
    return chunk;
#else
    return ::operator new(bytes);
#endif
}

void unmapChunk(void* chunk, std::size_t bytes)
{
    if (chunk == nullptr)
        return;
#if KS_HAVE_MMAP
    munmap(chunk, bytes);
#else
    (void)bytes;
    ::operator delete(chunk);
#endif
}

} // namespace ks::core::chunked_array_detail
