// GPU-side edges of the critical-path graph (§11.5): kernel spans, launch and
// kernel-kernel delays, and the synchronization dependencies found through
// cudaStreamWaitEvent, cudaEventRecord + cudaEventSynchronize/Query,
// cudaStreamSynchronize and cudaDeviceSynchronize.

#include "core/analysis/critical_path/critical_path_internal.h"
#include "core/analysis/frame/launch_api.h"
#include "core/analysis/frame/sync_api.h"
#include "core/analysis/hta/counters_support.h"
#include "core/analysis/hta/queue_length.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace ks::core::cp {

namespace {

    constexpr std::int64_t kMaxKernelKernelGapNs = 1'500'000; // HTA: longer gaps are not kernel-kernel delays

    using PidKey = std::pair<bool, std::int64_t>; // pid is text, pid

    PidKey pidOf(const GraphContext& ctx, std::uint32_t r)
    {
        const ThreadKey& k = counters::threadKeyOf(ctx.frame, ctx.row(r));
        return { k.pidIsName, k.pid };
    }

    std::tuple<bool, std::int64_t, bool, std::int64_t> threadOf(const GraphContext& ctx, std::uint32_t r)
    {
        const ThreadKey& k = counters::threadKeyOf(ctx.frame, ctx.row(r));
        return { k.pidIsName, k.pid, k.tidIsName, k.tid };
    }

    // The GPU side of a launch or of a cudaStreamWaitEvent: HTA's stream != -1
    // (in default mode: device work or a sync record), linked back to a CPU call.
    bool isLinkedGpuRow(const GraphContext& ctx, std::uint32_t r)
    {
        const bool gpu = ctx.compat ? ctx.row(r).stream != -1 : !ctx.isHostRow(r);
        return gpu && ctx.row(r).indexCorrelation > 0;
    }

    // The rank's name id of `name`; an invalid id (no row has it) when never interned.
    NameId nameId(const GraphContext& ctx, std::string_view name)
    {
        return ctx.frame.trace->strings.find(name);
    }

    // Whether row r's name is `id` (names are interned: one id per text).
    bool named(const GraphContext& ctx, std::uint32_t r, NameId id)
    {
        return id.valid() && ctx.frame.trace->slices.name[ctx.row(r).slice] == id;
    }

    struct Launch
    {
        std::uint32_t row = 0; // the runtime call
        std::uint32_t gpuRow = 0; // the work it launched
    };

    struct ExtraFields
    {
        std::int64_t waitOnStream = -1;
        std::int64_t recordCorrelation = -1;
    };

    ExtraFields extraOf(const GraphContext& ctx, std::uint32_t r)
    {
        const RankTrace& trace = *ctx.frame.trace;
        const std::uint32_t x = trace.extraRow(ctx.row(r).slice);
        if (x == kNoRow)
            return {};
        return { trace.extra.waitOnStream[x], trace.extra.waitOnEventRecordCorrelation[x] };
    }

    // Every launch of the rank (not only the window's), numbered in time order.
    std::vector<Launch> launchesInTimeOrder(const GraphContext& ctx, const LaunchNames& launchNames)
    {
        std::vector<std::uint32_t> candidates;
        std::vector<std::int64_t> ts;
        for (std::uint32_t r = 0; r < ctx.frame.rows.size(); ++r) {
            if (ctx.row(r).indexCorrelation <= 0)
                continue;
            if (launchNames.kindOf(ctx.frame.trace->slices.name[ctx.row(r).slice]) == LaunchKind::None)
                continue;
            candidates.push_back(r);
            ts.push_back(ctx.row(r).ts);
        }
        std::vector<Launch> launches;
        for (const std::uint32_t i : sortOrder(ts, ctx.compat)) {
            const auto gpu = ctx.rowOfEvent(ctx.row(candidates[i]).indexCorrelation);
            if (gpu && isLinkedGpuRow(ctx, *gpu))
                launches.push_back({ candidates[i], *gpu });
        }
        return launches;
    }

