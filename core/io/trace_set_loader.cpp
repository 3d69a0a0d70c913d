#include "core/io/trace_set_loader.h"

#include "core/io/gzip/file_identity.h"
#include "core/io/gzip/inflated_size.h"
#include "core/io/gzip/input_stream.h"
#include "core/io/json/event_parser.h"
#include "core/io/json/metadata_parser.h"
#include "core/io/json/trace_events_splitter.h"
#include "core/io/parallel/parallel_read.h"
#include "core/io/parallel/pipelined_read.h"
#include "core/io/store_builder/rank_builder.h"
#include "core/io/store_builder/rank_detection.h"
#include "core/io/timed_input_stream.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <filesystem>
#include <map>
#include <mutex>
#include <new>
#include <optional>
#include <system_error>

namespace ks::core {

namespace {

    // Feeds the splitter's pieces to the parser and collects the top-level keys.
    class RankHandler final : public TraceEventsHandler
    {
    public:
        RankHandler(const std::string& path, RankBuilder& builder, LoadTimeline* timeline)
            : m_parser(path, builder)
            , m_timeline(timeline)
        {
        }

        std::optional<Error> onEvents(std::string_view elements, std::uint64_t firstIndex, std::size_t,
            std::uint64_t byteOffset) override
        {
            const StageScope parse(m_timeline, LoadLane::Calling, LoadStage::Parse);
            return m_parser.parse(elements, firstIndex, byteOffset);
        }

        void onTopLevelKey(std::string_view key, std::string_view rawValue) override
        {
            applyTopLevelKey(m_metadata, key, rawValue);
        }

        RankMetadata takeMetadata() { return std::move(m_metadata); }

        EventParser& parser() { return m_parser; }

    private:
        EventParser m_parser;
        RankMetadata m_metadata;
        LoadTimeline* m_timeline; // one thread reads and parses: its Parse stage
    };

    // Sums the progress of ranks loading in parallel into one report.
    class FolderProgress final : public ProgressSink
    {
    public:
        FolderProgress(ProgressSink* target, std::vector<std::uint64_t> sizes)
            : m_target(target)
            , m_sizes(std::move(sizes))
            , m_done(m_sizes.size(), 0)
        {
            for (std::uint64_t s : m_sizes)
                m_total += s;
        }

        class RankSink final : public ProgressSink
        {
        public:
            RankSink(FolderProgress& owner, std::size_t index)
                : m_owner(owner)
                , m_index(index)
            {
            }

            void report(const LoadProgress& p) override { m_owner.update(m_index, p.bytesDone, p.stage); }

        private:
            FolderProgress& m_owner;
            std::size_t m_index;
        };

        void update(std::size_t index, std::uint64_t bytes, std::string_view stage)
        {
            if (!m_target)
                return;
            std::lock_guard lock(m_mutex);
            m_done[index] = bytes;
            std::uint64_t sum = 0;
            for (std::uint64_t d : m_done)
                sum += d;
            m_target->report(
                LoadProgress { stage, sum, m_total, m_ranksDone, static_cast<int>(m_sizes.size()) });
        }

        void rankFinished(std::size_t index)
        {
            {
                std::lock_guard lock(m_mutex);
                ++m_ranksDone;
            }
            update(index, m_sizes[index], "parsing");
        }

        void report(const LoadProgress&) override {}

    private:
        ProgressSink* m_target;
        std::vector<std::uint64_t> m_sizes;
        std::vector<std::uint64_t> m_done;
        std::uint64_t m_total = 0;
        int m_ranksDone = 0;
        std::mutex m_mutex;
    };

