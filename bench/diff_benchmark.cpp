// D1 trace diff benchmark: load two traces (or folders), build their diff
// frames, and time each HTA call of ../shared/reference/diff_control_vs_test
// (compare_traces with defaults, short names, GPU, CPU, and ops_diff), beside
// HTA's recorded seconds when --hta-timings names that folder's timings.json.

#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "bench/bench_timing.h"
#include "core/analysis/hta/trace_diff.h"
#include "core/io/trace_set_loader.h"

#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::map<std::string, double> readHtaTimings(const char* path)
{
    std::map<std::string, double> seconds;
    simdjson::dom::parser parser;
    simdjson::dom::object timings;
    if (!parser.load(path)["timings"].get(timings))
        for (auto [call, entry] : timings) {
            double s = 0;
            if (!entry["elapsed_s"].get(s))
                seconds[std::string(call)] = s;
        }
    return seconds;
}

std::optional<ks::core::TraceSet> load(const std::string& path)
{
    auto set = ks::core::loadTraceSet(
        { path }, {}, nullptr, nullptr, [](std::size_t n, const std::function<void(std::size_t)>& body) {
            ks::app::parallelForOnThreads(n, body);
        });
    if (!set) {
        std::fprintf(stderr, "%s\n", set.error().describe().c_str());
        return std::nullopt;
    }
    return std::move(set).value();
}

std::size_t rowCount(const ks::core::DiffTrace& t)
{
    std::size_t n = 0;
    for (const auto& f : t.frames.ranks)
        n += f.rows.size();
    return n;
}

} // namespace

int main(int argc, char** argv)
{
    ks::app::tuneAllocatorForLargeTraces();
    bool compat = false;
    std::vector<std::string> paths;
    std::map<std::string, double> hta;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--hta-compat")
            compat = true;
        else if (a == "--hta-timings" && i + 1 < argc)
            hta = readHtaTimings(argv[++i]);
        else
            paths.push_back(a);
    }
    if (paths.size() != 2) {
        std::fprintf(stderr,
            "usage: kinetoscope-bench-diff CONTROL TEST [--hta-compat] [--hta-timings timings.json]\n");
        return 2;
    }
    auto htaCell = [&hta](const std::string& call, double ours) -> std::string {
        auto it = hta.find(call);
        if (it == hta.end())
            return " | | |";
        char buf[64];
        std::snprintf(
            buf, sizeof buf, " | %.3f | %.0fx |", it->second, it->second / (ours > 0 ? ours : 1e-9));
        return buf;
    };
    const auto mode = compat ? ks::core::AnalysisMode::HtaCompat : ks::core::AnalysisMode::Default;
    std::optional<ks::core::DiffTrace> traces[2];
    double loadSeconds[2] = { 0, 0 };
    for (int side = 0; side < 2; ++side) {
        const auto t0 = std::chrono::steady_clock::now();
        auto set = load(paths[static_cast<std::size_t>(side)]);
        if (!set)
            return 1;
        auto trace = ks::core::loadDiffTrace(*set, mode);
        if (!trace) {
            std::fprintf(stderr, "%s\n", trace.error().describe().c_str());
            return 1;
        }
        traces[side] = std::move(trace).value();
        loadSeconds[side] = secondsSince(t0);
    }
    std::printf("| diff (%s): %zu + %zu rows | ms | HTA 0.6.1 s | speed-up |\n|---|---|---|---|\n",
        compat ? "hta-compat" : "default", rowCount(*traces[0]), rowCount(*traces[1]));
    std::printf("| load control + diff rows | %.1f%s\n", loadSeconds[0] * 1e3,
        htaCell("labeled_trace_control", loadSeconds[0]).c_str());
    std::printf("| load test + diff rows | %.1f%s\n", loadSeconds[1] * 1e3,
        htaCell("labeled_trace_test", loadSeconds[1]).c_str());

    struct Call
    {
        const char* name;
        std::function<ks::core::AnalysisOutput()> run;
    };

    ks::core::TraceDiffOptions base;
    base.mode = mode;
    auto variant = [&base](auto change) {
        ks::core::TraceDiffOptions o = base;
        change(o);
        return o;
    };
    const auto shortNames = variant([](auto& o) { o.shortNames = true; });
    const auto gpu = variant([](auto& o) { o.device = ks::core::DiffDevice::Gpu; });
    const auto cpu = variant([](auto& o) { o.device = ks::core::DiffDevice::Cpu; });
    const auto& c = *traces[0];
    const auto& t = *traces[1];
    auto every = variant([](auto&) {});
    every.control.iterations = c.iterations;
    every.test.iterations = t.iterations;
    const std::vector<Call> calls = {
        { "compare_traces", [&] { return ks::core::compareTraces(c, t, base); } },
        { "compare_traces__short_name", [&] { return ks::core::compareTraces(c, t, shortNames); } },
        { "compare_traces__gpu", [&] { return ks::core::compareTraces(c, t, gpu); } },
        { "compare_traces__cpu", [&] { return ks::core::compareTraces(c, t, cpu); } },
        { "ops_diff", [&] { return ks::core::opsDiff(c, t, base); } },
        { "compare_traces, every iteration", [&] { return ks::core::compareTraces(c, t, every); } },
    };
    double total = loadSeconds[0] + loadSeconds[1];
    for (const Call& call : calls) {
        std::vector<double> runs;
        std::size_t rows = 0;
        for (int r = 0; r < 5; ++r) {
            const auto t0 = std::chrono::steady_clock::now();
            const auto out = call.run();
            runs.push_back(secondsSince(t0));
            rows = out.result.frame.rows.size() + out.result.entries.size();
        }
        const double s = ks::bench::median(runs);
        total += s;
        std::printf("| %s (%zu rows) | %.1f%s\n", call.name, rows, s * 1e3, htaCell(call.name, s).c_str());
    }
    std::printf("| **load both + 6 calls** | **%.1f** | | |\n\n", total * 1e3);
    return 0;
}
