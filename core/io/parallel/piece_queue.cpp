#include "core/io/parallel/piece_queue.h"

namespace ks::core {

bool PieceQueue::push(PreparedPiece piece)
{
    std::unique_lock lock(m_mutex);
    m_notFull.wait(lock, [this] { return m_stopped || m_pieces.size() < m_capacity; });
    if (m_stopped)
        return false;
    m_pieces.push_back(std::move(piece));
    m_notEmpty.notify_one();
    return true;
}

std::optional<PreparedPiece> PieceQueue::pop()
{
    std::unique_lock lock(m_mutex);
    m_notEmpty.wait(lock, [this] { return m_stopped || m_finished || !m_pieces.empty(); });
    if (m_pieces.empty())
        return std::nullopt;
    PreparedPiece piece = std::move(m_pieces.front());
    m_pieces.pop_front();
    m_notFull.notify_one();
    return piece;
}

void PieceQueue::finish()
{
    std::lock_guard lock(m_mutex);
    m_finished = true;
    m_notEmpty.notify_all();
}

void PieceQueue::stop()
{
    std::lock_guard lock(m_mutex);
    m_stopped = true;
    m_pieces.clear();
    m_notFull.notify_all();
    m_notEmpty.notify_all();
}

bool PieceQueue::stopped() const
{
    std::lock_guard lock(m_mutex);
    return m_stopped;
}

std::vector<char> PieceQueue::spareBuffer()
{
    std::lock_guard lock(m_mutex);
    if (m_spares.empty())
        return {};
    std::vector<char> b = std::move(m_spares.back());
    m_spares.pop_back();
    return b;
}

void PieceQueue::recycle(std::vector<char> buffer)
{
    std::lock_guard lock(m_mutex);
    if (m_spares.size() < m_spareLimit)
        m_spares.push_back(std::move(buffer));
}

} // namespace ks::core