    // A time-ordered merge of launches and other calls, ties as HTA's sort leaves them.
    std::vector<std::uint32_t> mergedOrder(
        const GraphContext& ctx, const std::vector<Launch>& launches, const std::vector<std::uint32_t>& calls)
    {
        std::vector<std::int64_t> ts;
        ts.reserve(launches.size() + calls.size());
        for (const Launch& l : launches)
            ts.push_back(ctx.row(l.row).ts);
        for (const std::uint32_t r : calls)
            ts.push_back(ctx.row(r).ts);
        return sortOrder(ts, ctx.compat);
    }

    // cudaEventRecord correlation -> event index of the last launch on the recorded
    // (gpu, stream) at or before the record; the stream comes from the sync records
    // that name this correlation in wait_on_cuda_event_record_corr_id.
    std::map<std::int64_t, std::int64_t> previousLaunchOfRecords(
        const GraphContext& ctx, const std::vector<Launch>& launches)
    {
        std::map<std::int64_t, std::pair<std::int64_t, PidKey>> recordedOn;
        std::vector<std::uint32_t> records;
        std::vector<std::int64_t> recordTs;
        const NameId eventRecord = nameId(ctx, "cudaEventRecord");
        for (std::uint32_t r = 0; r < ctx.frame.rows.size(); ++r) {
            const ExtraFields x = extraOf(ctx, r);
            if (x.waitOnStream > -1)
                recordedOn.try_emplace(x.recordCorrelation, x.waitOnStream, pidOf(ctx, r));
            if (named(ctx, r, eventRecord)) {
                records.push_back(r);
                recordTs.push_back(ctx.row(r).ts);
            }
        }
        std::vector<std::uint32_t> recorded;
        for (const std::uint32_t i : sortOrder(recordTs, ctx.compat))
            if (recordedOn.count(ctx.row(records[i]).correlation))
                recorded.push_back(records[i]);
        std::map<std::pair<PidKey, std::int64_t>, std::int64_t> lastLaunchId;
        std::map<std::int64_t, std::int64_t> result;
        for (const std::uint32_t i : mergedOrder(ctx, launches, recorded)) {
            if (i < launches.size()) {
                const Launch& l = launches[i];
                auto& last = lastLaunchId.try_emplace({ pidOf(ctx, l.gpuRow), ctx.row(l.gpuRow).stream }, -1)
                                 .first->second;
                last = std::max<std::int64_t>(last, i);
                continue;
            }
            const std::uint32_t r = recorded[i - launches.size()];
            const auto& [stream, gpu] = recordedOn.at(ctx.row(r).correlation);
            const auto it = lastLaunchId.find({ gpu, stream });
            const std::int64_t id = it == lastLaunchId.end() ? -1 : it->second;
            result[ctx.row(r).correlation] = id < 0
                ? -1
                : static_cast<std::int64_t>(ctx.row(launches[static_cast<std::size_t>(id)].row).eventIndex);
        }
        return result;
    }

