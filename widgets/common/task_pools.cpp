#include "widgets/common/task_pools.h"

#include <QThread>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <exception>
#include <mutex>

namespace ks::widgets {

namespace {

    // Jobs mostly wait on their parallelFor, so a few more than the cores keep
    // a slow stale job from holding up a new request.
    constexpr int kMinJobThreads = 4;

} // namespace

TaskPools::TaskPools(int workerThreads)
{
    const int cores = std::max(1, QThread::idealThreadCount());
    m_workers.setMaxThreadCount(workerThreads > 0 ? workerThreads : cores);
    m_tasks.setMaxThreadCount(std::max(kMinJobThreads, cores));
}

TaskPools::~TaskPools()
{
    for (const std::weak_ptr<core::CancelToken>& weak : m_tokens)
        if (std::shared_ptr<core::CancelToken> token = weak.lock())
            token->cancel();
    m_tasks.waitForDone();
    m_workers.waitForDone();
}

void TaskPools::adopt(const std::shared_ptr<core::CancelToken>& token)
{
    std::erase_if(m_tokens, [](const std::weak_ptr<core::CancelToken>& t) { return t.expired(); });
    m_tokens.push_back(token);
}

namespace {

    // One parallelFor call: bodies are claimed by index, by the caller and by
    // the helpers it could start at once. The caller waits only for helpers
    // that are running, never for one queued behind busy threads.
    class ParallelRun
    {
    public:
        ParallelRun(
            std::size_t n, const std::function<void(std::size_t)>& body, const core::CancelToken* cancel)
            : m_n(n)
            , m_body(body)
            , m_cancel(cancel)
        {
        }

        // Runs bodies until none is left. A body's exception ends the run: the
        // bodies not yet claimed are skipped and the first exception is kept for
        // the caller, so none leaves a worker thread (Qt's pool would end the
        // process) and the helpers are always waited for.
        void drain() noexcept
        {
            try {
                for (std::size_t i = m_next.fetch_add(1); i < m_n; i = m_next.fetch_add(1))
                    if (!m_cancel || !m_cancel->isCancelled())
                        m_body(i);
            } catch (...) {
                m_next = m_n;
                std::lock_guard lock(m_mutex);
                if (!m_failure)
                    m_failure = std::current_exception();
            }
        }

        // In the caller, once its helpers are done: the first body's exception, rethrown.
        void rethrowFailure() const
        {
            if (m_failure)
                std::rethrow_exception(m_failure);
        }

        // Starts up to `helpers` helpers on threads of `pool` that are free now.
        void startHelpers(QThreadPool* pool, std::size_t helpers)
        {
            for (std::size_t h = 0; h < helpers; ++h) {
                {
                    std::lock_guard lock(m_mutex);
                    ++m_helpers;
                }
                bool started = false;
                try {
                    started = pool->tryStart([this] { helperRun(); });
                } catch (...) { // no memory for the task: the caller works alone
                }
                if (!started) {
                    std::lock_guard lock(m_mutex);
                    --m_helpers;
                    return;
                }
            }
        }

        void waitForHelpers()
        {
            std::unique_lock lock(m_mutex);
            m_helpersDone.wait(lock, [this] { return m_helpers == 0; });
        }

    private:
        void helperRun() noexcept
        {
            drain();
            std::lock_guard lock(m_mutex);
            if (--m_helpers == 0)
                m_helpersDone.notify_all();
        }

        const std::size_t m_n;
        const std::function<void(std::size_t)>& m_body;
        const core::CancelToken* m_cancel;
        std::atomic<std::size_t> m_next { 0 };
        std::mutex m_mutex;
        std::condition_variable m_helpersDone;
        std::size_t m_helpers = 0;
        std::exception_ptr m_failure; // under m_mutex
    };

} // namespace

core::ParallelFor TaskPools::parallelFor(const core::CancelToken* cancel)
{
    return [pool = &m_workers, cancel](std::size_t n, const std::function<void(std::size_t)>& body) {
        ParallelRun run(n, body, cancel);
        if (n > 1)
            run.startHelpers(pool, std::min(n - 1, static_cast<std::size_t>(pool->maxThreadCount())));
        // The caller works too: with every worker taken (nested calls) it does all of it.
        run.drain();
        run.waitForHelpers();
        run.rethrowFailure(); // to the job's edge (TaskTracker), on the caller's thread
    };
}

} // namespace ks::widgets
