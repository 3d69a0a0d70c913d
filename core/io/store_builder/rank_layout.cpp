#include "core/io/store_builder/rank_layout.h"

#include "core/common/run_shares.h"
#include "core/model/rpc_events.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cctype>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <unordered_map>

namespace ks::core {

namespace {

    template <typename T>
    void freeVector(std::vector<T>& v)
    {
        v.clear();
        v.shrink_to_fit();
    }

    std::string keyText(const RankTrace& trace, std::int64_t value, bool isName)
    {
        return isName ? std::string(trace.strings.view(NameId { static_cast<std::uint32_t>(value) }))
                      : std::to_string(value);
    }

    template <typename Map, typename Key>
    std::int64_t lookupOr(const Map& map, const Key& key, std::int64_t fallback)
    {
        auto it = map.find(key);
        return it == map.end() ? fallback : it->second;
    }

    using RpcWorkerNames = std::map<std::int64_t, std::string>;

    // node -> worker name, from the "(A -> B)" of the remote ops each node ran.
    RpcWorkerNames rpcWorkerNames(const RankTrace& trace, const LayoutInput& input);

    // The RPC node of a thread named " node_id:N, thread_id:T ", if it is one.
    std::optional<RpcThread> rpcThreadOf(const RankTrace& trace, const ThreadKey& key)
    {
        if (!key.tidIsName)
            return std::nullopt;
        return parseRpcThread(trace.strings.view(NameId { static_cast<std::uint32_t>(key.tid) }));
    }

    Track describeTrack(RankTrace& trace, const RankBuilder::StagingTrack& staging,
        const RankBuilder::ThreadNames& names, const RpcWorkerNames& workers)
    {
        Track t;
        if (const auto rpc = rpcThreadOf(trace, staging.key)) {
            // Remote ops of an RPC callee: their node's own group, their own thread id.
            t.key = staging.key;
            t.kind = TrackKind::CpuThread;
            t.rpcNode = rpc->node;
            t.threadSortIndex = rpc->thread;
            const auto worker = workers.find(rpc->node);
            const std::string group = "node " + std::to_string(rpc->node)
                + (worker != workers.end() ? " \u2014 " + worker->second : std::string(" (no known worker)"));
            t.processName = trace.strings.intern(group);
            t.name = trace.strings.intern(group + " \u00b7 thread " + std::to_string(rpc->thread));
            return t;
        }
        t.key = staging.key;
        t.kind = staging.device ? TrackKind::GpuStream : TrackKind::CpuThread;
        const auto named = names.threadNames.find(staging.key);
        std::string threadName = named != names.threadNames.end() ? named->second : std::string();
        // Kineto writes "stream 7 " with a trailing space.
        while (!threadName.empty() && std::isspace(static_cast<unsigned char>(threadName.back())))
            threadName.pop_back();
        const auto sorted = names.threadSort.find(staging.key);
        t.threadSortIndex = sorted != names.threadSort.end() ? sorted->second : staging.key.tid;
        const std::int64_t pid = staging.key.pid;
        t.processSortIndex = staging.key.pidIsName ? 0 : lookupOr(names.processSort, pid, pid);
        if (!staging.key.pidIsName)
            if (auto it = names.processNames.find(pid); it != names.processNames.end())
                t.processName = trace.strings.intern(it->second);
        const std::string tid = keyText(trace, staging.key.tid, staging.key.tidIsName);
        if (t.kind == TrackKind::GpuStream) {
            t.device = staging.key.pidIsName ? -1 : pid;
            t.stream = staging.key.tidIsName ? -1 : staging.key.tid;
            t.name = trace.strings.intern(threadName.empty() ? "stream " + tid : threadName);
        } else {
            // Kineto already writes "thread 1234 (python)"; other writers give a bare name.
            const bool complete = threadName.rfind("thread ", 0) == 0;
            t.name = trace.strings.intern(threadName.empty() ? "thread " + tid
                    : complete                               ? threadName
                                                             : "thread " + tid + " (" + threadName + ")");
        }
        return t;
    }

    bool trackLess(const Track& a, const Track& b)
    {
        if (a.kind != b.kind)
            return a.kind == TrackKind::GpuStream;
        if (a.rpcNode != b.rpcNode) // the caller's threads, then each RPC node's
            return a.rpcNode < b.rpcNode;
        if (a.kind == TrackKind::GpuStream) {
            if (a.device != b.device)
                return a.device < b.device;
            return a.stream < b.stream;
        }
        if (a.processSortIndex != b.processSortIndex)
            return a.processSortIndex < b.processSortIndex;
        if (a.key.pid != b.key.pid)
            return a.key.pid < b.key.pid;
        if (a.threadSortIndex != b.threadSortIndex)
            return a.threadSortIndex < b.threadSortIndex;
        return a.key.tid < b.key.tid;
    }

