#include "widgets/common/task_tracker.h"

namespace ks::widgets {

TaskFailure TaskFailure::notEnoughMemory() noexcept
{
    return TaskFailure { QStringLiteral("not enough memory"), true }; // static text: allocates nothing
}

TaskFailure TaskFailure::fromCurrentException() noexcept
{
    try {
        throw;
    } catch (const std::bad_alloc&) {
        return notEnoughMemory();
    } catch (...) {
    }
    // Copying the message allocates: when even that fails, memory is what ran out.
    try {
        try {
            throw;
        } catch (const std::exception& e) {
            return TaskFailure { QString::fromLocal8Bit(e.what()), false };
        } catch (...) {
            return TaskFailure { QStringLiteral("an unknown exception"), false };
        }
    } catch (...) {
        return notEnoughMemory();
    }
}

TaskTracker::TaskTracker(TaskPools* pools, QObject* receiver)
    : m_pools(pools)
    , m_receiver(receiver)
    , m_state(std::make_shared<State>())
{
}

TaskTracker::~TaskTracker()
{
    cancel();
}

TaskTracker::Ticket TaskTracker::begin()
{
    cancel();
    m_state->current = TaskId { static_cast<std::uint64_t>(m_state->current) + 1 };
    m_state->running = true;
    m_token = std::make_shared<core::CancelToken>();
    m_pools->adopt(m_token);
    return Ticket { m_state->current, m_token,
        TaskContext { m_token.get(), m_pools->parallelFor(m_token.get()) } };
}

void TaskTracker::cancel()
{
    if (m_token)
        m_token->cancel();
    m_token.reset();
    // A new id, so that a request already finished but not yet delivered is dropped too.
    m_state->current = TaskId { static_cast<std::uint64_t>(m_state->current) + 1 };
    m_state->running = false;
}

bool TaskTracker::isRunning() const
{
    return m_state->running;
}

TaskId TaskTracker::current() const
{
    return m_state->current;
}

bool TaskTracker::endAndKeep(const std::weak_ptr<State>& state, TaskId id)
{
    const std::shared_ptr<State> s = state.lock();
    if (!s || s->current != id)
        return false;
    s->running = false;
    return true;
}

} // namespace ks::widgets
