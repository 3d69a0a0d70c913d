// B1/B3/B4 of performance.md: load one rank into the store, indexed, beside
// `gzip -dc FILE >/dev/null` run on the same file in the same process run.
// Prints one Markdown table row per file and mode (parallel, pipelined, one
// thread), with the minor page faults and system time that fresh memory costs.

#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "bench/bench_timing.h"
#include "core/io/gzip/input_stream.h"
#include "core/io/json/parser_kernel.h"
#include "core/io/load_timeline.h"
#include "core/io/trace_set_loader.h"
#include "core/model/store_bytes.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace {

struct StoreFigures
{
    unsigned long long jsonBytes = 0;
    unsigned long long events = 0;
    unsigned long long kept = 0;
    unsigned long long storeBytes = 0;

    // The store's bytes by column (storeBytesByColumn), for the second table.
    struct Column
    {
        char name[32] = {};
        unsigned long long bytes = 0;
    };

    std::array<Column, 48> columns {};
    std::size_t columnCount = 0;

    // The load's per-stage timeline (LoadTimeline), lane by lane.
    static constexpr std::size_t kStripWidth = 64;
    double wallSeconds = 0;
    std::array<std::array<double, ks::core::kLoadStageCount>, ks::core::kLoadLaneCount> stageSeconds {};
    std::array<double, ks::core::kLoadLaneCount> cpuSeconds {};
    std::array<std::array<char, kStripWidth + 1>, ks::core::kLoadLaneCount> strips {};
};

constexpr std::array<ks::core::LoadLane, ks::core::kLoadLaneCount> kLanes { ks::core::LoadLane::Reading,
    ks::core::LoadLane::Calling };

const char* laneName(ks::core::LoadLane lane)
{
    return lane == ks::core::LoadLane::Reading ? "reading thread" : "calling thread";
}

void keepTimeline(const ks::core::LoadTimeline& timeline, StoreFigures& f)
{
    f.wallSeconds = timeline.wallSeconds();
    for (ks::core::LoadLane lane : kLanes) {
        const auto l = static_cast<std::size_t>(lane);
        for (std::size_t s = 0; s < ks::core::kLoadStageCount; ++s)
            f.stageSeconds[l][s] = timeline.seconds(lane, static_cast<ks::core::LoadStage>(s));
        f.cpuSeconds[l] = timeline.cpuSeconds(lane);
        const std::vector<char> strip = timeline.strip(lane, StoreFigures::kStripWidth);
        std::copy(strip.begin(), strip.end(), f.strips[l].begin());
        f.strips[l][StoreFigures::kStripWidth] = 0;
    }
}

// B1: each stage's share of each thread (one per core on two cores) over one
// load, and where in the load it ran.
void printTimeline(const std::string& file, const char* mode, int runs, const StoreFigures& f)
{
    std::printf("\n%s, %s: per-stage timeline of one load (the last of %d runs), %.2f s wall\n\n| thread |",
        file.c_str(), mode, runs, f.wallSeconds);
    for (std::size_t s = 0; s < ks::core::kLoadStageCount; ++s)
        std::printf(" %s s (%% of wall) |", ks::core::loadStageName(static_cast<ks::core::LoadStage>(s)));
    std::printf(" ran on a core (CPU s, %% of wall) |\n|---|");
    for (std::size_t s = 0; s <= ks::core::kLoadStageCount; ++s)
        std::printf("---|");
    std::printf("\n");
    const double wall = std::max(1e-9, f.wallSeconds);
    for (ks::core::LoadLane lane : kLanes) {
        const auto l = static_cast<std::size_t>(lane);
        std::printf("| %s |", laneName(lane));
        for (std::size_t s = 0; s < ks::core::kLoadStageCount; ++s)
            std::printf(" %.3f (%.0f %%) |", f.stageSeconds[l][s], 100.0 * f.stageSeconds[l][s] / wall);
        std::printf(" %.3f (%.0f %%) |\n", f.cpuSeconds[l], 100.0 * f.cpuSeconds[l] / wall);
    }
    std::printf("\n```\n");
    for (ks::core::LoadLane lane : kLanes)
        std::printf("%-15s %s\n", laneName(lane), f.strips[static_cast<std::size_t>(lane)].data());
    std::printf("(one character per 1/%zu of the wall time: I inflate, S split, P parse and append rows, B "
                "build, L layout, w wait, . not running)\n```\n",
        StoreFigures::kStripWidth);
}

