#include "core/analysis/hta/potential_stragglers.h"

#include "core/analysis/tables/numpy_argsort.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace ks::core {

namespace {

    // One row of HTA's concatenated frame that the metric reads, times in frame units
    // (µs doubles in compat mode, ns otherwise).
    struct KernelPoint
    {
        std::int64_t rank = 0;
        std::int64_t stream = 0;
        std::int64_t iteration = 0;
        std::string_view name;
        double ts = 0.0;
        double dur = 0.0;
    };

    // Compat: names starting with `ncclKernel` (HTA's test); default: the communication
    // kernels of Kinetoscope's classification (Q7: ncclDevKernel, rccl, hccl included).
    bool isCommKernel(const RankFrame& frame, const FrameRow& row, bool compat)
    {
        if (compat)
            return frame.name(row).rfind("ncclKernel", 0) == 0;
        return row.device && row.kernelType == KernelType::Communication;
    }

    // Sample standard deviation (ddof 1); NaN below two values, as pandas.
    double sampleStd(const std::vector<double>& v)
    {
        if (v.size() < 2)
            return std::nan("");
        double mean = 0.0;
        for (const double x : v)
            mean += x;
        mean /= static_cast<double>(v.size());
        double ss = 0.0;
        for (const double x : v)
            ss += (x - mean) * (x - mean);
        return std::sqrt(ss / static_cast<double>(v.size() - 1));
    }

    using GroupKey = std::tuple<std::int64_t, std::string_view>; // stream, kernel name

    // Per rank, how often it was among the top num_candidates late starters (§18).
    std::map<std::int64_t, int> lateStartCounts(
        const std::map<std::pair<std::int64_t, std::int64_t>, double>& metric, int candidates,
        std::string& problem)
    {
        // metric: (iteration, rank) -> normalized start time
        std::map<std::int64_t, std::vector<std::pair<std::int64_t, double>>> byIteration;
        for (const auto& [key, value] : metric)
            byIteration[key.first].emplace_back(key.second, value);
        std::map<std::int64_t, int> counts;
        for (const auto& [iteration, ranks] : byIteration) {
            for (const auto& [rank, value] : ranks)
                counts.try_emplace(rank, 0);
            if (iteration < 0)
                continue;
            std::vector<double> values;
            for (const auto& [rank, value] : ranks)
                values.push_back(value);
            std::sort(values.begin(), values.end(), std::greater<>());
            if (values.size() < static_cast<std::size_t>(candidates)) {
                problem = "IndexError: list index out of range (fewer ranks than candidates)";
                return {};
            }
            const double threshold = values[static_cast<std::size_t>(candidates - 1)];
            for (const auto& [rank, value] : ranks)
                counts[rank] += value >= threshold ? 1 : 0;
        }
        return counts;
    }

} // namespace

