#include "core/analysis/collective_skew.h"

#include "core/analysis/kernel_type.h"
#include "core/analysis/microseconds.h"

#include <algorithm>
#include <map>
#include <string>

namespace ks::core {

namespace {

    struct Arrival
    {
        std::int64_t rank = 0;
        TimeNs start = 0;
        TimeNs end = 0;
    };

    // (name, ordinal) -> each rank's instance.
    using Instances = std::map<std::pair<std::string, std::int64_t>, std::vector<Arrival>>;

    void addRank(const RankTrace& t, Instances& instances)
    {
        std::vector<std::uint32_t> comm;
        for (const Track& track : t.tracks) {
            if (track.kind != TrackKind::GpuStream)
                continue;
            for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s)
                if (classifyKernelDefault(t.sliceCategory(s), t.sliceName(s)) == KernelType::Communication)
                    comm.push_back(s);
        }
        // Order by start across streams: the n-th instance of a name is the n-th to start.
        std::stable_sort(comm.begin(), comm.end(),
            [&t](std::uint32_t a, std::uint32_t b) { return t.slices.start[a] < t.slices.start[b]; });
        std::map<std::string, std::int64_t, std::less<>> seen;
        for (const std::uint32_t s : comm) {
            std::string name(t.sliceName(s));
            const std::int64_t ordinal = seen[name]++;
            instances[{ std::move(name), ordinal }].push_back(
                { t.rank, t.slices.start[s], t.slices.start[s] + t.slices.duration(s) });
        }
    }

} // namespace

AnalysisOutput collectiveSkew(const TraceSet& traces, std::size_t top)
{
    if (traces.ranks.size() < 2)
        return AnalysisOutput::notApplicable("collective skew needs at least two ranks");
    Instances instances;
    for (const auto& rank : traces.ranks)
        addRank(*rank, instances);

    struct Row
    {
        const std::string* name;
        std::int64_t ordinal;
        std::size_t ranks;
        TimeNs firstArrival, lastArrival, firstEnd;
        std::int64_t lastRank;
    };

    std::vector<Row> rows;
    for (const auto& [key, arrivals] : instances) {
        if (arrivals.size() < 2)
            continue;
        const auto [first, last] = std::minmax_element(arrivals.begin(), arrivals.end(),
            [](const Arrival& a, const Arrival& b) { return a.start < b.start; });
        const auto firstEnd = std::min_element(arrivals.begin(), arrivals.end(),
            [](const Arrival& a, const Arrival& b) { return a.end < b.end; });
        rows.push_back({ &key.first, key.second, arrivals.size(), first->start, last->start, firstEnd->end,
            last->rank });
    }
    if (rows.empty())
        return AnalysisOutput::notApplicable("no communication kernel appears on two ranks");
    std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return a.lastArrival - a.firstArrival > b.lastArrival - b.firstArrival;
    });
    rows.resize(std::min(rows.size(), top));
    Table t;
    t.name = "collective_skew";
    t.columns = { { "name", "" }, { "instance", "" }, { "ranks", "" }, { "first_arrival_us", "us" },
        { "skew_us", "us" }, { "last_rank", "" }, { "transfer_us", "us" }, { "wait_share_pct", "%" } };
    const TimeNs origin = traces.startNs();
    for (const Row& r : rows) {
        const TimeNs skew = r.lastArrival - r.firstArrival;
        const TimeNs transfer = std::max<TimeNs>(0, r.firstEnd - r.lastArrival);
        const double share = skew + transfer > 0
            ? 100.0 * static_cast<double>(skew) / static_cast<double>(skew + transfer)
            : 0.0;
        t.addRow(
            { *r.name, r.ordinal, static_cast<std::int64_t>(r.ranks), microseconds(r.firstArrival - origin),
                microseconds(skew), r.lastRank, microseconds(transfer), share });
    }
    return AnalysisOutput::of(HtaResult::dataFrame(std::move(t)));
}

namespace {

    // A rank's GPU-stream slices with this name, in start order.
    std::vector<std::uint32_t> gpuInstancesOf(const RankTrace& t, std::string_view name)
    {
        std::vector<std::uint32_t> out;
        const NameId id = t.strings.find(name);
        if (!id.valid())
            return out;
        for (const Track& track : t.tracks)
            if (track.kind == TrackKind::GpuStream)
                for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s)
                    if (t.slices.name[s] == id)
                        out.push_back(s);
        std::stable_sort(out.begin(), out.end(),
            [&t](std::uint32_t a, std::uint32_t b) { return t.slices.start[a] < t.slices.start[b]; });
        return out;
    }

} // namespace

std::vector<CollectiveArrival> sameCollectiveOnRanks(
    const std::vector<const RankTrace*>& ranks, std::size_t rankIndex, std::uint32_t slice)
{
    std::vector<CollectiveArrival> arrivals;
    if (rankIndex >= ranks.size() || slice >= ranks[rankIndex]->slices.size())
        return arrivals;
    const RankTrace& own = *ranks[rankIndex];
    const std::string_view name = own.sliceName(slice);
    if (classifyKernelDefault(own.sliceCategory(slice), name) != KernelType::Communication)
        return arrivals;
    const std::vector<std::uint32_t> ownInstances = gpuInstancesOf(own, name);
    const auto at = std::find(ownInstances.begin(), ownInstances.end(), slice);
    if (at == ownInstances.end())
        return arrivals; // not on a GPU stream
    const auto ordinal = static_cast<std::size_t>(at - ownInstances.begin());
    for (std::size_t r = 0; r < ranks.size(); ++r) {
        const std::vector<std::uint32_t> instances =
            r == rankIndex ? ownInstances : gpuInstancesOf(*ranks[r], name);
        if (ordinal >= instances.size())
            continue;
        const std::uint32_t s = instances[ordinal];
        arrivals.push_back(
            { r, s, ranks[r]->slices.start[s], ranks[r]->slices.start[s] + ranks[r]->slices.duration(s) });
    }
    return arrivals;
}

} // namespace ks::core
