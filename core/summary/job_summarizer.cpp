#include "core/summary/job_summarizer.h"

#include "core/analysis/efficiency/perf_model.h"
#include "core/summary/job_files.h"
#include "core/summary/rank_summary.h"
#include "core/summary/summary_reader.h"
#include "core/summary/summary_writer.h"

#include <algorithm>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

namespace ks::core {

Result<SummarizeReport> summarizeJob(const std::vector<std::string>& paths, const std::string& outPath,
    const SummarizeOptions& options, const ParallelFor& parallelFor)
{
    if (options.shardCount == 0 || options.shardIndex >= options.shardCount)
        return Error { ErrorCode::InvalidArgument, "shard index must be below the shard count", {}, {} };
    if (options.bins < 1 || options.bins > (1 << 20))
        return Error { ErrorCode::InvalidArgument, "bins must be between 1 and 1048576", {}, {} };
    const JobFiles job = listJobFiles(paths);
    if (job.files.empty())
        return job.failures.empty() ? Error { ErrorCode::EmptyFolder, "nothing to summarise", {}, {} }
                                    : job.failures.front();
    const std::vector<JobFile> files = shardFiles(job, options.shardIndex, options.shardCount);

    SummaryJobInfo info;
    info.jobId = job.jobId;
    info.mode = options.analysis.mode;
    info.bins = options.bins;
    info.filesTotal = job.files.size();
    info.shardCount = options.shardCount;
    info.shards = { options.shardIndex };
    info.stragglerMargin = options.stragglerMargin;
    auto created = SummaryWriter::create(outPath, info);
    if (!created)
        return created.error();
    SummaryWriter& writer = *created.value();

    // Every rank's roofline reads the modelled ops' args: keep them while parsing
    // rather than inflate each file a second time (a tenth of summarize's time).
    LoadOptions load = options.load;
    if (!load.keepArgsOf)
        load.keepArgsOf = isModelledOp;

    SummarizeReport report;
    report.filesInJob = job.files.size();
    report.filesSummarised = files.size();
    report.failures = job.failures;
    std::mutex mutex; // the writer is one SQLite connection: one rank at a time
    std::optional<Error> writeError;
    std::size_t done = 0;
    parallelFor(files.size(), [&](std::size_t i) {
        const JobFile& file = files[i];
        if (options.cancel && options.cancel->isCancelled())
            return;
        RankSummary summary;
        auto loaded = loadRankFile(file.path, load, nullptr, options.cancel);
        if (!loaded && loaded.error().code == ErrorCode::Cancelled)
            return;
        bool failed = false;
        if (loaded) {
            RankTrace& trace = loaded.value();
            assignRank(trace, file.positionInFolder);
            summary = summarizeRank(
                std::make_shared<const RankTrace>(std::move(trace)), file, options.analysis, options.bins);
        } else {
            // As the loader does: JSON without traceEvents in a folder is not a rank.
            const bool skipped = loaded.error().code == ErrorCode::NoTraceEvents;
            summary = failedRank(file, loaded.error(), skipped);
            failed = !skipped;
        }
        std::lock_guard lock(mutex);
        if (loaded)
            ++report.ranksOk;
        else if (failed)
            report.failures.push_back(loaded.error());
        else {
            ++report.skipped;
            report.skippedFiles.push_back(SkippedFile { file.path, loaded.error().message });
        }
        if (!writeError)
            writeError = writer.add(summary);
        if (options.onFileDone)
            options.onFileDone(++done, files.size());
    });
    if (writeError)
        return *writeError;
    if (options.cancel && options.cancel->isCancelled())
        return Error { ErrorCode::Cancelled, "summarising was cancelled", outPath, {} };
    if (auto error = writer.finish())
        return *error;
    return report;
}

Result<MergeReport> mergeSummaries(const std::vector<std::string>& parts, const std::string& outPath)
{
    if (parts.empty())
        return Error { ErrorCode::InvalidArgument, "no summaries to merge", {}, {} };
    std::vector<SummaryMeta> metas(parts.size());
    std::set<std::size_t> shards;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        auto opened = openSummary(parts[i], metas[i]);
        if (!opened)
            return opened.error();
        const SummaryMeta& first = metas.front();
        const SummaryMeta& m = metas[i];
        auto refuse = [&](const std::string& why) {
            return Error { ErrorCode::InvalidArgument, why + " than " + parts.front(), parts[i], {} };
        };
        if (m.jobId != first.jobId)
            return refuse("a part of a different job (job id " + m.jobId + ", not " + first.jobId + ")");
        if (m.mode != first.mode)
            return refuse("summarised in another mode (" + m.mode + ")");
        if (m.bins != first.bins || m.shardCount != first.shardCount)
            return refuse("made with other --bins or shard count");
        for (const std::size_t s : m.shards)
            if (!shards.insert(s).second)
                return Error { ErrorCode::InvalidArgument,
                    "shard " + std::to_string(s) + " of " + std::to_string(m.shardCount) + " is given twice",
                    parts[i], {} };
    }
    SummaryJobInfo info;
    info.jobId = metas.front().jobId;
    info.mode = metas.front().mode == "hta-compat" ? AnalysisMode::HtaCompat : AnalysisMode::Default;
    info.bins = metas.front().bins;
    info.filesTotal = metas.front().filesTotal;
    info.shardCount = metas.front().shardCount;
    info.shards.assign(shards.begin(), shards.end());
    try {
        info.stragglerMargin = std::stod(metas.front().values["straggler_margin"]);
    } catch (...) {
    }
    auto created = SummaryWriter::create(outPath, info);
    if (!created)
        return created.error();
    for (std::size_t i = 0; i < parts.size(); ++i)
        if (auto error = created.value()->addPart(parts[i], metas[i]))
            return *error;
    if (auto error = created.value()->finish())
        return *error;
    MergeReport report;
    report.parts = parts.size();
    report.shardCount = info.shardCount;
    for (std::size_t s = 0; s < info.shardCount; ++s)
        if (!shards.count(s))
            report.missingShards.push_back(s);
    return report;
}

} // namespace ks::core
