// The job's critical path over the whole trace against the sum of
// its per-iteration runs, in time and in memory. Loads a folder once, builds
// the default-mode frames, then runs jobCriticalPath (and the stragglers) in a
// forked child per measurement, so each peak RSS is that run's own: the whole
// trace, then every iteration found on the first rank. Prints one Markdown
// table. The target: the whole trace in at most twice the sum of the
// iterations' times, and its peak within the store plus 1 GB.

#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "bench/bench_timing.h"
#include "core/analysis/cross_rank/job_critical_path.h"
#include "core/analysis/cross_rank/stragglers.h"
#include "core/io/trace_set_loader.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace {

struct Measure
{
    double medianSeconds = 0;
    double worstSeconds = 0;
    long worstPeakKb = 0;
};

// Runs the job path `repeat` times, each in its own child (its own peak).
Measure measure(const ks::core::FrameSet& frames, const ks::core::JobPathOptions& options, int repeat,
    const ks::core::ParallelFor& parallelFor)
{
    std::vector<double> seconds;
    Measure m;
    for (int i = 0; i < repeat; ++i) {
        const ks::bench::ChildRun run = ks::bench::runInChild([&] {
            auto job = ks::core::jobCriticalPath(frames, options, parallelFor);
            if (!job)
                return 1;
            return ks::core::findStragglers(job.value()).size() < 1000000 ? 0 : 1;
        });
        if (run.exitCode != 0) {
            std::fprintf(stderr, "the job path failed (exit %d)\n", run.exitCode);
            std::exit(1);
        }
        seconds.push_back(run.seconds);
        m.worstSeconds = std::max(m.worstSeconds, run.seconds);
        m.worstPeakKb = std::max(m.worstPeakKb, run.peakRssKb);
    }
    m.medianSeconds = ks::bench::median(seconds);
    return m;
}

// The child's peak includes what the parent held at the fork: the store and frames.
long baselineKb()
{
    return ks::bench::runInChild([] { return 0; }).peakRssKb;
}

} // namespace

int main(int argc, char** argv)
{
    ks::app::tuneAllocatorForLargeTraces();
    std::vector<std::string> paths;
    int repeat = 3;
    int threads = 1;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--repeat" && i + 1 < argc)
            repeat = std::max(1, std::atoi(argv[++i]));
        else if (a == "--threads" && i + 1 < argc)
            threads = std::max(1, std::atoi(argv[++i]));
        else
            paths.push_back(a);
    }
    if (paths.empty()) {
        std::fprintf(stderr, "usage: kinetoscope-bench-job-path FOLDER... [--repeat N] [--threads N]\n");
        return 2;
    }
    ks::core::LoadOptions loadOptions;
    loadOptions.background = ks::app::makeThreadBackgroundWork;
    const ks::core::ParallelFor onThreads = [threads](
                                                std::size_t n, const std::function<void(std::size_t)>& body) {
        ks::app::parallelForOnThreads(n, body, static_cast<unsigned>(threads));
    };
    auto set = ks::core::loadTraceSet(paths, loadOptions, nullptr, nullptr, onThreads);
    if (!set || set.value().ranks.empty()) {
        std::fprintf(stderr, "cannot load: %s\n", set ? "no rank" : set.error().describe().c_str());
        return 1;
    }
    std::uint64_t storeBytes = 0;
    for (const auto& rank : set.value().ranks)
        storeBytes += rank->bytesUsed();
    auto frames = ks::core::buildFrames(set.value(), ks::core::AnalysisOptions {});
    if (!frames) {
        std::fprintf(stderr, "%s\n", frames.error().describe().c_str());
        return 1;
    }
    const ks::core::FrameSet& f = frames.value();
    std::set<std::int64_t> iterations;
    for (const auto& row : f.ranks.front().rows)
        if (row.iteration >= 0)
            iterations.insert(row.iteration);
    const ks::core::ParallelFor parallelFor =
        threads > 1 ? onThreads : ks::core::ParallelFor(ks::core::runSequentially);
    const long base = baselineKb();

    const Measure whole = measure(f, {}, repeat, parallelFor);
    double sumSeconds = 0;
    long worstIterationKb = 0;
    for (const std::int64_t it : iterations) {
        ks::core::JobPathOptions options;
        options.iteration = it;
        const Measure m = measure(f, options, 1, parallelFor);
        sumSeconds += m.medianSeconds;
        worstIterationKb = std::max(worstIterationKb, m.worstPeakKb);
    }
    std::uint64_t events = 0;
    for (const auto& rank : f.ranks)
        events += rank.rows.size();
    std::printf("| job | ranks | rows | store MB | threads | whole trace s (median / worst of %d) | "
                "whole - store, frames MB (worst) | iterations | Σ per-iteration s | whole / Σ | "
                "worst iteration - store, frames MB |\n",
        repeat);
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
    std::printf("| %s | %zu | %.2f M | %.0f | %d | %.2f / %.2f | %.0f | %zu | %.2f | %.2f | %.0f |\n",
        paths.front().c_str(), f.ranks.size(), static_cast<double>(events) / 1e6,
        static_cast<double>(storeBytes) / 1e6, threads, whole.medianSeconds, whole.worstSeconds,
        static_cast<double>(whole.worstPeakKb - base) * 1024 / 1e6, iterations.size(), sumSeconds,
        sumSeconds > 0 ? whole.medianSeconds / sumSeconds : 0.0,
        static_cast<double>(worstIterationKb - base) * 1024 / 1e6);
    return 0;
}
