#pragma once

#include "app/cli/cli_args.h"
#include "core/summary/job_summarizer.h"

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace ks::cli {

// Options of `summarize` other than the shard, parsed; nullopt after
// writing the problem to `err`.
struct SummarizeCli
{
    std::vector<std::string> paths;
    std::string out;
    core::SummarizeOptions options;
    unsigned jobs = 0; // ranks in memory at once; 0 = all cores
    bool shardGiven = false; // --shard or Slurm's array variables
};

std::optional<SummarizeCli> parseSummarizeArguments(
    const std::vector<std::string>& arguments, std::ostream& err);

// Summarises options.shardIndex/shardCount of the job into `out` on `jobs`
// threads; prints each failed file on `err`. Returns the exit code.
int summarizeToFile(const SummarizeCli& cli, const std::string& out, std::ostream& err);

// Opens a finished summary and prints "wrote PATH: N ranks summarised, ...".
int reportSummary(const std::string& path, std::ostream& out, std::ostream& err);

#ifdef KS_WITH_MPI
// When this process was started by mpirun/srun with more than one process:
// each summarises its share of the files, rank 0 gathers the parts over MPI
// and writes the one summary. nullopt when not under MPI (or alone).
std::optional<int> summarizeUnderMpi(const SummarizeCli& cli, std::ostream& out, std::ostream& err);
#endif

} // namespace ks::cli
