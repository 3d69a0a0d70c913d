#include "app/common/allocator_tuning.h"

#include <malloc.h>

namespace ks::app {

void tuneAllocatorForLargeTraces()
{
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, 32 * 1024 * 1024); // glibc's maximum: big vectors come from the heap
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024 * 1024);
    mallopt(M_TOP_PAD, 64 * 1024 * 1024);
#endif
}

} // namespace ks::app
