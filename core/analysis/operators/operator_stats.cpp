#include "core/analysis/operators/operator_stats.h"

#include "core/analysis/tables/microseconds.h"
#include "core/io/json/args_reader.h"
#include "core/model/rpc_events.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <tuple>

namespace ks::core {

namespace {

    constexpr std::uint32_t kNoParent = kNoRow;

    bool wanted(const std::vector<std::int64_t>& list, std::int64_t value)
    {
        return list.empty() || std::find(list.begin(), list.end(), value) != list.end();
    }

    // Spans PyTorch records as async (started and ended on different threads):
    // self time 0, and outside the parent/child stacks.
    bool isAsyncSpan(std::string_view name)
    {
        return (looksLikeRpc(name) && name.find("#remote_op:") == std::string_view::npos)
            || name.substr(0, 5) == "gloo:";
    }

    std::string keyName(std::string_view name)
    {
        return name.substr(0, 13) == "ProfilerStep#" ? std::string("ProfilerStep*") : std::string(name);
    }

    // PyTorch prints shapes as Python's str() of a list: "[[64, 256], []]".
    std::string pythonListText(std::string_view json)
    {
        std::string out;
        for (char c : json) {
            if (c == ' ' || c == '\n' || c == '\t' || c == '\r')
                continue;
            out += c;
            if (c == ',')
                out += ' ';
        }
        return out;
    }

    // The value of "Input Dims" in an args object; "[]" when absent, nullopt
    // when present but not a list.
    std::optional<std::string> inputDims(std::string_view args)
    {
        constexpr std::string_view kKey = "\"Input Dims\"";
        const std::size_t at = args.find(kKey);
        if (at == std::string_view::npos)
            return std::string("[]");
        std::size_t i = args.find(':', at + kKey.size());
        if (i == std::string_view::npos)
            return std::nullopt;
        ++i;
        while (i < args.size() && (args[i] == ' ' || args[i] == '\n' || args[i] == '\t'))
            ++i;
        if (i >= args.size() || args[i] != '[')
            return std::nullopt;
        int depth = 0;
        for (std::size_t k = i; k < args.size(); ++k) {
            depth += args[k] == '[' ? 1 : args[k] == ']' ? -1 : 0;
            if (depth == 0)
                return pythonListText(args.substr(i, k - i + 1));
        }
        return std::nullopt;
    }

    struct OpEvent
    {
        std::uint32_t slice = 0;
        std::int64_t node = -1;
        bool async = false;
    };

    // One rank's ops, their PyTorch parent and their GPU time.
    struct RankOps
    {
        std::vector<OpEvent> ops;
        std::vector<std::uint32_t> parent; // per op: index into ops or kNoParent
        std::vector<TimeNs> childTotal; // per op
        std::vector<TimeNs> gpuSelf; // per op
        std::vector<TimeNs> gpuTotal; // per op
        std::vector<std::int64_t> kernels; // per op
        // key_averages' memory: bytes of the records in the op's span, and its children's.
        std::vector<std::int64_t> cpuMem, cudaMem, childCpuMem, childCudaMem; // per op
    };

    // The rank's [memory] records as PyTorch's MemRecordsAcc reads them: by time,
    // any thread, prefix sums of the CPU and the CUDA/HIP bytes.
    struct MemoryPrefix
    {
        std::vector<TimeNs> ts;
        std::vector<std::int64_t> cpu, cuda; // sums of the records before index i

        explicit MemoryPrefix(const RankTrace& t)
        {
            const MemoryEventTable& m = t.memory;
            std::vector<std::uint32_t> order(m.size());
            for (std::uint32_t i = 0; i < order.size(); ++i)
                order[i] = i;
            std::stable_sort(order.begin(), order.end(),
                [&](std::uint32_t a, std::uint32_t b) { return m.ts[a] < m.ts[b]; });
            cpu.push_back(0);
            cuda.push_back(0);
            for (std::uint32_t i : order) {
                ts.push_back(m.ts[i]);
                const std::int64_t bytes = m.bytes[i];
                const std::int32_t type = m.deviceType[i];
                cpu.push_back(cpu.back() + (type == 0 ? bytes : 0));
                // PyTorch's _device_memory_usage: CUDA, PrivateUse1 and HIP.
                cuda.push_back(cuda.back() + (type == 1 || type == 6 || type == 20 ? bytes : 0));
            }
        }

