#pragma once

// Long work without the GIL, interruptible. The work runs on a thread of its
// own while the calling (Python) thread waits for it in short steps: each step
// it checks for Ctrl+C / a notebook's stop button (PyErr_CheckSignals) and
// hands the latest progress to the caller's callback. Ctrl+C, or an exception
// from the callback, cancels the core's token, waits for the work to stop (the
// core polls the token between chunks) and raises in Python.

#include "core/common/progress.h"

#include <cstdint>
#include <functional>
#include <mutex>
#include <pybind11/pybind11.h>
#include <string>

namespace ks::python {

// Where the work is: the load's progress from the core, or a stage the
// bindings name ("analysing"). Thread-safe: ranks loading in parallel report to one.
class WorkProgress final : public core::ProgressSink
{
public:
    struct Snapshot
    {
        std::string stage;
        std::uint64_t done = 0;
        std::uint64_t total = 0;
        std::uint64_t version = 0; // changes with every report
    };

    void report(const core::LoadProgress& progress) override;
    void setStage(const std::string& stage, std::uint64_t done, std::uint64_t total);
    Snapshot snapshot() const;

private:
    mutable std::mutex m_mutex;
    Snapshot m_now;
};

using InterruptibleWork = std::function<void(const core::CancelToken& cancel, WorkProgress& progress)>;

// Runs `work` as above; `callback` is None or callable(stage: str, done: int, total: int).
// Rethrows what the work threw (KsError, std::bad_alloc) on the calling thread.
void runInterruptibly(const InterruptibleWork& work, const pybind11::object& callback);

} // namespace ks::python
