#include "widgets/timeline/render/paint_work.h"

#include <QThreadPool>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>

namespace ks::widgets {

namespace {

    // Shared with the helpers, which may start after the frame is over: they
    // then find no item left and touch nothing else (`body` lives on the
    // caller's stack and is only called for an item claimed in time).
    struct FrameItems
    {
        std::size_t count = 0;
        const std::function<void(std::size_t)>* body = nullptr;
        std::atomic<std::size_t> next { 0 };
        std::atomic<bool> failed { false };
        std::mutex mutex;
        std::condition_variable allDone;
        std::size_t done = 0; // under mutex
        std::exception_ptr failure; // under mutex

        // Claims and runs items until none is left.
        void work()
        {
            for (;;) {
                const std::size_t i = next.fetch_add(1);
                if (i >= count)
                    return;
                std::exception_ptr error;
                if (!failed.load()) {
                    try {
                        (*body)(i);
                    } catch (...) {
                        error = std::current_exception();
                        failed.store(true);
                    }
                }
                std::lock_guard lock(mutex);
                if (error && !failure)
                    failure = error;
                if (++done == count)
                    allDone.notify_all();
            }
        }
    };

} // namespace

void runPaintWork(std::size_t n, const std::function<void(std::size_t)>& body)
{
    if (n == 0)
        return;
    auto items = std::make_shared<FrameItems>();
    items->count = n;
    items->body = &body;
    QThreadPool* pool = QThreadPool::globalInstance();
    const int helpers = static_cast<int>(
        std::min<std::size_t>(n - 1, static_cast<std::size_t>(std::max(0, pool->maxThreadCount() - 1))));
    for (int h = 0; h < helpers; ++h) {
        if (!pool->tryStart([items] { items->work(); }))
            break; // the pool is busy: the calling thread does the rest
    }
    items->work();
    std::unique_lock lock(items->mutex);
    items->allDone.wait(lock, [&] { return items->done == items->count; });
    if (items->failure)
        std::rethrow_exception(items->failure);
}

} // namespace ks::widgets