// How a rank is read: on the calling thread alone, pipelined (inflate and cut
// on a second thread), or parallel (workers parse pieces as well).
struct Mode
{
    const char* name;
    bool zlib = false;
    bool background = false;
    std::size_t parseWorkers = 0;
};

// Bytes per kept event of every column of the store, from one load's figures.
void printColumnTable(const std::string& file, const StoreFigures& f)
{
    const double kept = static_cast<double>(f.kept ? f.kept : 1);
    std::printf("\n| %s: column | MB | B/kept event |\n|---|---|---|\n", file.c_str());
    for (std::size_t i = 0; i < f.columnCount; ++i)
        std::printf("| %s | %.1f | %.2f |\n", f.columns[i].name,
            static_cast<double>(f.columns[i].bytes) / 1e6, static_cast<double>(f.columns[i].bytes) / kept);
    std::printf("| total | %.1f | %.2f |\n\n", static_cast<double>(f.storeBytes) / 1e6,
        static_cast<double>(f.storeBytes) / kept);
}

// Loads in a child and sends the store figures back through a pipe.
ks::bench::ChildRun loadOnce(
    const std::string& path, const Mode& mode, std::size_t chunkBytes, StoreFigures& figures)
{
    int fds[2];
    if (pipe(fds) != 0)
        return {};
    auto run = ks::bench::runInChild([&] {
        close(fds[0]);
        ks::core::LoadOptions options;
        options.preferZlib = mode.zlib;
        if (chunkBytes)
            options.chunkBytes = chunkBytes;
        if (mode.background)
            options.background = ks::app::makeThreadBackgroundWork;
        options.releaseFreedMemory = ks::app::releaseFreedMemory;
        options.parseWorkers = mode.parseWorkers;
        ks::core::LoadTimeline timeline;
        options.timeline = &timeline;
        auto r = ks::core::loadRankFile(path, options, nullptr, nullptr);
        if (!r) {
            std::fprintf(stderr, "%s\n", r.error().describe().c_str());
            return 1;
        }
        StoreFigures f;
        keepTimeline(timeline, f);
        f.jsonBytes = r.value().counts.jsonBytes;
        f.events = r.value().counts.events;
        f.kept = r.value().keptEvents();
        f.storeBytes = r.value().bytesUsed();
        for (const ks::core::ColumnBytes& c : ks::core::storeBytesByColumn(r.value())) {
            if (f.columnCount == f.columns.size())
                break;
            auto& column = f.columns[f.columnCount++];
            c.column.copy(column.name, std::min(c.column.size(), sizeof column.name - 1));
            column.bytes = c.bytes;
        }
        const ssize_t written = write(fds[1], &f, sizeof f);
        close(fds[1]);
        return written == static_cast<ssize_t>(sizeof f) ? 0 : 1;
    });
    close(fds[1]);
    if (read(fds[0], &figures, sizeof figures) != static_cast<ssize_t>(sizeof figures))
        run.exitCode = 1;
    close(fds[0]);
    return run;
}

double medianOf(const std::vector<ks::bench::ChildRun>& runs, double (*field)(const ks::bench::ChildRun&))
{
    std::vector<double> values;
    for (const auto& r : runs)
        values.push_back(field(r));
    return ks::bench::median(values);
}