    // cudaStreamWaitEvent event index -> event index of the next launch on the
    // same CPU thread onto the waiting stream.
    std::map<std::int64_t, std::int64_t> nextLaunchOfStreamWaits(
        const GraphContext& ctx, const std::vector<Launch>& launches)
    {
        std::vector<std::uint32_t> candidates;
        std::vector<std::int64_t> ts;
        const NameId streamWaitEvent = nameId(ctx, "cudaStreamWaitEvent");
        for (std::uint32_t r = 0; r < ctx.frame.rows.size(); ++r) {
            if (named(ctx, r, streamWaitEvent) && ctx.row(r).indexCorrelation > 0) {
                candidates.push_back(r);
                ts.push_back(ctx.row(r).ts);
            }
        }
        std::vector<std::uint32_t> waits;
        std::vector<std::int64_t> waitStream;
        for (const std::uint32_t i : sortOrder(ts, ctx.compat)) {
            const auto gpu = ctx.rowOfEvent(ctx.row(candidates[i]).indexCorrelation);
            if (gpu && isLinkedGpuRow(ctx, *gpu)) {
                waits.push_back(candidates[i]);
                waitStream.push_back(ctx.row(*gpu).stream);
            }
        }
        using Key = std::tuple<bool, std::int64_t, bool, std::int64_t, std::int64_t>;
        auto keyOf = [&ctx](std::uint32_t r, std::int64_t stream) {
            const auto [pidText, pid, tidText, tid] = threadOf(ctx, r);
            return Key { pidText, pid, tidText, tid, stream };
        };
        std::map<Key, std::int64_t> nextLaunchId;
        std::map<std::int64_t, std::int64_t> result;
        const std::vector<std::uint32_t> order = mergedOrder(ctx, launches, waits);
        for (auto it = order.rbegin(); it != order.rend(); ++it) {
            const std::uint32_t i = *it;
            if (i < launches.size()) {
                const Launch& l = launches[i];
                auto& next = nextLaunchId
                                 .try_emplace(keyOf(l.row, ctx.row(l.gpuRow).stream),
                                     std::numeric_limits<std::int64_t>::max())
                                 .first->second;
                next = std::min<std::int64_t>(next, i);
                continue;
            }
            const std::size_t w = i - launches.size();
            const auto found = nextLaunchId.find(keyOf(waits[w], waitStream[w]));
            const bool known =
                found != nextLaunchId.end() && found->second != std::numeric_limits<std::int64_t>::max();
            result[ctx.row(waits[w]).eventIndex] = known
                ? static_cast<std::int64_t>(
                    ctx.row(launches[static_cast<std::size_t>(found->second)].row).eventIndex)
                : -1;
        }
        return result;
    }

    // Queue length at each launch and kernel start (§8), over the whole rank, by
    // event index (the last point of an event counts, as in a map built from the series).
    class QueueLengths
    {
    public:
        static constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::min();

        void assign(std::size_t events, const std::vector<std::pair<std::int64_t, std::int64_t>>& points)
        {
            m_byEvent.assign(events, kNone);
            for (const auto& [event, length] : points)
                if (event >= 0 && static_cast<std::size_t>(event) < m_byEvent.size())
                    m_byEvent[static_cast<std::size_t>(event)] = length;
        }

        std::optional<std::int64_t> of(std::int64_t event) const
        {
            if (event < 0 || static_cast<std::size_t>(event) >= m_byEvent.size()
                || m_byEvent[static_cast<std::size_t>(event)] == kNone)
                return std::nullopt;
            return m_byEvent[static_cast<std::size_t>(event)];
        }

    private:
        std::vector<std::int64_t> m_byEvent;
    };

    Result<std::vector<std::pair<std::int64_t, std::int64_t>>> queueLengths(const GraphContext& ctx)
    {
        auto points = queueLengthPoints(ctx.frame, ctx.frames.mode);
        if (!points)
            return Error { ErrorCode::NotApplicable, points.error().message, {}, {} };
        if (points.value().empty())
            return Error { ErrorCode::NotApplicable,
                "Queue length time series is required for kernel graph construction: rank "
                    + std::to_string(ctx.frame.rank) + " has no kernel launches (a CPU-only trace)",
                {}, {} };
        return points;
    }

    // The walk over GPU rows in time order (sync records by their end).
    class KernelWalker
    {
    public:
        explicit KernelWalker(GraphContext& ctx)
            : m_ctx(ctx)
            , m_launchNames(ctx.frame.trace->strings, ctx.frames.mode, HtaLaunchList::StreamLaunches)
        {
        }

        std::optional<Error> run();

