// B5 of performance.md: paint the timeline of a big trace into an offscreen
// image, fully zoomed out, at a 1 ms window and at a 10 µs window, and print
// ms per frame (median): cold frames rebuild every draw list, warm frames
// repaint from the cache (what hover, selection and vertical scrolling do).
//
//   kinetoscope-bench-timeline [--frames N] [--size WxH] [--no-counters] PATH...
//   kinetoscope-bench-timeline [--ranks R] [--size-mb MB] [--keep DIR]
// With no PATH it writes a synthetic job with the core's generator (R ranks of
// MB MB of JSON each; default 1 rank of 4600 MB ≈ 10 M slices) and loads it.

#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "core/synth/synthetic_trace_generator.h"
#include "widgets/timeline/model/counter_track.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/track_layout.h"
#include "widgets/timeline/render/timeline_renderer.h"
#include "widgets/timeline/view/timeline_view_state.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <thread>
#include <vector>

using namespace ks;
using namespace ks::widgets;

namespace {

struct Options
{
    std::vector<std::string> paths;
    int frames = 15;
    int width = 1600;
    int height = 1000;
    int ranks = 1;
    double sizeMb = 4600;
    std::string keep;
    bool counters = true;
};

double seconds(std::chrono::steady_clock::time_point since)
{
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double median(std::vector<double> v)
{
    if (v.empty())
        return 0;
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

bool parse(int argc, char** argv, Options& o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string(); };
        if (a == "--frames")
            o.frames = std::max(1, std::atoi(next().c_str()));
        else if (a == "--size") {
            const std::string s = next();
            if (std::sscanf(s.c_str(), "%dx%d", &o.width, &o.height) != 2)
                return false;
        } else if (a == "--ranks")
            o.ranks = std::max(1, std::atoi(next().c_str()));
        else if (a == "--size-mb")
            o.sizeMb = std::atof(next().c_str());
        else if (a == "--keep")
            o.keep = next();
        else if (a == "--no-counters")
            o.counters = false;
        else if (!a.empty() && a[0] == '-')
            return false;
        else
            o.paths.push_back(a);
    }
    return true;
}

// Writes the synthetic job (once, when --keep names a folder that has it).
bool synthesize(Options& o)
{
    core::SynthOptions s;
    s.ranks = o.ranks;
    s.targetBytes = static_cast<std::uint64_t>(o.sizeMb * 1e6);
    s.seed = 5;
    s.outDir = o.keep.empty()
        ? (std::filesystem::temp_directory_path() / "kinetoscope-bench-timeline").string()
        : o.keep;
    o.paths = { s.outDir };
    if (std::filesystem::exists(core::syntheticRankPath(s, o.ranks - 1))) {
        std::printf("reusing %s\n", s.outDir.c_str());
        return true;
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto plan = core::planSyntheticJob(s);
    if (!plan) {
        std::fprintf(stderr, "synth: %s\n", plan.error().describe().c_str());
        return false;
    }
    std::vector<int> ok(static_cast<std::size_t>(o.ranks), 0);
    app::parallelForOnThreads(static_cast<std::size_t>(o.ranks),
        [&](std::size_t r) { ok[r] = writeSyntheticRank(plan.value(), static_cast<int>(r)) ? 1 : 0; });
    if (std::count(ok.begin(), ok.end(), 1) != o.ranks)
        return false;
    std::printf("wrote %d synthetic rank(s) of %.0f MB JSON to %s in %.1f s\n", o.ranks, o.sizeMb,
        s.outDir.c_str(), seconds(t0));
    return true;
}

struct Scenario
{
    const char* name;
    TimeNs span; // 0 = the whole trace
};

// Paints `frames` frames of one scenario; cold frames at fresh positions, each
// followed by a warm repaint of the same view.
void runScenario(const Scenario& sc, const std::shared_ptr<const TimelineData>& data, const Options& o)
{
    TimelineViewState state;
    state.reset(data->displayBounds(Alignment::AsRecorded));
    TrackLayout layout;
    layout.build(*data, state);
    TimelineRenderer renderer;
    renderer.setData(data);
    TimelineGeometry g;
    g.width = o.width;
    g.height = o.height;
    QImage image(o.width, o.height, QImage::Format_RGB32);
    std::mt19937_64 rng(11);
    const TimeRange bounds = state.bounds();
    std::vector<double> cold, warm, build;
    std::size_t items = 0;
    int rows = 0;
    for (int f = 0; f < o.frames; ++f) {
        if (sc.span > 0) {
            // A busy place: the middle 80 % of the trace.
            const TimeNs room = std::max<TimeNs>(1, bounds.span() * 8 / 10 - sc.span);
            const TimeNs s = bounds.start + bounds.span() / 10
                + static_cast<TimeNs>(rng() % static_cast<std::uint64_t>(room));
            state.setVisibleRange({ s, s + sc.span }, TimelineViewState::History::None);
        }
        renderer.clearCache();
        {
            QPainter p(&image);
            QElapsedTimer t;
            t.start();
            renderer.render(p, g, state, layout);
            cold.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        }
        build.push_back(renderer.stats().buildMs);
        items = renderer.stats().items;
        rows = renderer.stats().rowsDrawn;
        {
            QPainter p(&image);
            QElapsedTimer t;
            t.start();
            renderer.render(p, g, state, layout);
            warm.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        }
    }
    std::printf("| %s | %d | %zu | %.2f | %.2f | %.2f | %.2f |\n", sc.name, rows, items, median(cold),
        median(build), median(warm), *std::max_element(cold.begin(), cold.end()));
    std::fflush(stdout);
    if (const char* out = std::getenv("KS_BENCH_TIMELINE_PNG"))
        image.save(QString::fromUtf8(out) + QStringLiteral("-")
            + QString::fromUtf8(sc.name).replace(QChar(u' '), QChar(u'_')) + QStringLiteral(".png"));
}

} // namespace

int main(int argc, char** argv)
{
    app::tuneAllocatorForLargeTraces(argv);
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication qapp(argc, argv);
    Options o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr,
            "usage: kinetoscope-bench-timeline [--frames N] [--size WxH] [--no-counters] "
            "[--ranks R --size-mb MB --keep DIR] [PATH...]\n");
        return 2;
    }
    if (o.paths.empty() && !synthesize(o))
        return 1;
    auto t0 = std::chrono::steady_clock::now();
    auto loaded = core::loadTraceSet(
        o.paths, {}, nullptr, nullptr, [](std::size_t n, const std::function<void(std::size_t)>& body) {
            app::parallelForOnThreads(n, body);
        });
    if (!loaded) {
        std::fprintf(stderr, "load: %s\n", loaded.error().describe().c_str());
        return 1;
    }
    auto set = std::make_shared<const core::TraceSet>(std::move(loaded).value());
    const double loadS = seconds(t0);
    t0 = std::chrono::steady_clock::now();
    std::shared_ptr<const TimelineData> data = TimelineData::build(set);
    const double prepareS = seconds(t0);
    double countersS = 0;
    if (o.counters) {
        t0 = std::chrono::steady_clock::now();
        std::vector<CounterTracks> perRank(set->ranks.size());
        for (std::size_t r = 0; r < perRank.size(); ++r)
            perRank[r] = buildAnalysisCounters(*set, static_cast<int>(r));
        data = data->withAnalysisCounters(std::move(perRank));
        countersS = seconds(t0);
    }
    std::size_t summaryBytes = 0;
    for (int r = 0; r < data->rankCount(); ++r)
        summaryBytes += data->rank(r).bytesUsed();
    const double slices = static_cast<double>(data->sliceCount());
    std::printf("\n## B5: timeline paint (machine: %u cores; image %dx%d; %d frames per scenario)\n\n",
        std::max(1u, std::thread::hardware_concurrency()), o.width, o.height, o.frames);
    std::printf(
        "%d rank(s), %.2f M slices; load %.1f s; timeline data (kinds + LOD pyramids) %.2f s, %.1f B/slice; "
        "analysis counters %.2f s\n\n",
        data->rankCount(), slices / 1e6, loadS, prepareS,
        static_cast<double>(summaryBytes) / std::max(1.0, slices), countersS);
    std::printf("| view | rows drawn | rectangles | cold ms/frame (median) | of which draw lists | warm "
                "ms/frame (median) | cold max |\n");
    std::printf("|---|---|---|---|---|---|---|\n");
    for (const Scenario& sc : { Scenario { "fully zoomed out", 0 }, Scenario { "1 ms window", 1'000'000 },
             Scenario { "10 us window", 10'000 } })
        runScenario(sc, data, o);
    return 0;
}
