#pragma once

#include "core/common/result.h"
#include "core/io/piece_queue.h"
#include "core/io/raw_event.h"

#include <cstddef>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// The events of one piece, decoded by a parse worker and replayed into the
// RankBuilder later, in piece order. A RawEvent's strings point into simdjson's
// string buffer, which the worker's next parse overwrites, so add() copies them
// into the batch's arena. Unescaped strings are never longer than their JSON
// text and each comes from its own token, so an arena as long as the piece
// never reallocates and the views stay valid. The args text points into the
// piece itself, which the batch keeps until it is recycled.
class DecodedBatch
{
public:
    // Starts over for `piece`, keeping the memory of earlier batches (no fresh pages).
    void start(PreparedPiece piece);
    void add(const RawEvent& event);

    const std::vector<RawEvent>& events() const { return m_events; }

    PreparedPiece& piece() { return m_piece; }

    std::uint64_t sequence() const { return m_piece.sequence; }

    // Why decoding stopped after events(), if it did (not JSON, out of memory).
    std::optional<Error> error;

private:
    std::string_view keep(std::string_view text);

    PreparedPiece m_piece;
    std::vector<RawEvent> m_events;
    std::vector<char> m_arena;
    std::size_t m_arenaUsed = 0;
    std::deque<std::string> m_overflow; // only if the bound above were ever wrong
};

} // namespace ks::core
