#include "app/common/allocator_tuning.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>

#if defined(__GLIBC__)
#include <malloc.h>
#include <unistd.h>
#endif

namespace ks::app {

namespace {

    constexpr const char* kHugePagesTunable = "glibc.malloc.hugetlb";

    bool kernelOffersHugePages()
    {
        std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
        std::string text;
        std::getline(setting, text);
        return !text.empty() && text.find("[never]") == std::string::npos;
    }

#if defined(__GLIBC__)
    void relaunchWithHugePages(char** argv)
    {
        const char* current = std::getenv("GLIBC_TUNABLES");
        if (!argv || !argv[0] || (current && std::strstr(current, kHugePagesTunable))
            || !kernelOffersHugePages())
            return;
        std::string tunables = current && *current ? std::string(current) + ":" : std::string();
        tunables += std::string(kHugePagesTunable) + "=1";
        // One arena per core (plus the main one): glibc's default of eight per
        // core spreads each thread's frees over many heaps, which are unmapped
        // when they empty and zeroed again by the kernel on their next use.
        if (!(current && std::strstr(current, "glibc.malloc.arena_max")))
            tunables += ":glibc.malloc.arena_max="
                + std::to_string(std::max(1u, std::thread::hardware_concurrency()) + 1);
        if (setenv("GLIBC_TUNABLES", tunables.c_str(), 1) != 0)
            return;
        execv("/proc/self/exe", argv); // returns only when it failed: carry on as we are
        unsetenv("GLIBC_TUNABLES");
        if (current)
            setenv("GLIBC_TUNABLES", current, 1);
    }
#endif

} // namespace

void tuneAllocatorForLargeTraces(char** argv)
{
#if defined(__GLIBC__)
    relaunchWithHugePages(argv);
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024); // glibc's maximum: big vectors come from the heap
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
    mallopt(M_TOP_PAD, 64 * 1024 * 1024);
#else
    (void)argv;
#endif
}

void releaseFreedMemory()
{
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

} // namespace ks::app
