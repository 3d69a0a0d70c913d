// B1/B3/B4 of performance.md: load one rank into the store, indexed, beside
// `gzip -dc FILE >/dev/null` run on the same file in the same process run.
// Prints one Markdown table row per file and mode.

#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "bench/bench_timing.h"
#include "core/io/input_stream.h"
#include "core/io/trace_set_loader.h"
#include "core/model/store_bytes.h"

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>
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
ks::bench::ChildRun loadOnce(const std::string& path, bool zlib, bool pipelined, StoreFigures& figures)
{
    int fds[2];
    if (pipe(fds) != 0)
        return {};
    auto run = ks::bench::runInChild([&] {
        close(fds[0]);
        ks::core::LoadOptions options;
        options.preferZlib = zlib;
        if (pipelined)
            options.background = ks::app::makeThreadBackgroundWork;
        auto r = ks::core::loadRankFile(path, options, nullptr, nullptr);
        if (!r) {
            std::fprintf(stderr, "%s\n", r.error().describe().c_str());
            return 1;
        }
        StoreFigures f;
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

} // namespace

int main(int argc, char** argv)
{
    ks::app::tuneAllocatorForLargeTraces(argv);
    int runs = 3;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--runs" && i + 1 < argc)
            runs = std::atoi(argv[++i]);
        else
            files.push_back(a);
    }
    if (files.empty()) {
        std::fprintf(stderr, "usage: kinetoscope-bench-load FILE... [--runs N]\n");
        return 2;
    }
    std::printf("| file | inflate | JSON MB | events | load s (median of %d) | MB/s | Mevents/s | `gzip -dc` "
                "s | load / gzip | peak RSS MB | store B/kept event | kept events |\n",
        runs);
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    std::vector<std::pair<std::string, StoreFigures>> byColumn;
    for (const std::string& file : files) {
        std::vector<double> gzipTimes;
        const std::string gzipCommand = "gzip -dc '" + file + "' > /dev/null 2>&1";
        for (int r = 0; r < runs; ++r)
            gzipTimes.push_back(ks::bench::runCommand(gzipCommand).seconds);
        const double gzipSeconds = ks::bench::median(gzipTimes);

        struct Mode
        {
            bool zlib;
            bool pipelined;
        };

        for (const Mode mode : { Mode { false, true }, Mode { false, false }, Mode { true, false } }) {
            const bool zlib = mode.zlib;
            std::vector<double> times;
            long peak = 0;
            StoreFigures f;
            bool ok = true;
            for (int r = 0; r < runs; ++r) {
                const auto run = loadOnce(file, zlib, mode.pipelined, f);
                ok = ok && run.exitCode == 0;
                times.push_back(run.seconds);
                peak = std::max(peak, run.peakRssKb);
            }
            if (!ok) {
                std::printf("| %s | %s | load failed |\n", file.c_str(), zlib ? "zlib" : "auto");
                continue;
            }
            const double t = ks::bench::median(times);
            const double mb = static_cast<double>(f.jsonBytes) / 1e6;
            std::printf("| %s | %s | %.0f | %llu | %.3f | %.0f | %.2f | %.3f | %.2f | %.0f | %.1f | %llu |\n",
                file.c_str(),
                zlib ? "zlib, 1 thread"
                     : (ks::core::isalAvailable() ? (mode.pipelined ? "isa-l, 2 threads" : "isa-l, 1 thread")
                                                  : "zlib"),
                mb, f.events, t, mb / t, static_cast<double>(f.events) / t / 1e6, gzipSeconds,
                t / gzipSeconds, static_cast<double>(peak) / 1024.0,
                static_cast<double>(f.storeBytes) / static_cast<double>(f.kept ? f.kept : 1), f.kept);
            std::fflush(stdout);
            if (!zlib && mode.pipelined)
                byColumn.emplace_back(file, f);
        }
    }
    for (const auto& [file, figures] : byColumn)
        printColumnTable(file, figures);
    return 0;
}
