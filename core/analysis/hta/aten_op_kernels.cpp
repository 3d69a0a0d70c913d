#include "core/analysis/hta/aten_op_kernels.h"

#include "core/analysis/frame/launch_api.h"
#include "core/analysis/tables/numpy_argsort.h"
#include "core/analysis/tables/pandas_numerics.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ks::core {

namespace {

    // The kernel launches followed (§20), without the copies and sets. Compat: HTA's list,
    // one kernel each; default mode adds the graph launches (Q6), whose kernels all carry
    // the launch's correlation.
    LaunchKind kernelLaunchKind(std::string_view name, bool compat)
    {
        const LaunchKind kind = launchKindOf(
            name, compat ? AnalysisMode::HtaCompat : AnalysisMode::Default, HtaLaunchList::AtenOpKernels);
        if (kind == LaunchKind::Kernel || (!compat && kind == LaunchKind::Graph))
            return kind;
        return LaunchKind::None;
    }

    // One call of an aten op and the kernels it launched, in launch order.
    struct OpCall
    {
        const FrameRow* op = nullptr;
        std::vector<std::pair<const FrameRow*, const FrameRow*>> launches; // launch, kernel
    };

    struct Group
    {
        std::int64_t count = 0;
        std::vector<double> launchDelays;
        std::vector<double> runtimeDelays;
    };

    using Groups = std::map<std::pair<std::string, std::string>, Group>; // (op, sequence), byte order

    // Compat (Q19): HTA takes the rows named aten::... of any category and thread. Default
    // mode: the CPU operators named so, `cpu_op` or old traces' `Operator`.
    bool isAtenOp(const RankFrame& frame, const FrameRow& row, bool compat)
    {
        if (!frame.name(row).starts_with("aten::"))
            return false;
        const std::string_view category = frame.category(row);
        return compat || category == "cpu_op" || category == "Operator";
    }

    // Compat (HTA's find_deepest_aten_op): the aten rows that contain the whole launch
    // (op.ts <= launch.ts and launch.end <= op.end, any thread), in frame order, sorted by ts
    // descending as pandas does (numpy's unstable quicksort, so ties go as numpy puts them);
    // the first wins: the latest-starting containing op. A sweep over both sorted by start
    // keeps the ops open at each launch's start instead of scanning every op per launch.
    std::map<const FrameRow*, const FrameRow*> containingAtenOps(
        const RankFrame& frame, const std::vector<const FrameRow*>& launches)
    {
        std::vector<const FrameRow*> ops;
        for (const FrameRow& row : frame.rows)
            if (isAtenOp(frame, row, true))
                ops.push_back(&row);
        const auto byStart = [](const FrameRow* a, const FrameRow* b) { return a->ts < b->ts; };
        std::stable_sort(ops.begin(), ops.end(), byStart);
        std::vector<const FrameRow*> sortedLaunches = launches;
        std::stable_sort(sortedLaunches.begin(), sortedLaunches.end(), byStart);
        std::map<const FrameRow*, const FrameRow*> owner;
        std::vector<const FrameRow*> open; // started by the current launch, not ended before it
        std::size_t next = 0;
        std::vector<const FrameRow*> candidates;
        std::vector<std::int64_t> starts;
        for (const FrameRow* launch : sortedLaunches) {
            while (next < ops.size() && ops[next]->ts <= launch->ts)
                open.push_back(ops[next++]);
            // An op that ended before this launch began contains no later launch either.
            std::erase_if(open, [launch](const FrameRow* op) { return op->end() < launch->ts; });
            candidates.clear();
            for (const FrameRow* op : open)
                if (op->end() >= launch->end())
                    candidates.push_back(op);
            if (candidates.empty())
                continue;
            std::sort(candidates.begin(), candidates.end()); // frame order: rows are one array
            starts.clear();
            for (const FrameRow* op : candidates)
                starts.push_back(op->ts);
            owner[launch] = candidates[numpyArgsortDescending(starts).front()];
        }
        return owner;
    }

    // Default mode: the innermost cpu_op of the launch's thread. Aten ops and launches sorted
    // by start (the longer first at equal starts: true nesting), one stack per thread; ops
    // that ended by a row's start are popped, an op is pushed, a launch belongs to the top.
    std::map<const FrameRow*, const FrameRow*> innermostAtenOps(
        const RankFrame& frame, const std::vector<const FrameRow*>& launches)
    {
        const std::set<const FrameRow*> launchSet(launches.begin(), launches.end());
        std::vector<const FrameRow*> rows;
        for (const FrameRow& row : frame.rows)
            if (isAtenOp(frame, row, false) || launchSet.count(&row))
                rows.push_back(&row);
        std::sort(rows.begin(), rows.end(), [](const FrameRow* x, const FrameRow* y) {
            if (x->ts != y->ts)
                return x->ts < y->ts;
            if (x->dur != y->dur)
                return x->dur > y->dur;
            return x->eventIndex < y->eventIndex;
        });
        std::map<std::pair<std::int64_t, std::int64_t>, std::vector<const FrameRow*>> stacks;
        std::map<const FrameRow*, const FrameRow*> owner;
        for (const FrameRow* row : rows) {
            const ThreadKey& key = frame.trace->tracks[frame.trace->trackOf(row->slice).value].key;
            std::vector<const FrameRow*>& stack = stacks[{ key.pid, key.tid }];
            while (!stack.empty() && stack.back()->end() <= row->ts)
                stack.pop_back();
            if (isAtenOp(frame, *row, false))
                stack.push_back(row);
            else if (!stack.empty() && launchSet.count(row))
                owner[row] = stack.back();
        }
        return owner;
    }

