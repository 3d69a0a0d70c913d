#pragma once

#include "core/common/background_work.h"

#include <cstddef>
#include <functional>
#include <memory>

namespace ks::app {

// Runs body(i) for i in [0, n) on up to `threads` std::threads (0 = all cores).
// Matches ks::core::ParallelFor. The calling thread works too; the first
// exception a body throws stops the rest and is rethrown here.
void parallelForOnThreads(std::size_t n, const std::function<void(std::size_t)>& body, unsigned threads = 0);

// A std::thread for the core's BackgroundWork (pipelined loading). The core's
// work catches its own errors; should anything still escape it, the thread
// keeps it (an exception leaving a thread ends the process) and wait()
// rethrows it on the waiting thread.
std::unique_ptr<core::BackgroundWork> makeThreadBackgroundWork();

// LoadOptions::parseWorkers for a rank loaded alone: `threads` when given; else
// the cores beyond the two that inflate and build (0, the pipelined read, below
// four cores). loadTraceSet gives ranks of a folder one parse thread each.
std::size_t parseWorkersForOneRank(unsigned threads);

} // namespace ks::app