        // Records with start <= ts <= end (MemRecordsAcc.in_interval: both ends included).
        std::pair<std::int64_t, std::int64_t> within(TimeNs start, TimeNs end) const
        {
            const auto lo =
                static_cast<std::size_t>(std::lower_bound(ts.begin(), ts.end(), start) - ts.begin());
            const auto hi =
                static_cast<std::size_t>(std::upper_bound(ts.begin(), ts.end(), end) - ts.begin());
            return { cpu[hi] - cpu[lo], cuda[hi] - cuda[lo] };
        }
    };

    bool isOperatorTrackSlice(const RankTrace& t, std::uint32_t i)
    {
        const std::string_view cat = t.sliceCategory(i);
        return cat != "python_function" && cat != "Trace";
    }

    // PyTorch's node id: the callee's node for remote ops, the worker's own rank otherwise.
    std::int64_t nodeOf(const RankTrace& t, const Track& track)
    {
        return track.rpcNode >= 0 ? track.rpcNode : t.rank;
    }

    void nestLikePyTorch(const RankTrace& t, RankOps& r, std::vector<std::uint32_t>& trackOps)
    {
        // PyTorch sorts a thread's events by (start, -end); input order breaks ties.
        std::sort(trackOps.begin(), trackOps.end(), [&](std::uint32_t a, std::uint32_t b) {
            const std::uint32_t sa = r.ops[a].slice, sb = r.ops[b].slice;
            return std::tuple(t.slices.start[sa], -t.slices.end(sa), t.slices.eventIndex[sa])
                < std::tuple(t.slices.start[sb], -t.slices.end(sb), t.slices.eventIndex[sb]);
        });
        std::vector<std::uint32_t> stack;
        for (std::uint32_t op : trackOps) {
            const std::uint32_t s = r.ops[op].slice;
            while (!stack.empty()) {
                const std::uint32_t p = r.ops[stack.back()].slice;
                if (t.slices.start[s] >= t.slices.end(p) || t.slices.end(s) > t.slices.end(p)) {
                    stack.pop_back();
                    continue;
                }
                r.parent[op] = stack.back();
                r.childTotal[stack.back()] += t.slices.end(s) - t.slices.start[s];
                break;
            }
            stack.push_back(op);
        }
    }

    // The op a launch's kernels belong to: the launch's nearest ancestor that
    // is an operator rather than a user annotation (PyTorch pushes a user
    // scope's correlation id apart, so kernels never link to it).
    std::uint32_t innermostLaunchingOp(const RankTrace& t, const RankOps& r, std::uint32_t launch)
    {
        std::uint32_t a = r.parent[launch];
        while (a != kNoParent && t.sliceCategory(r.ops[a].slice) == "user_annotation")
            a = r.parent[a];
        return a;
    }

