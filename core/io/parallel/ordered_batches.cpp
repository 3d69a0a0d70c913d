#include "core/io/parallel/ordered_batches.h"

#include <algorithm>

namespace ks::core {

OrderedBatches::OrderedBatches(std::size_t batches, std::size_t workers)
    : m_workersLeft(workers)
{
    for (std::size_t i = 0; i < batches; ++i) {
        m_all.push_back(std::make_unique<DecodedBatch>());
        m_spares.push_back(m_all.back().get());
    }
}

DecodedBatch* OrderedBatches::takeSpare()
{
    std::unique_lock lock(m_mutex);
    m_spareReady.wait(lock, [this] { return m_stopped || !m_spares.empty(); });
    if (m_stopped)
        return nullptr;
    DecodedBatch* b = m_spares.back();
    m_spares.pop_back();
    return b;
}

void OrderedBatches::publish(DecodedBatch* batch)
{
    std::lock_guard lock(m_mutex);
    m_decoded.push_back(batch);
    if (batch->sequence() == m_wanted)
        m_wantedReady.notify_one();
}

void OrderedBatches::workerDone()
{
    std::lock_guard lock(m_mutex);
    --m_workersLeft;
    if (m_workersLeft == 0)
        m_wantedReady.notify_one();
}

void OrderedBatches::fail(Error error)
{
    std::lock_guard lock(m_mutex);
    if (!m_failure)
        m_failure = std::move(error);
    m_stopped = true;
    m_spareReady.notify_all();
    m_wantedReady.notify_all();
}

DecodedBatch* OrderedBatches::next(std::uint64_t sequence)
{
    std::unique_lock lock(m_mutex);
    // A handful of batches: a linear search is cheaper than a map.
    auto found = [&] {
        return std::find_if(m_decoded.begin(), m_decoded.end(),
            [sequence](const DecodedBatch* b) { return b->sequence() == sequence; });
    };
    m_wanted = sequence;
    m_wantedReady.wait(lock, [&] { return m_stopped || found() != m_decoded.end() || m_workersLeft == 0; });
    if (m_stopped)
        return nullptr;
    auto it = found();
    if (it == m_decoded.end())
        return nullptr;
    DecodedBatch* b = *it;
    m_decoded.erase(it);
    return b;
}

void OrderedBatches::giveBack(DecodedBatch* batch)
{
    std::lock_guard lock(m_mutex);
    m_spares.push_back(batch);
    m_spareReady.notify_one();
}

void OrderedBatches::stop()
{
    std::lock_guard lock(m_mutex);
    m_stopped = true;
    m_spareReady.notify_all();
    m_wantedReady.notify_all();
}

std::optional<Error> OrderedBatches::failure() const
{
    std::lock_guard lock(m_mutex);
    return m_failure;
}

} // namespace ks::core
