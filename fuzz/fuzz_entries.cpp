#include "fuzz/fuzz_entries.h"

#include "core/analysis/critical_path/critical_path.h"
#include "core/analysis/cross_rank/collective_skew.h"
#include "core/analysis/cross_rank/rank_overview.h"
#include "core/analysis/hta/counter_series.h"
#include "core/analysis/kernels/kernel_sequences.h"
#include "core/analysis/memory_snapshot/allocator_state.h"
#include "core/analysis/memory_snapshot/snapshot_compare.h"
#include "core/analysis/memory_snapshot/snapshot_reader.h"
#include "core/io/json/event_parser.h"
#include "core/io/json/metadata_parser.h"
#include "core/io/json/trace_events_splitter.h"
#include "core/io/store_builder/rank_builder.h"
#include "core/io/trace_set_loader.h"
#include "core/session/analysis_catalog.h"
#include "fuzz/memory_input_stream.h"

#include <fstream>

namespace ks::fuzz {

namespace {

    // The loader's pairing of splitter and parser, without the file: pieces go
    // to the parser, top-level keys to the metadata.
    class ParsingHandler final : public core::TraceEventsHandler
    {
    public:
        ParsingHandler(const std::string& path, core::RankBuilder& builder)
            : m_parser(path, builder)
        {
        }

        std::optional<core::Error> onEvents(std::string_view elements, std::uint64_t firstIndex, std::size_t,
            std::uint64_t byteOffset) override
        {
            return m_parser.parse(elements, firstIndex, byteOffset);
        }

        void onTopLevelKey(std::string_view key, std::string_view rawValue) override
        {
            core::applyTopLevelKey(metadata, key, rawValue);
        }

        core::RankMetadata metadata;

    private:
        core::EventParser m_parser;
    };

    // Every analysis of the catalog, the critical path, the overview, the
    // counters and kernel sequences on the first rank, in one mode.
    std::size_t runAnalyses(const core::TraceSet& traces, core::AnalysisMode mode)
    {
        core::AnalysisOptions options;
        options.mode = mode;
        auto frames = core::buildFrames(traces, options);
        if (!frames || frames.value().ranks.empty())
            return 0;
        std::vector<std::int64_t> rankList;
        for (const core::RankFrame& frame : frames.value().ranks)
            rankList.push_back(frame.rank);
        std::size_t run = 0;
        for (const core::AnalysisCall& call : core::analysisCalls(options, rankList)) {
            call.run(frames.value(), call.options);
            ++run;
        }
        const std::int64_t first = rankList.front();
        core::criticalPath(frames.value(), first, "", core::CriticalPathInstance {}, options);
        core::rankOverview(frames.value(), options);
        core::profilerSteps(frames.value(), options);
        core::KernelSequenceOptions sequences;
        sequences.mode = mode;
        core::kernelSequences(frames.value(), first, "ProfilerStep", sequences);
        return run + 4;
    }

    std::size_t runRankAnalyses(const core::TraceSet& traces)
    {
        for (const auto& rank : traces.ranks) {
            core::queueLengthSeries(*rank);
            core::memoryBandwidthSeries(*rank);
        }
        core::collectiveSkew(traces);
        return 1 + runAnalyses(traces, core::AnalysisMode::Default)
            + runAnalyses(traces, core::AnalysisMode::HtaCompat);
    }

} // namespace

FuzzOutcome fuzzEvents(std::span<const std::uint8_t> bytes)
{
    const std::string path = "fuzz-input.json";
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    MemoryInputStream input(text);
    core::RankBuilder builder(path);
    ParsingHandler handler(path, builder);
    // 64 B .. 8 KiB: small pieces put element boundaries everywhere.
    const std::size_t chunkBytes = std::size_t { 64 } << (bytes.size() % 8);
    FuzzOutcome outcome;
    auto summary = core::splitTraceEvents(input, path, handler, chunkBytes, nullptr, nullptr);
    if (!summary) {
        outcome.errors.push_back(summary.error().describe());
        return outcome;
    }
    builder.setMetadata(std::move(handler.metadata));
    builder.setReadCounts(summary.value().jsonBytes, bytes.size(), false);
    const core::RankTrace trace = builder.finish();
    outcome.ranksLoaded = 1;
    return outcome;
}

FuzzOutcome fuzzLoadFile(std::span<const std::uint8_t> bytes, const std::string& filePath)
{
    FuzzOutcome outcome;
    {
        std::ofstream file(filePath, std::ios::binary | std::ios::trunc);
        file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
        if (!file) {
            outcome.errors.push_back(filePath + ": cannot write the fuzz input");
            return outcome;
        }
    }
    auto loaded = core::loadTraceSet({ filePath }, core::LoadOptions {}, nullptr, nullptr);
    if (!loaded) {
        outcome.errors.push_back(loaded.error().describe());
        return outcome;
    }
    for (const core::Error& failure : loaded.value().failures)
        outcome.errors.push_back(failure.describe());
    outcome.ranksLoaded = loaded.value().ranks.size();
    if (outcome.ranksLoaded > 0)
        outcome.analysesRun = runRankAnalyses(loaded.value());
    return outcome;
}

FuzzOutcome fuzzSnapshot(std::span<const std::uint8_t> bytes)
{
    const std::string path = "fuzz-input.pickle";
    FuzzOutcome outcome;
    auto doc = core::readPickle(bytes, path);
    if (!doc) {
        outcome.errors.push_back(doc.error().describe());
        return outcome;
    }
    auto snapshot = core::snapshotFromPickle(doc.value(), path);
    if (!snapshot) {
        outcome.errors.push_back(snapshot.error().describe());
        return outcome;
    }
    outcome.ranksLoaded = 1;
    const core::MemorySnapshot& s = snapshot.value();
    const core::SnapshotSummary summary = core::summarizeSnapshot(s);
    for (const core::DeviceSnapshotSummary& d : summary.devices) {
        const auto events = static_cast<std::int64_t>(d.timeline.rows.size());
        for (const std::int64_t at : { std::int64_t(-1), events / 2, events - 1 })
            core::allocatorStateAt(s, d.device, at);
        core::peakByFrame(s, d.timeline, core::FrameRule::MemoryViz);
        core::endByFrame(s, d.device, core::FrameRule::User);
        ++outcome.analysesRun;
    }
    core::compareSnapshots(s, summary, s, summary);
    ++outcome.analysesRun;
    return outcome;
}

} // namespace ks::fuzz