    RankOps collectOps(const RankTrace& t, std::vector<std::string>& notes)
    {
        RankOps r;
        std::vector<std::uint32_t> opOfSlice(t.slices.size(), kNoRow);
        std::uint64_t withoutCategory = 0;
        std::vector<std::vector<std::uint32_t>> syncByTrack(t.tracks.size());
        for (std::uint32_t tr = 0; tr < t.tracks.size(); ++tr) {
            const Track& track = t.tracks[tr];
            if (track.kind != TrackKind::CpuThread)
                continue;
            const std::int64_t node = nodeOf(t, track);
            for (std::uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
                if (!isOperatorTrackSlice(t, i))
                    continue;
                withoutCategory += t.sliceCategory(i).empty();
                opOfSlice[i] = static_cast<std::uint32_t>(r.ops.size());
                const bool async = isAsyncSpan(t.sliceName(i));
                if (!async)
                    syncByTrack[tr].push_back(opOfSlice[i]);
                r.ops.push_back({ i, node, async });
            }
        }
        const std::size_t n = r.ops.size();
        r.parent.assign(n, kNoParent);
        r.childTotal.assign(n, 0);
        r.gpuSelf.assign(n, 0);
        r.gpuTotal.assign(n, 0);
        r.kernels.assign(n, 0);
        for (auto& trackOps : syncByTrack)
            nestLikePyTorch(t, r, trackOps);
        r.cpuMem.assign(n, 0);
        r.cudaMem.assign(n, 0);
        r.childCpuMem.assign(n, 0);
        r.childCudaMem.assign(n, 0);
        if (t.memory.size() > 0) {
            const MemoryPrefix memory(t);
            for (std::uint32_t k = 0; k < n; ++k) {
                const std::uint32_t s = r.ops[k].slice;
                std::tie(r.cpuMem[k], r.cudaMem[k]) = memory.within(t.slices.start[s], t.slices.end(s));
            }
            for (std::uint32_t k = 0; k < n; ++k)
                if (r.parent[k] != kNoParent) {
                    r.childCpuMem[r.parent[k]] += r.cpuMem[k];
                    r.childCudaMem[r.parent[k]] += r.cudaMem[k];
                }
        }
        if (withoutCategory > 0 && withoutCategory < n)
            notes.push_back(t.path + ": " + std::to_string(withoutCategory)
                + " operators have no category (counted as CPU operators)");
        for (std::size_t k = 0; k < t.links.size(); ++k) {
            const LinkKind kind = t.links.kind[k];
            if (kind != LinkKind::LaunchFlow && kind != LinkKind::LaunchCorrelation)
                continue;
            const std::uint32_t launch = opOfSlice[t.links.from[k]];
            if (launch == kNoRow)
                continue;
            const std::uint32_t gpu = t.links.to[k];
            const TimeNs d = t.slices.end(gpu) - t.slices.start[gpu];
            // PyTorch gives a kernel to the operator whose correlation id was
            // pushed when it launched: the innermost enclosing op. An op's
            // total adds its children's totals, so the kernel counts in the
            // owner's ancestors too, but not in the runtime call or in user
            // annotations between the owner and the launch.
            const std::uint32_t owner = innermostLaunchingOp(t, r, launch);
            if (owner == kNoParent)
                continue;
            r.gpuSelf[owner] += d;
            ++r.kernels[owner];
            for (std::uint32_t a = owner; a != kNoParent; a = r.parent[a])
                r.gpuTotal[a] += d;
        }
        return r;
    }

    // ProfilerStep spans of a rank, by start: (start, end, step number).
    std::vector<std::tuple<TimeNs, TimeNs, std::int64_t>> stepSpans(const RankTrace& t)
    {
        std::vector<std::tuple<TimeNs, TimeNs, std::int64_t>> steps;
        for (std::uint32_t i = 0; i < t.slices.size(); ++i) {
            const std::string_view name = t.sliceName(i);
            if (name.substr(0, 13) != "ProfilerStep#")
                continue;
            try {
                steps.emplace_back(
                    t.slices.start[i], t.slices.end(i), std::stoll(std::string(name.substr(13))));
            } catch (...) {
                // Not a step number: not an iteration boundary.
            }
        }
        std::sort(steps.begin(), steps.end());
        return steps;
    }

    std::int64_t iterationAt(const std::vector<std::tuple<TimeNs, TimeNs, std::int64_t>>& steps, TimeNs ts)
    {
        auto it = std::upper_bound(
            steps.begin(), steps.end(), ts, [](TimeNs v, const auto& step) { return v < std::get<0>(step); });
        if (it == steps.begin())
            return -1;
        --it;
        return ts < std::get<1>(*it) ? std::get<2>(*it) : -1;
    }

