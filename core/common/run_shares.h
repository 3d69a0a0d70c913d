#pragma once

#include "core/common/background_work.h"

#include <cstddef>
#include <functional>
#include <vector>

namespace ks::core {

// Runs share(0) on the calling thread while share(w) runs on helpers[w - 1],
// for w in [0, helpers.size()]; returns when every share has finished and
// rethrows the first exception (by share) any of them threw. A helper that
// cannot start a thread has its share run here, after the others started.
void runShares(const std::vector<BackgroundWork*>& helpers, const std::function<void(std::size_t)>& share);

} // namespace ks::core
