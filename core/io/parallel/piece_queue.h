#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

namespace ks::core {

// A piece of traceEvents ready for the parser: '[' + elements + ']' + padding.
struct PreparedPiece
{
    std::vector<char> buffer;
    std::size_t length = 0;
    std::uint64_t firstIndex = 0;
    std::uint64_t byteOffset = 0;
    std::uint64_t sequence = 0; // 0, 1, 2... in file order
};

// Bounded hand-over of pieces from the reading thread to the parsing thread.
// Buffers are recycled so a multi-GB load allocates a handful of them.
class PieceQueue
{
public:
    // `spares`: buffers kept for reuse; as many as can be away from the queue
    // at once (with the parser, or in decoded batches), or some are freed and
    // allocated anew (fresh pages).
    explicit PieceQueue(std::size_t capacity, std::size_t spares = 0)
        : m_capacity(capacity)
        , m_spareLimit(spares ? spares : capacity + 2)
    {
    }

    // Blocks while full; returns false when the consumer has stopped.
    bool push(PreparedPiece piece);
    // Blocks while empty; nullopt once the producer has finished and all is consumed.
    std::optional<PreparedPiece> pop();
    void finish(); // producer: no more pieces
    void stop(); // consumer: stop producing (error or cancel)
    bool stopped() const;
    std::vector<char> spareBuffer(); // a recycled buffer, or an empty one
    void recycle(std::vector<char> buffer);

private:
    std::size_t m_capacity;
    std::size_t m_spareLimit;
    mutable std::mutex m_mutex;
    // One wake-up per hand-over, to the side that waits for it: waking every
    // parse worker on every piece costs a context switch each.
    std::condition_variable m_notFull; // the reader waits
    std::condition_variable m_notEmpty; // parsers wait
    std::deque<PreparedPiece> m_pieces;
    std::vector<std::vector<char>> m_spares;
    bool m_finished = false;
    bool m_stopped = false;
};

} // namespace ks::core
