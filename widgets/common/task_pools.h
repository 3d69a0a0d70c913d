#pragma once

#include "core/common/parallel_for.h"
#include "core/common/progress.h"

#include <QThreadPool>

#include <memory>
#include <vector>

namespace ks::widgets {

// The threads every background job of one top-level window runs on. The app
// creates one per window and hands it to the widgets that start jobs (through
// their constructors); widgets start no threads of their own. Building one
// frame's draw lists in parallel is the exception (TimelineRenderer::prepare).
//
// Two pools, so that no thread ever waits for work queued behind it:
// - jobs(): the outer tasks, one thread per running job. A job spends most of
//   its time inside parallelFor, waiting for its bodies.
// - the workers: parallelFor's helpers, and nothing else. parallelFor claims
//   only workers free at the moment (QThreadPool::tryStart, never a queued
//   task) and its caller runs bodies too, so it finishes even when every worker
//   is taken, nested calls included.
// Nothing waits for work queued behind busy threads, which is what deadlocked
// when outer tasks and nested QtConcurrent::blockingMap shared one pool (two
// cores were enough; tst_task_tracker's nested test hangs with blockingMap).
class TaskPools
{
public:
    // workerThreads 0: one per core.
    explicit TaskPools(int workerThreads = 0);
    // Cancels the jobs still running and waits for them.
    ~TaskPools();

    TaskPools(const TaskPools&) = delete;
    TaskPools& operator=(const TaskPools&) = delete;

    QThreadPool* jobs() { return &m_tasks; }

    // The workers parallelFor may borrow (its caller works too).
    int workerCount() const { return m_workers.maxThreadCount(); }

    // body(i) for i in [0, n) on the workers and the calling thread. Bodies not
    // yet begun when `cancel` fires are skipped: the caller must not use the
    // output of a cancelled run. A body that throws (out of memory) ends the
    // run: the bodies not yet begun are skipped and, once every helper is done,
    // the first exception is rethrown on the calling thread, never on a worker.
    core::ParallelFor parallelFor(const core::CancelToken* cancel = nullptr);

    // Remembers a running job's token so that the destructor can cancel it.
    // GUI thread only.
    void adopt(const std::shared_ptr<core::CancelToken>& token);

private:
    QThreadPool m_workers; // declared first: jobs use workers, so workers go last
    QThreadPool m_tasks;
    std::vector<std::weak_ptr<core::CancelToken>> m_tokens;
};

} // namespace ks::widgets
