#pragma once

#include "core/common/result.h"
#include "core/io/parallel/decoded_batch.h"

#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace ks::core {

// Hands decoded batches from the parse workers to the building thread in
// piece order, and back again: a fixed set of batches bounds memory whatever
// the file size, and their buffers are reused rather than allocated anew.
//
// A worker takes a spare batch *before* it takes a piece, so the piece the
// builder waits for always has a batch to be decoded into (no deadlock).
class OrderedBatches
{
public:
    OrderedBatches(std::size_t batches, std::size_t workers);

    // Worker side.
    DecodedBatch* takeSpare(); // blocks; nullptr once stopped
    void publish(DecodedBatch* batch); // decoded (batch->sequence() says which piece)
    void workerDone(); // this worker takes no more batches
    // A worker failed without a batch to report it in (out of memory): stops everything.
    void fail(Error error);

    // Builder side: the batch of piece `sequence`, blocking. nullptr when
    // stopped, or when every worker is done and that piece never came (the end).
    DecodedBatch* next(std::uint64_t sequence);
    void giveBack(DecodedBatch* batch); // also for a worker that found no piece
    void stop();
    std::optional<Error> failure() const;

private:
    std::vector<std::unique_ptr<DecodedBatch>> m_all;
    mutable std::mutex m_mutex;
    // Separate wake-ups for the workers (a spare batch) and the builder (the
    // batch it waits for): waking every thread on every change costs a
    // context switch each, thousands of times per GB.
    std::condition_variable m_spareReady;
    std::condition_variable m_wantedReady;
    std::uint64_t m_wanted = 0; // the sequence the builder waits for
    std::vector<DecodedBatch*> m_spares;
    std::vector<DecodedBatch*> m_decoded; // published, not yet taken by the builder
    std::size_t m_workersLeft;
    bool m_stopped = false;
    std::optional<Error> m_failure;
};

} // namespace ks::core