// §18. HTA's find_stragglers_with_late_start_comm_kernels and StragglerAnalysis.
AnalysisOutput potentialStragglers(const FrameSet& frames, const AnalysisOptions& options)
{
    const bool compat = options.mode == AnalysisMode::HtaCompat;
    const int candidates = std::max(options.stragglers.numCandidates, 1);
    const auto fail = [compat](const std::string& hta, const std::string& ours) {
        return AnalysisOutput::notApplicable(compat ? hta : ours);
    };
    std::set<std::int64_t> steps;
    for (const RankFrame& frame : frames.ranks)
        for (const FrameRow& row : frame.rows)
            if (row.iteration >= 0)
                steps.insert(row.iteration);
    if (steps.empty())
        return fail(
            "ValueError: invalid value for argument: profiler_steps=None; available profiler steps=[]",
            "the trace has no ProfilerStep iterations");

    // The selected iterations' rows of every rank: time span and long communication kernels.
    const auto units = [compat](std::int64_t ns) {
        return compat ? static_cast<double>(ns) / 1000.0 : static_cast<double>(ns);
    };
    double tMin = INFINITY;
    double tMax = -INFINITY;
    std::vector<KernelPoint> comm;
    for (const RankFrame& frame : frames.ranks)
        for (const FrameRow& row : frame.rows) {
            if (!steps.count(row.iteration))
                continue;
            tMin = std::min(tMin, units(row.ts));
            tMax = std::max(tMax, units(row.ts) + units(row.dur));
            if (row.stream > 0 && row.iteration > 0 && isCommKernel(frame, row, compat))
                comm.push_back({ frame.rank, row.stream, row.iteration, frame.name(row), units(row.ts),
                    units(row.dur) });
        }
    const double meanIterTime = (tMax - tMin) / static_cast<double>(steps.size());
    const double minDuration = meanIterTime * 0.01;

    // Last long kernel per (rank, stream, iteration, name), in frame order.
    std::map<std::tuple<std::int64_t, std::int64_t, std::int64_t, std::string_view>, KernelPoint> last;
    for (const KernelPoint& k : comm)
        if (k.dur >= minDuration)
            last[{ k.rank, k.stream, k.iteration, k.name }] = k;

    // Std across ranks of the normalized duration per (stream, iteration, name), averaged
    // over iterations per (stream, name); the largest mean picks the candidate kernel.
    std::map<std::tuple<std::int64_t, std::int64_t, std::string_view>, std::vector<double>> durations;
    for (const auto& [key, k] : last)
        durations[{ k.stream, k.iteration, k.name }].push_back(k.dur / meanIterTime);
    std::map<GroupKey, std::pair<double, int>> meanStd; // sum and count of non-NaN stds
    for (const auto& [key, values] : durations) {
        auto& m = meanStd[{ std::get<0>(key), std::get<2>(key) }];
        if (const double s = sampleStd(values); !std::isnan(s)) {
            m.first += s;
            ++m.second;
        }
    }
    if (meanStd.empty())
        return fail("ValueError: attempt to get argmax of an empty sequence",
            "no communication kernel is longer than 1% of the mean iteration time");
    const GroupKey* best = nullptr;
    double bestValue = -INFINITY;
    for (const auto& [key, m] : meanStd) {
        if (m.second == 0)
            continue;
        const double mean = m.first / m.second;
        if (!best || mean > bestValue) {
            best = &key;
            bestValue = mean;
        }
    }
    if (!best) // every std is NaN: one rank (pandas' idxmax returns NaN, HTA then fails to unpack it)
        return fail("TypeError: cannot unpack non-iterable float object", "needs at least two ranks");

    std::map<std::pair<std::int64_t, std::int64_t>, double> metric; // (iteration, rank) -> normalized start
    for (const auto& [key, k] : last)
        if (k.stream == std::get<0>(*best) && k.name == std::get<1>(*best))
            metric[{ k.iteration, k.rank }] = (k.ts - tMin) / meanIterTime;
    std::string problem;
    const std::map<std::int64_t, int> counts = lateStartCounts(metric, candidates, problem);
    if (!problem.empty())
        return fail(problem, "fewer ranks than --num-candidates");

    // sort_values(ascending=False)[:num_candidates]: numpy's order among equal counts in
    // compat mode, lower rank first otherwise.
    std::vector<std::int64_t> ranks;
    std::vector<double> values;
    for (const auto& [rank, count] : counts) {
        ranks.push_back(rank);
        values.push_back(count);
    }
    std::vector<std::size_t> order;
    if (compat) {
        order = numpyArgsortDescending(values);
    } else {
        order.resize(values.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(),
            [&values](std::size_t a, std::size_t b) { return values[a] > values[b]; });
    }
    HtaResult list;
    list.kind = HtaResult::Kind::List;
    for (std::size_t i = 0; i < order.size() && i < static_cast<std::size_t>(candidates); ++i) {
        HtaResult item;
        item.kind = HtaResult::Kind::Scalar;
        item.scalar = ranks[order[i]];
        list.items.push_back(item);
    }
    return AnalysisOutput::of(std::move(list));
}

} // namespace ks::core
