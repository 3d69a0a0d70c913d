#include "core/io/parallel/decoded_batch.h"

#include <cstring>

namespace ks::core {

void DecodedBatch::start(PreparedPiece piece)
{
    m_piece = std::move(piece);
    m_events.clear();
    error.reset();
    m_long.clear();
    m_block = 0;
    m_blockUsed = 0;
}

std::string_view DecodedBatch::keep(std::string_view text)
{
    if (text.empty())
        return {};
    if (text.size() > kBlockBytes)
        return m_long.emplace_back(text);
    if (m_blocks.empty() || text.size() > kBlockBytes - m_blockUsed) {
        if (!m_blocks.empty())
            ++m_block;
        if (m_block == m_blocks.size())
            m_blocks.push_back(std::make_unique_for_overwrite<char[]>(kBlockBytes));
        m_blockUsed = 0;
    }
    char* at = m_blocks[m_block].get() + m_blockUsed;
    std::memcpy(at, text.data(), text.size());
    m_blockUsed += text.size();
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
