#pragma once

namespace ks::app {

// Loading and analysing a trace allocates and frees hundreds of MB of column
// and table buffers, and on virtual machines each fresh 4 KiB page fault is
// expensive (measured: 30-60 % of analysis time). Two remedies, applied once
// at the top of main():
//  - glibc's heap is asked to use transparent huge pages
//    (`glibc.malloc.hugetlb=1`). glibc reads that tunable only at start-up, so
//    the process re-executes itself once with it added to GLIBC_TUNABLES
//    (measured on 8 x 150 MB: 30 % less CPU time for open + analyses). Nothing
//    happens when THP is off in the kernel or the user already chose a value.
//    A few malloc arenas (one per core) instead of glibc's eight per core,
//    for the same reason: freed memory gets reused instead of refaulted.
//  - freed memory stays in the process instead of going back to the kernel.
void tuneAllocatorForLargeTraces(char** argv);

// Gives the pages of freed heap memory back to the system (glibc: malloc_trim).
// Loading calls it between reading a rank and building its store
// (LoadOptions::releaseFreedMemory): the read buffers, freed by then, would
// otherwise stay resident under the build's peak (measured: 30 MB of a 4.5 GB
// rank's). A no-op elsewhere.
void releaseFreedMemory();

} // namespace ks::app
