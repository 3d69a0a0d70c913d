// B2/B6 of performance.md: open a folder (all ranks in parallel) and compute
// A1-A6 for every rank; report each analysis per million GPU events, beside
// `gzip -dc` of the same files run in the same process run.

#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "bench/bench_timing.h"
#include "core/io/trace_set_loader.h"
#include "core/session/analysis_catalog.h"

#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string gzipCommand(const std::vector<std::string>& paths)
{
    std::string files;
    for (const std::string& p : paths) {
        if (std::filesystem::is_directory(p)) {
            for (const auto& e : std::filesystem::directory_iterator(p))
                if (e.path().extension() == ".gz")
                    files += " '" + e.path().string() + "'";
        } else {
            files += " '" + p + "'";
        }
    }
    return "cat" + files + " | gzip -dc > /dev/null 2>&1";
}

} // namespace

int main(int argc, char** argv)
{
    ks::app::tuneAllocatorForLargeTraces();
    bool compat = false;
    unsigned threads = 0; // 0 = all cores; 1 gives each phase's CPU time on a busy machine
    std::vector<std::string> paths;
    std::map<std::string, double> htaSeconds; // HTA's recorded time per call on the same input
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--hta-compat") {
            compat = true;
        } else if (a == "--threads" && i + 1 < argc) {
            threads = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
        } else if (a == "--hta-timings" && i + 1 < argc) {
            simdjson::dom::parser parser;
            simdjson::dom::object timings;
            if (!parser.load(argv[++i])["timings"].get(timings))
                for (auto [call, entry] : timings) {
                    double seconds = 0;
                    if (!entry["elapsed_s"].get(seconds))
                        htaSeconds[std::string(call)] = seconds;
                }
        } else {
            paths.push_back(a);
        }
    }
    auto hta = [&htaSeconds](const std::string& call, double ours) -> std::string {
        auto it = htaSeconds.find(call);
        if (it == htaSeconds.end())
            return " | | |";
        char buf[64];
        std::snprintf(
            buf, sizeof buf, " | %.3f | %.0fx |", it->second, it->second / (ours > 0 ? ours : 1e-9));
        return buf;
    };
    if (paths.empty()) {
        std::fprintf(stderr, "usage: kinetoscope-bench-analyses PATH... [--hta-compat] [--threads N]\n");
        return 2;
    }
    const double gzipSeconds = ks::bench::runCommand(gzipCommand(paths)).seconds;
    const auto t0 = std::chrono::steady_clock::now();
    auto set = ks::core::loadTraceSet(
        paths, {}, nullptr, nullptr, [threads](std::size_t n, const std::function<void(std::size_t)>& body) {
            ks::app::parallelForOnThreads(n, body, threads);
        });
    if (!set) {
        std::fprintf(stderr, "%s\n", set.error().describe().c_str());
        return 1;
    }
    const double loadSeconds = secondsSince(t0);
    ks::core::AnalysisOptions options;
    options.mode = compat ? ks::core::AnalysisMode::HtaCompat : ks::core::AnalysisMode::Default;
    const auto t1 = std::chrono::steady_clock::now();
    const ks::core::ParallelFor onAllCores = [threads](std::size_t n,
                                                 const std::function<void(std::size_t)>& body) {
        ks::app::parallelForOnThreads(n, body, threads);
    };
    auto frames = ks::core::buildFrames(set.value(), options, onAllCores);
    if (!frames) {
        std::fprintf(stderr, "%s\n", frames.error().describe().c_str());
        return 1;
    }
    const double frameSeconds = secondsSince(t1);
    std::uint64_t gpuEvents = 0;
    std::vector<std::int64_t> ranks;
    for (const auto& f : frames.value().ranks) {
        ranks.push_back(f.rank);
        for (const auto& row : f.rows)
            gpuEvents += row.device ? 1 : 0;
    }
    const double perMillion = 1e6 / static_cast<double>(gpuEvents ? gpuEvents : 1);
    std::printf("| %s: %zu ranks, %llu GPU events | seconds | s per 1 M GPU events | HTA 0.6.1 s | speed-up "
                "|\n|---|---|---|---|---|\n",
        compat ? "hta-compat" : "default", ranks.size(), static_cast<unsigned long long>(gpuEvents));
    std::printf("| `gzip -dc` of the same files (reference) | %.3f | | | |\n", gzipSeconds);
    std::printf("| open (all ranks in parallel) + analysis rows | %.3f | %.3f%s\n",
        loadSeconds + frameSeconds, frameSeconds * perMillion,
        hta("load", loadSeconds + frameSeconds).c_str());
    double analysesSeconds = 0;
    std::string lastId;
    for (const auto& call : ks::core::analysisCalls(options, ranks)) {
        if (call.fileName.find("num_kernels_5") != std::string::npos || call.id == "steps")
            continue;
        const auto t2 = std::chrono::steady_clock::now();
        const auto out = call.run(frames.value(), call.options);
        const double s = secondsSince(t2);
        analysesSeconds += s;
        std::printf("| %s%s | %.3f | %.3f%s\n", call.htaCall.c_str(), out.ok ? "" : " (not applicable)", s,
            s * perMillion, hta(call.htaCall, s).c_str());
    }
    // What `kinetoscope-cli analyze` does: the calls side by side on all cores.
    const auto calls = ks::core::analysisCalls(options, ranks);
    const auto t3 = std::chrono::steady_clock::now();
    onAllCores(calls.size(), [&](std::size_t i) {
        if (calls[i].fileName.find("num_kernels_5") == std::string::npos && calls[i].id != "steps")
            (void)calls[i].run(frames.value(), calls[i].options);
    });
    const double parallelSeconds = secondsSince(t3);
    std::printf("| A1-A6, one after another | %.3f | | | |\n", analysesSeconds);
    std::printf("| A1-A6, side by side on all cores | %.3f | | | |\n", parallelSeconds);
    std::printf(
        "| **open + A1-A6** (B2) | **%.3f** | | | |\n\n", loadSeconds + frameSeconds + parallelSeconds);
    return 0;
}
