#include "core/analysis/critical_path/sync_dependencies.h"

#include "core/analysis/frame/sync_api.h"
#include "core/io/json/args_reader.h"
#include "core/io/store_builder/typed_args.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

namespace ks::core {

namespace {

    SyncKind kindOf(std::string_view waiter, bool waiterOnGpu)
    {
        if (waiterOnGpu || waiter == "cudaStreamWaitEvent" || waiter == "hipStreamWaitEvent")
            return SyncKind::StreamWait;
        switch (syncCallOf(waiter)) {
        case SyncCall::StreamSync:
            return SyncKind::StreamSync;
        case SyncCall::EventSync:
        case SyncCall::EventQuery:
            return SyncKind::EventSync;
        case SyncCall::DeviceSync:
            return SyncKind::DeviceSync;
        default:
            return SyncKind::Other;
        }
    }

    // External ids are args re-read from the file: those of every ref in one
    // forward pass (-1 where absent or unreadable, as RankTrace::externalId).
    using ExternalIds = std::unordered_map<std::uint32_t, std::int64_t>;

    ExternalIds externalIds(const RankTrace& trace, std::vector<std::uint32_t> slices)
    {
        ExternalIds ids;
        std::erase(slices, kNoRow);
        forEachSliceArgs(trace, std::move(slices), [&ids](std::uint32_t slice, std::string_view text) {
            ids[slice] = extractTypedArgs(text).externalId.value_or(-1);
        });
        return ids;
    }

    SyncEventRef refOf(const RankTrace& trace, std::uint32_t slice, const ExternalIds& ids)
    {
        if (slice == kNoRow)
            return {};
        auto it = ids.find(slice);
        return { trace.slices.eventIndex[slice], std::string(trace.sliceName(slice)),
            it == ids.end() ? -1 : it->second };
    }

    // The first cpu_op of the slice's track starting at or after `from`, any level.
    std::uint32_t nextCpuOp(const RankTrace& trace, std::uint32_t slice, TimeNs from)
    {
        const TrackId id = trace.trackOf(slice);
        if (!id.valid())
            return kNoRow;
        const Track& track = trace.tracks[id.value];
        std::uint32_t best = kNoRow;
        TimeNs bestStart = std::numeric_limits<TimeNs>::max();
        for (std::uint32_t level = 0; level < track.levelCount(); ++level) {
            const auto b = trace.slices.start.begin() + track.levelBegin[level];
            const auto e = trace.slices.start.begin() + track.levelBegin[level + 1];
            for (auto it = std::lower_bound(b, e, from); it != e && *it < bestStart; ++it) {
                const auto i = static_cast<std::uint32_t>(it - trace.slices.start.begin());
                if (trace.sliceCategory(i) == "cpu_op") {
                    best = i;
                    bestStart = *it;
                    break;
                }
            }
        }
        return best;
    }

} // namespace

std::string_view syncKindName(SyncKind kind)
{
    switch (kind) {
    case SyncKind::StreamSync:
        return "stream_sync";
    case SyncKind::EventSync:
        return "event_sync";
    case SyncKind::DeviceSync:
        return "device_sync";
    case SyncKind::StreamWait:
        return "stream_wait";
    case SyncKind::Other:
        break;
    }
    return "other";
}

std::vector<SyncDependency> syncDependencies(const CriticalPathGraph& graph, SyncEdgeSelection selection)
{
    std::vector<SyncDependency> deps;
    if (!graph.frame)
        return deps;
    const RankTrace& trace = *graph.frame->trace;

    struct Slices
    {
        std::uint32_t gpu, waiter, nextOp;
    };

    std::vector<Slices> refs;
    std::vector<std::uint32_t> all;
    for (std::uint32_t id : graph.syncEdges()) {
        const bool onPath = graph.onPath(id);
        if (selection == SyncEdgeSelection::CriticalPath && !onPath)
            continue;
        const CpEdge& edge = graph.edges[id];
        const std::uint32_t gpu = graph.frame->rows[graph.nodes[edge.src].row].slice;
        const std::uint32_t waiter = graph.frame->rows[graph.nodes[edge.dst].row].slice;
        const TrackId waiterTrack = trace.trackOf(waiter);
        const bool waiterOnGpu =
            waiterTrack.valid() && trace.tracks[waiterTrack.value].kind == TrackKind::GpuStream;
        SyncDependency d;
        d.kind = kindOf(trace.sliceName(waiter), waiterOnGpu);
        d.inferred = edge.inferred;
        d.onCriticalPath = onPath;
        const std::uint32_t nextOp =
            waiterOnGpu ? kNoRow : nextCpuOp(trace, waiter, trace.slices.end(waiter));
        refs.push_back({ gpu, waiter, nextOp });
        all.insert(all.end(), { gpu, waiter, nextOp });
        deps.push_back(std::move(d));
    }
    const ExternalIds ids = externalIds(trace, std::move(all));
    for (std::size_t k = 0; k < deps.size(); ++k) {
        deps[k].gpu = refOf(trace, refs[k].gpu, ids);
        deps[k].waiter = refOf(trace, refs[k].waiter, ids);
        deps[k].nextOp = refOf(trace, refs[k].nextOp, ids);
    }
    return deps;
}

Table syncDependencyTable(const std::vector<SyncDependency>& deps)
{
    Table t;
    t.name = "sync_dependencies";
    namespace col = sync_dependency_columns;
    for (const ColumnId& c : { col::kKind, col::kInferred, col::kGpuEvent, col::kGpuName, col::kGpuExternalId,
             col::kWaiterEvent, col::kWaiterName, col::kWaiterExternalId, col::kOpEvent, col::kOpName,
             col::kOpExternalId, col::kOnCriticalPath })
        t.columns.push_back(c.column());
    for (const SyncDependency& d : deps)
        t.addRow({ std::string(syncKindName(d.kind)), std::int64_t { d.inferred ? 1 : 0 }, d.gpu.eventIndex,
            d.gpu.name, d.gpu.externalId, d.waiter.eventIndex, d.waiter.name, d.waiter.externalId,
            d.nextOp.eventIndex, d.nextOp.name, d.nextOp.externalId,
            std::int64_t { d.onCriticalPath ? 1 : 0 } });
    return t;
}

std::map<std::int64_t, std::vector<std::int64_t>> chakraSyncMap(const std::vector<SyncDependency>& deps)
{
    std::map<std::int64_t, std::vector<std::int64_t>> map;
    for (const SyncDependency& d : deps) {
        const std::int64_t end = d.waiter.externalId;
        if (end < 0 || d.gpu.externalId < 0 || end == d.gpu.externalId)
            continue;
        map[end].push_back(d.gpu.externalId);
    }
    return map;
}

} // namespace ks::core
