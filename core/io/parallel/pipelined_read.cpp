#include "core/io/parallel/pipelined_read.h"

#include "core/io/parallel/piece_producer.h"
#include "core/io/parallel/piece_queue.h"

#include <new>
#include <optional>

namespace ks::core {

namespace {

    constexpr std::size_t kPiecesInFlight = 3;

} // namespace

Result<SplitSummary> readPipelined(InputStream& input, const std::string& path, EventParser& parser,
    RankMetadata& metadata, std::size_t chunkBytes, ProgressSink* progress, const CancelToken* cancel,
    BackgroundWork& background, LoadTimeline* timeline)
{
    PieceQueue queue(kPiecesInFlight);
    std::optional<Result<SplitSummary>> produced;
    PieceProducer producer(queue, metadata, timeline);
    background.start([&] {
        if (timeline)
            timeline->beginLane(LoadLane::Reading, LoadStage::Split);
        // An exception must not leave this thread (it would end the process):
        // running out of memory here becomes the load's error.
        try {
            produced.emplace(splitTraceEvents(input, path, producer, chunkBytes, progress, cancel));
        } catch (const std::bad_alloc&) {
            queue.stop(); // the parser stops at its next piece
            produced.emplace(Error { ErrorCode::OutOfMemory, "not enough memory", path, {} });
        }
        queue.finish();
        if (timeline)
            timeline->endLane(LoadLane::Reading);
    });
    std::optional<Error> parseError;
    try {
        // The calling thread's lane is in Wait but while it parses.
        const StageScope waiting(timeline, LoadLane::Calling, LoadStage::Wait);
        while (auto piece = queue.pop()) {
            const StageScope parse(timeline, LoadLane::Calling, LoadStage::Parse);
            if (!parseError)
                parseError =
                    parser.parsePrepared(piece->buffer, piece->length, piece->firstIndex, piece->byteOffset);
            if (parseError)
                queue.stop(); // unblocks the producer; remaining pieces are dropped
            queue.recycle(std::move(piece->buffer));
        }
    } catch (const std::bad_alloc&) {
        queue.stop(); // the producer must finish before its queue goes away
        parseError = Error { ErrorCode::OutOfMemory, "not enough memory", path, {} };
    }
    background.wait();
    if (parseError)
        return *parseError;
    return std::move(*produced);
}

} // namespace ks::core
