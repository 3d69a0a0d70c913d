#include "widgets/common/job_tracker.h"

namespace ks::widgets {

JobFailure JobFailure::notEnoughMemory() noexcept
{
    return JobFailure { QStringLiteral("not enough memory"), true }; // static text: allocates nothing
}

JobFailure JobFailure::fromCurrentException() noexcept
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
            return JobFailure { QString::fromLocal8Bit(e.what()), false };
        } catch (...) {
            return JobFailure { QStringLiteral("an unknown exception"), false };
        }
    } catch (...) {
        return notEnoughMemory();
    }
}

JobTracker::JobTracker(JobPools* pools, QObject* receiver)
    : m_pools(pools)
    , m_receiver(receiver)
    , m_state(std::make_shared<State>())
{
}

JobTracker::~JobTracker()
{
    cancel();
}

JobTracker::Ticket JobTracker::begin()
{
    cancel();
    m_state->current = JobId { static_cast<std::uint64_t>(m_state->current) + 1 };
    m_state->running = true;
    m_token = std::make_shared<core::CancelToken>();
    m_pools->adopt(m_token);
    return Ticket { m_state->current, m_token,
        JobContext { m_token.get(), m_pools->parallelFor(m_token.get()) } };
}

void JobTracker::cancel()
{
    if (m_token)
        m_token->cancel();
    m_token.reset();
    // A new id, so that a request already finished but not yet delivered is dropped too.
    m_state->current = JobId { static_cast<std::uint64_t>(m_state->current) + 1 };
    m_state->running = false;
}

bool JobTracker::isRunning() const
{
    return m_state->running;
}

JobId JobTracker::current() const
{
    return m_state->current;
}

bool JobTracker::endAndKeep(const std::weak_ptr<State>& state, JobId id)
{
    const std::shared_ptr<State> s = state.lock();
    if (!s || s->current != id)
        return false;
    s->running = false;
    return true;
}

} // namespace ks::widgets
