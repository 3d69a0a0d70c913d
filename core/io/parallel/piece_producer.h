#pragma once

#include "core/io/json/trace_events_splitter.h"
#include "core/io/load_timeline.h"
#include "core/io/parallel/piece_queue.h"
#include "core/model/rank_metadata.h"

namespace ks::core {

// The splitter's handler on the reading thread: copies each piece into a
// (recycled) buffer ready for the parser, numbers it, and queues it.
// Top-level keys are few and small: decoded here, read by the caller after
// the reading thread has finished.
class PieceProducer final : public TraceEventsHandler
{
public:
    PieceProducer(PieceQueue& queue, RankMetadata& metadata, LoadTimeline* timeline = nullptr)
        : m_queue(queue)
        , m_metadata(metadata)
        , m_timeline(timeline)
    {
    }

    std::optional<Error> onEvents(std::string_view elements, std::uint64_t firstIndex, std::size_t count,
        std::uint64_t byteOffset) override;
    void onTopLevelKey(std::string_view key, std::string_view rawValue) override;

private:
    PieceQueue& m_queue;
    RankMetadata& m_metadata;
    LoadTimeline* m_timeline; // the reading thread waits on a full queue: Wait
    std::uint64_t m_sequence = 0;
};

} // namespace ks::core
