#include "app/common/thread_pool_parallel_for.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace ks::app {

void parallelForOnThreads(std::size_t n, const std::function<void(std::size_t)>& body, unsigned threads)
{
    if (threads == 0)
        threads = std::max(1u, std::thread::hardware_concurrency());
    const std::size_t workers = std::min<std::size_t>(threads, n);
    if (workers <= 1) {
        for (std::size_t i = 0; i < n; ++i)
            body(i);
        return;
    }
    // Work stealing by a shared counter: ranks differ in size, so static
    // partitioning would leave cores idle.
    std::atomic<std::size_t> next { 0 };
    // An exception leaving a thread would end the process (std::terminate): the
    // first one (out of memory, say) stops the work and is rethrown to the caller.
    std::exception_ptr failure;
    std::mutex failureMutex;
    auto work = [&] {
        try {
            for (std::size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1))
                body(i);
        } catch (...) {
            std::lock_guard lock(failureMutex);
            if (!failure)
                failure = std::current_exception();
            next = n;
        }
    };
    std::vector<std::thread> pool;
    pool.reserve(workers - 1);
    for (std::size_t w = 1; w < workers; ++w) {
        try {
            pool.emplace_back(work);
        } catch (const std::system_error&) {
            break; // the system gives no more threads (a limit): fewer do the work
        }
    }
    work(); // the calling thread is one of the workers
    for (std::thread& t : pool)
        t.join();
    if (failure)
        std::rethrow_exception(failure);
}

namespace {

    class ThreadBackgroundWork final : public core::BackgroundWork
    {
    public:
        ~ThreadBackgroundWork() override
        {
            if (m_thread.joinable())
                m_thread.join();
        }

        void start(std::function<void()> work) override
        {
            m_thread = std::thread([this, work = std::move(work)] {
                try {
                    work();
                } catch (...) {
                    m_failure = std::current_exception(); // read after join()
                }
            });
        }

        void wait() override
        {
            if (m_thread.joinable())
                m_thread.join();
            if (m_failure)
                std::rethrow_exception(std::exchange(m_failure, nullptr));
        }

    private:
        std::thread m_thread;
        std::exception_ptr m_failure;
    };

} // namespace

std::unique_ptr<core::BackgroundWork> makeThreadBackgroundWork()
{
    return std::make_unique<ThreadBackgroundWork>();
}

std::size_t parseWorkersForOneRank(unsigned threads)
{
    if (threads)
        return threads;
    // Inflating and building take a core each; parse workers pay off only
    // beside them. On two cores the pipelined read (inflate || parse + build)
    // is faster: 1 GB ranks in 1.24-1.50 s against 1.56-1.75 s with two
    // workers (README, B1), the four threads no longer fighting for two cores.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    return cores >= 4 ? cores - 2 : 0;
}

} // namespace ks::app