    // The finest step of the rank's timestamps: 1 µs when every start and
    // duration is a whole microsecond (integer-µs traces such as gloo/legacy
    // exports), else 1 ns.
    std::int64_t timestampResolution(const SliceTable& slices)
    {
        constexpr std::int64_t kMicro = 1000;
        for (std::uint32_t i = 0; i < slices.size(); ++i)
            if (slices.start[i] % kMicro != 0 || slices.duration(i) % kMicro != 0)
                return 1;
        return kMicro;
    }

    // Assigns levels to one track's slices (given in start order); returns the
    // number of nesting levels. Levels past it are extra lanes for slices that
    // overlap a sibling without nesting. A child that ends after its parent by
    // no more than `resolution` is rounding, not overlap (PyTorch rounds each
    // event's start and end on its own): it nests, and the stack keeps the
    // parent's end so that the parent's next sibling is not pushed down.
    // levelAt[k - begin] is the level of the slice at position k.
    std::uint32_t assignLevels(const std::vector<std::uint32_t>& order, std::size_t begin, std::size_t end,
        const SliceTable& slices, std::int64_t resolution, std::vector<std::uint32_t>& levelAt,
        RankTrace& trace, Diagnostics& notes)
    {
        auto note = [&notes](DiagnosticKind kind, const std::string& text, std::int64_t event) {
            notes.add(kind, text, event);
        };
        std::vector<std::int64_t> openEnds;
        std::vector<std::int64_t> laneEnds;
        std::vector<std::size_t> overflow;
        std::uint32_t depth = 0;
        for (std::size_t k = begin; k < end; ++k) {
            const std::uint32_t i = order[k];
            const std::int64_t a = slices.start[i];
            const std::int64_t b = a + slices.duration(i);
            while (!openEnds.empty() && openEnds.back() <= a)
                openEnds.pop_back();
            if (openEnds.empty() || b <= openEnds.back()) {
                levelAt[k - begin] = static_cast<std::uint32_t>(openEnds.size());
                openEnds.push_back(b);
                depth = std::max<std::uint32_t>(depth, levelAt[k - begin] + 1);
                continue;
            }
            if (b - openEnds.back() <= resolution) {
                levelAt[k - begin] = static_cast<std::uint32_t>(openEnds.size());
                openEnds.push_back(openEnds.back());
                depth = std::max<std::uint32_t>(depth, levelAt[k - begin] + 1);
                trace.slices.flags[i] |= kSliceRoundedNesting;
                note(DiagnosticKind::RoundedNesting,
                    "event #" + std::to_string(trace.slices.eventIndex[i]) + " \""
                        + std::string(trace.strings.view(trace.slices.name[i])) + "\" ends "
                        + std::to_string(b - openEnds.back()) + " ns after its parent",
                    trace.slices.eventIndex[i]);
                continue;
            }
            // Crosses its parent's end: cannot nest.
            std::size_t lane = 0;
            while (lane < laneEnds.size() && laneEnds[lane] > a)
                ++lane;
            if (lane == laneEnds.size())
                laneEnds.push_back(b);
            else
                laneEnds[lane] = b;
            levelAt[k - begin] = static_cast<std::uint32_t>(lane);
            overflow.push_back(k);
            trace.slices.flags[i] |= kSliceOverflowLane;
            note(DiagnosticKind::OverlappingSlices,
                "event #" + std::to_string(trace.slices.eventIndex[i]) + " \""
                    + std::string(trace.strings.view(trace.slices.name[i]))
                    + "\" overlaps its enclosing slice without nesting",
                trace.slices.eventIndex[i]);
        }
        for (std::size_t k : overflow)
            levelAt[k - begin] += depth;
        return depth;
    }

    // What laying out one track reads and writes.
    struct TrackLayoutJob
    {
        RankTrace& trace;
        std::vector<std::uint32_t>& order;
        const std::vector<std::uint32_t>& trackBegin;
        std::int64_t resolution;
    };

