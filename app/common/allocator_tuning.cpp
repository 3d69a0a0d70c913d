#include "app/common/allocator_tuning.h"

#include <algorithm>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

// Under AddressSanitizer its own allocator serves malloc and glibc's is never set
// up: malloc_trim from two loading threads at once crashed in it (cli_insights_command
// under dev.sh sanitize, once in two runs), and tuning it would change nothing.
#if defined(__SANITIZE_ADDRESS__)
#define KS_GLIBC_MALLOC 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KS_GLIBC_MALLOC 0
#endif
#endif
#if !defined(KS_GLIBC_MALLOC) && defined(__GLIBC__)
#define KS_GLIBC_MALLOC 1
#endif
#if !defined(KS_GLIBC_MALLOC)
#define KS_GLIBC_MALLOC 0
#endif

namespace ks::app {

void tuneAllocatorForLargeTraces()
{
#if KS_GLIBC_MALLOC
    // One arena per core (plus the main one): glibc's default of eight per core
    // spreads each thread's frees over many heaps, which are unmapped when they
    // empty and faulted in again on their next use.
    mallopt(M_ARENA_MAX, static_cast<int>(std::max(1u, std::thread::hardware_concurrency()) + 1));
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024); // glibc's maximum: big vectors come from the heap
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
    // Each heap extension asks for 16 MB more than it needs (fewer brk calls); glibc asks
    // for the same padded size again when it falls back to mmap, so a larger pad made a
    // small rank fail under a tight address-space limit (cli_robustness_memory).
    mallopt(M_TOP_PAD, 16 * 1024 * 1024);
#endif
}

void releaseFreedMemory()
{
#if KS_GLIBC_MALLOC
    malloc_trim(0);
#endif
}

} // namespace ks::app
