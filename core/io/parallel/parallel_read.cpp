#include "core/io/parallel/parallel_read.h"

#include "core/io/json/event_parser.h"
#include "core/io/json/raw_event_sink.h"
#include "core/io/parallel/ordered_batches.h"
#include "core/io/parallel/piece_producer.h"

#include <algorithm>
#include <functional>
#include <memory>
#include <new>
#include <optional>
#include <system_error>
#include <vector>

namespace ks::core {

namespace {

    Error outOfMemory(const std::string& path)
    {
        return Error { ErrorCode::OutOfMemory, "not enough memory", path, {} };
    }

    // The parser's sink on a worker: the batch being decoded.
    class BatchFiller final : public RawEventSink
    {
    public:
        void fill(DecodedBatch* batch) { m_batch = batch; }

        void take(const RawEvent& event) override { m_batch->add(event); }

    private:
        DecodedBatch* m_batch = nullptr;
    };

    // One parse worker: a spare batch, then a piece, decoded, published; until no pieces are left.
    void runWorker(PieceQueue& pieces, OrderedBatches& batches, const std::string& path)
    {
        // An exception must not leave this thread (it would end the process).
        DecodedBatch* batch = nullptr;
        bool holdsPiece = false; // batch holds a piece of this read (its sequence is valid)
        try {
            BatchFiller filler;
            EventParser parser(path, filler);
            while ((batch = batches.takeSpare())) {
                auto piece = pieces.pop();
                if (!piece) {
                    batches.giveBack(batch);
                    batch = nullptr;
                    break;
                }
                holdsPiece = true;
                batch->start(std::move(*piece));
                filler.fill(batch);
                PreparedPiece& p = batch->piece(); // the parser may rewrite bytes simdjson rejects
                batch->error = parser.parsePrepared(p.buffer, p.length, p.firstIndex, p.byteOffset);
                batches.publish(batch);
                batch = nullptr;
                holdsPiece = false;
            }
        } catch (const std::bad_alloc&) {
            // Reported in file order when the batch knows its piece; else everything stops.
            if (batch && holdsPiece) {
                batch->error = outOfMemory(path);
                batches.publish(batch);
            } else {
                batches.fail(outOfMemory(path));
                pieces.stop();
            }
        }
        batches.workerDone();
    }

    // Starts what it can; joins everything it started when it goes away, after
    // `stop` has unblocked them (an exception leaving readParallel).
    class Threads
    {
    public:
        Threads(const BackgroundWorkFactory& factory, std::function<void()> stop)
            : m_factory(factory)
            , m_stop(std::move(stop))
        {
        }

        ~Threads()
        {
            if (!m_running.empty())
                m_stop();
            waitAll();
        }

        Threads(const Threads&) = delete;
        Threads& operator=(const Threads&) = delete;

        // Throws std::system_error when no thread can be had.
        void start(std::function<void()> work)
        {
            auto w = m_factory();
            w->start(std::move(work));
            m_running.push_back(std::move(w));
        }

        void waitAll()
        {
            for (auto& w : m_running)
                w->wait();
            m_running.clear();
        }

    private:
        const BackgroundWorkFactory& m_factory;
        std::function<void()> m_stop;
        std::vector<std::unique_ptr<BackgroundWork>> m_running;
    };

} // namespace

Result<SplitSummary> readParallel(InputStream& input, const std::string& path, RankBuilder& builder,
    RankMetadata& metadata, const ParallelReadSetup& setup, ProgressSink* progress, const CancelToken* cancel)
{
    const std::size_t workers = std::max<std::size_t>(setup.workers, 1);
    // A piece ahead per worker in the queue, and a batch per worker plus two
    // decoded ahead of the builder: enough to keep every thread busy.
    const std::size_t queued = workers + 1;
    const std::size_t batchCount = workers + 2;
    // Every buffer can come back at once: the queued ones, the batches' and the reader's.
    PieceQueue pieces(queued, queued + batchCount + 1);
    OrderedBatches batches(batchCount, workers);
    auto stopAll = [&] {
        pieces.stop(); // unblocks the reader
        batches.stop(); // unblocks the workers
    };
    // Declared before the threads that use them, so they outlive them.
    std::optional<Result<SplitSummary>> produced;
    PieceProducer producer(pieces, metadata);
    Threads threads(setup.threads, stopAll);
    std::size_t started = 0;
    for (; started < workers; ++started) {
        try {
            threads.start([&] { runWorker(pieces, batches, path); });
        } catch (const std::system_error&) {
            if (started == 0)
                throw; // nothing started, nothing read
            break; // fewer workers then
        }
    }
    for (std::size_t w = started; w < workers; ++w)
        batches.workerDone();

    try {
        threads.start([&] {
            try {
                produced.emplace(splitTraceEvents(input, path, producer, setup.chunkBytes, progress, cancel));
            } catch (const std::bad_alloc&) {
                pieces.stop(); // the workers stop at their next piece
                produced.emplace(outOfMemory(path));
            }
            pieces.finish();
        });
    } catch (const std::system_error&) {
        pieces.finish(); // the workers end; nothing was read
        threads.waitAll();
        throw;
    }

    std::optional<Error> buildError;
    try {
        for (std::uint64_t sequence = 0;; ++sequence) {
            DecodedBatch* batch = batches.next(sequence);
            if (!batch)
                break;
            for (const RawEvent& e : batch->events())
                builder.add(e);
            buildError = batch->error;
            pieces.recycle(std::move(batch->piece().buffer));
            batches.giveBack(batch);
            if (buildError) {
                stopAll();
                break;
            }
        }
    } catch (const std::bad_alloc&) {
        stopAll();
        buildError = outOfMemory(path);
    }
    if (!buildError)
        buildError = batches.failure();
    threads.waitAll();
    if (buildError)
        return *buildError;
    return std::move(*produced);
}

} // namespace ks::core