    // Sorts track t's slices by start, assigns their levels and regroups them
    // level by level.
    // levelAt and byLevel: scratch of the track's size, reused across tracks.
    // Tracks touch disjoint slices: two threads may lay out two tracks at once,
    // each with its own scratch and notes.
    void layOutTrack(const TrackLayoutJob& job, std::uint32_t t, Track& track,
        std::vector<std::uint32_t>& levelAt, std::vector<std::uint32_t>& byLevel, Diagnostics& notes)
    {
        const SliceTable& table = job.trace.slices;
        const auto& start = table.start;
        auto startOrder = [&](std::uint32_t a, std::uint32_t b) {
            if (start[a] != start[b])
                return start[a] < start[b];
            const std::int64_t durA = table.duration(a), durB = table.duration(b);
            if (durA != durB)
                return durA > durB; // parents before children
            return table.eventIndex[a] < table.eventIndex[b];
        };
        const auto first = job.order.begin() + job.trackBegin[t];
        const auto last = job.order.begin() + job.trackBegin[t + 1];
        const auto count = static_cast<std::size_t>(last - first);
        // A thread's events mostly come in time order: checking is one pass.
        if (!std::is_sorted(first, last, startOrder))
            std::sort(first, last, startOrder);
        levelAt.resize(count);
        track.nestingLevels = assignLevels(job.order, job.trackBegin[t], job.trackBegin[t + 1], table,
            job.resolution, levelAt, job.trace, notes);
        track.sliceBegin = job.trackBegin[t];
        track.sliceEnd = job.trackBegin[t + 1];
        // Regroup level by level, stably (each level stays in start order).
        std::uint32_t levels = 0;
        for (std::size_t k = 0; k < count; ++k)
            levels = std::max(levels, levelAt[k] + 1);
        track.levelBegin.assign(levels + 1, 0);
        for (std::size_t k = 0; k < count; ++k)
            ++track.levelBegin[levelAt[k] + 1];
        std::partial_sum(track.levelBegin.begin(), track.levelBegin.end(), track.levelBegin.begin());
        std::vector<std::uint32_t> cursor(track.levelBegin.begin(), track.levelBegin.end() - 1);
        byLevel.resize(count);
        for (std::size_t k = 0; k < count; ++k)
            byLevel[cursor[levelAt[k]]++] = first[static_cast<std::ptrdiff_t>(k)];
        std::copy(byLevel.begin(), byLevel.end(), first);
        for (std::uint32_t& begin : track.levelBegin)
            begin += track.sliceBegin;
    }

} // namespace

namespace {
    RpcWorkerNames rpcWorkerNames(const RankTrace& trace, const LayoutInput& input)
    {
        RpcWorkerNames workers;
        std::vector<std::int64_t> nodeOfStaging(input.tracks.size(), -1);
        bool any = false;
        for (std::size_t t = 0; t < input.tracks.size(); ++t)
            if (const auto rpc = rpcThreadOf(trace, input.tracks[t].key)) {
                nodeOfStaging[t] = rpc->node;
                any = true;
            }
        if (!any)
            return workers;
        for (std::size_t i = 0; i < input.sliceTrack.size(); ++i) {
            const std::int64_t node = nodeOfStaging[input.sliceTrack[i]];
            if (node < 0 || workers.count(node))
                continue;
            if (const auto op = parseRpcRemoteOp(trace.sliceName(static_cast<std::uint32_t>(i))))
                if (const auto call = parseRpcCall(op->callName))
                    workers.emplace(node, call->to);
        }
        return workers;
    }

    // A layout this small is not worth a thread's start.
    constexpr std::size_t kLayoutWorthSharing = std::size_t { 1 } << 16;
    // A helper lays out tracks of up to this many slices: its scratch (8 B a
    // slice) then adds at most 8 MB to the load's peak, which the calling
    // thread's scratch for the largest track sets here (B4).
    constexpr std::uint32_t kHelperTrackSlices = std::uint32_t { 1 } << 20;

    // Lays out one share's tracks with scratch sized once for the largest of them:
    // growing track by track would leave the smaller copies behind.
    void layOutShare(const TrackLayoutJob& job, const std::vector<std::uint32_t>& tracks,
        const std::function<Diagnostics&(std::uint32_t)>& notesOf)
    {
        std::uint32_t largest = 0;
        for (const std::uint32_t t : tracks)
            largest = std::max(largest, job.trackBegin[t + 1] - job.trackBegin[t]);
        std::vector<std::uint32_t> levelAt, byLevel;
        levelAt.reserve(largest);
        byLevel.reserve(largest);
        for (const std::uint32_t t : tracks)
            layOutTrack(job, t, job.trace.tracks[t], levelAt, byLevel, notesOf(t));
    }

