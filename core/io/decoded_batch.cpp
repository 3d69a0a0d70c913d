#include "core/io/decoded_batch.h"

#include <cstring>

namespace ks::core {

void DecodedBatch::start(PreparedPiece piece)
{
    m_piece = std::move(piece);
    m_events.clear();
    error.reset();
    m_overflow.clear();
    m_arenaUsed = 0;
    if (m_arena.size() < m_piece.length)
        m_arena.resize(m_piece.length + m_piece.length / 4);
}

std::string_view DecodedBatch::keep(std::string_view text)
{
    if (text.empty())
        return {};
    if (text.size() > m_arena.size() - m_arenaUsed)
        return m_overflow.emplace_back(text);
    char* at = m_arena.data() + m_arenaUsed;
    std::memcpy(at, text.data(), text.size());
    m_arenaUsed += text.size();
    return { at, text.size() };
}

void DecodedBatch::add(const RawEvent& event)
{
    RawEvent& e = m_events.emplace_back(event);
    e.name = keep(e.name);
    e.category = keep(e.category);
    e.pidText = keep(e.pidText);
    e.tidText = keep(e.tidText);
    e.idText = keep(e.idText);
}

} // namespace ks::core
