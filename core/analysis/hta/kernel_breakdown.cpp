#include "core/analysis/hta/kernel_breakdown.h"

#include "core/analysis/hta/kernel_breakdown_support.h"
#include "core/analysis/tables/pandas_numerics.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

namespace ks::core {

namespace {

    // ---- First frame: busy time per kernel type and overlap class (§5) ----

    struct SweepRow
    {
        double time = 0.0;
        int status = 0;
    };

    // The types reported, with their bits in HTA's order.
    std::vector<KernelType> analysedTypes(const AnalysisOptions& options)
    {
        std::vector<KernelType> types { KernelType::Computation, KernelType::Communication };
        if (options.kernels.includeMemoryKernels)
            types.push_back(KernelType::Memory);
        return types;
    }

    // "COMPUTATION overlapping MEMORY": the names of the set bits, in type order.
    std::string maskLabel(int mask, const std::vector<KernelType>& types)
    {
        std::string label;
        for (std::size_t i = 0; i < types.size(); ++i) {
            if ((mask & (1 << i)) == 0)
                continue;
            label += label.empty() ? "" : " overlapping ";
            label += kernelTypeName(types[i]);
        }
        return label;
    }

    // HTA appends each type's merged starts then ends (pandas melt) and re-sorts the
    // whole table by time after each type with numpy's quicksort. At equal times the
    // intermediate running values depend on that order, and a transient mask yields a
    // zero-length row whose label still appears in the output, so the order is copied.
    std::vector<SweepRow> compatSweepRows(const std::vector<std::vector<Span>>& mergedPerType)
    {
        std::vector<SweepRow> rows;
        for (std::size_t i = 0; i < mergedPerType.size(); ++i) {
            const int bit = 1 << i;
            for (const Span& s : mergedPerType[i])
                rows.push_back({ s.start, bit });
            for (const Span& s : mergedPerType[i])
                rows.push_back({ s.end, -bit });
            std::vector<double> times;
            times.reserve(rows.size());
            for (const SweepRow& r : rows)
                times.push_back(r.time);
            std::vector<SweepRow> sorted;
            sorted.reserve(rows.size());
            for (const std::size_t k : numpyArgsort(times))
                sorted.push_back(rows[k]);
            rows = std::move(sorted);
        }
        return rows;
    }

    // Per label, the time spent with that mask of active types. Compat: every row with a
    // positive running value counts, its length truncated to whole µs (astype(int)).
    // Default: all changes at one time apply together, so no zero-length classes appear.
    std::map<std::string, double> typeTimes(
        const std::vector<KernelSpan>& spans, const std::vector<KernelType>& types, AnalysisMode mode)
    {
        std::vector<std::vector<Span>> merged;
        merged.reserve(types.size());
        for (const KernelType type : types)
            merged.push_back(mergeSpans(spansOfType(spans, type), mode));
        std::vector<SweepRow> rows;
        if (mode == AnalysisMode::HtaCompat) {
            rows = compatSweepRows(merged);
        } else {
            for (std::size_t i = 0; i < merged.size(); ++i)
                for (const Span& s : merged[i]) {
                    rows.push_back({ s.start, 1 << i });
                    rows.push_back({ s.end, -(1 << i) });
                }
            std::stable_sort(rows.begin(), rows.end(),
                [](const SweepRow& a, const SweepRow& b) { return a.time < b.time; });
        }
        std::map<std::string, double> times;
        int running = 0;
        for (std::size_t i = 0; i + 1 < rows.size(); ++i) {
            running += rows[i].status;
            const double length = rows[i + 1].time - rows[i].time;
            if (running <= 0 || (mode != AnalysisMode::HtaCompat && length <= 0.0))
                continue;
            times[maskLabel(running, types)] += mode == AnalysisMode::HtaCompat ? std::trunc(length) : length;
        }
        return times;
    }

