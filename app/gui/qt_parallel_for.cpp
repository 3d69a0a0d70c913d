#include "app/gui/qt_parallel_for.h"

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>

#include <numeric>
#include <vector>

namespace ks::app {

core::ParallelFor makeQtParallelFor(QThreadPool* pool)
{
    return [pool](std::size_t n, const std::function<void(std::size_t)>& body) {
        if (n <= 1 || pool->maxThreadCount() <= 1) {
            core::runSequentially(n, body);
            return;
        }
        std::vector<std::size_t> indices(n);
        std::iota(indices.begin(), indices.end(), std::size_t { 0 });
        QtConcurrent::blockingMap(pool, indices, [&body](std::size_t& i) { body(i); });
    };
}

} // namespace ks::app
