#include "widgets/timeline/model/timeline_data.h"

#include "core/session/trace_analyses.h"
#include "widgets/common/format.h"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentMap>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <numeric>

namespace ks::widgets {

namespace {

    void foldSummary(SliceSummaryNode& acc, const SliceSummaryNode& v)
    {
        acc.busy += v.busy;
        if (v.longest != core::kNoRow && (acc.longest == core::kNoRow || v.longestDur > acc.longestDur)) {
            acc.longest = v.longest;
            acc.longestDur = v.longestDur;
        }
    }

    SliceSummaryNode leafOf(const core::SliceTable& slices, std::uint32_t i)
    {
        const TimeNs d = slices.duration(i);
        return { d, i, static_cast<std::uint32_t>(std::min<TimeNs>(d, 0xFFFFFFFFLL)) };
    }

    QString rankDetail(const core::RankTrace& trace)
    {
        QStringList parts;
        if (!trace.metadata.devices.empty() && !trace.metadata.devices.front().name.empty())
            parts.append(toQString(trace.metadata.devices.front().name));
        parts.append(QFileInfo(QString::fromStdString(trace.path)).fileName());
        return parts.join(QStringLiteral(" · "));
    }

    // Kinds of every slice. Names are classified once per (track kind, name,
    // category): a name nearly always keeps its category, so a per-name cache
    // with a category check hits almost every time.
    void classifySlices(RankTimeline& rt)
    {
        const core::RankTrace& t = *rt.trace;
        rt.sliceKind.assign(t.slices.size(), static_cast<std::uint8_t>(SliceKind::CpuOther));

        struct Cached
        {
            std::uint16_t category = 0xFFFF;
            std::uint8_t kind = 0;
        };

        std::vector<Cached> cache[2];
        cache[0].resize(t.strings.size());
        cache[1].resize(t.strings.size());
        for (const core::Track& track : t.tracks) {
            const bool gpu = track.kind == core::TrackKind::GpuStream;
            std::vector<Cached>& c = cache[gpu ? 1 : 0];
            for (std::uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
                const std::uint32_t name = t.slices.name[i].value;
                const std::uint16_t category = t.slices.category[i];
                Cached& entry = c[name];
                if (entry.category != category) {
                    entry.category = category;
                    entry.kind =
                        static_cast<std::uint8_t>(classifySlice(gpu, t.sliceCategory(i), t.sliceName(i)));
                }
                rt.sliceKind[i] = entry.kind;
                rt.kindMask |= 1u << entry.kind;
            }
        }
        rt.nameKey.resize(t.strings.size());
        for (std::uint32_t n = 0; n < t.strings.size(); ++n)
            rt.nameKey[n] = nameColorKey(t.strings.view(core::NameId(n)));
    }

