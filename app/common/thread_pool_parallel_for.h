#pragma once

#include <cstddef>
#include <functional>

namespace ks::app {

// Runs body(i) for i in [0, n) on up to `threads` std::threads (0 = all cores).
// Matches ks::core::ParallelFor.
void parallelForOnThreads(std::size_t n, const std::function<void(std::size_t)>& body, unsigned threads = 0);

} // namespace ks::app
