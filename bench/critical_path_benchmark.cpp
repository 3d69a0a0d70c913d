// A8 critical path: load a trace folder, build the frames, then the graph and
// its longest path (repeated, median), the result tables, the reference JSON
// and the overlaid trace. Prints one Markdown table; HTA's time beside it when
// given (--hta-seconds, e.g. its elapsed_s on the same input).

#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "bench/bench_timing.h"
#include "core/analysis/critical_path/critical_path.h"
#include "core/io/trace_set_loader.h"
#include "core/report/critical_path_json.h"
#include "core/report/critical_path_trace_writer.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace {

double millisecondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

struct Options
{
    std::vector<std::string> paths;
    std::int64_t rank = -1;
    std::string annotation;
    std::int64_t instance = 0;
    bool compat = false;
    int repeat = 5;
    double htaSeconds = -1;
    std::string overlay; // write the overlaid trace here when set
};

bool parse(int argc, char** argv, Options& o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        const bool more = i + 1 < argc;
        if (a == "--hta-compat")
            o.compat = true;
        else if (a == "--rank" && more)
            o.rank = std::atoll(argv[++i]);
        else if (a == "--annotation" && more)
            o.annotation = argv[++i];
        else if (a == "--instance" && more)
            o.instance = std::atoll(argv[++i]);
        else if (a == "--repeat" && more)
            o.repeat = std::max(1, std::atoi(argv[++i]));
        else if (a == "--hta-seconds" && more)
            o.htaSeconds = std::atof(argv[++i]);
        else if (a == "--overlay" && more)
            o.overlay = argv[++i];
        else if (a.rfind("--", 0) == 0)
            return false;
        else
            o.paths.push_back(a);
    }
    return !o.paths.empty();
}

} // namespace

int main(int argc, char** argv)
{
    ks::app::tuneAllocatorForLargeTraces();
    Options o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr,
            "usage: kinetoscope-bench-critical-path PATH... [--hta-compat] [--rank R] [--annotation A]\n"
            "       [--instance I] [--repeat N] [--hta-seconds S] [--overlay FILE]\n");
        return 2;
    }
    auto t0 = std::chrono::steady_clock::now();
    ks::core::LoadOptions loadOptions;
    loadOptions.background = ks::app::makeThreadBackgroundWork;
    auto set = ks::core::loadTraceSet(o.paths, loadOptions, nullptr, nullptr,
        [](std::size_t n, const std::function<void(std::size_t)>& body) {
            ks::app::parallelForOnThreads(n, body, 0);
        });
    if (!set || set.value().ranks.empty()) {
        std::fprintf(stderr, "cannot load: %s\n", set ? "no rank" : set.error().describe().c_str());
        return 1;
    }
    const double loadMs = millisecondsSince(t0);
    ks::core::AnalysisOptions options;
    options.mode = o.compat ? ks::core::AnalysisMode::HtaCompat : ks::core::AnalysisMode::Default;
    t0 = std::chrono::steady_clock::now();
    auto frames = ks::core::buildFrames(set.value(), options);
    if (!frames) {
        std::fprintf(stderr, "%s\n", frames.error().describe().c_str());
        return 1;
    }
    const double framesMs = millisecondsSince(t0);
    const std::int64_t rank = o.rank >= 0 ? o.rank : frames.value().ranks.front().rank;
    const ks::core::CriticalPathInstance instance { o.instance, o.instance };

    std::vector<double> graphMs;
    std::optional<ks::core::Result<ks::core::CriticalPathGraph>> graph;
    for (int i = 0; i < o.repeat; ++i) {
        t0 = std::chrono::steady_clock::now();
        graph = ks::core::buildCriticalPath(frames.value(), rank, o.annotation, instance, options);
        graphMs.push_back(millisecondsSince(t0));
    }
    if (!graph->ok()) {
        std::fprintf(stderr, "not applicable: %s\n", graph->error().message.c_str());
        return 1;
    }
    const ks::core::CriticalPathGraph& g = graph->value();
    t0 = std::chrono::steady_clock::now();
    const auto tables = ks::core::criticalPathTables(g);
    const double tablesMs = millisecondsSince(t0);
    t0 = std::chrono::steady_clock::now();
    const std::string json = ks::core::criticalPathResultJson(g);
    const double jsonMs = millisecondsSince(t0);
    double overlayMs = -1;
    if (!o.overlay.empty()) {
        t0 = std::chrono::steady_clock::now();
        auto written = ks::core::writeCriticalPathTrace(g, o.overlay);
        overlayMs = millisecondsSince(t0);
        if (!written)
            std::fprintf(stderr, "overlay: %s\n", written.error().describe().c_str());
    }

    const double median = ks::bench::median(graphMs);
    std::printf("| input | mode | events | nodes | edges | sync edges | load ms | frames ms | graph+path ms "
                "(median of %d) "
                "| tables ms | json ms | overlay ms | HTA s | speed-up |\n",
        o.repeat);
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    char hta[64] = " | ";
    if (o.htaSeconds > 0)
        std::snprintf(hta, sizeof hta, "%.3f | %.0fx", o.htaSeconds, o.htaSeconds * 1000.0 / median);
    std::printf("| %s | %s | %llu | %zu | %zu | %zu | %.1f | %.1f | %.1f | %.1f | %.1f | %s | %s |\n",
        std::filesystem::path(o.paths.front()).filename().string().c_str(),
        o.compat ? "hta-compat" : "default",
        static_cast<unsigned long long>(set.value().ranks.front()->counts.events), g.nodes.size(),
        g.edges.size(), g.syncEdges().size(), loadMs, framesMs, median, tablesMs, jsonMs,
        overlayMs >= 0 ? std::to_string(overlayMs).substr(0, std::to_string(overlayMs).find('.') + 2).c_str()
                       : "-",
        hta);
    return tables.ok && !json.empty() ? 0 : 1;
}