    // HTA's GPU-side rows (GPUKernelFilter, §1.8) by correlation: the kernels of a launch.
    std::map<std::int64_t, std::vector<const FrameRow*>> kernelsByCorrelation(const RankFrame& frame)
    {
        std::map<std::int64_t, std::vector<const FrameRow*>> out;
        for (const FrameRow& row : frame.rows) {
            const std::string_view name = frame.name(row);
            if ((row.stream >= 0 && row.correlation >= 0) || name == "Event Sync" || name == "Context Sync")
                out[row.correlation].push_back(&row);
        }
        return out;
    }

    // Default mode: the GPU work of each graph launch, every GPU row with its correlation,
    // in start order (file order at equal starts).
    std::map<std::int64_t, std::vector<const FrameRow*>> graphKernels(
        const RankFrame& frame, const std::vector<const FrameRow*>& graphLaunches)
    {
        std::map<std::int64_t, std::vector<const FrameRow*>> out;
        for (const FrameRow* launch : graphLaunches)
            out[launch->correlation];
        for (const FrameRow& row : frame.rows)
            if (row.stream >= 0 && row.correlation >= 0)
                if (auto it = out.find(row.correlation); it != out.end())
                    it->second.push_back(&row);
        for (auto& [correlation, rows] : out)
            std::stable_sort(
                rows.begin(), rows.end(), [](const FrameRow* a, const FrameRow* b) { return a->ts < b->ts; });
        return out;
    }

    // A call's key. Compat: HTA groups launches by (thread, op name, op start), so two
    // same-name ops of one thread starting in the same µs are one call; default: the op event.
    using CallKey = std::tuple<std::int64_t, std::string, std::int64_t, std::uint32_t>;

    // Adds one rank's op calls to `groups`; false when HTA raises (no launch under an aten
    // op; compat also a launch under an op without exactly one kernel).
    bool addRank(const RankFrame& frame, AnalysisMode mode, Groups& groups, std::string& problem)
    {
        const bool compat = mode == AnalysisMode::HtaCompat;
        std::vector<const FrameRow*> launches;
        std::vector<const FrameRow*> graphLaunches; // default mode
        for (const FrameRow& row : frame.rows) {
            const LaunchKind kind = kernelLaunchKind(frame.name(row), compat);
            if (kind == LaunchKind::Graph && row.correlation >= 0) {
                launches.push_back(&row);
                graphLaunches.push_back(&row);
            } else if (kind == LaunchKind::Kernel && (compat || row.indexCorrelation > 0))
                launches.push_back(&row);
        }
        const auto graphs = graphKernels(frame, graphLaunches);
        const std::map<const FrameRow*, const FrameRow*> ops =
            compat ? containingAtenOps(frame, launches) : innermostAtenOps(frame, launches);
        // Compat: frame order (HTA iterates its frame, never sorted by ts); default: launch order.
        if (!compat)
            std::stable_sort(launches.begin(), launches.end(),
                [](const FrameRow* a, const FrameRow* b) { return a->ts < b->ts; });
        const auto kernels =
            compat ? kernelsByCorrelation(frame) : std::map<std::int64_t, std::vector<const FrameRow*>> {};
        std::map<CallKey, OpCall> calls;
        for (const FrameRow* launch : launches) {
            const auto found = ops.find(launch);
            const FrameRow* op = found == ops.end() ? nullptr : found->second;
            if (!op)
                continue;
            const ThreadKey& key = frame.trace->tracks[frame.trace->trackOf(op->slice).value].key;
            const CallKey callKey = compat ? CallKey { key.tid, std::string(frame.name(*op)), op->ts, 0 }
                                           : CallKey { 0, std::string(), 0, op->eventIndex };
            if (const auto graph = compat ? graphs.end() : graphs.find(launch->correlation);
                graph != graphs.end() && kernelLaunchKind(frame.name(*launch), false) == LaunchKind::Graph) {
                if (graph->second.empty())
                    continue; // a graph launch without GPU work is left out, as a launch without a kernel
                OpCall& call = calls[callKey];
                call.op = call.op ? call.op : op;
                for (const FrameRow* kernel : graph->second)
                    call.launches.emplace_back(launch, kernel);
                continue;
            }
            const FrameRow* kernel = nullptr;
            if (compat) {
                // HTA: the launch's kernel name with .item(), which raises unless exactly one.
                const auto k = kernels.find(launch->correlation);
                const std::size_t n = k == kernels.end() ? 0 : k->second.size();
                if (n != 1) {
                    problem =
                        "ValueError: can only convert an array of size 1 to a Python scalar (HTA: launch "
                        + std::to_string(launch->eventIndex) + " under " + std::string(frame.name(*op))
                        + " has " + std::to_string(n) + " kernels)";
                    return false;
                }
                kernel = k->second.front();
            } else {
                kernel = frame.rowOfEvent(launch->indexCorrelation);
                if (!kernel)
                    continue;
            }
            OpCall& call = calls[callKey];
            call.op = call.op ? call.op : op;
            call.launches.emplace_back(launch, kernel); // in the order HTA's groupby agg(list) keeps
        }
        if (calls.empty()) {
            problem = compat
                ? "KeyError: 'thread_id' (HTA: rank " + std::to_string(frame.rank)
                    + " has no kernel launched from an aten op)"
                : "rank " + std::to_string(frame.rank) + " has no kernel launched from an aten op";
            return false;
        }
        const auto units = [](std::int64_t ns) { return static_cast<double>(ns) / 1000.0; }; // µs
        for (const auto& [callKey, call] : calls) {
            std::string sequence;
            for (const auto& [launch, kernel] : call.launches)
                sequence += (sequence.empty() ? "" : " -> ") + std::string(frame.name(*kernel));
            Group& g = groups[{ std::string(frame.name(*call.op)), sequence }];
            ++g.count;
            const auto& [firstLaunch, firstKernel] = call.launches.front();
            g.launchDelays.push_back(units(firstLaunch->ts - call.op->ts));
            g.runtimeDelays.push_back(units(firstKernel->ts - firstLaunch->ts));
        }
        return true;
    }