    Table typeTable(const std::map<std::string, double>& totals, AnalysisMode mode)
    {
        const bool compat = mode == AnalysisMode::HtaCompat;
        Table t;
        t.name = "kernel_type_breakdown";
        t.columns = { kernel_breakdown::kKernelType.column(), kernel_breakdown::kTypeSum.column(mode),
            kernel_breakdown::kPercentage.column() };
        std::vector<std::pair<std::string, double>> rows(totals.begin(), totals.end());
        // sum descending; HTA's order among equal sums is arbitrary, label order here.
        std::stable_sort(
            rows.begin(), rows.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
        double all = 0.0;
        for (const auto& [label, sum] : rows)
            all += sum;
        for (const auto& [label, sum] : rows) {
            std::vector<Cell> row(3);
            row[0] = label;
            if (compat)
                row[1] = static_cast<std::int64_t>(sum);
            else
                row[1] = spanUnitsToUs(sum, mode);
            if (const double pct = roundHalfEven(sum / all * 100.0, 1); !std::isnan(pct))
                row[2] = pct;
            t.addRow(row);
        }
        return t;
    }

    // ---- Second frame: statistics per kernel name (§5) ----

    struct NameStats
    {
        std::string name;
        double sum = 0.0;
        double max = 0.0;
        double min = 0.0;
        double mean = 0.0;
        double std = 0.0;
        std::vector<double> values; // the durations (or, in compat's regrouping, the sums) behind the stats
    };

    // pandas' cython group sum/mean use Kahan summation.
    double kahanSum(const std::vector<double>& values)
    {
        double sum = 0.0;
        double compensation = 0.0;
        for (const double v : values) {
            const double y = v - compensation;
            const double t = sum + y;
            compensation = (t - sum) - y;
            sum = t;
        }
        return sum;
    }

    // pandas' group std: Welford's online variance, ddof 1; one value gives NaN, filled with 0 by HTA.
    double groupStd(const std::vector<double>& values)
    {
        double mean = 0.0;
        double m2 = 0.0;
        double n = 0.0;
        for (const double v : values) {
            n += 1.0;
            const double oldMean = mean;
            mean += (v - oldMean) / n;
            m2 += (v - mean) * (v - oldMean);
        }
        return values.size() < 2 ? 0.0 : std::sqrt(m2 / (n - 1.0));
    }

    NameStats statsOf(std::string name, std::vector<double> values)
    {
        NameStats s;
        s.name = std::move(name);
        s.sum = kahanSum(values);
        s.max = *std::max_element(values.begin(), values.end());
        s.min = *std::min_element(values.begin(), values.end());
        s.mean = s.sum / static_cast<double>(values.size());
        s.std = groupStd(values);
        s.values = std::move(values);
        return s;
    }

    // groupby(name): one entry per name, in name order.
    std::vector<NameStats> groupByName(const std::map<std::string, std::vector<double>>& groups)
    {
        std::vector<NameStats> out;
        out.reserve(groups.size());
        for (const auto& [name, values] : groups)
            out.push_back(statsOf(name, values));
        return out;
    }

    // numpy's linear quantile (numpy 1.24 _lerp: from the upper value when the fraction is ≥ 0.5).
    double numpyQuantile(std::vector<double> values, double q)
    {
        std::sort(values.begin(), values.end());
        const double position = q * static_cast<double>(values.size() - 1);
        const double lowerPos = std::floor(position);
        const auto lower = static_cast<std::size_t>(lowerPos);
        const std::size_t upper = std::min(lower + 1, values.size() - 1);
        const double t = position - lowerPos;
        const double diff = values[upper] - values[lower];
        return t >= 0.5 ? values[upper] - diff * (1.0 - t) : values[lower] + diff * t;
    }

    // Which names of the sum-descending list fold into `others`: past the duration_ratio
    // quantile of the cumulative sums (a quantile of the cumsum column, not ratio × total),
    // or beyond num_kernels.
    std::vector<bool> foldedIntoOthers(
        const std::vector<NameStats>& bySum, const KernelBreakdownOptions& options)
    {
        std::vector<double> cumsum;
        cumsum.reserve(bySum.size());
        double running = 0.0;
        for (const NameStats& s : bySum)
            cumsum.push_back(running += s.sum);
        const double q = numpyQuantile(cumsum, options.durationRatio);
        std::vector<bool> folded(bySum.size());
        for (std::size_t i = 0; i < bySum.size(); ++i)
            folded[i] = cumsum[i] > q || i >= static_cast<std::size_t>(std::max(options.numKernels, 0));
        return folded;
    }

    std::vector<NameStats> sortedBySum(std::vector<NameStats> stats, AnalysisMode mode)
    {
        std::vector<NameStats> out;
        if (mode == AnalysisMode::HtaCompat) {
            std::vector<double> sums;
            sums.reserve(stats.size());
            for (const NameStats& s : stats)
                sums.push_back(s.sum);
            for (const std::size_t i : numpyArgsortDescending(sums))
                out.push_back(std::move(stats[i]));
            return out;
        }
        std::stable_sort(
            stats.begin(), stats.end(), [](const NameStats& a, const NameStats& b) { return a.sum > b.sum; });
        return stats;
    }

    // HTA's _aggr_gpu_kernel_time. Q5: compat regroups the already aggregated sums, so a
    // listed kernel gets max = min = mean = sum and std 0, and `others` the statistics of
    // its members' totals; default keeps each kernel's statistics and computes `others`
    // over all its member events.
    std::vector<NameStats> aggregateKernels(
        const std::vector<KernelSpan>& spans, const KernelBreakdownOptions& options, AnalysisMode mode)
    {
        std::map<std::string, std::vector<double>> byName;
        for (const KernelSpan& s : spans)
            byName[std::string(s.name)].push_back(s.dur);
        std::vector<NameStats> stats = sortedBySum(groupByName(byName), mode);
        if (stats.size() <= static_cast<std::size_t>(std::max(options.numKernels, 0)))
            return stats;
        const std::vector<bool> folded = foldedIntoOthers(stats, options);
        std::map<std::string, std::vector<double>> regrouped; // compat: name → per-kernel sums
        std::vector<NameStats> kept; // default: listed kernels as they are
        std::vector<double> others; // default: durations of the folded kernels
        for (std::size_t i = 0; i < stats.size(); ++i) {
            if (mode == AnalysisMode::HtaCompat)
                regrouped[folded[i] ? std::string("others") : stats[i].name].push_back(stats[i].sum);
            else if (folded[i])
                others.insert(others.end(), stats[i].values.begin(), stats[i].values.end());
            else
                kept.push_back(std::move(stats[i]));
        }
        if (mode == AnalysisMode::HtaCompat)
            return groupByName(regrouped);
        if (!others.empty())
            kept.push_back(statsOf("others", std::move(others)));
        return kept;
    }

    Table kernelTable(AnalysisMode mode)
    {
        Table t;
        t.name = "kernel_breakdown";
        using namespace kernel_breakdown;
        for (const ColumnId& c : { kName, kSum, kMax, kMin, kStddev, kMean, kKernelType, kRank })
            t.columns.push_back(c.column(mode));
        return t;
    }

    struct KernelRow
    {
        NameStats stats;
        KernelType type = KernelType::Other;
        std::int64_t rank = 0;
    };

    void addKernelRows(Table& table, std::vector<KernelRow> rows, AnalysisMode mode)
    {
        // HTA sorts by kernel_type, name, rank (strings byte-wise).
        std::sort(rows.begin(), rows.end(), [](const KernelRow& a, const KernelRow& b) {
            const std::string_view ta = kernelTypeName(a.type);
            const std::string_view tb = kernelTypeName(b.type);
            if (ta != tb)
                return ta < tb;
            if (a.stats.name != b.stats.name)
                return a.stats.name < b.stats.name;
            return a.rank < b.rank;
        });
        for (const KernelRow& r : rows) {
            const NameStats& s = r.stats;
            table.addRow({ s.name, spanUnitsToUs(s.sum, mode), spanUnitsToUs(s.max, mode),
                spanUnitsToUs(s.min, mode), spanUnitsToUs(s.std, mode), spanUnitsToUs(s.mean, mode),
                std::string(kernelTypeName(r.type)), r.rank });
        }
    }

} // namespace

AnalysisOutput gpuKernelBreakdown(const FrameSet& frames, const AnalysisOptions& options)
{
    const double ratio = options.kernels.durationRatio;
    if (!(ratio >= 0.0 && ratio <= 1.0)) // pandas' quantile raises outside [0, 1]
        return AnalysisOutput::notApplicable("duration ratio must be between 0 and 1");
    const AnalysisMode mode = options.mode;
    const std::vector<KernelType> types = analysedTypes(options);
    std::map<std::string, double> totals;
    std::vector<KernelRow> kernelRows;
    for (const RankFrame& frame : frames.ranks) {
        const std::vector<KernelSpan> spans = gpuWorkSpans(frame, mode);
        for (const auto& [label, time] : typeTimes(spans, types, mode))
            totals[label] += time;
        for (const KernelType type : types) {
            const std::vector<KernelSpan> ofType = spansOfType(spans, type);
            if (ofType.empty())
                continue;
            for (NameStats& s : aggregateKernels(ofType, options.kernels, mode))
                kernelRows.push_back({ std::move(s), type, frame.rank });
        }
    }
    Table kernels = kernelTable(mode);
    addKernelRows(kernels, std::move(kernelRows), mode);

    HtaResult result;
    result.kind = HtaResult::Kind::Tuple;
    result.items.push_back(HtaResult::dataFrame(typeTable(totals, mode)));
    result.items.push_back(HtaResult::dataFrame(std::move(kernels)));
    return AnalysisOutput::of(std::move(result));
}

} // namespace ks::core
