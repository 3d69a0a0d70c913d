#pragma once

#include "core/common/result.h"
#include "core/io/json/raw_event.h"
#include "core/io/parallel/piece_queue.h"

#include <cstddef>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ks::core {

// The events of one piece, decoded by a parse worker and replayed into the
// RankBuilder later, in piece order. A RawEvent's strings point into simdjson's
// string buffer, which the worker's next parse overwrites, so add() copies them
// into the batch's arena: blocks that never move once allocated, so the views
// stay valid, and that are kept for the next piece. The args text points into
// the piece itself, which the batch keeps until it is recycled.
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

    // Names and categories take a tenth of a piece: blocks much smaller than
    // the piece keep a batch's memory close to what it holds.
    static constexpr std::size_t kBlockBytes = 64u << 10;

    PreparedPiece m_piece;
    std::vector<RawEvent> m_events;
    std::vector<std::unique_ptr<char[]>> m_blocks;
    std::size_t m_block = 0; // the block being filled
    std::size_t m_blockUsed = 0;
    std::deque<std::string> m_long; // strings longer than a block (rare)
};

} // namespace ks::core
