#pragma once

namespace ks::app {

// Loading and analysing a trace allocates and frees hundreds of MB of column
// and table buffers, and on virtual machines each fresh page fault is
// expensive. Applied once at the top of main(): a few malloc arenas (one per
// core) instead of glibc's eight per core, and freed memory kept in the process
// (big vectors from the heap, no trimming), so that it is reused instead of
// faulted in again.
//
// Not transparent huge pages: asking glibc for them (glibc.malloc.hugetlb=1,
// which this once did) made every load a gamble on this project's
// VMs. A 2 MB page the guest had not touched since boot costs the host's fault
// on top of the guest's clearing: `info` on a 1 GB rank took 0.99 s median,
// 1.08 s worst without them and 1.35 s, 1.51 s with them (system time 0.12 s
// against 0.39 s), and open + A1-A6 on 8 x 150 MB gained nothing (2.14-2.43 s
// with, 1.84-2.20 s without, three interleaved rounds on a quiet machine).
void tuneAllocatorForLargeTraces();

// Gives the pages of freed heap memory back to the system (glibc: malloc_trim).
// Loading calls it between reading a rank and building its store
// (LoadOptions::releaseFreedMemory): the read buffers, freed by then, would
// otherwise stay resident under the build's peak (measured: 30 MB of a 4.5 GB
// rank's). A no-op elsewhere.
void releaseFreedMemory();

} // namespace ks::app
