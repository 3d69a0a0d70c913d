#pragma once

#include "core/common/parallel_for.h"
#include "core/common/progress.h"
#include "widgets/common/job_pools.h"

#include <QFutureWatcher>
#include <QObject>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

namespace ks::widgets {

// Numbers the requests of one JobTracker; 0 is "none yet".
enum class JobId : std::uint64_t
{
};

// What a job's work receives: its own cancel token (to pass into the core) and
// a ParallelFor on the job pools that skips bodies once the token fires.
struct JobContext
{
    const core::CancelToken* cancel = nullptr;
    core::ParallelFor parallelFor;

    bool cancelled() const { return cancel && cancel->isCancelled(); }
};

// "Newest request wins" for one kind of request of one receiver (a load, the
// analyses, a search, ...). start() runs work(context) on the job pool and
// hands its result to deliver() on the receiver's thread, but only if no newer
// start() or cancel() came since and the receiver still exists. A superseded
// request's token is cancelled, so core work that polls it stops early; its
// result is dropped on arrival. The work must capture snapshots, never the
// receiver: it may still run after the receiver is gone.
class JobTracker
{
public:
    // `receiver` is usually the object that owns this tracker as a member.
    JobTracker(JobPools* pools, QObject* receiver);
    ~JobTracker(); // cancels the running request; it will not be delivered

    JobTracker(const JobTracker&) = delete;
    JobTracker& operator=(const JobTracker&) = delete;

    template <typename Work, typename Deliver>
    JobId start(Work work, Deliver deliver);

    // Supersedes the running request without starting another.
    void cancel();

    // A request is started and neither delivered nor superseded yet.
    bool isRunning() const;
    JobId current() const;

private:
    struct State
    {
        JobId current {};
        bool running = false;
    };

    struct Ticket
    {
        JobId id;
        std::shared_ptr<core::CancelToken> token;
        JobContext context;
    };

    Ticket begin(); // supersedes the running request and opens a new one
    // On the receiver's thread when a job ends: whether to deliver it.
    static bool endAndKeep(const std::weak_ptr<State>& state, JobId id);

    JobPools* m_pools;
    QObject* m_receiver;
    std::shared_ptr<State> m_state;
    std::shared_ptr<core::CancelToken> m_token; // the running request's
};

template <typename Work, typename Deliver>
JobId JobTracker::start(Work work, Deliver deliver)
{
    using Result = std::invoke_result_t<Work&, const JobContext&>;
    Ticket ticket = begin();
    // Parented to the receiver: destroyed with it, and then nothing is delivered.
    auto* watcher = new QFutureWatcher<Result>(m_receiver);
    QObject::connect(watcher, &QFutureWatcherBase::finished, watcher,
        [watcher, state = std::weak_ptr<State>(m_state), id = ticket.id,
            deliver = std::move(deliver)]() mutable {
            watcher->deleteLater();
            if (endAndKeep(state, id) && watcher->future().resultCount() > 0)
                deliver(watcher->future().takeResult());
        });
    watcher->setFuture(QtConcurrent::run(m_pools->jobs(),
        [work = std::move(work), context = std::move(ticket.context),
            token = std::move(ticket.token)]() mutable { return work(std::as_const(context)); }));
    return ticket.id;
}

} // namespace ks::widgets