    // The layout is a third of finish() on a 1 GB rank. Given a helper (a
    // pipelined read's reading thread, idle by now), the largest tracks go one by
    // one to the share with fewer slices so far, those over kHelperTrackSlices to
    // the calling thread. Notes are kept per track and merged in track order:
    // the diagnostics (first examples included) are those of one thread.
    void layOutTracks(const TrackLayoutJob& job, const std::vector<BackgroundWork*>& helpers)
    {
        RankTrace& trace = job.trace;
        const auto trackCount = static_cast<std::uint32_t>(trace.tracks.size());
        std::vector<std::uint32_t> all(trackCount);
        std::iota(all.begin(), all.end(), 0u);
        if (helpers.empty() || job.order.size() < kLayoutWorthSharing || trackCount < 2) {
            layOutShare(job, all, [&trace](std::uint32_t) -> Diagnostics& { return trace.diagnostics; });
            return;
        }
        const auto size = [&job](std::uint32_t t) { return job.trackBegin[t + 1] - job.trackBegin[t]; };
        std::stable_sort(
            all.begin(), all.end(), [&](std::uint32_t a, std::uint32_t b) { return size(a) > size(b); });
        std::array<std::vector<std::uint32_t>, 2> shares;
        std::array<std::uint64_t, 2> slices {};
        for (const std::uint32_t t : all) {
            const std::size_t w = size(t) > kHelperTrackSlices || slices[0] <= slices[1] ? 0 : 1;
            shares[w].push_back(t);
            slices[w] += size(t);
        }
        std::vector<Diagnostics> notes(trackCount);
        const std::vector<BackgroundWork*> helper { helpers.front() };
        runShares(helper, [&](std::size_t w) {
            layOutShare(job, shares[w], [&notes](std::uint32_t t) -> Diagnostics& { return notes[t]; });
        });
        for (const Diagnostics& n : notes)
            trace.diagnostics.merge(n);
    }

} // namespace

void layoutTracks(RankTrace& trace, LayoutInput& input)
{
    const std::size_t n = input.sliceTrack.size();
    const std::size_t stagingCount = input.tracks.size();

    // Which staging tracks survive: those with slices or thread-scoped instants.
    std::vector<std::uint32_t> sliceCount(stagingCount, 0);
    for (std::uint32_t t : input.sliceTrack)
        ++sliceCount[t];
    std::vector<bool> used(stagingCount, false);
    for (std::size_t t = 0; t < stagingCount; ++t)
        used[t] = sliceCount[t] > 0;
    for (std::uint32_t t : trace.instants.track)
        if (t != kNoRow)
            used[t] = true;

    const RpcWorkerNames workers = rpcWorkerNames(trace, input);
    std::vector<std::uint32_t> stagingOrder;
    std::vector<Track> described(stagingCount);
    for (std::uint32_t t = 0; t < stagingCount; ++t) {
        if (!used[t])
            continue;
        described[t] = describeTrack(trace, input.tracks[t], input.names, workers);
        stagingOrder.push_back(t);
    }
    std::stable_sort(stagingOrder.begin(), stagingOrder.end(),
        [&](std::uint32_t a, std::uint32_t b) { return trackLess(described[a], described[b]); });
    input.stagingToTrack.assign(stagingCount, kNoRow);
    for (std::uint32_t pos = 0; pos < stagingOrder.size(); ++pos)
        input.stagingToTrack[stagingOrder[pos]] = pos;

    // Bucket slices by final track (counting sort), then order each by start.
    std::vector<std::uint32_t> trackBegin(stagingOrder.size() + 1, 0);
    for (std::uint32_t t : input.sliceTrack)
        ++trackBegin[input.stagingToTrack[t] + 1];
    std::partial_sum(trackBegin.begin(), trackBegin.end(), trackBegin.begin());
    std::vector<std::uint32_t> order(n);
    {
        std::vector<std::uint32_t> cursor(trackBegin.begin(), trackBegin.end() - 1);
        for (std::uint32_t i = 0; i < n; ++i)
            order[cursor[input.stagingToTrack[input.sliceTrack[i]]]++] = i;
    }
    freeVector(input.sliceTrack);

    // Durations are read from the columns (still in file order here): no staged copy.
    const std::int64_t resolution = timestampResolution(trace.slices);
    trace.tracks.clear();
    const TrackLayoutJob job { trace, order, trackBegin, resolution };
    trace.tracks.resize(stagingOrder.size());
    for (std::uint32_t t = 0; t < stagingOrder.size(); ++t)
        trace.tracks[t] = std::move(described[stagingOrder[t]]);
    layOutTracks(job, input.helpers);
    for (std::uint32_t& t : trace.instants.track)
        if (t != kNoRow)
            t = input.stagingToTrack[t];
    input.order = std::move(order);
}

void permuteSlices(RankTrace& trace, LayoutInput& input)
{
    SliceTable& s = trace.slices;
    assert(s.columnsAligned()); // a column RankBuilder did not push would be read out of range here
    s.permute(input.order);
    freeVector(input.order);
    if (!s.durOverflow.empty())
        trace.diagnostics.addCount(DiagnosticKind::DurationOverflow, s.durOverflow.size(),
            "slice #" + std::to_string(s.durOverflow.begin()->first) + " lasts over 4.29 s");
}

void linkByCorrelation(RankTrace& trace)
{
    const std::size_t n = trace.slices.size();
    std::vector<bool> gpu(n, false);
    for (const Track& t : trace.tracks)
        if (t.kind == TrackKind::GpuStream)
            std::fill(gpu.begin() + t.sliceBegin, gpu.begin() + t.sliceEnd, true);
    std::vector<bool> launched(n, false);
    for (std::size_t k = 0; k < trace.links.size(); ++k)
        if (trace.links.kind[k] == LinkKind::LaunchFlow)
            launched[trace.links.to[k]] = true;
    // Only the correlations that unlinked GPU work waits for are looked up: in
    // Kineto's traces ac2g flows link nearly everything, and a map of every
    // launch took a third of a big rank's finish().
    std::unordered_map<std::int64_t, std::uint32_t> launchOf; // correlation -> first CPU slice with it
    for (std::uint32_t i = 0; i < n; ++i)
        if (gpu[i] && !launched[i])
            if (const std::int64_t c = trace.correlation(i); c >= 0)
                launchOf.emplace(c, kNoRow);
    if (launchOf.empty())
        return;
    for (std::uint32_t i = 0; i < n; ++i) {
        if (gpu[i])
            continue;
        const std::int64_t c = trace.correlation(i);
        if (c < 0)
            continue;
        auto it = launchOf.find(c);
        if (it != launchOf.end() && it->second == kNoRow)
            it->second = i;
    }
    for (std::uint32_t i = 0; i < n; ++i) {
        if (!gpu[i] || launched[i])
            continue;
        const std::int64_t c = trace.correlation(i);
        if (c < 0)
            continue;
        const std::uint32_t launch = launchOf.at(c);
        if (launch == kNoRow) {
            trace.diagnostics.add(DiagnosticKind::UnlinkedGpuWork,
                "event #" + std::to_string(trace.slices.eventIndex[i]) + " \""
                    + std::string(trace.sliceName(i)) + "\" correlation=" + std::to_string(c),
                trace.slices.eventIndex[i]);
            continue;
        }
        trace.links.from.push_back(launch);
        trace.links.to.push_back(i);
        trace.links.kind.push_back(LinkKind::LaunchCorrelation);
    }
}

void finalizeLinks(RankTrace& trace)
{
    LinkTable& l = trace.links;
    std::vector<std::uint32_t> order(l.size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&l](std::uint32_t a, std::uint32_t b) {
        return l.from[a] != l.from[b] ? l.from[a] < l.from[b] : l.to[a] < l.to[b];
    });
    permuteColumn(l.from, order);
    permuteColumn(l.to, order);
    permuteColumn(l.kind, order);
    l.byTo.resize(l.size());
    std::iota(l.byTo.begin(), l.byTo.end(), 0u);
    std::stable_sort(
        l.byTo.begin(), l.byTo.end(), [&l](std::uint32_t a, std::uint32_t b) { return l.to[a] < l.to[b]; });
    for (std::size_t k = 0; k < l.size(); ++k) {
        const bool launch = l.kind[k] == LinkKind::LaunchFlow || l.kind[k] == LinkKind::LaunchCorrelation;
        if (launch && trace.slices.start[l.to[k]] < trace.slices.start[l.from[k]])
            trace.diagnostics.add(DiagnosticKind::KernelBeforeLaunch,
                "event #" + std::to_string(trace.slices.eventIndex[l.to[k]]) + " \""
                    + std::string(trace.sliceName(l.to[k])) + "\" starts before its launch",
                trace.slices.eventIndex[l.to[k]]);
    }
}

} // namespace ks::core
