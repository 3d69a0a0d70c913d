// B5 of performance.md: paint the timeline of a big trace into an offscreen
// image and print ms per frame, median and worst, per view: fully zoomed out,
// a 1 ms window, a 10 µs window, and every rank collapsed to its GPU overview.
// Cold frames rebuild every draw list at a fresh place (a random time and a
// random vertical scroll); warm frames repaint the same view from the cache
// (what hover, selection and vertical scrolling do). Each view runs --repeat
// times with a fresh renderer, whose first frame is the first paint after open,
// into one surface for the whole run (the window's backing store, painted once
// before the trace opens, as the app's window is).
//
//   kinetoscope-bench-timeline [--frames N] [--repeat N] [--size WxH] [--no-counters]
//                              [--replicate R] [--view TEXT] PATH...
//   kinetoscope-bench-timeline [--ranks R] [--size-mb MB] [--keep DIR]
// With no PATH it writes a synthetic job with the core's generator (R ranks of
// MB MB of JSON each; default 1 rank of 4600 MB ≈ 10 M slices) and loads it.
// --replicate R copies the loaded ranks' stores round robin until there are R
// ranks (each copy its own memory, no JSON read for it): 1000 ranks of 100 k
// slices without writing 30 GB of JSON. KS_BENCH_TIMELINE_FRAMES=1 prints every
// cold frame to stderr (wall ms, the process's CPU ms, draw lists and paint ms,
// context switches: a frame preempted on a loaded machine waits for a core).

#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "core/io/trace_set_loader.h"
#include "core/model/rank_trace.h"
#include "core/synth/synthetic_trace_generator.h"
#include "widgets/timeline/model/counter_track.h"
#include "widgets/timeline/model/timeline_data.h"
#include "widgets/timeline/model/timeline_view_state.h"
#include "widgets/timeline/model/track_layout.h"
#include "widgets/timeline/render/timeline_renderer.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QPainter>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <sys/resource.h>
#include <thread>
#include <time.h>
#include <vector>

using namespace ks;
using namespace ks::widgets;

