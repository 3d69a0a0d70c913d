#pragma once

namespace ks::app {

// Keeps freed memory in the process instead of returning it to the kernel:
// loading and analysing a trace allocates and frees hundreds of MB of column
// and table buffers, and on virtual machines each fresh page fault is
// expensive (measured: 30-60 % of analysis time). Call once at start-up.
void tuneAllocatorForLargeTraces();

} // namespace ks::app
