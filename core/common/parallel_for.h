#pragma once

#include <cstddef>
#include <functional>

namespace ks::core {

// Runs body(i) for i in [0, n), possibly in parallel. The core has no threads of
// its own: callers pass one (a thread pool in the CLI, QtConcurrent in the app).
using ParallelFor = std::function<void(std::size_t n, const std::function<void(std::size_t)>& body)>;

// Runs the bodies one after another.
inline void runSequentially(std::size_t n, const std::function<void(std::size_t)>& body)
{
    for (std::size_t i = 0; i < n; ++i)
        body(i);
}

} // namespace ks::core
