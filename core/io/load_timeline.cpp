#include "core/io/load_timeline.h"

#include <algorithm>
#include <time.h>

namespace ks::core {

namespace {

    std::int64_t threadCpuNs()
    {
        timespec t {};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
        return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
    }

    constexpr std::array<char, kLoadStageCount> kStageLetters { 'I', 'S', 'P', 'B', 'L', 'w' };

} // namespace

const char* loadStageName(LoadStage stage)
{
    switch (stage) {
    case LoadStage::Inflate:
        return "inflate";
    case LoadStage::Split:
        return "split";
    case LoadStage::Parse:
        return "parse";
    case LoadStage::Build:
        return "build";
    case LoadStage::Layout:
        return "layout";
    case LoadStage::Wait:
        return "wait";
    }
    return "?";
}

LoadTimeline::LoadTimeline()
    : m_origin(Clock::now())
{
}

std::int64_t LoadTimeline::now() const
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - m_origin).count();
}

void LoadTimeline::close(Lane& l, std::int64_t at)
{
    const Interval interval { l.current, l.sinceNs, at };
    l.totalNs[static_cast<std::size_t>(l.current)] += at - l.sinceNs;
    l.sinceNs = at;
    // Short switches merge into the interval before: a GB is 4000 pieces.
    if (!l.intervals.empty() && l.intervals.back().stage == interval.stage
        && interval.beginNs - l.intervals.back().endNs < 100'000) {
        l.intervals.back().endNs = at;
        return;
    }
    if (interval.endNs > interval.beginNs)
        l.intervals.push_back(interval);
}

void LoadTimeline::beginLane(LoadLane lane, LoadStage stage)
{
    Lane& l = m_lanes[static_cast<std::size_t>(lane)];
    l.active = true;
    l.current = stage;
    l.sinceNs = now();
    l.cpuBeginNs = threadCpuNs();
}

void LoadTimeline::endLane(LoadLane lane)
{
    Lane& l = m_lanes[static_cast<std::size_t>(lane)];
    if (!l.active)
        return;
    close(l, now());
    l.active = false;
    l.cpuNs += threadCpuNs() - l.cpuBeginNs;
}

LoadStage LoadTimeline::enter(LoadLane lane, LoadStage stage)
{
    Lane& l = m_lanes[static_cast<std::size_t>(lane)];
    const LoadStage previous = l.current;
    if (l.active && stage != previous)
        close(l, now());
    l.current = stage;
    return previous;
}

std::pair<std::int64_t, std::int64_t> LoadTimeline::span() const
{
    std::int64_t begin = -1;
    std::int64_t end = 0;
    for (const Lane& l : m_lanes) {
        if (l.intervals.empty())
            continue;
        begin = begin < 0 ? l.intervals.front().beginNs : std::min(begin, l.intervals.front().beginNs);
        end = std::max(end, l.intervals.back().endNs);
    }
    return { begin, end };
}

double LoadTimeline::wallSeconds() const
{
    const auto [begin, end] = span();
    return begin < 0 ? 0.0 : static_cast<double>(end - begin) / 1e9;
}

double LoadTimeline::seconds(LoadLane lane, LoadStage stage) const
{
    return static_cast<double>(
               m_lanes[static_cast<std::size_t>(lane)].totalNs[static_cast<std::size_t>(stage)])
        / 1e9;
}

double LoadTimeline::cpuSeconds(LoadLane lane) const
{
    return static_cast<double>(m_lanes[static_cast<std::size_t>(lane)].cpuNs) / 1e9;
}

std::vector<char> LoadTimeline::strip(LoadLane lane, std::size_t width) const
{
    std::vector<char> out(width, '.');
    const auto [begin, end] = span();
    const std::int64_t wallNs = end - begin;
    if (width == 0 || begin < 0 || wallNs <= 0)
        return out;
    const Lane& l = m_lanes[static_cast<std::size_t>(lane)];
    const auto w = static_cast<std::int64_t>(width);
    for (std::size_t c = 0; c < width; ++c) {
        const std::int64_t a = begin + wallNs * static_cast<std::int64_t>(c) / w;
        const std::int64_t b = begin + wallNs * static_cast<std::int64_t>(c + 1) / w;
        std::array<std::int64_t, kLoadStageCount> share {};
        for (const Interval& i : l.intervals) {
            const std::int64_t overlap = std::min(b, i.endNs) - std::max(a, i.beginNs);
            if (overlap > 0)
                share[static_cast<std::size_t>(i.stage)] += overlap;
        }
        const auto most = std::max_element(share.begin(), share.end());
        std::int64_t covered = 0;
        for (std::int64_t ns : share)
            covered += ns;
        // A slice the lane mostly did not run in (before it began, after it ended) stays '.'.
        if (covered * 2 >= b - a)
            out[c] = kStageLetters[static_cast<std::size_t>(most - share.begin())];
    }
    return out;
}

} // namespace ks::core
