#include "core/io/pipelined_read.h"

#include "core/io/metadata_parser.h"
#include "core/io/piece_queue.h"

#include <new>
#include <optional>

namespace ks::core {

namespace {

    constexpr std::size_t kPiecesInFlight = 3;

    // Runs on the background thread: prepares pieces for the parser.
    class PieceProducer final : public TraceEventsHandler
    {
    public:
        PieceProducer(PieceQueue& queue, RankMetadata& metadata)
            : m_queue(queue)
            , m_metadata(metadata)
        {
        }

        std::optional<Error> onEvents(std::string_view elements, std::uint64_t firstIndex, std::size_t,
            std::uint64_t byteOffset) override
        {
            PreparedPiece piece;
            piece.buffer = m_queue.spareBuffer();
            piece.length = EventParser::prepare(elements, piece.buffer);
            piece.firstIndex = firstIndex;
            piece.byteOffset = byteOffset;
            if (!m_queue.push(std::move(piece)))
                return Error { ErrorCode::Cancelled, "stopped", {}, {} };
            return std::nullopt;
        }

        // Top-level keys are few and small: decoded here, read by the caller after wait().
        void onTopLevelKey(std::string_view key, std::string_view rawValue) override
        {
            applyTopLevelKey(m_metadata, key, rawValue);
        }

    private:
        PieceQueue& m_queue;
        RankMetadata& m_metadata;
    };

} // namespace

Result<SplitSummary> readPipelined(InputStream& input, const std::string& path, EventParser& parser,
    RankMetadata& metadata, std::size_t chunkBytes, ProgressSink* progress, const CancelToken* cancel,
    BackgroundWork& background)
{
    PieceQueue queue(kPiecesInFlight);
    std::optional<Result<SplitSummary>> produced;
    PieceProducer producer(queue, metadata);
    background.start([&] {
        // An exception must not leave this thread (it would end the process):
        // running out of memory here becomes the load's error.
        try {
            produced.emplace(splitTraceEvents(input, path, producer, chunkBytes, progress, cancel));
        } catch (const std::bad_alloc&) {
            queue.stop(); // the parser stops at its next piece
            produced.emplace(Error { ErrorCode::OutOfMemory, "not enough memory", path, {} });
        }
        queue.finish();
    });
    std::optional<Error> parseError;
    try {
        while (auto piece = queue.pop()) {
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