    std::uint64_t fileSize(const std::string& path)
    {
        std::error_code ec;
        const auto size = std::filesystem::file_size(path, ec);
        return ec ? 0 : static_cast<std::uint64_t>(size);
    }

} // namespace

TraceInputs expandTraceInputs(const std::vector<std::string>& paths)
{
    TraceInputs out;
    for (const std::string& path : paths) {
        if (!isDirectory(path)) {
            out.files.push_back(path);
            out.fromFolder.push_back(false);
            out.positionInFolder.push_back(0);
            continue;
        }
        auto listed = listTraceFiles(path);
        if (!listed) {
            out.failures.push_back(listed.error());
            continue;
        }
        if (listed.value().empty()) {
            out.failures.push_back(
                Error { ErrorCode::EmptyFolder, "empty folder: no .json or .json.gz trace files", path, {} });
            continue;
        }
        for (std::size_t i = 0; i < listed.value().size(); ++i) {
            out.files.push_back(listed.value()[i]);
            out.fromFolder.push_back(true);
            out.positionInFolder.push_back(i);
        }
    }
    return out;
}

void assignRank(RankTrace& trace, std::size_t fallbackPosition)
{
    if (trace.metadata.distributedRank) {
        trace.rank = *trace.metadata.distributedRank;
        trace.rankSource = RankSource::DistributedInfo;
    } else if (auto r = rankFromFileName(trace.path)) {
        trace.rank = *r;
        trace.rankSource = RankSource::FileName;
    } else {
        trace.rank = static_cast<std::int64_t>(fallbackPosition);
        trace.rankSource = RankSource::FileOrder;
    }
}

namespace {

    void noteRanksAndSkew(TraceSet& set)
    {
        std::map<std::int64_t, std::vector<std::string>> byRank;
        for (const auto& r : set.ranks) {
            byRank[r->rank].push_back(r->path);
            if (r->rankSource == RankSource::FileName)
                set.folderDiagnostics.add(
                    DiagnosticKind::RankFromFileName, r->path + " -> rank " + std::to_string(r->rank));
            else if (r->rankSource == RankSource::FileOrder)
                set.folderDiagnostics.add(
                    DiagnosticKind::RankFromOrder, r->path + " -> rank " + std::to_string(r->rank));
        }
        for (const auto& [rank, files] : byRank) {
            if (files.size() < 2)
                continue;
            std::string list;
            for (const auto& f : files)
                list += (list.empty() ? "" : ", ") + f;
            set.folderDiagnostics.add(
                DiagnosticKind::DuplicateRank, "rank " + std::to_string(rank) + ": " + list);
            set.notes.push_back(
                "rank " + std::to_string(rank) + " is claimed by several files (all kept): " + list);
        }
        if (set.ranks.size() < 2)
            return;
        std::vector<TimeNs> starts;
        for (const auto& r : set.ranks)
            starts.push_back(r->startNs);
        std::nth_element(
            starts.begin(), starts.begin() + static_cast<std::ptrdiff_t>(starts.size() / 2), starts.end());
        const TimeNs median = starts[starts.size() / 2];
        constexpr TimeNs kSkew = 1'000'000'000;
        for (const auto& r : set.ranks)
            if (r->startNs - median > kSkew || median - r->startNs > kSkew)
                set.folderDiagnostics.add(DiagnosticKind::ClockSkew,
                    "rank " + std::to_string(r->rank) + " starts "
                        + std::to_string((r->startNs - median) / 1'000'000) + " ms from the median");
    }

    // A guess of the event count from the file size, for reserving columns: the
    // gzip trailer holds the inflated size modulo 4 GiB; Kineto JSON has ~250 bytes per event.
    std::uint64_t estimatedEvents(const std::string& path, const InputStream& input)
    {
        std::uint64_t jsonBytes = input.fileBytesTotal();
        if (input.isGzip()) {
            std::uint64_t trailer = 0;
            if (std::FILE* f = std::fopen(path.c_str(), "rb")) {
                unsigned char size[4] = {};
                if (std::fseek(f, -4, SEEK_END) == 0 && std::fread(size, 1, 4, f) == 4)
                    trailer = static_cast<std::uint64_t>(size[0]) | (static_cast<std::uint64_t>(size[1]) << 8)
                        | (static_cast<std::uint64_t>(size[2]) << 16)
                        | (static_cast<std::uint64_t>(size[3]) << 24);
                std::fclose(f);
            }
            jsonBytes = inflatedSizeFromTrailer(trailer, input.fileBytesTotal());
        }
        return std::min<std::uint64_t>(jsonBytes / 250, 1ull << 31);
    }

