#include "widgets/common/job_pools.h"

#include <QThread>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>

namespace ks::widgets {

namespace {

    // Jobs mostly wait on their parallelFor, so a few more than the cores keep
    // a slow stale job from holding up a new request.
    constexpr int kMinJobThreads = 4;

} // namespace

JobPools::JobPools(int workerThreads)
{
    const int cores = std::max(1, QThread::idealThreadCount());
    m_workers.setMaxThreadCount(workerThreads > 0 ? workerThreads : cores);
    m_jobs.setMaxThreadCount(std::max(kMinJobThreads, cores));
}

JobPools::~JobPools()
{
    for (const std::weak_ptr<core::CancelToken>& weak : m_tokens)
        if (std::shared_ptr<core::CancelToken> token = weak.lock())
            token->cancel();
    m_jobs.waitForDone();
    m_workers.waitForDone();
}

void JobPools::adopt(const std::shared_ptr<core::CancelToken>& token)
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

        void drain()
        {
            for (std::size_t i = m_next.fetch_add(1); i < m_n; i = m_next.fetch_add(1))
                if (!m_cancel || !m_cancel->isCancelled())
                    m_body(i);
        }

        // Starts up to `helpers` helpers on threads of `pool` that are free now.
        void startHelpers(QThreadPool* pool, std::size_t helpers)
        {
            for (std::size_t h = 0; h < helpers; ++h) {
                {
                    std::lock_guard lock(m_mutex);
                    ++m_helpers;
                }
                if (!pool->tryStart([this] { helperRun(); })) {
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
        void helperRun()
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
    };

} // namespace

core::ParallelFor JobPools::parallelFor(const core::CancelToken* cancel)
{
    return [pool = &m_workers, cancel](std::size_t n, const std::function<void(std::size_t)>& body) {
        ParallelRun run(n, body, cancel);
        if (n > 1)
            run.startHelpers(pool, std::min(n - 1, static_cast<std::size_t>(pool->maxThreadCount())));
        // The caller works too: with every worker taken (nested calls) it does all of it.
        run.drain();
        run.waitForHelpers();
    };
}

} // namespace ks::widgets