    private:
        void handleSync(std::uint32_t r);
        std::optional<Error> handleKernel(std::uint32_t r);
        std::int32_t lastOnStream(std::int64_t stream) const;
        void setLastOnStream(std::int64_t stream, std::int32_t node);
        std::int64_t previousLaunchOf(std::uint32_t r) const;
        std::optional<std::int64_t> queueLength(std::int64_t eventIndex) const;
        std::int64_t partnerOf(std::int64_t eventIndex) const;
        bool isGraphLaunch(std::uint32_t launchRow) const;
        bool launchedAfterIdle(
            std::uint32_t r, std::uint32_t launchRow, std::int32_t last, std::int32_t waitEnd);
        bool addOrderEdges(std::uint32_t start, std::optional<std::uint32_t> launchRow, std::int32_t last,
            bool launchEdge, bool kernelKernelEdge);

        GraphContext& m_ctx;
        LaunchNames m_launchNames;
        std::set<std::pair<std::int64_t, std::int64_t>>
            m_graphStreams; // (graph launch event, stream) started
        QueueLengths m_queue;
        std::map<std::int64_t, std::int64_t> m_recordPreviousLaunch;
        std::map<std::int64_t, std::int64_t> m_waitNextLaunch;
        bool m_haveRecords = false;
        std::vector<std::pair<std::int64_t, std::int32_t>>
            m_last; // stream -> last end node, first-seen order
        std::map<std::int64_t, std::int64_t>
            m_kernelWaitsFor; // kernel event -> kernel event it must wait for
    };

    // The re-timed graph's order edges (GraphPurpose::Retiming): HTA gives a kernel
    // either its launch edge or an edge from the kernel before it on the stream. Once
    // weights change both must hold: a kernel starts neither before its launch
    // (HTA's zero-weight launch edge for simulations) nor before the stream's
    // previous work ends. The edge HTA chose keeps its weight; the other weighs nothing.
    bool KernelWalker::addOrderEdges(std::uint32_t start, std::optional<std::uint32_t> launchRow,
        std::int32_t last, bool launchEdge, bool kernelKernelEdge)
    {
        bool added = false;
        if (!launchEdge && launchRow)
            if (const std::int32_t launchStart = m_ctx.startNode(*launchRow); launchStart != kNoNode) {
                m_ctx.addEdge(
                    static_cast<std::uint32_t>(launchStart), start, CpEdgeType::KernelLaunchDelay, true);
                added = true;
            }
        if (!kernelKernelEdge && last != kNoNode) {
            m_ctx.addEdge(static_cast<std::uint32_t>(last), start, CpEdgeType::KernelKernelDelay, true);
            added = true;
        }
        return added;
    }

    std::int32_t KernelWalker::lastOnStream(std::int64_t stream) const
    {
        for (const auto& [s, node] : m_last)
            if (s == stream)
                return node;
        return kNoNode;
    }

    void KernelWalker::setLastOnStream(std::int64_t stream, std::int32_t node)
    {
        for (auto& [s, n] : m_last)
            if (s == stream) {
                n = node;
                return;
            }
        m_last.emplace_back(stream, node);
    }

    std::int64_t KernelWalker::previousLaunchOf(std::uint32_t r) const
    {
        if (!m_haveRecords)
            return -1;
        const auto it = m_recordPreviousLaunch.find(extraOf(m_ctx, r).recordCorrelation);
        return it == m_recordPreviousLaunch.end() ? -1 : it->second;
    }

    std::optional<std::int64_t> KernelWalker::queueLength(std::int64_t eventIndex) const
    {
        return m_queue.of(eventIndex);
    }

    std::int64_t KernelWalker::partnerOf(std::int64_t eventIndex) const
    {
        const auto r = m_ctx.rowOfEvent(eventIndex);
        return r ? m_ctx.row(*r).indexCorrelation : -1;
    }

    bool KernelWalker::isGraphLaunch(std::uint32_t launchRow) const
    {
        return m_launchNames.kindOf(m_ctx.frame.trace->slices.name[m_ctx.row(launchRow).slice])
            == LaunchKind::Graph;
    }

