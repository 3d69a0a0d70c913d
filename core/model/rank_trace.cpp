#include "core/model/rank_trace.h"

#include "core/model/store_bytes.h"

#include <algorithm>

namespace ks::core {

std::string_view phaseName(Phase phase)
{
    static constexpr std::array<std::string_view, kPhaseCount> kNames { "X", "B", "E", "i", "C", "s", "t",
        "f", "M", "other" };
    return kNames[static_cast<std::size_t>(phase)];
}

std::string_view trackKindName(TrackKind kind)
{
    return kind == TrackKind::GpuStream ? "gpu" : "cpu";
}

std::string_view linkKindName(LinkKind kind)
{
    switch (kind) {
    case LinkKind::LaunchFlow:
        return "ac2g";
    case LinkKind::LaunchCorrelation:
        return "correlation";
    case LinkKind::ForwardBackward:
        return "fwdbwd";
    case LinkKind::OtherFlow:
        return "flow";
    case LinkKind::RpcCall:
        return "rpc";
    }
    return "flow";
}

std::string_view rankSourceName(RankSource source)
{
    switch (source) {
    case RankSource::DistributedInfo:
        return "distributedInfo";
    case RankSource::FileName:
        return "file name";
    case RankSource::FileOrder:
        return "file order";
    }
    return "unknown";
}

TrackId RankTrace::trackOf(std::uint32_t slice) const
{
    // Tracks own consecutive slice ranges in order.
    auto it = std::upper_bound(
        tracks.begin(), tracks.end(), slice, [](std::uint32_t s, const Track& t) { return s < t.sliceEnd; });
    if (it == tracks.end())
        return {};
    return TrackId { static_cast<std::uint32_t>(it - tracks.begin()) };
}

std::uint32_t RankTrace::levelOf(std::uint32_t slice) const
{
    const TrackId id = trackOf(slice);
    if (!id.valid())
        return 0;
    const auto& begins = tracks[id.value].levelBegin;
    auto it = std::upper_bound(begins.begin(), begins.end(), slice);
    return static_cast<std::uint32_t>(it - begins.begin()) - 1;
}

std::int64_t RankTrace::correlation(std::uint32_t slice) const
{
    return activity.ofSlice.has(slice) ? activity.correlation[activity.ofSlice.rank(slice)] : -1;
}

std::int64_t RankTrace::stream(std::uint32_t slice) const
{
    return activity.ofSlice.has(slice) ? activity.stream[activity.ofSlice.rank(slice)] : -1;
}

std::uint32_t RankTrace::extraRow(std::uint32_t slice) const
{
    if (!activity.ofSlice.has(slice))
        return kNoRow;
    const std::uint32_t row = activity.ofSlice.rank(slice);
    return activity.extra.has(row) ? activity.extra.rank(row) : kNoRow;
}

std::uint32_t RankTrace::launchRow(std::uint32_t slice) const
{
    if (!activity.ofSlice.has(slice))
        return kNoRow;
    const std::uint32_t row = activity.ofSlice.rank(slice);
    return activity.launch.has(row) ? activity.launch.rank(row) : kNoRow;
}

std::uint32_t RankTrace::firstEndingAtOrAfter(const Track& track, std::uint32_t level, TimeNs t) const
{
    // Within a level slices do not overlap, so ends are sorted like starts.
    std::uint32_t lo = track.levelBegin[level];
    std::uint32_t hi = track.levelBegin[level + 1];
    while (lo < hi) {
        const std::uint32_t mid = lo + (hi - lo) / 2;
        if (slices.end(mid) < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void RankTrace::forEachSliceInRange(
    TrackId trackId, TimeNs t0, TimeNs t1, const std::function<void(std::uint32_t)>& visit) const
{
    if (!trackId.valid() || trackId.value >= tracks.size())
        return;
    const Track& track = tracks[trackId.value];
    for (std::uint32_t level = 0; level < track.levelCount(); ++level) {
        const std::uint32_t levelEnd = track.levelBegin[level + 1];
        for (std::uint32_t i = firstEndingAtOrAfter(track, level, t0); i < levelEnd && slices.start[i] <= t1;
             ++i)
            visit(i);
    }
}

std::vector<std::uint32_t> RankTrace::slicesInRange(TrackId track, TimeNs t0, TimeNs t1) const
{
    std::vector<std::uint32_t> out;
    forEachSliceInRange(track, t0, t1, [&out](std::uint32_t i) { out.push_back(i); });
    return out;
}

std::vector<std::uint32_t> RankTrace::linksFrom(std::uint32_t slice) const
{
    auto [lo, hi] = std::equal_range(links.from.begin(), links.from.end(), slice);
    std::vector<std::uint32_t> rows;
    for (auto it = lo; it != hi; ++it)
        rows.push_back(static_cast<std::uint32_t>(it - links.from.begin()));
    return rows;
}

std::vector<std::uint32_t> RankTrace::linksTo(std::uint32_t slice) const
{
    auto lo = std::lower_bound(links.byTo.begin(), links.byTo.end(), slice,
        [this](std::uint32_t row, std::uint32_t s) { return links.to[row] < s; });
    std::vector<std::uint32_t> rows;
    for (auto it = lo; it != links.byTo.end() && links.to[*it] == slice; ++it)
        rows.push_back(*it);
    return rows;
}

std::size_t RankTrace::counterPoints() const
{
    std::size_t n = 0;
    for (const CounterSeries& c : counters)
        n += c.ts.size();
    return n;
}

std::size_t RankTrace::bytesUsed() const
{
    std::size_t bytes = 0;
    for (const ColumnBytes& c : storeBytesByColumn(*this))
        bytes += c.bytes;
    return bytes;
}

} // namespace ks::core
