#pragma once

#include "core/common/background_work.h"
#include "core/common/parallel_for.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/io/load_timeline.h"
#include "core/model/trace_set.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ks::core {

struct LoadOptions
{
    // Inflated JSON per parse piece: 256 KB parses as fast as 4 MB and keeps
    // the pieces in flight and the parallel path's decoded batches small (a
    // 1 GB rank read in parallel peaked 40 MB higher with 1 MB pieces).
    std::size_t chunkBytes = 256u << 10;
    bool preferZlib = false; // use zlib even when ISA-L is available (tests both paths)
    // When given, each rank inflates and splits on a second thread while the
    // calling thread parses (about 1.4x faster on one large rank).
    BackgroundWorkFactory background;
    // With `background`: how many more threads parse pieces of one rank while
    // the calling thread builds the store from them. 0 = the calling thread
    // parses. A folder's ranks load side by side and already fill the cores:
    // loadTraceSet gives each of them 0 when it loads more than one file.
    std::size_t parseWorkers = 0;
    // When given, called once a rank's text is read and before its store is
    // built: the app hands the read buffers' freed pages back to the system, so
    // that they do not add to the load's peak, which comes after (B4).
    std::function<void()> releaseFreedMemory;
    // When given, records what each thread of a rank read alone did when (the
    // load benchmark's per-stage timeline): the pipelined read or one thread,
    // not parse workers; one rank at a time.
    LoadTimeline* timeline = nullptr;
    // When given, the args text of the slices whose names it accepts is kept in
    // the store (RankTrace::keptArgs, asked once per distinct name), so that an
    // analysis that reads them does not inflate the file again: summarize keeps
    // the modelled ops' args for the roofline of every rank.
    std::function<bool(std::string_view name)> keepArgsOf;
    // Slices lasting longer are corrupted (CUPTI timestamps giving kernels of years):
    // skipped and counted (DiagnosticKind::CorruptDuration). HTA's default, 7 days
    // (max_event_duration_us); `--max-event-duration` sets it, 0 turns the check off.
    static constexpr std::int64_t kDefaultMaxEventDurationNs = 7LL * 24 * 3600 * 1'000'000'000LL;
    std::int64_t maxEventDurationNs = kDefaultMaxEventDurationNs;
};

// The trace files that paths name, in load order: files as given, each
// folder's .json/.json.gz files by name. A folder that cannot be listed or
// holds no trace files becomes a failure.
struct TraceInputs
{
    std::vector<std::string> files;
    std::vector<bool> fromFolder;
    std::vector<std::size_t> positionInFolder; // the rank when nothing else names one
    std::vector<Error> failures;
};

TraceInputs expandTraceInputs(const std::vector<std::string>& paths);

// Sets the rank and how it was found: distributedInfo.rank, else a number in
// the file name, else `fallbackPosition` (the file's position in its folder).
void assignRank(RankTrace& trace, std::size_t fallbackPosition);

// Loads files and folders (each folder = its .json/.json.gz files, one per rank).
// A file that fails becomes an entry in TraceSet::failures; the others still load.
// Fails as a whole only when nothing could be opened at all (empty folder,
// no such path) or when cancelled.
Result<TraceSet> loadTraceSet(const std::vector<std::string>& paths, const LoadOptions& options,
    ProgressSink* progress, const CancelToken* cancel, const ParallelFor& parallelFor = runSequentially);
// The same over `paths` already listed (expandTraceInputs): a caller that listed
// them to decide how to open them (the app's job mode) does not list them again.
Result<TraceSet> loadTraceInputs(const std::vector<std::string>& paths, TraceInputs inputs,
    const LoadOptions& options, ProgressSink* progress, const CancelToken* cancel,
    const ParallelFor& parallelFor = runSequentially);

// Loads one file as one rank (rank from distributedInfo, else from the name, else 0).
Result<RankTrace> loadRankFile(
    const std::string& path, const LoadOptions& options, ProgressSink* progress, const CancelToken* cancel);

} // namespace ks::core