    // Whether kernel row r waited for its launch (a launch edge) rather than for the work
    // before it on its stream: the stream was idle when the launch began. A graph launch
    // queues all its kernels at once (default mode; HTA 0.6.1 knows no graph launches):
    // only its first kernel on each stream can wait for the launch, the others follow it.
    bool KernelWalker::launchedAfterIdle(
        std::uint32_t r, std::uint32_t launchRow, std::int32_t last, std::int32_t waitEnd)
    {
        const FrameRow& row = m_ctx.row(r);
        if (isGraphLaunch(launchRow)) {
            if (!m_graphStreams.emplace(m_ctx.row(launchRow).eventIndex, row.stream).second)
                return false;
        } else if (queueLength(row.indexCorrelation) != 1 || queueLength(row.eventIndex) != 0) {
            return false;
        }
        const auto& nodes = m_ctx.graph.nodes;
        const std::int64_t launchTs = m_ctx.row(launchRow).ts;
        return (last == kNoNode || nodes[static_cast<std::uint32_t>(last)].ts < launchTs)
            && (waitEnd == kNoNode || nodes[static_cast<std::uint32_t>(waitEnd)].ts < launchTs);
    }

    std::optional<Error> KernelWalker::run()
    {
        auto queue = queueLengths(m_ctx);
        if (!queue)
            return queue.error();
        std::size_t events = 0; // event indexes the lookups can name: those of the rank's rows
        for (const FrameRow& row : m_ctx.frame.rows)
            events = std::max<std::size_t>(events, static_cast<std::size_t>(row.eventIndex) + 1);
        m_queue.assign(events, queue.value());
        const std::vector<Launch> launches = launchesInTimeOrder(m_ctx, m_launchNames);
        m_recordPreviousLaunch = previousLaunchOfRecords(m_ctx, launches);
        m_haveRecords = !m_recordPreviousLaunch.empty();
        m_waitNextLaunch = nextLaunchOfStreamWaits(m_ctx, launches);

        std::vector<std::uint32_t> rows;
        std::vector<std::int64_t> keys;
        for (const std::uint32_t r : m_ctx.clipped) {
            const bool sync = m_ctx.category(r) == kCudaSyncCategory;
            const std::string_view name = m_ctx.name(r);
            const bool gpu = m_ctx.compat
                ? m_ctx.row(r).stream != -1 || name == "Event Sync" || name == "Context Sync"
                : m_ctx.row(r).device || sync;
            if (!gpu || m_ctx.row(r).indexCorrelation < 0)
                continue;
            rows.push_back(r);
            keys.push_back(sync ? m_ctx.row(r).end() : m_ctx.row(r).ts);
        }
        for (const std::uint32_t i : sortOrder(keys, m_ctx.compat)) {
            if (m_ctx.category(rows[i]) == kCudaSyncCategory) {
                handleSync(rows[i]);
            } else if (auto error = handleKernel(rows[i])) {
                return error;
            }
        }
        return std::nullopt;
    }