namespace {

struct Options
{
    std::vector<std::string> paths;
    int frames = 15;
    int repeat = 5;
    int width = 1600;
    int height = 1000;
    int ranks = 1;
    int replicate = 0;
    double sizeMb = 4600;
    std::string keep;
    std::string view; // only the views whose name contains this
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

double worst(const std::vector<double>& v)
{
    return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
}

// The machine's load average (1, 5, 15 min): the figures are only comparable at similar load.
std::string loadAverage()
{
    std::ifstream in("/proc/loadavg");
    double a = 0, b = 0, c = 0;
    in >> a >> b >> c;
    char text[64];
    std::snprintf(text, sizeof text, "%.2f %.2f %.2f", a, b, c);
    return text;
}

// CPU time of the whole process (the frame's pool threads included): what a
// frame costs whatever else the machine runs, unlike its wall time.
double processCpuMs()
{
    timespec t {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double peakRssMb()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return static_cast<double>(u.ru_maxrss) / 1024.0;
}

bool parse(int argc, char** argv, Options& o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string { return i + 1 < argc ? argv[++i] : std::string(); };
        if (a == "--frames")
            o.frames = std::max(1, std::atoi(next().c_str()));
        else if (a == "--repeat")
            o.repeat = std::max(1, std::atoi(next().c_str()));
        else if (a == "--size") {
            const std::string s = next();
            if (std::sscanf(s.c_str(), "%dx%d", &o.width, &o.height) != 2)
                return false;
        } else if (a == "--ranks")
            o.ranks = std::max(1, std::atoi(next().c_str()));
        else if (a == "--replicate")
            o.replicate = std::max(0, std::atoi(next().c_str()));
        else if (a == "--size-mb")
            o.sizeMb = std::atof(next().c_str());
        else if (a == "--keep")
            o.keep = next();
        else if (a == "--view")
            o.view = next();
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

// A store with the same contents in its own memory. The string pool cannot be
// copied (its views point into its blocks): its texts are interned again in id
// order, which gives every text the same id.
core::RankTrace copyOfStore(const core::RankTrace& t)
{
    core::RankTrace c;
    for (std::uint32_t n = 1; n < t.strings.size(); ++n)
        c.strings.intern(t.strings.view(core::NameId(n)));
    c.path = t.path;
    c.rank = t.rank;
    c.rankSource = t.rankSource;
    c.metadata = t.metadata;
    c.counts = t.counts;
    c.diagnostics = t.diagnostics;
    c.categories = t.categories;
    c.tracks = t.tracks;
    c.slices = t.slices;
    c.activity = t.activity;
    c.extra = t.extra;
    c.args = t.args;
    c.instants = t.instants;
    c.memory = t.memory;
    c.counters = t.counters;
    c.links = t.links;
    c.startNs = t.startNs;
    c.endNs = t.endNs;
    return c;
}

// Copies the loaded ranks' stores round robin until there are `count` ranks,
// numbered 0..count-1. Each copy has its own memory, as a loaded rank would.
void replicate(core::TraceSet& set, int count)
{
    const std::size_t loaded = set.ranks.size();
    if (loaded == 0 || static_cast<std::size_t>(count) <= loaded)
        return;
    std::vector<std::shared_ptr<const core::RankTrace>> ranks(static_cast<std::size_t>(count));
    app::parallelForOnThreads(ranks.size(), [&](std::size_t r) {
        auto copy = std::make_shared<core::RankTrace>(copyOfStore(*set.ranks[r % loaded]));
        copy->rank = static_cast<std::int64_t>(r);
        ranks[r] = std::move(copy);
    });
    set.ranks = std::move(ranks);
}

struct Scenario
{
    const char* name;
    TimeNs span; // 0 = the whole trace
    bool collapsed = false; // every rank collapsed to its GPU overview band
};

// What one view's frames took, over every repeat.
struct ScenarioFigures
{
    std::vector<double> first; // the first frame of each fresh renderer
    std::vector<double> cold; // every cold frame, first ones included
    std::vector<double> warm;
    std::vector<double> coldCpu; // process CPU ms of each cold frame
    std::vector<double> rows;
    std::vector<double> items;
    double worstBuild = 0; // draw lists of the worst cold frame
    double worstPaint = 0; // and the rest of it
};

// One fresh renderer: `frames` cold frames at fresh places, each followed by
// a warm repaint of the same view.
void runScenarioOnce(const Scenario& sc, const std::shared_ptr<const TimelineData>& data, const Options& o,
    std::uint64_t seed, QImage& image, ScenarioFigures& fig)
{
    TimelineViewState state;
    state.reset(data->displayBounds(Alignment::AsRecorded));
    if (sc.collapsed)
        state.setAllCollapsed(data->rankCount(), true);
    TrackLayout layout;
    layout.build(*data, state);
    TimelineRenderer renderer;
    renderer.setData(data);
    TimelineGeometry g;
    g.width = o.width;
    g.height = o.height;
    std::mt19937_64 rng(seed);
    const TimeRange bounds = state.bounds();
    const int scrollRoom = std::max(0, layout.contentHeight() - (o.height - g.scrollTop(layout)));
    for (int f = 0; f < o.frames; ++f) {
        if (sc.span > 0) {
            // A busy place: the middle 80 % of the trace.
            const TimeNs room = std::max<TimeNs>(1, bounds.span() * 8 / 10 - sc.span);
            const TimeNs s = bounds.start + bounds.span() / 10
                + static_cast<TimeNs>(rng() % static_cast<std::uint64_t>(room));
            state.setVisibleRange({ s, s + sc.span }, TimelineViewState::History::None);
        }
        // Any of the ranks: with 1000 ranks most frames show rows never drawn before.
        g.scrollY =
            f == 0 || scrollRoom == 0 ? 0 : static_cast<int>(rng() % static_cast<unsigned>(scrollRoom));
        renderer.clearCache();
        double coldMs = 0;
        std::pair<long, long> switches; // voluntary, involuntary (preempted) context switches
        {
            QPainter p(&image);
            const double cpu0 = processCpuMs();
            rusage u0 {};
            getrusage(RUSAGE_SELF, &u0);
            QElapsedTimer t;
            t.start();
            renderer.render(p, g, state, layout);
            coldMs = static_cast<double>(t.nsecsElapsed()) / 1e6;
            fig.coldCpu.push_back(processCpuMs() - cpu0);
            rusage u1 {};
            getrusage(RUSAGE_SELF, &u1);
            switches = { u1.ru_nvcsw - u0.ru_nvcsw, u1.ru_nivcsw - u0.ru_nivcsw };
        }
        if (f == 0)
            fig.first.push_back(coldMs);
        if (std::getenv("KS_BENCH_TIMELINE_FRAMES"))
            std::fprintf(stderr,
                "%s f%d %.2f ms, CPU %.2f ms, draw lists %.2f ms, paint %.2f ms, context switches %ld "
                "voluntary, %ld preempted\n",
                sc.name, f, coldMs, fig.coldCpu.back(), renderer.stats().buildMs, renderer.stats().paintMs,
                switches.first, switches.second);
        if (coldMs >= worst(fig.cold)) {
            fig.worstBuild = renderer.stats().buildMs;
            fig.worstPaint = renderer.stats().paintMs;
        }
        fig.cold.push_back(coldMs);
        fig.rows.push_back(renderer.stats().rowsDrawn);
        fig.items.push_back(static_cast<double>(renderer.stats().items));
        {
            QPainter p(&image);
            QElapsedTimer t;
            t.start();
            renderer.render(p, g, state, layout);
            fig.warm.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
        }
    }
    if (const char* out = std::getenv("KS_BENCH_TIMELINE_PNG"))
        image.save(QString::fromUtf8(out) + QStringLiteral("-")
            + QString::fromUtf8(sc.name).replace(QChar(u' '), QChar(u'_')) + QStringLiteral(".png"));
}

void runScenario(
    const Scenario& sc, const std::shared_ptr<const TimelineData>& data, const Options& o, QImage& surface)
{
    ScenarioFigures fig;
    for (int r = 0; r < o.repeat; ++r)
        runScenarioOnce(sc, data, o, 11 + static_cast<std::uint64_t>(r), surface, fig);
    std::printf("| %s | %.0f | %.0f | %.2f / %.2f | %.2f | **%.2f** (%.1f + %.1f) | %.2f / %.2f | %.2f / "
                "%.2f | %s |\n",
        sc.name, median(fig.rows), median(fig.items), median(fig.first), worst(fig.first), median(fig.cold),
        worst(fig.cold), fig.worstBuild, fig.worstPaint, median(fig.coldCpu), worst(fig.coldCpu),
        median(fig.warm), worst(fig.warm), loadAverage().c_str());
    std::fflush(stdout);
}

} // namespace

int main(int argc, char** argv)
{
    app::tuneAllocatorForLargeTraces();
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication qapp(argc, argv);
    Options o;
    if (!parse(argc, argv, o)) {
        std::fprintf(stderr,
            "usage: kinetoscope-bench-timeline [--frames N] [--repeat N] [--size WxH] [--no-counters] "
            "[--replicate R] [--view TEXT] [--ranks R --size-mb MB --keep DIR] [PATH...]\n");
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
    core::TraceSet loadedSet = std::move(loaded).value();
    const std::size_t loadedRanks = loadedSet.ranks.size();
    const double loadS = seconds(t0);
    t0 = std::chrono::steady_clock::now();
    replicate(loadedSet, o.replicate);
    const double replicateS = seconds(t0);
    auto set = std::make_shared<const core::TraceSet>(std::move(loadedSet));
    t0 = std::chrono::steady_clock::now();
    std::shared_ptr<const TimelineData> data = TimelineData::build(set);
    const double prepareS = seconds(t0);
    double countersS = 0;
    if (o.counters) {
        t0 = std::chrono::steady_clock::now();
        std::vector<CounterTracks> perRank(set->ranks.size());
        app::parallelForOnThreads(perRank.size(),
            [&](std::size_t r) { perRank[r] = buildAnalysisCounters(*set, static_cast<int>(r)); });
        data = data->withAnalysisCounters(std::move(perRank));
        countersS = seconds(t0);
    }
    std::size_t summaryBytes = 0;
    for (int r = 0; r < data->rankCount(); ++r)
        summaryBytes += data->rank(r).bytesUsed();
    const double slices = static_cast<double>(data->sliceCount());
    std::printf("\n## B5: timeline paint (machine: %u cores; image %dx%d; %d cold frames per view, %d times "
                "with a fresh renderer)\n\n",
        std::max(1u, std::thread::hardware_concurrency()), o.width, o.height, o.frames, o.repeat);
    std::printf("%d rank(s), %.2f M slices; load of %zu rank(s) from JSON %.1f s", data->rankCount(),
        slices / 1e6, loadedRanks, loadS);
    if (static_cast<std::size_t>(data->rankCount()) > loadedRanks)
        std::printf("; the other %zu ranks are copies of their stores, built directly without JSON (%.1f s)",
            static_cast<std::size_t>(data->rankCount()) - loadedRanks, replicateS);
    std::printf("; timeline data (kinds + LOD pyramids + collectives) %.2f s, %.1f B/slice; analysis "
                "counters %.2f s; "
                "peak RSS %.0f MB; load average %s\n\n",
        prepareS, static_cast<double>(summaryBytes) / std::max(1.0, slices), countersS, peakRssMb(),
        loadAverage().c_str());
    // The window's surface: in the app the widget paints into the window's backing
    // store, which exists (and was painted, empty) before a trace is open, so its
    // pages are not faulted in by the timeline's first frame. A fresh 6 MB image
    // costs about 10 ms of page faults on its first fill on this VM.
    QImage surface(o.width, o.height, QImage::Format_RGB32);
    surface.fill(Qt::white);
    std::printf("| view | rows drawn (median) | rectangles (median) | first frame ms (median / worst) | cold "
                "ms/frame (median) | cold worst (draw lists + paint) | warm ms/frame (median / worst) "
                "| cold CPU ms/frame, all threads (median / worst) | load average |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    for (const Scenario& sc : { Scenario { "fully zoomed out", 0 }, Scenario { "1 ms window", 1'000'000 },
             Scenario { "10 us window", 10'000 }, Scenario { "all ranks collapsed, zoomed out", 0, true } })
        if (std::string(sc.name).find(o.view) != std::string::npos)
            runScenario(sc, data, o, surface);
    return 0;
}
