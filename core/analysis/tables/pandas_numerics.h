#pragma once

#include <cstdint>
#include <optional>
#include <vector>

namespace ks::core {

// Numerics as pandas/numpy compute them (hta-semantics.md §15), so
// HTA-compatible outputs match to the last bit where HTA rounds.

// numpy round: scale by 10^decimals, round half to even, unscale.
double roundHalfEven(double value, int decimals);

// Linear interpolation at p*(n-1) of sorted values (pandas quantile).
double quantileSorted(const std::vector<double>& sorted, double p);

// Sample standard deviation (ddof=1); nullopt for fewer than 2 values.
std::optional<double> sampleStd(const std::vector<double>& values);

// pandas Series.sum for floats: numpy pairwise summation.
double pairwiseSum(const std::vector<double>& values);

struct Describe
{
    std::int64_t count = 0;
    std::optional<double> mean, std, min, q25, q50, q75, max;
};

// pandas describe() over non-null values.
Describe describe(std::vector<double> values);

} // namespace ks::core