    // Address space a load takes at its peak, for the out-of-memory message: the
    // program with its thread stacks, heaps and read buffers, plus per estimated
    // event the staging columns, the store and strings. Fitted under prlimit --as
    // on synthetic ranks after args left the store: 1 MB of JSON loads in 50 MB,
    // 200 MB of JSON (0.8 M events) needs 85-90 MB.
    constexpr std::uint64_t kLoadBaseBytes = 50'000'000;
    constexpr std::uint64_t kPeakBytesPerEvent = 55;

    std::uint64_t bytesToLoad(std::uint64_t events)
    {
        return kLoadBaseBytes + events * kPeakBytesPerEvent;
    }

    Result<RankTrace> loadFromStream(const std::string& path, InputStream& stream, std::uint64_t events,
        const LoadOptions& options, ProgressSink* progress, const CancelToken* cancel)
    {
        const FileIdentity identity = identifyFile(path); // before reading: a change while loading counts too
        // Parse workers' threads are not followed: their ranks get no timeline.
        LoadTimeline* timeline = options.parseWorkers == 0 ? options.timeline : nullptr;
        const bool pipelined = options.background && options.parseWorkers == 0;
        if (timeline)
            timeline->beginLane(LoadLane::Calling, pipelined ? LoadStage::Wait : LoadStage::Split);
        std::optional<TimedInputStream> timed;
        if (timeline)
            timed.emplace(stream, *timeline, pipelined ? LoadLane::Reading : LoadLane::Calling);
        InputStream& input = timed ? static_cast<InputStream&>(*timed) : stream;
        RankBuilder builder(path);
        builder.reserveFor(events);
        builder.setTimeline(timeline);
        if (options.keepArgsOf)
            builder.keepArgsOf(options.keepArgsOf);
        builder.setMaxEventDuration(options.maxEventDurationNs);
        RankHandler handler(path, builder, timeline);
        RankMetadata threadedMetadata; // top-level keys, read on the reading thread
        std::optional<Result<SplitSummary>> summary;
        std::unique_ptr<BackgroundWork> readingThread; // the pipelined read's; then a helper of finish()
        if (options.background) {
            try {
                if (options.parseWorkers > 0) {
                    const ParallelReadSetup setup { options.chunkBytes, options.parseWorkers,
                        options.background };
                    summary.emplace(
                        readParallel(input, path, builder, threadedMetadata, setup, progress, cancel));
                } else {
                    readingThread = options.background();
                    summary.emplace(readPipelined(input, path, handler.parser(), threadedMetadata,
                        options.chunkBytes, progress, cancel, *readingThread, timeline));
                }
            } catch (const std::system_error&) {
                // No thread to spare (a process limit); nothing was read yet.
            }
        }
        const bool readOnThreads = summary.has_value();
        if (!summary)
            summary.emplace(splitTraceEvents(input, path, handler, options.chunkBytes, progress, cancel));
        if (!*summary)
            return summary->error();
        if (cancel && cancel->isCancelled())
            return Error { ErrorCode::Cancelled, "cancelled", path, {} };
        if (progress)
            progress->report(
                LoadProgress { "indexing", input.fileBytesRead(), input.fileBytesTotal(), 0, 0 });
        if (timeline)
            timeline->enter(LoadLane::Calling, LoadStage::Build);
        if (options.releaseFreedMemory)
            options.releaseFreedMemory();
        builder.setMetadata(readOnThreads ? std::move(threadedMetadata) : handler.takeMetadata());
        builder.setReadCounts(summary->value().jsonBytes, input.fileBytesTotal(), input.isGzip());
        // Binding flows, the builder's longest last step, runs on as many threads as the parse
        // did. A pipelined read's reading thread has finished by now: its core would idle
        // through the finish (a quarter of a 1 GB rank's load on the calling thread).
        std::vector<std::unique_ptr<BackgroundWork>> finishThreads;
        std::vector<BackgroundWork*> helpers;
        if (readOnThreads && options.parseWorkers > 1)
            for (std::size_t k = 1; k < options.parseWorkers; ++k)
                helpers.push_back(finishThreads.emplace_back(options.background()).get());
        if (readOnThreads && readingThread)
            helpers.push_back(readingThread.get());
        RankTrace trace = builder.finish(helpers);
        trace.args.file = identity;
        input.moveIndexInto(trace.args);
        assignRank(trace, 0);
        if (timeline)
            timeline->endLane(LoadLane::Calling);
        return trace;
    }

} // namespace

Result<RankTrace> loadRankFile(
    const std::string& path, const LoadOptions& options, ProgressSink* progress, const CancelToken* cancel)
{
    // Out of memory is a per-rank error like any other, so the other ranks still
    // load; no allocation failure may leave the core as an exception.
    std::uint64_t events = 0;
    try {
        auto input = openInputStream(path, options.preferZlib ? InflateBackend::Zlib : InflateBackend::Auto);
        if (!input)
            return input.error();
        events = estimatedEvents(path, *input.value());
        auto trace = loadFromStream(path, *input.value(), events, options, progress, cancel);
        if (!trace && trace.error().code == ErrorCode::OutOfMemory)
            return notEnoughMemory(path, bytesToLoad(events));
        return trace;
    } catch (const std::bad_alloc&) {
        if (events == 0)
            events = fileSize(path) / 250;
        return notEnoughMemory(path, bytesToLoad(events));
    }
}

Result<TraceSet> loadTraceSet(const std::vector<std::string>& paths, const LoadOptions& options,
    ProgressSink* progress, const CancelToken* cancel, const ParallelFor& parallelFor)
{
    return loadTraceInputs(paths, expandTraceInputs(paths), options, progress, cancel, parallelFor);
}

Result<TraceSet> loadTraceInputs(const std::vector<std::string>& paths, TraceInputs inputs,
    const LoadOptions& options, ProgressSink* progress, const CancelToken* cancel,
    const ParallelFor& parallelFor)
{
    if (inputs.files.empty()) {
        if (!inputs.failures.empty())
            return inputs.failures.front();
        return Error { ErrorCode::EmptyFolder, "nothing to open", {}, {} };
    }
    std::vector<std::uint64_t> sizes;
    for (const std::string& f : inputs.files)
        sizes.push_back(fileSize(f));
    FolderProgress folderProgress(progress, sizes);
    LoadOptions rankOptions = options;
    if (inputs.files.size() > 1) {
        rankOptions.parseWorkers = 0; // one parse thread per rank: the ranks fill the cores
        rankOptions.timeline = nullptr; // a timeline follows one rank's threads
    }

    std::vector<std::optional<Result<RankTrace>>> results(inputs.files.size());
    parallelFor(inputs.files.size(), [&](std::size_t i) {
        if (cancel && cancel->isCancelled())
            return;
        FolderProgress::RankSink sink(folderProgress, i);
        results[i].emplace(loadRankFile(inputs.files[i], rankOptions, &sink, cancel));
        folderProgress.rankFinished(i);
    });
    if (cancel && cancel->isCancelled())
        return Error { ErrorCode::Cancelled, "cancelled", {}, {} };

    TraceSet set;
    set.inputs = paths;
    set.failures = std::move(inputs.failures);
    for (std::size_t i = 0; i < results.size(); ++i) {
        Result<RankTrace>& r = *results[i];
        if (!r) {
            const bool skip = inputs.fromFolder[i] && r.error().code == ErrorCode::NoTraceEvents;
            if (skip) {
                set.folderDiagnostics.add(
                    DiagnosticKind::SkippedFile, inputs.files[i] + ": " + r.error().message);
                set.notes.push_back("skipped " + inputs.files[i] + ": not a Kineto trace (no traceEvents)");
                set.skipped.push_back(SkippedFile { inputs.files[i], r.error().message });
            } else {
                set.failures.push_back(r.error());
            }
            continue;
        }
        RankTrace& trace = r.value();
        assignRank(trace, inputs.positionInFolder[i]);
        set.ranks.push_back(std::make_shared<const RankTrace>(std::move(trace)));
    }
    std::stable_sort(set.ranks.begin(), set.ranks.end(), [](const auto& a, const auto& b) {
        return a->rank != b->rank ? a->rank < b->rank : a->path < b->path;
    });
    noteRanksAndSkew(set);
    if (set.ranks.empty() && !set.failures.empty() && set.failures.size() == 1)
        return set.failures.front();
    return set;
}

} // namespace ks::core
