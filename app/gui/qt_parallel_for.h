#pragma once

#include "core/io/trace_set_loader.h"

class QThreadPool;

namespace ks::app {

// A core::ParallelFor that runs the bodies on a Qt thread pool with
// QtConcurrent::blockingMap. The calling thread takes part in the work, so this
// is safe to call from a task already running on a pool thread.
core::ParallelFor makeQtParallelFor(QThreadPool* pool);

} // namespace ks::app
