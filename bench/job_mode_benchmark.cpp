// B7 (issue 10 item 6): job mode on a big summary, offscreen. Prints, as one
// Markdown row: ranks, bins, the summary's size, open to first full frame
// (readJobOverview + JobModeView::setJob + the first paint of the whole view),
// and the strips' frame times (median): a new zoom (every pixel recomputed
// from the profiles) and a repaint from the cached image (hover, selection).
//
//   kinetoscope-bench-job-mode [--frames N] [--size WxH] JOB.kssum
//   kinetoscope-bench-job-mode [--frames N] [--size WxH] --summarize TRACE_FOLDER JOB.kssum
// (the second form writes the summary first, as `kinetoscope-cli summarize` would).

#include "app/common/thread_pool_parallel_for.h"
#include "core/summary/job_overview.h"
#include "core/summary/job_summarizer.h"
#include "widgets/common/job_pools.h"
#include "widgets/job/job_mode_view.h"
#include "widgets/job/job_strip_view.h"

#include <QApplication>
#include <QFileInfo>
#include <QImage>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
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
    ks::widgets::JobPools pools;
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
    std::printf("| ranks | bins | summary MB | read ms | open to first frame ms | dense frame, new zoom ms | "
                "dense frame, cached ms | view |\n|---|---|---|---|---|---|---|---|\n");
    std::printf("| %zu | %zu | %.1f | %.0f | %.0f | %.1f | %.2f | %dx%d (strips %dx%d) |\n",
        shared->ranks.size(), shared->profiles.bins,
        static_cast<double>(QFileInfo(QString::fromStdString(path)).size()) / 1e6, readMs, firstFrameMs,
        median(zoomed), median(cached), width, height, strips->width(), strips->height());
    return 0;
}
