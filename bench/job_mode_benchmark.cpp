// B7: job mode on a big summary, offscreen. Prints, as one
// Markdown row: ranks, bins, the summary's size, open to first full frame
// (readJobOverview + JobModeView::setJob + the first paint of the whole view),
// and the strips' frame times (median and worst of --frames frames): a new
// zoom (every pixel recomputed from the profiles) and a repaint from the
// cached image (hover, selection). Also the thread CPU time of recomputing
// the image on one thread (rasterStrips + fitStripRows): the work per new
// frame, which a shared, loaded machine hardly disturbs.
//
//   kinetoscope-bench-job-mode [--frames N] [--size WxH] JOB.kssum
//   kinetoscope-bench-job-mode [--frames N] [--size WxH] --summarize TRACE_FOLDER JOB.kssum
// (the second form writes the summary first, as `kinetoscope-cli summarize` would).

#include "app/common/thread_pool_parallel_for.h"
#include "core/summary/job_overview.h"
#include "core/summary/job_summarizer.h"
#include "widgets/common/task_pools.h"
#include "widgets/job/job_mode_view.h"
#include "widgets/job/job_strip_view.h"
#include "widgets/job/strip_raster.h"

#include <QApplication>
#include <QFileInfo>
#include <QImage>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <functional>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point since)
{
    return std::chrono::duration<double, std::milli>(Clock::now() - since).count();
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

double threadCpuMs()
{
    timespec t {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) / 1e6;
}

double worst(const std::vector<double>& v)
{
    return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int frames = 30;
    int width = 1600;
    int height = 1000;
    std::string path;
    std::string folder;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--frames" && i + 1 < argc)
            frames = std::atoi(argv[++i]);
        else if (arg == "--size" && i + 1 < argc && std::sscanf(argv[++i], "%dx%d", &width, &height) == 2)
            continue;
        else if (arg == "--summarize" && i + 1 < argc)
            folder = argv[++i];
        else
            path = arg;
    }
    if (path.empty()) {
        std::fprintf(stderr, "usage: kinetoscope-bench-job-mode [--frames N] [--size WxH] JOB.kssum\n");
        return 2;
    }

    if (!folder.empty()) {
        const auto start = Clock::now();
        auto summarised = ks::core::summarizeJob(
            { folder }, path, {}, [](std::size_t n, const std::function<void(std::size_t)>& body) {
                ks::app::parallelForOnThreads(n, body);
            });
        if (!summarised) {
            std::fprintf(stderr, "%s\n", summarised.error().describe().c_str());
            return 1;
        }
        std::fprintf(stderr, "summarised %s in %.1f s\n", folder.c_str(), msSince(start) / 1000.0);
    }
    const auto open = Clock::now();
    auto job = ks::core::readJobOverview(path);
    if (!job) {
        std::fprintf(stderr, "%s\n", job.error().describe().c_str());
        return 1;
    }
    const double readMs = msSince(open);
    auto shared = std::make_shared<const ks::core::JobOverview>(std::move(job).value());
    ks::widgets::TaskPools pools;
    ks::widgets::JobModeView view(&pools);
    view.resize(width, height);
    view.setJob(shared);
    QImage frame(view.size(), QImage::Format_RGB32);
    view.render(&frame); // the first full frame: strips, tabs, heat map
    const double firstFrameMs = msSince(open);

    ks::widgets::JobStripView* strips = view.strips();
    QImage stripFrame(strips->size(), QImage::Format_RGB32);
    std::vector<double> zoomed;
    std::vector<double> cached;
    const double bins = static_cast<double>(shared->profiles.bins);
    for (int f = 0; f < frames; ++f) {
        // Alternate between two zooms so every frame recomputes the image.
        const double span = f % 2 ? bins : bins * 0.5;
        strips->setVisibleBins(bins * 0.1 * (f % 3), bins * 0.1 * (f % 3) + span);
        auto t = Clock::now();
        strips->render(&stripFrame);
        zoomed.push_back(msSince(t));
        t = Clock::now();
        strips->render(&stripFrame);
        cached.push_back(msSince(t));
    }
    // The same recomputation on this thread alone, in CPU time.
    std::vector<double> cpu;
    const QRect area = strips->stripArea();
    QImage image(area.width(), static_cast<int>(shared->ranks.size()), QImage::Format_RGB32);
    const std::vector<bool> failed(shared->ranks.size(), false);
    for (int f = 0; f < frames; ++f) {
        const double span = f % 2 ? bins : bins * 0.5;
        const double first = bins * 0.1 * (f % 3);
        const double start = threadCpuMs();
        const auto weights =
            ks::widgets::columnWeights(first, first + span, area.width(), shared->profiles.bins);
        ks::widgets::rasterStrips(ks::widgets::StripPalette::standard(), weights, shared->profiles, failed,
            qRgb(0, 0, 0), image, ks::core::runSequentially);
        if (image.height() > area.height())
            (void)ks::widgets::fitStripRows(image, area.height(), ks::core::runSequentially);
        cpu.push_back(threadCpuMs() - start);
    }
    std::printf("| ranks | bins | summary MB | read ms | open to first frame ms | dense frame, new zoom ms | "
                "dense frame, cached ms | new image, one thread, CPU ms | view "
                "|\n|---|---|---|---|---|---|---|---|---|\n");
    std::printf("| %zu | %zu | %.1f | %.0f | %.0f | %.1f (worst %.1f) | %.2f (worst %.2f) | %.1f (worst "
                "%.1f) | %dx%d (strips %dx%d) |\n",
        shared->ranks.size(), shared->profiles.bins,
        static_cast<double>(QFileInfo(QString::fromStdString(path)).size()) / 1e6, readMs, firstFrameMs,
        median(zoomed), worst(zoomed), median(cached), worst(cached), median(cpu), worst(cpu), width, height,
        strips->width(), strips->height());
    return 0;
}
