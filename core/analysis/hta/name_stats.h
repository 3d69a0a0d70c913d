#pragma once

// The per-name statistics HTA's `_aggr_gpu_kernel_time` computes (§5), shared by
// the GPU kernel breakdown (A3) and the user-annotation breakdown (§16): group
// durations by name, sort by total, fold the tail into `others`.

#include "core/analysis/frame/analysis_options.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace ks::core {

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

// How the tail folds into `others`: only when there are more than `numKernels`
// names, those past the `durationRatio` quantile of the cumulative sums or beyond
// `numKernels`, unless `keep` says the name stays (HTA's allowlist).
struct NameFolding
{
    double durationRatio = 0.8;
    int numKernels = 10;
    std::function<bool(const std::string&)> keep; // empty: no allowlist
};

// Statistics of each name's values (pandas' group sum, max, min, mean, std with ddof 1 and
// NaN filled with 0), sorted by sum descending, the tail folded into `others`. Q5: compat
// regroups the already aggregated sums (listed names get max = min = mean = sum, std 0) and
// returns the names in name order; default keeps each name's statistics and computes
// `others` over all its member values.
std::vector<NameStats> aggregateByName(
    const std::map<std::string, std::vector<double>>& byName, const NameFolding& folding, AnalysisMode mode);

} // namespace ks::core
