#include "core/model/store_bytes.h"

#include "core/model/rank_trace.h"

namespace ks::core {

namespace {

    template <typename T>
    std::size_t bytesOf(const std::vector<T>& v)
    {
        return v.capacity() * sizeof(T);
    }

    // An unordered_map node: the pair, the next pointer and the bucket slot.
    template <typename Map>
    std::size_t mapBytes(const Map& map)
    {
        return map.size() * (sizeof(typename Map::value_type) + 2 * sizeof(void*))
            + map.bucket_count() * sizeof(void*);
    }

} // namespace

std::vector<ColumnBytes> storeBytesByColumn(const RankTrace& t)
{
    std::vector<ColumnBytes> out;
    out.push_back({ "slice durLow", bytesOf(t.slices.durLow) });
    std::apply(
        [&](const auto&... c) {
            (out.push_back({ c.label, bytesOf(t.slices.*(c.column)) }), ...);
        },
        kSliceColumns);
    out.push_back({ "slice durOverflow", mapBytes(t.slices.durOverflow) });
    out.push_back({ "activity args", t.activity.bytesUsed() });
    out.push_back({ "extra args", t.extra.bytesUsed() });
    out.push_back({ "kernel launch args", t.launch.bytesUsed() });
    out.push_back({ "args", t.args.bytesUsed() });
    out.push_back({ "kept args", t.keptArgs.bytesUsed() });
    const InstantTable& in = t.instants;
    out.push_back({ "instants",
        bytesOf(in.ts) + bytesOf(in.name) + bytesOf(in.category) + bytesOf(in.track)
            + bytesOf(in.eventIndex) });
    const MemoryEventTable& m = t.memory;
    out.push_back({ "memory events",
        bytesOf(m.ts) + m.bytes.bytesUsed() + bytesOf(m.totalAllocated) + bytesOf(m.totalReserved)
            + bytesOf(m.addr) + bytesOf(m.deviceId) + bytesOf(m.deviceType) + bytesOf(m.thread)
            + bytesOf(m.threads) + m.evIdx.bytesUsed() + bytesOf(m.flags) + bytesOf(m.eventIndex) });
    std::size_t counters = 0;
    for (const CounterSeries& c : t.counters)
        counters += sizeof(CounterSeries) + bytesOf(c.ts) + bytesOf(c.value);
    out.push_back({ "counters", counters });
    out.push_back({ "links",
        bytesOf(t.links.from) + bytesOf(t.links.to) + bytesOf(t.links.kind) + bytesOf(t.links.byTo) });
    std::size_t tracks = 0;
    for (const Track& track : t.tracks)
        tracks += sizeof(Track) + bytesOf(track.levelBegin);
    out.push_back({ "tracks", tracks });
    out.push_back({ "strings", t.strings.bytesUsed() + bytesOf(t.categories) });
    return out;
}

void shrinkToFit(RankTrace& t)
{
    auto shrink = [](auto&... columns) { (columns.shrink_to_fit(), ...); };
    SliceTable::forEachColumn(t.slices, [](auto& column) { column.shrink_to_fit(); });
    t.activity.ofSlice.shrinkToFit();
    t.activity.correlation.shrinkToFit();
    t.activity.stream.shrinkToFit();
    t.activity.extra.shrinkToFit();
    t.activity.launch.shrinkToFit();
    ExtraArgs& x = t.extra;
    shrink(x.bytes, x.memoryBandwidthGBps, x.device, x.waitOnStream, x.waitOnEventRecordCorrelation,
        x.collectiveName, x.inMsgNelems, x.outMsgNelems, x.dtype, x.groupSize, x.processRank,
        x.processGroupName, x.sequenceNumber, x.processGroupRanks, x.processGroupDescription);
    KernelLaunchArgs& k = t.launch;
    shrink(k.blocksPerSm, k.warpsPerSm, k.occupancyPct, k.grid, k.block);
    InstantTable& in = t.instants;
    shrink(in.ts, in.name, in.category, in.track, in.eventIndex);
    MemoryEventTable& m = t.memory;
    m.bytes.shrinkToFit();
    m.evIdx.shrinkToFit();
    shrink(m.ts, m.totalAllocated, m.totalReserved, m.addr, m.deviceId, m.deviceType, m.thread, m.threads,
        m.flags, m.eventIndex);
    for (CounterSeries& c : t.counters)
        shrink(c.ts, c.value);
    shrink(t.links.from, t.links.to, t.links.kind, t.links.byTo, t.tracks, t.categories);
    for (Track& track : t.tracks)
        track.levelBegin.shrink_to_fit();
    t.keptArgs.shrinkToFit();
}

} // namespace ks::core
