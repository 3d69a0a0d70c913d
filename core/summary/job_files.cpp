#include "core/summary/job_files.h"

#include "core/io/trace_set_loader.h"

#include <cstdio>
#include <filesystem>

namespace ks::core {

namespace {

    // FNV-1a: stable across builds and machines, unlike std::hash.
    void mix(std::uint64_t& hash, std::string_view bytes)
    {
        for (const char c : bytes) {
            hash ^= static_cast<unsigned char>(c);
            hash *= 1099511628211ULL;
        }
        hash ^= 0xff; // separator: "ab"+"c" differs from "a"+"bc"
        hash *= 1099511628211ULL;
    }

} // namespace

JobFiles listJobFiles(const std::vector<std::string>& paths)
{
    JobFiles job;
    TraceInputs inputs = expandTraceInputs(paths);
    job.failures = std::move(inputs.failures);
    std::uint64_t hash = 14695981039346656037ULL;
    for (std::size_t i = 0; i < inputs.files.size(); ++i) {
        JobFile file;
        file.path = inputs.files[i];
        file.index = i;
        file.positionInFolder = inputs.positionInFolder[i];
        std::error_code ec;
        const auto size = std::filesystem::file_size(file.path, ec);
        file.sizeBytes = ec ? 0 : static_cast<std::uint64_t>(size);
        // The name, not the path: shards may see the folder under different mounts.
        mix(hash, std::filesystem::path(file.path).filename().string());
        mix(hash, std::to_string(file.sizeBytes));
        job.files.push_back(std::move(file));
    }
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
    job.jobId = hex;
    return job;
}

std::vector<JobFile> shardFiles(const JobFiles& job, std::size_t index, std::size_t count)
{
    std::vector<JobFile> out;
    for (const JobFile& file : job.files)
        if (count == 0 || file.index % count == index)
            out.push_back(file);
    return out;
}

} // namespace ks::core