    std::map<std::uint32_t, std::string> shapesOf(
        const RankTrace& t, const RankOps& r, std::vector<std::string>& notes, std::optional<Error>& failure)
    {
        std::vector<std::uint32_t> slices;
        for (const OpEvent& op : r.ops)
            slices.push_back(op.slice);
        std::map<std::uint32_t, std::string> shapes;
        std::uint64_t bad = 0;
        std::string example;
        // Args are re-read from the file, each stretch once for all the operators in it.
        const auto error =
            forEachSliceArgs(t, std::move(slices), [&](std::uint32_t slice, std::string_view text) {
                if (auto dims = inputDims(text)) {
                    shapes[slice] = *dims;
                    return;
                }
                if (bad++ == 0)
                    example = "event #" + std::to_string(t.slices.eventIndex[slice]) + " \""
                        + std::string(t.sliceName(slice)) + "\"";
                shapes[slice] = "?";
            });
        if (error && !failure)
            failure = *error;
        if (bad > 0)
            notes.push_back(t.path + ": " + std::to_string(bad)
                + " operators have \"Input Dims\" that is not a list (grouped as \"?\"), first " + example);
        return shapes;
    }

    using RowKey = std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t, std::string>;

} // namespace

OperatorStats operatorStats(const TraceSet& set, const OperatorStatsOptions& options)
{
    OperatorStats stats;
    std::map<RowKey, OperatorRow> rows;
    for (const auto& rank : set.ranks) {
        const RankTrace& t = *rank;
        if (!wanted(options.ranks, t.rank))
            continue;
        const RankOps r = collectOps(t, stats.notes);
        const auto steps =
            options.by == OperatorGrouping::Iteration ? stepSpans(t) : decltype(stepSpans(t)) {};
        const auto shapes = options.by == OperatorGrouping::Shapes ? shapesOf(t, r, stats.notes, stats.error)
                                                                   : std::map<std::uint32_t, std::string> {};
        stats.hasMemory = stats.hasMemory || t.memory.size() > 0;
        stats.hasGpu = stats.hasGpu || std::any_of(t.tracks.begin(), t.tracks.end(), [](const Track& tr) {
            return tr.kind == TrackKind::GpuStream;
        });
        for (std::uint32_t k = 0; k < r.ops.size(); ++k) {
            const OpEvent& op = r.ops[k];
            const TimeNs start = t.slices.start[op.slice];
            if ((options.windowStart && start < *options.windowStart)
                || (options.windowEnd && start >= *options.windowEnd))
                continue;
            const TimeNs total = t.slices.end(op.slice) - start;
            const TimeNs self = op.async ? 0 : total - r.childTotal[k];
            RowKey key { keyName(t.sliceName(op.slice)), op.node,
                options.by == OperatorGrouping::Rank ? t.rank : -1,
                options.by == OperatorGrouping::Iteration ? iterationAt(steps, start) : -1, std::string() };
            if (options.by == OperatorGrouping::Shapes) {
                auto it = shapes.find(op.slice);
                std::get<4>(key) = it == shapes.end() ? "[]" : it->second;
            }
            auto [it, fresh] = rows.try_emplace(key);
            OperatorRow& row = it->second;
            if (fresh) {
                row.name = std::get<0>(key);
                row.node = std::get<1>(key);
                row.rank = std::get<2>(key);
                row.iteration = std::get<3>(key);
                row.inputShapes = std::get<4>(key);
            }
            ++row.calls;
            row.cpuTotal += total;
            row.selfCpu += self;
            row.gpuSelf += r.gpuSelf[k];
            row.gpuTotal += r.gpuTotal[k];
            row.kernels += r.kernels[k];
            row.cpuMem += r.cpuMem[k];
            row.selfCpuMem += r.cpuMem[k] - r.childCpuMem[k];
            row.cudaMem += r.cudaMem[k];
            row.selfCudaMem += r.cudaMem[k] - r.childCudaMem[k];
            row.async = row.async || op.async;
            stats.selfCpuSum += self;
        }
    }
    for (auto& [key, row] : rows)
        stats.rows.push_back(std::move(row));
    std::stable_sort(
        stats.rows.begin(), stats.rows.end(), [&options](const OperatorRow& a, const OperatorRow& b) {
            if (options.by == OperatorGrouping::Node && a.node != b.node)
                return a.node < b.node;
            if (a.selfCpu != b.selfCpu)
                return a.selfCpu > b.selfCpu;
            return a.cpuTotal > b.cpuTotal;
        });
    return stats;
}

Table operatorStatsTable(const OperatorStats& stats, OperatorGrouping by)
{
    Table table;
    table.name = "operator_stats";
    namespace col = operator_stats_columns;
    table.columns.push_back(col::kName.column());
    table.columns.push_back(col::kNode.column());
    if (by == OperatorGrouping::Rank)
        table.columns.push_back(col::kRank.column());
    if (by == OperatorGrouping::Iteration)
        table.columns.push_back(col::kIteration.column());
    if (by == OperatorGrouping::Shapes)
        table.columns.push_back(col::kInputShapes.column());
    for (const ColumnId& c :
        { col::kCalls, col::kSelfCpuPct, col::kSelfCpu, col::kCpuTotalPct, col::kCpuTotal, col::kCpuAvg })
        table.columns.push_back(c.column());
    if (stats.hasGpu)
        for (const ColumnId& c : { col::kGpuTotal, col::kGpuSelf, col::kKernels })
            table.columns.push_back(c.column());
    if (stats.hasMemory)
        for (const ColumnId& c : { col::kCpuMem, col::kSelfCpuMem, col::kCudaMem, col::kSelfCudaMem })
            table.columns.push_back(c.column());
    table.columns.push_back(col::kAsync.column());
    const auto share = [&stats](TimeNs ns) {
        return stats.selfCpuSum == 0
            ? 0.0
            : static_cast<double>(ns) * 100.0 / static_cast<double>(stats.selfCpuSum);
    };
    for (const OperatorRow& r : stats.rows) {
        std::vector<Cell> cells { r.name, r.node };
        if (by == OperatorGrouping::Rank)
            cells.emplace_back(r.rank);
        if (by == OperatorGrouping::Iteration)
            cells.emplace_back(r.iteration);
        if (by == OperatorGrouping::Shapes)
            cells.emplace_back(r.inputShapes);
        cells.emplace_back(r.calls);
        cells.emplace_back(share(r.selfCpu));
        cells.emplace_back(microseconds(r.selfCpu));
        // PyTorch prints 0 as the total's share of an async span.
        cells.emplace_back(r.async ? 0.0 : share(r.cpuTotal));
        cells.emplace_back(microseconds(r.cpuTotal));
        cells.emplace_back(r.calls ? microseconds(r.cpuTotal) / static_cast<double>(r.calls) : 0.0);
        if (stats.hasGpu) {
            cells.emplace_back(microseconds(r.gpuTotal));
            cells.emplace_back(microseconds(r.gpuSelf));
            cells.emplace_back(r.kernels);
        }
        if (stats.hasMemory)
            for (std::int64_t bytes : { r.cpuMem, r.selfCpuMem, r.cudaMem, r.selfCudaMem })
                cells.emplace_back(bytes);
        cells.emplace_back(std::int64_t { r.async ? 1 : 0 });
        table.addRow(cells);
    }
    return table;
}

std::optional<OperatorGrouping> operatorGroupingNamed(std::string_view text)
{
    using G = OperatorGrouping;
    if (text == "name")
        return G::Name;
    if (text == "shapes")
        return G::Shapes;
    if (text == "node")
        return G::Node;
    if (text == "rank")
        return G::Rank;
    if (text == "iteration")
        return G::Iteration;
    return std::nullopt;
}

} // namespace ks::core
