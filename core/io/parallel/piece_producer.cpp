#include "core/io/parallel/piece_producer.h"

#include "core/io/json/event_parser.h"
#include "core/io/json/metadata_parser.h"

namespace ks::core {

std::optional<Error> PieceProducer::onEvents(
    std::string_view elements, std::uint64_t firstIndex, std::size_t, std::uint64_t byteOffset)
{
    PreparedPiece piece;
    piece.buffer = m_queue.spareBuffer();
    piece.length = EventParser::prepare(elements, piece.buffer);
    piece.firstIndex = firstIndex;
    piece.byteOffset = byteOffset;
    piece.sequence = m_sequence++;
    const StageScope waiting(m_timeline, LoadLane::Reading, LoadStage::Wait);
    if (!m_queue.push(std::move(piece)))
        return Error { ErrorCode::Cancelled, "stopped", {}, {} };
    return std::nullopt;
}

void PieceProducer::onTopLevelKey(std::string_view key, std::string_view rawValue)
{
    applyTopLevelKey(m_metadata, key, rawValue);
}

} // namespace ks::core
