#pragma once

#include "core/common/result.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

// One trace file of a job, with its place in the whole job (not the shard).
struct JobFile
{
    std::string path;
    std::size_t index = 0; // position in the job's file list
    std::size_t positionInFolder = 0; // the rank when nothing else names one
    std::uint64_t sizeBytes = 0;
};

// The files of a job as the loader would open them, and an id that every
// shard of the same job computes alike (so parts of different jobs are told
// apart when merged): a hash of each file's name and size, in order.
struct JobFiles
{
    std::vector<JobFile> files;
    std::vector<Error> failures; // folders that could not be listed or were empty
    std::string jobId; // 16 hex digits
};

JobFiles listJobFiles(const std::vector<std::string>& paths);

// Shard `index` of `count`: every count-th file starting at `index`. Round
// robin rather than ranges, so shards of a folder with growing file sizes
// (rank order often follows node order) carry similar amounts of work.
std::vector<JobFile> shardFiles(const JobFiles& job, std::size_t index, std::size_t count);

} // namespace ks::core
