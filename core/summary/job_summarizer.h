#pragma once

#include "core/analysis/frame/analysis_options.h"
#include "core/common/parallel_for.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "core/io/trace_set_loader.h"

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

namespace ks::core {

struct SummarizeOptions
{
    AnalysisOptions analysis; // mode (default or HTA-compatible) and HTA's parameters
    int bins = 2048; // utilisation bins over the job's span
    std::size_t shardIndex = 0;
    std::size_t shardCount = 1;
    double stragglerMargin = 0.10;
    LoadOptions load;
    // Called after each file is written (done, total), one call at a time.
    std::function<void(std::size_t, std::size_t)> onFileDone;
    // When set and cancelled, files not yet started are skipped, a file being
    // read stops, and summarizeJob fails with ErrorCode::Cancelled (no output).
    const CancelToken* cancel = nullptr;
};

struct SummarizeReport
{
    std::size_t filesInJob = 0;
    std::size_t filesSummarised = 0; // this shard's
    std::size_t ranksOk = 0;
    std::vector<Error> failures; // files that failed to load (recorded in the summary too)
    std::size_t skipped = 0; // JSON files in a folder without traceEvents
    std::vector<SkippedFile> skippedFiles; // the same files, with why
};

// Summarises a job (or one shard of it) into `outPath`. Each file is loaded,
// summarised and written, then freed: at most as many ranks are in memory as
// `parallelFor` runs bodies at once. A file that fails to load is recorded as
// failed with its one-line error; the rest are summarised. Fails as a whole
// only when no file can be listed or the summary cannot be written.
Result<SummarizeReport> summarizeJob(const std::vector<std::string>& paths, const std::string& outPath,
    const SummarizeOptions& options, const ParallelFor& parallelFor = runSequentially);

struct MergeReport
{
    std::size_t parts = 0;
    std::size_t shardCount = 0;
    std::vector<std::size_t> missingShards; // shards of the job no part holds
};

// Merges complete summaries of the same job (shards, or MPI processes' parts)
// into one, equal row for row to summarising the whole job in one pass.
// Refuses, naming the file: anything that is not a readable summary, parts of
// different jobs, modes or bin counts, and a shard given twice.
Result<MergeReport> mergeSummaries(const std::vector<std::string>& parts, const std::string& outPath);

} // namespace ks::core
