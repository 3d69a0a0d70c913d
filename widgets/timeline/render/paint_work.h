#pragma once

#include <cstddef>
#include <functional>

namespace ks::widgets {

// Runs body(i) for every i in [0, n) within one frame: the calling thread
// takes items one at a time and pool threads help as soon as they get a core.
// The frame only ever waits for items a helper has already started, never for
// a helper that has not been scheduled yet: on a loaded two-core machine a
// helper woken for the frame may not run for several milliseconds, and Qt
// Concurrent's blockingMap, which hands helpers blocks of items up front, made
// every third or so zoomed-out frame wait 4 ms for one. The first exception a
// body throws is rethrown here once every started item is done; the items not
// started by then are skipped.
void runPaintWork(std::size_t n, const std::function<void(std::size_t)>& body);

} // namespace ks::widgets
