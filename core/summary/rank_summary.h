#pragma once

#include "core/analysis/frame/analysis_options.h"
#include "core/analysis/tables/table.h"
#include "core/common/result.h"
#include "core/model/rank_trace.h"
#include "core/summary/job_files.h"
#include "core/summary/utilisation_profile.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ks::core {

// Everything a job summary keeps of one rank file, as rows of the summary's
// tables (summary_schema.cpp gives their columns), computed without any other
// rank: the rank's store can be freed as soon as this exists.
struct RankSummary
{
    JobFile file;
    std::int64_t rank = -1;
    std::map<std::string, std::vector<std::vector<Cell>>, std::less<>> rows; // table -> rows
    std::vector<StreamProfile> profiles; // stream_utilisation, before the job's width is known
};

// Summarises one loaded rank: file facts, diagnostics, the rank overview per
// iteration, kernel types and top kernels (A3), launch statistics (A6), queue
// length and memory bandwidth summaries (A5), every collective instance, and
// the GPU streams' utilisation profiles. Analyses that do not apply are listed
// in analysis_status with HTA's or Kinetoscope's reason.
RankSummary summarizeRank(
    std::shared_ptr<const RankTrace> trace, const JobFile& file, const AnalysisOptions& options, int bins);

// The ranks row of a file that could not be loaded (or was skipped: not a trace).
RankSummary failedRank(const JobFile& file, const Error& error, bool skipped);

// A6 in brief: per metric (cpu_duration, gpu_duration, launch_delay) the count,
// mean, min, nearest-rank p50/p90/p99, max, and how many exceed HTA's cutoff
// (runtime cutoff for CPU durations, launch delay cutoff for delays).
std::vector<std::vector<Cell>> launchStatsSummary(
    const Table& launches, std::int64_t rank, const LaunchStatsOptions& options);

} // namespace ks::core