    void buildSummaries(RankTimeline& rt, std::uint32_t track)
    {
        const core::RankTrace& t = *rt.trace;
        const core::Track& tr = t.tracks[track];
        auto& levels = rt.summaries[track];
        levels.resize(tr.levelCount());
        for (std::uint32_t level = 0; level < tr.levelCount(); ++level) {
            const std::uint32_t begin = tr.levelBegin[level];
            const std::uint32_t end = tr.levelBegin[level + 1];
            levels[level].build(
                end - begin, [&](std::uint32_t i) { return leafOf(t.slices, begin + i); }, foldSummary,
                SliceSummaryNode {});
        }
    }

} // namespace

void runInParallel(std::size_t n, const std::function<void(std::size_t)>& body)
{
    std::vector<std::size_t> items(n);
    std::iota(items.begin(), items.end(), 0);
    // No exception may reach Qt Concurrent: a body's is kept, the
    // bodies after it do nothing, and the first is rethrown here, as a loop would.
    std::exception_ptr failure;
    std::mutex failureMutex;
    std::atomic<bool> failed { false };
    QtConcurrent::blockingMap(items, [&](std::size_t i) {
        if (failed.load())
            return;
        try {
            body(i);
        } catch (...) {
            std::lock_guard lock(failureMutex);
            if (!failure)
                failure = std::current_exception();
            failed.store(true);
        }
    });
    if (failure)
        std::rethrow_exception(failure);
}

std::uint64_t nextDataVersion()
{
    static std::atomic<std::uint64_t> counter { 0 };
    return ++counter;
}

void RankTimeline::summarize(
    std::uint32_t track, std::uint32_t level, std::uint32_t a, std::uint32_t b, SliceSummaryNode& acc) const
{
    const std::uint32_t begin = trace->tracks[track].levelBegin[level];
    const core::SliceTable& slices = trace->slices;
    summaries[track][level].query(
        a - begin, b - begin, [&](std::uint32_t i) { return leafOf(slices, begin + i); }, foldSummary, acc);
}

std::size_t RankTimeline::bytesUsed() const
{
    std::size_t bytes = sliceKind.size() + nameKey.size();
    for (const auto& track : summaries)
        for (const auto& level : track)
            bytes += level.bytesUsed();
    return bytes;
}

std::shared_ptr<TimelineData> TimelineData::build(std::shared_ptr<const core::TraceSet> set,
    const ParallelRunner& parallel, const std::shared_ptr<core::TraceAnalyses>& analyses)
{
    auto data = std::make_shared<TimelineData>();
    data->version = nextDataVersion();
    if (!set)
        return data;
    data->set = set;
    const std::size_t n = set->ranks.size();
    std::vector<std::shared_ptr<RankTimeline>> ranks(n);
    std::vector<std::shared_ptr<CounterTracks>> counters(n);
    // Work items: one per rank (kinds, counters), then one per (rank, track) (summaries).
    std::vector<std::pair<std::size_t, std::uint32_t>> trackItems;
    for (std::size_t r = 0; r < n; ++r) {
        auto rt = std::make_shared<RankTimeline>();
        rt->trace = set->ranks[r];
        rt->index = static_cast<int>(r);
        rt->label = QStringLiteral("Rank %1").arg(rt->trace->rank);
        rt->detail = rankDetail(*rt->trace);
        rt->summaries.resize(rt->trace->tracks.size());
        for (const core::Track& track : rt->trace->tracks)
            rt->trackNames.push_back(toQString(rt->trace->name(track.name)));
        for (std::uint32_t t = 0; t < rt->trace->tracks.size(); ++t)
            trackItems.emplace_back(r, t);
        ranks[r] = std::move(rt);
    }
    parallel(n, [&](std::size_t r) {
        classifySlices(*ranks[r]);
        counters[r] = std::make_shared<CounterTracks>(buildTraceCounters(*ranks[r]->trace));
    });
    // Biggest tracks first so the parallel map does not end on one long item.
    std::sort(trackItems.begin(), trackItems.end(), [&](const auto& a, const auto& b) {
        return ranks[a.first]->trace->tracks[a.second].sliceCount()
            > ranks[b.first]->trace->tracks[b.second].sliceCount();
    });
    parallel(trackItems.size(),
        [&](std::size_t i) { buildSummaries(*ranks[trackItems[i].first], trackItems[i].second); });
    for (std::size_t r = 0; r < n; ++r) {
        data->ranks.push_back(std::move(ranks[r]));
        data->counters.push_back(std::move(counters[r]));
    }
    data->traceStart = set->startNs();
    data->traceEnd = std::max(set->endNs(), data->traceStart + 1);
    std::shared_ptr<const core::CollectiveMatch> match = analyses
        ? analyses->collectiveMatch()
        : std::make_shared<const core::CollectiveMatch>(core::matchCollectives(*set));
    data->clockOffsets = std::make_shared<const core::ClockOffsets>(core::estimateClockOffsets(*set, *match));
    data->collectives = std::move(match);
    return data;
}

std::shared_ptr<TimelineData> TimelineData::withAnalysisCounters(std::vector<CounterTracks> perRank) const
{
    auto copy = std::make_shared<TimelineData>(*this);
    copy->version = nextDataVersion();
    for (std::size_t r = 0; r < perRank.size() && r < copy->counters.size(); ++r) {
        if (perRank[r].empty())
            continue;
        auto merged = std::make_shared<CounterTracks>(*copy->counters[r]);
        // Queue length and bandwidth first: they sit right under the GPU streams.
        merged->insert(merged->begin(), std::make_move_iterator(perRank[r].begin()),
            std::make_move_iterator(perRank[r].end()));
        copy->counters[r] = std::move(merged);
    }
    return copy;
}

std::shared_ptr<TimelineData> TimelineData::withJobPath(std::shared_ptr<const JobPathMarks> marks) const
{
    auto copy = std::make_shared<TimelineData>(*this);
    copy->version = nextDataVersion();
    copy->jobPath = std::move(marks);
    return copy;
}

std::shared_ptr<TimelineData> TimelineData::withCriticalPaths(std::vector<CriticalPathMarks> perRank) const
{
    auto copy = std::make_shared<TimelineData>(*this);
    copy->version = nextDataVersion();
    copy->criticalPaths.clear();
    for (CriticalPathMarks& marks : perRank)
        copy->criticalPaths.push_back(std::make_shared<const CriticalPathMarks>(std::move(marks)));
    return copy;
}

std::shared_ptr<TimelineData> TimelineData::withDiffClasses(
    std::vector<std::vector<std::uint8_t>> perRank) const
{
    auto copy = std::make_shared<TimelineData>(*this);
    copy->version = nextDataVersion();
    copy->diffClasses.clear();
    for (auto& classes : perRank)
        copy->diffClasses.push_back(std::make_shared<const std::vector<std::uint8_t>>(std::move(classes)));
    return copy;
}

TimeNs TimelineData::offset(int rank, const Alignment& alignment) const
{
    if (rank < 0 || rank >= rankCount())
        return 0;
    switch (alignment.mode) {
    case Alignment::Mode::AsRecorded:
        return 0;
    case Alignment::Mode::RankStart:
        return trace(rank).startNs - traceStart;
    case Alignment::Mode::EstimatedClocks:
        // The estimate is what to add to raw times; the offset is what to subtract.
        if (clockOffsets && static_cast<std::size_t>(rank) < clockOffsets->ranks.size())
            return -clockOffsets->ranks[static_cast<std::size_t>(rank)].offset;
        return 0;
    case Alignment::Mode::Collective:
        if (alignment.anchor && static_cast<std::size_t>(rank) < alignment.anchor->offsets.size())
            return alignment.anchor->offsets[static_cast<std::size_t>(rank)];
        return 0;
    }
    return 0;
}

TimeRange TimelineData::displayBounds(const Alignment& alignment) const
{
    if (ranks.empty())
        return { 0, 1 };
    TimeNs lo = traceStart;
    TimeNs hi = traceStart + 1;
    for (int r = 0; r < rankCount(); ++r) {
        const TimeNs off = offset(r, alignment);
        lo = std::min(lo, trace(r).startNs - off);
        hi = std::max(hi, trace(r).endNs - off);
    }
    return { lo, hi };
}

std::uint32_t TimelineData::kindMask() const
{
    std::uint32_t mask = 0;
    for (const auto& r : ranks)
        mask |= r->kindMask;
    return mask;
}

std::size_t TimelineData::sliceCount() const
{
    std::size_t n = 0;
    for (const auto& r : ranks)
        n += r->trace->slices.size();
    return n;
}

} // namespace ks::widgets
