#pragma once

#include "core/common/parallel_for.h"
#include "core/common/progress.h"
#include "widgets/common/task_pools.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

namespace ks::widgets {

// Numbers the requests of one TaskTracker; 0 is "none yet".
enum class TaskId : std::uint64_t
{
};

// What a job's work receives: its own cancel token (to pass into the core) and
// a ParallelFor on the job pools that skips bodies once the token fires.
struct TaskContext
{
    const core::CancelToken* cancel = nullptr;
    core::ParallelFor parallelFor;

    bool cancelled() const { return cancel && cancel->isCancelled(); }
};

// Why a job ended without a result: its work threw (out of memory, or any
// other exception) on the job's thread or in one of its parallelFor bodies.
// The receiver shows it where the result would have gone (a dock's error line).
struct TaskFailure
{
    QString message; // "not enough memory", or the exception's what()
    bool outOfMemory = false;

    static TaskFailure notEnoughMemory() noexcept;
    // The exception being handled (call inside a catch block), as a failure.
    static TaskFailure fromCurrentException() noexcept;
};

// "Newest request wins" for one kind of request of one receiver (a load, the
// analyses, a search, ...). start() runs work(context) on the job pool and
// hands its result to deliver() on the receiver's thread, but only if no newer
// start() or cancel() came since and the receiver still exists. A superseded
// request's token is cancelled, so core work that polls it stops early; its
// result is dropped on arrival. The work must capture snapshots, never the
// receiver: it may still run after the receiver is gone.
//
// No exception leaves a job: one thrown by the work, or by a
// parallelFor body on a worker (TaskPools rethrows it in the job), is caught at
// the job's edge and handed to fail(TaskFailure) instead of deliver(), under the
// same rules. Every request says what its receiver shows then.
class TaskTracker
{
public:
    // `receiver` is usually the object that owns this tracker as a member.
    TaskTracker(TaskPools* pools, QObject* receiver);
    ~TaskTracker(); // cancels the running request; it will not be delivered

    TaskTracker(const TaskTracker&) = delete;
    TaskTracker& operator=(const TaskTracker&) = delete;

    // work(const TaskContext&) -> R on the jobs pool; then deliver(R) or
    // fail(const TaskFailure&) on the receiver's thread.
    template <typename Work, typename Deliver, typename Fail>
    TaskId start(Work work, Deliver deliver, Fail fail);

    // Supersedes the running request without starting another.
    void cancel();

    // A request is started and neither delivered nor superseded yet.
    bool isRunning() const;
    TaskId current() const;

private:
    struct State
    {
        TaskId current {};
        bool running = false;
    };

    struct Ticket
    {
        TaskId id;
        std::shared_ptr<core::CancelToken> token;
        TaskContext context;
    };

    Ticket begin(); // supersedes the running request and opens a new one
    // On the receiver's thread when a job ends: whether to deliver it.
    static bool endAndKeep(const std::weak_ptr<State>& state, TaskId id);

    TaskPools* m_pools;
    QObject* m_receiver;
    std::shared_ptr<State> m_state;
    std::shared_ptr<core::CancelToken> m_token; // the running request's
};

template <typename Work, typename Deliver, typename Fail>
TaskId TaskTracker::start(Work work, Deliver deliver, Fail fail)
{
    using Result = std::invoke_result_t<Work&, const TaskContext&>;

    // The result, or why there is none. Held on the heap: GCC 12 warns of
    // uninitialised reads when a Result variant is moved out of another variant.
    struct Outcome
    {
        std::unique_ptr<Result> result;
        TaskFailure failure;
    };

    Ticket ticket = begin();
    // Parented to the receiver: destroyed with it, and then nothing is delivered.
    auto* watcher = new QFutureWatcher<Outcome>(m_receiver);
    QObject::connect(watcher, &QFutureWatcherBase::finished, watcher,
        [watcher, state = std::weak_ptr<State>(m_state), id = ticket.id, deliver = std::move(deliver),
            fail = std::move(fail)]() mutable {
            watcher->deleteLater();
            if (!endAndKeep(state, id))
                return;
            // No outcome: even storing the failure threw (memory again), and
            // Qt Concurrent kept that exception in the future.
            if (watcher->future().resultCount() == 0) {
                fail(TaskFailure::notEnoughMemory());
                return;
            }
            Outcome outcome = watcher->future().takeResult();
            if (outcome.result)
                deliver(std::move(*outcome.result));
            else
                fail(outcome.failure);
        });
    watcher->setFuture(QtConcurrent::run(m_pools->jobs(),
        [work = std::move(work), context = std::move(ticket.context),
            token = std::move(ticket.token)]() mutable -> Outcome {
            // The job's edge: nothing thrown inside reaches Qt Concurrent (storing
            // the outcome may still throw there when memory is gone; see above).
            try {
                return Outcome { std::make_unique<Result>(work(std::as_const(context))), {} };
            } catch (...) {
                return Outcome { nullptr, TaskFailure::fromCurrentException() };
            }
        }));
    return ticket.id;
}

} // namespace ks::widgets
