#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

// What `kinetoscope-cli synth --ranks` generates: one Kineto trace per rank of a
// data-parallel (DDP) transformer training job.
struct SynthOptions
{
    int ranks = 1;
    std::uint64_t targetBytes = 0; // uncompressed JSON per rank; met within ~10 %
    std::uint64_t seed = 1;
    std::string outDir;
    bool gzip = false;
    int gzipLevel = 6;
    bool pythonFunctions = true; // emit python_function events (with_stack-like)
    // Ranks whose GPU compute kernels run `slowdown` times longer (a slow GPU,
    // thermal throttling): their collectives still end with everyone else's, so
    // the other ranks wait for them inside their NCCL kernels.
    std::vector<int> stragglers;
    double slowdown = 1.0;
};

// What `kinetoscope-cli synth --from` does: repeat a real trace's events along time.
struct ScaleOptions
{
    std::string inputPath;
    int copies = 2;
    std::string outDir;
    bool gzip = false;
    int gzipLevel = 6;
};

// One file written by the generator or the scaler.
struct WrittenFile
{
    std::string path;
    std::uint64_t events = 0;
    std::uint64_t jsonBytes = 0; // uncompressed
    std::uint64_t fileBytes = 0; // on disk
};

} // namespace ks::core