    double mean(const std::vector<double>& v)
    {
        double sum = 0.0;
        for (const double x : v)
            sum += x;
        return sum / static_cast<double>(v.size());
    }

    Table groupsTable(const Groups& groups, const AnalysisOptions& options)
    {
        using namespace aten_op_kernels;
        const AnalysisMode mode = options.mode;
        Table t;
        t.name = "aten_op_kernels_and_delay";
        for (const ColumnId& c :
            { kIndex, kOpName, kKernelSequence, kOccurrences, kLaunchDelay, kRuntimeDelay })
            t.columns.push_back(c.column(mode));
        t.indexColumns = { std::string(kIndex.name(mode)) };

        struct Row
        {
            std::int64_t index;
            const std::string* op;
            const std::string* sequence;
            const Group* group;
            double launch;
            double runtime;
        };

        std::vector<Row> rows;
        std::int64_t index = 0;
        for (const auto& [key, g] : groups)
            rows.push_back({ index++, &key.first, &key.second, &g, roundHalfEven(mean(g.launchDelays), 3),
                roundHalfEven(mean(g.runtimeDelays), 3) });
        const auto value = [&options](const Row& r) -> double {
            switch (options.atenOps.sortBy) {
            case AtenOpSort::LaunchDelay:
                return r.launch;
            case AtenOpSort::RuntimeDelay:
                return r.runtime;
            case AtenOpSort::Name:
                return -static_cast<double>(r.index);
            case AtenOpSort::OccurrenceCount:
                break;
            }
            return static_cast<double>(r.group->count);
        };
        std::stable_sort(
            rows.begin(), rows.end(), [&value](const Row& a, const Row& b) { return value(a) > value(b); });
        for (const Row& r : rows)
            t.addRow({ r.index, *r.op, *r.sequence, r.group->count, r.launch, r.runtime });
        return t;
    }

} // namespace

// §20.
AnalysisOutput atenOpKernelsAndDelay(const FrameSet& frames, const AnalysisOptions& options)
{
    const bool compat = options.mode == AnalysisMode::HtaCompat;
    HtaResult dict;
    dict.kind = HtaResult::Kind::Dict;
    Groups accumulated; // Q19: HTA never clears its per-op lists between ranks
    for (const RankFrame& frame : frames.ranks) {
        Groups own;
        std::string problem;
        if (!addRank(frame, options.mode, compat ? accumulated : own, problem))
            return AnalysisOutput::notApplicable(problem);
        dict.entries.emplace_back(std::to_string(frame.rank),
            HtaResult::dataFrame(groupsTable(compat ? accumulated : own, options)));
    }
    if (dict.entries.empty())
        return AnalysisOutput::notApplicable("no rank selected");
    return AnalysisOutput::of(std::move(dict));
}

} // namespace ks::core
