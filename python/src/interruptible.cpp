#include "python/src/interruptible.h"

#include <chrono>
#include <condition_variable>
#include <exception>
#include <thread>

namespace py = pybind11;

namespace ks::python {

void WorkProgress::report(const core::LoadProgress& progress)
{
    const std::lock_guard lock(m_mutex);
    m_now.stage.assign(progress.stage);
    m_now.done = progress.bytesDone;
    m_now.total = progress.bytesTotal;
    ++m_now.version;
}

void WorkProgress::setStage(const std::string& stage, std::uint64_t done, std::uint64_t total)
{
    const std::lock_guard lock(m_mutex);
    m_now.stage = stage;
    m_now.done = done;
    m_now.total = total;
    ++m_now.version;
}

WorkProgress::Snapshot WorkProgress::snapshot() const
{
    const std::lock_guard lock(m_mutex);
    return m_now;
}

namespace {

    // How often the waiting thread looks for Ctrl+C and progress: quick enough
    // for a person, rare enough to cost nothing.
    constexpr auto kPollInterval = std::chrono::milliseconds(50);

    // The work's thread and its end, shared with the thread itself.
    struct Running
    {
        std::mutex mutex;
        std::condition_variable ended;
        bool done = false;
        std::exception_ptr failure;
    };

} // namespace

void runInterruptibly(const InterruptibleWork& work, const py::object& callback)
{
    core::CancelToken cancel;
    WorkProgress progress;
    Running running;
    std::thread worker([&] {
        try {
            work(cancel, progress);
        } catch (...) {
            running.failure = std::current_exception(); // read after join()
        }
        const std::lock_guard lock(running.mutex);
        running.done = true;
        running.ended.notify_all();
    });
    // Whatever happens on this thread (Ctrl+C, the callback raising), the work
    // is told to stop and waited for before its frame (the token) goes.
    auto stopAndJoin = [&] {
        cancel.cancel();
        py::gil_scoped_release released;
        worker.join();
    };
    std::uint64_t shownVersion = 0;
    try {
        for (bool done = false; !done;) {
            {
                py::gil_scoped_release released;
                std::unique_lock lock(running.mutex);
                done = running.ended.wait_for(lock, kPollInterval, [&] { return running.done; });
            }
            if (PyErr_CheckSignals() != 0)
                throw py::error_already_set();
            if (!callback.is_none()) {
                const WorkProgress::Snapshot now = progress.snapshot();
                if (now.version != shownVersion) {
                    shownVersion = now.version;
                    callback(now.stage, now.done, now.total);
                }
            }
        }
    } catch (...) {
        stopAndJoin();
        throw;
    }
    {
        py::gil_scoped_release released;
        worker.join();
    }
    if (running.failure)
        std::rethrow_exception(running.failure);
}

} // namespace ks::python
