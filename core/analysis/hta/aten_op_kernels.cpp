#include "core/analysis/hta/aten_op_kernels.h"

#include "core/analysis/tables/pandas_numerics.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace ks::core {

namespace {

    // The kernel launches HTA follows (§20): its launch APIs without the copies and sets.
    bool isKernelLaunch(std::string_view name, bool compat)
    {
        static constexpr std::string_view kCompat[] = { "cudaLaunchKernel", "cudaLaunchKernelExC",
            "cuLaunchKernel", "cuLaunchKernelEx", "runFunction - job_prep_and_submit_for_execution" };
        static constexpr std::string_view kDefault[] = { "cudaLaunchKernel", "cudaLaunchKernelExC",
            "cuLaunchKernel", "cuLaunchKernelEx", "cudaLaunchCooperativeKernel", "hipLaunchKernel",
            "hipExtModuleLaunchKernel", "hipModuleLaunchKernel",
            "runFunction - job_prep_and_submit_for_execution" };
        if (compat)
            return std::find(std::begin(kCompat), std::end(kCompat), name) != std::end(kCompat);
        return std::find(std::begin(kDefault), std::end(kDefault), name) != std::end(kDefault);
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

    bool isAtenOp(const RankFrame& frame, const FrameRow& row)
    {
        return frame.category(row) == "cpu_op" && frame.name(row).rfind("aten::", 0) == 0;
    }

    // The aten op each launch ran under (§20): aten ops and launches sorted by start, then a
    // stack: ops that ended by a row's start are popped, an op is pushed, a launch belongs
    // to the top. Compat (Q19, observed): at equal starts the shorter row first, so an outer
    // op nests inside the inner one that starts with it, and one stack per process. Default:
    // the longer first (true nesting), one stack per thread.
    std::map<const FrameRow*, const FrameRow*> atenOpOfLaunches(
        const RankFrame& frame, const std::vector<const FrameRow*>& launches, bool compat)
    {
        const std::set<const FrameRow*> launchSet(launches.begin(), launches.end());
        std::vector<const FrameRow*> rows;
        for (const FrameRow& row : frame.rows)
            if (isAtenOp(frame, row) || launchSet.count(&row))
                rows.push_back(&row);
        std::sort(rows.begin(), rows.end(), [compat](const FrameRow* x, const FrameRow* y) {
            if (x->ts != y->ts)
                return x->ts < y->ts;
            if (x->dur != y->dur)
                return compat ? x->dur < y->dur : x->dur > y->dur;
            return x->eventIndex < y->eventIndex;
        });
        std::map<std::pair<std::int64_t, std::int64_t>, std::vector<const FrameRow*>> stacks;
        std::map<const FrameRow*, const FrameRow*> owner;
        for (const FrameRow* row : rows) {
            const TrackId track = frame.trace->trackOf(row->slice);
            const ThreadKey& key = frame.trace->tracks[track.value].key;
            // Q19: HTA keeps one stack per process in compat mode, so a launch can land under
            // an op of another thread; default mode keeps one per thread.
            std::vector<const FrameRow*>& stack = stacks[{ key.pid, compat ? 0 : key.tid }];
            while (!stack.empty() && stack.back()->end() <= row->ts)
                stack.pop_back();
            if (isAtenOp(frame, *row))
                stack.push_back(row);
            else if (!stack.empty() && launchSet.count(row))
                owner[row] = stack.back();
        }
        return owner;
    }

    // Adds one rank's op calls to `groups`; false when it has no launch (HTA raises).
    bool addRank(const RankFrame& frame, AnalysisMode mode, Groups& groups, std::string& problem)
    {
        const bool compat = mode == AnalysisMode::HtaCompat;
        std::vector<const FrameRow*> launches;
        for (const FrameRow& row : frame.rows)
            if (isKernelLaunch(frame.name(row), compat) && row.indexCorrelation > 0)
                launches.push_back(&row);
        const std::map<const FrameRow*, const FrameRow*> ops = atenOpOfLaunches(frame, launches, compat);
        std::stable_sort(launches.begin(), launches.end(),
            [](const FrameRow* a, const FrameRow* b) { return a->ts < b->ts; });
        std::map<std::uint32_t, OpCall> calls; // by the op's event index
        for (const FrameRow* launch : launches) {
            const FrameRow* kernel = frame.rowOfEvent(launch->indexCorrelation);
            const auto found = ops.find(launch);
            const FrameRow* op = found == ops.end() ? nullptr : found->second;
            if (!kernel || !op)
                continue;
            OpCall& call = calls[op->eventIndex];
            call.op = op;
            call.launches.emplace_back(launch, kernel);
        }
        if (calls.empty()) {
            problem = compat
                ? "KeyError: 'thread_id' (HTA: rank " + std::to_string(frame.rank)
                    + " has no kernel launched from an aten op)"
                : "rank " + std::to_string(frame.rank) + " has no kernel launched from an aten op";
            return false;
        }
        const auto units = [](std::int64_t ns) { return static_cast<double>(ns) / 1000.0; }; // µs
        for (const auto& [index, call] : calls) {
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