void printRow(const std::string& file, const Mode& mode, const std::vector<ks::bench::ChildRun>& runs,
    const StoreFigures& f, double gzipSeconds)
{
    const double t = medianOf(runs, [](const ks::bench::ChildRun& r) { return r.seconds; });
    const double worst = std::max_element(runs.begin(), runs.end(), [](const auto& a, const auto& b) {
        return a.seconds < b.seconds;
    })->seconds;
    long peak = 0;
    for (const auto& r : runs)
        peak = std::max(peak, r.peakRssKb);
    const double faults =
        medianOf(runs, [](const ks::bench::ChildRun& r) { return static_cast<double>(r.minorFaults); });
    const double sys = medianOf(runs, [](const ks::bench::ChildRun& r) { return r.systemSeconds; });
    const double user = medianOf(runs, [](const ks::bench::ChildRun& r) { return r.userSeconds; });
    const double mb = static_cast<double>(f.jsonBytes) / 1e6;
    std::printf("| %s | %s | %.0f | %llu | %.3f | %.3f | %.0f | %.2f | %.3f | %.2f | %.2f | %.0f | %.0f k | "
                "%.2f | %.2f | "
                "%.1f | %llu |\n",
        file.c_str(), mode.name, mb, f.events, t, worst, mb / t, static_cast<double>(f.events) / t / 1e6,
        gzipSeconds, t / gzipSeconds, worst / gzipSeconds, static_cast<double>(peak) / 1024.0,
        faults / 1000.0, sys, user,
        static_cast<double>(f.storeBytes) / static_cast<double>(f.kept ? f.kept : 1), f.kept);
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    ks::app::tuneAllocatorForLargeTraces();
    int runs = 3;
    std::size_t chunkBytes = 0; // LoadOptions' default
    // The parallel mode's workers: one per core unless asked (the CLI's default
    // picks the pipelined read below four cores; this row shows why).
    std::size_t workers = std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc)
            runs = std::atoi(argv[++i]);
        else if (a == "--chunk-kb" && i + 1 < argc)
            chunkBytes = static_cast<std::size_t>(std::atol(argv[++i])) << 10;
        else if (a == "--workers" && i + 1 < argc)
            workers = static_cast<std::size_t>(std::atol(argv[++i]));
        else
            files.push_back(a);
    }
    if (files.empty()) {
        std::fprintf(
            stderr, "usage: kinetoscope-bench-load FILE... [--runs N] [--workers N] [--chunk-kb K]\n");
        return 2;
    }
    const std::string parallelName = "isa-l, parallel: " + std::to_string(workers) + " parse workers";
    const bool isal = ks::core::isalAvailable();
    const std::vector<Mode> modes {
        Mode { parallelName.c_str(), false, true, workers },
        Mode { isal ? "isa-l, pipelined (2 threads)" : "zlib, pipelined (2 threads)", false, true, 0 },
        Mode { isal ? "isa-l, 1 thread" : "zlib, 1 thread", false, false, 0 },
        Mode { "zlib, 1 thread", true, false, 0 },
    };
    // Which copy of the parser ran (KS_PARSER_KERNEL=baseline forces the baseline one).
    std::printf("parser kernel: %s\n\n",
        std::string(ks::core::parserKernelName(ks::core::activeParserKernel())).c_str());
    std::printf("| file | mode | JSON MB | events | load s (median of %d) | worst s | MB/s | Mevents/s | "
                "`gzip -dc` s "
                "| load / gzip | worst / gzip | peak RSS MB | minor faults | sys s | user s | store B/kept "
                "event | kept events |\n",
        runs);
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    std::vector<std::pair<std::string, StoreFigures>> byColumn;
    std::vector<std::tuple<std::string, const char*, StoreFigures>> timelines;
    for (const std::string& file : files) {
        std::vector<double> gzipTimes;
        const std::string gzipCommand = "gzip -dc '" + file + "' > /dev/null 2>&1";
        for (int r = 0; r < runs; ++r)
            gzipTimes.push_back(ks::bench::runCommand(gzipCommand).seconds);
        const double gzipSeconds = ks::bench::median(gzipTimes);
        for (const Mode& mode : modes) {
            if (mode.zlib && !isal)
                continue; // the row above was zlib already
            std::vector<ks::bench::ChildRun> results;
            StoreFigures f;
            bool ok = true;
            for (int r = 0; r < runs; ++r) {
                results.push_back(loadOnce(file, mode, chunkBytes, f));
                ok = ok && results.back().exitCode == 0;
            }
            if (!ok) {
                std::printf("| %s | %s | load failed |\n", file.c_str(), mode.name);
                continue;
            }
            printRow(file, mode, results, f, gzipSeconds);
            if (mode.parseWorkers == 0)
                timelines.emplace_back(file, mode.name, f);
            if (mode.background && mode.parseWorkers == 0)
                byColumn.emplace_back(file, f);
        }
    }
    for (const auto& [file, mode, figures] : timelines)
        printTimeline(file, mode, runs, figures);
    for (const auto& [file, figures] : byColumn)
        printColumnTable(file, figures);
    return 0;
}