    void KernelWalker::handleSync(std::uint32_t r)
    {
        const std::string_view name = m_ctx.name(r);
        const FrameRow& row = m_ctx.row(r);
        if (name == "Stream Wait Event" || name == "Event Sync") {
            const std::int64_t previousLaunch = previousLaunchOf(r);
            if (previousLaunch < 0)
                return;
            const std::int64_t sourceKernel = partnerOf(previousLaunch);
            if (name == "Stream Wait Event") {
                const auto next = m_waitNextLaunch.find(row.indexCorrelation);
                if (next == m_waitNextLaunch.end() || next->second < 0)
                    return;
                m_kernelWaitsFor[partnerOf(next->second)] = sourceKernel;
                return;
            }
            const std::int32_t gpuEnd = m_ctx.endNodeOfEvent(sourceKernel);
            const std::int32_t cpuEnd = m_ctx.endNodeOfEvent(row.indexCorrelation);
            if (gpuEnd != kNoNode && cpuEnd != kNoNode)
                m_ctx.addEdge(static_cast<std::uint32_t>(gpuEnd), static_cast<std::uint32_t>(cpuEnd),
                    CpEdgeType::SyncDependency);
            return;
        }
        if (name != "Stream Sync" && name != "Context Sync") {
            m_ctx.graph.warnings.push_back("unknown synchronization record '" + std::string(name)
                + "' (event " + std::to_string(row.eventIndex) + ") ignored");
            return;
        }
        const std::int32_t cpuEnd = m_ctx.endNodeOfEvent(row.indexCorrelation);
        if (cpuEnd == kNoNode)
            return;
        std::vector<std::int32_t> sources;
        if (name == "Context Sync") {
            for (const auto& [stream, node] : m_last)
                sources.push_back(node);
        } else {
            sources.push_back(lastOnStream(row.stream));
        }
        for (const std::int32_t source : sources)
            if (source != kNoNode)
                m_ctx.addEdge(static_cast<std::uint32_t>(source), static_cast<std::uint32_t>(cpuEnd),
                    CpEdgeType::SyncDependency);
    }

    std::optional<Error> KernelWalker::handleKernel(std::uint32_t r)
    {
        const FrameRow& row = m_ctx.row(r);
        const std::int32_t startId = m_ctx.startNode(r);
        const std::int32_t endId = m_ctx.endNode(r);
        if (startId == kNoNode || endId == kNoNode)
            return std::nullopt;
        const auto start = static_cast<std::uint32_t>(startId);
        const auto& nodes = m_ctx.graph.nodes;
        m_ctx.attributeEdge(
            m_ctx.addEdge(start, static_cast<std::uint32_t>(endId), CpEdgeType::Operator), -1);

        bool edgeAdded = false;
        std::int32_t waitEnd = kNoNode;
        if (const auto it = m_kernelWaitsFor.find(row.eventIndex); it != m_kernelWaitsFor.end()) {
            waitEnd = m_ctx.endNodeOfEvent(it->second);
            if (waitEnd != kNoNode) {
                m_ctx.addEdge(static_cast<std::uint32_t>(waitEnd), start, CpEdgeType::SyncDependency);
                edgeAdded = true;
            }
            m_kernelWaitsFor.erase(it);
        }
        const std::int32_t last = lastOnStream(row.stream);
        const auto launchRow = m_ctx.rowOfEvent(row.indexCorrelation);
        const bool launchEdge = launchRow && launchedAfterIdle(r, *launchRow, last, waitEnd);
        bool kernelKernelEdge = false;
        if (launchEdge) {
            const std::int32_t runtimeStart = m_ctx.startNode(*launchRow);
            if (runtimeStart == kNoNode) {
                const std::string what = "Could not find runtime index = "
                    + std::to_string(row.indexCorrelation) + ", current kernel stream = "
                    + std::to_string(row.stream) + ", name = " + std::string(m_ctx.name(r));
                if (m_ctx.compat)
                    return Error { ErrorCode::NotApplicable, "HTA's critical path does not apply: " + what,
                        {}, {} };
                m_ctx.graph.warnings.push_back(what + ": no launch edge");
            } else {
                m_ctx.addEdge(static_cast<std::uint32_t>(runtimeStart), start, CpEdgeType::KernelLaunchDelay);
                edgeAdded = true;
            }
        } else if (last != kNoNode
            && nodes[start].ts - nodes[static_cast<std::uint32_t>(last)].ts < kMaxKernelKernelGapNs
            && (waitEnd == kNoNode
                || nodes[static_cast<std::uint32_t>(waitEnd)].ts
                    < nodes[static_cast<std::uint32_t>(last)].ts)) {
            m_ctx.attributeEdge(
                m_ctx.addEdge(static_cast<std::uint32_t>(last), start, CpEdgeType::KernelKernelDelay), -1);
            edgeAdded = true;
            kernelKernelEdge = true;
        }
        if (m_ctx.purpose == GraphPurpose::Retiming)
            edgeAdded = addOrderEdges(start, launchRow, last, launchEdge, kernelKernelEdge) || edgeAdded;
        if (!edgeAdded)
            m_ctx.graph.warnings.push_back("no incoming edge for GPU event " + std::to_string(row.eventIndex)
                + " (" + std::string(m_ctx.name(r)) + ") on stream " + std::to_string(row.stream));
        setLastOnStream(row.stream, endId);
        return std::nullopt;
    }

