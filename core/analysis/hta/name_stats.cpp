#include "core/analysis/hta/name_stats.h"

#include "core/analysis/tables/numpy_argsort.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace ks::core {

namespace {

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
    std::vector<bool> foldedIntoOthers(const std::vector<NameStats>& bySum, const NameFolding& options)
    {
        std::vector<double> cumsum;
        cumsum.reserve(bySum.size());
        double running = 0.0;
        for (const NameStats& s : bySum)
            cumsum.push_back(running += s.sum);
        const double q = numpyQuantile(cumsum, options.durationRatio);
        std::vector<bool> folded(bySum.size());
        for (std::size_t i = 0; i < bySum.size(); ++i)
            folded[i] = (!options.keep || !options.keep(bySum[i].name))
                && (cumsum[i] > q || i >= static_cast<std::size_t>(std::max(options.numKernels, 0)));
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

} // namespace

// HTA's _aggr_gpu_kernel_time (§5, Q5).
std::vector<NameStats> aggregateByName(
    const std::map<std::string, std::vector<double>>& byName, const NameFolding& folding, AnalysisMode mode)
{
    std::vector<NameStats> stats = sortedBySum(groupByName(byName), mode);
    if (stats.size() <= static_cast<std::size_t>(std::max(folding.numKernels, 0)))
        return stats;
    const std::vector<bool> folded = foldedIntoOthers(stats, folding);
    std::map<std::string, std::vector<double>> regrouped; // compat: name -> per-name sums
    std::vector<NameStats> kept; // default: listed names as they are
    std::vector<double> others; // default: values of the folded names
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

} // namespace ks::core