    // GPU work of one stream for the inference below: by end time.
    struct StreamWork
    {
        std::int64_t end = 0;
        std::int64_t launchTs = 0;
        std::uint32_t endNode = 0;
    };

    // The last work of a stream that ended by `callEnd` and was launched before `callStart`.
    const StreamWork* lastFinished(
        const std::vector<StreamWork>& work, std::int64_t callStart, std::int64_t callEnd)
    {
        auto it = std::upper_bound(
            work.begin(), work.end(), callEnd, [](std::int64_t t, const StreamWork& w) { return t < w.end; });
        while (it != work.begin()) {
            --it;
            if (it->launchTs < callStart)
                return &*it;
        }
        return nullptr;
    }

    // Default mode: traces recorded without CUDA sync events (torch.profiler's
    // default) have no cuda_sync records, so HTA finds no GPU->CPU dependency.
    // A blocking call without a record returns once the work it waited for is
    // done: link the last work that finished by its end and was launched before it
    // started (on every stream for a device sync, the latest one otherwise; CUDA's and
    // HIP's names, sync_api.h).
    void addInferredSyncEdges(GraphContext& ctx)
    {
        std::map<std::int64_t, std::vector<StreamWork>> byStream;
        for (const std::uint32_t r : ctx.clipped) {
            const FrameRow& row = ctx.row(r);
            const auto launch =
                row.indexCorrelation > 0 ? ctx.rowOfEvent(row.indexCorrelation) : std::nullopt;
            if (!row.device || ctx.endNode(r) == kNoNode || !launch)
                continue;
            byStream[row.stream].push_back(
                { row.end(), ctx.row(*launch).ts, static_cast<std::uint32_t>(ctx.endNode(r)) });
        }
        for (auto& [stream, work] : byStream)
            std::stable_sort(work.begin(), work.end(),
                [](const StreamWork& a, const StreamWork& b) { return a.end < b.end; });
        for (const std::uint32_t r : ctx.clipped) {
            const SyncCall call = syncCallOf(ctx.name(r));
            const bool device = call == SyncCall::DeviceSync;
            if ((!device && call != SyncCall::StreamSync && call != SyncCall::EventSync)
                || ctx.endNode(r) == kNoNode)
                continue;
            const auto partner =
                ctx.row(r).indexCorrelation > 0 ? ctx.rowOfEvent(ctx.row(r).indexCorrelation) : std::nullopt;
            if (partner && ctx.category(*partner) == kCudaSyncCategory)
                continue; // recorded: handled as HTA does
            std::vector<const StreamWork*> sources;
            for (const auto& [stream, work] : byStream) {
                const StreamWork* w = lastFinished(work, ctx.row(r).ts, ctx.row(r).end());
                if (!w)
                    continue;
                if (device || sources.empty())
                    sources.push_back(w);
                else if (w->end > sources.front()->end)
                    sources.front() = w;
            }
            for (const StreamWork* w : sources) {
                const std::uint32_t id = ctx.addEdge(
                    w->endNode, static_cast<std::uint32_t>(ctx.endNode(r)), CpEdgeType::SyncDependency);
                ctx.graph.edges[id].inferred = true;
            }
        }
    }

} // namespace

std::optional<Error> addKernelEdges(GraphContext& ctx)
{
    if (auto error = KernelWalker(ctx).run())
        return error;
    if (!ctx.compat)
        addInferredSyncEdges(ctx);
    return std::nullopt;
}

} // namespace ks::core::cp
