#include "core/analysis/tables/pandas_numerics.h"

#include <algorithm>
#include <cmath>

namespace ks::core {

double roundHalfEven(double value, int decimals)
{
    if (!std::isfinite(value))
        return value;
    const double scale = std::pow(10.0, decimals);
    const double scaled = value * scale;
    // nearbyint uses the current rounding mode: round-half-even by default.
    return std::nearbyint(scaled) / scale;
}

double quantileSorted(const std::vector<double>& sorted, double p)
{
    if (sorted.empty())
        return std::nan("");
    const double position = p * static_cast<double>(sorted.size() - 1);
    const auto lower = static_cast<std::size_t>(std::floor(position));
    const std::size_t upper = std::min(lower + 1, sorted.size() - 1);
    const double fraction = position - static_cast<double>(lower);
    // numpy's _lerp: a + (b - a) * t, computed from the upper end when t >= 0.5
    const double a = sorted[lower];
    const double b = sorted[upper];
    const double diff = b - a;
    return fraction >= 0.5 ? b - diff * (1.0 - fraction) : a + diff * fraction;
}

double pairwiseSum(const std::vector<double>& values)
{
    // numpy: blocks of 8 accumulators below 128 elements, recursive halves above.
    auto sum = [&values](auto&& self, std::size_t begin, std::size_t n) -> double {
        if (n < 8) {
            double s = 0.0;
            for (std::size_t i = 0; i < n; ++i)
                s += values[begin + i];
            return s;
        }
        if (n <= 128) {
            double r[8];
            for (std::size_t k = 0; k < 8; ++k)
                r[k] = values[begin + k];
            std::size_t i = 8;
            for (; i + 8 <= n; i += 8)
                for (std::size_t k = 0; k < 8; ++k)
                    r[k] += values[begin + i + k];
            double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]));
            for (; i < n; ++i)
                s += values[begin + i];
            return s;
        }
        std::size_t half = n / 2;
        half -= half % 8;
        return self(self, begin, half) + self(self, begin + half, n - half);
    };
    return sum(sum, 0, values.size());
}

std::optional<double> sampleStd(const std::vector<double>& values)
{
    // pandas computes std through bottleneck's nanstd: two passes with plain
    // running sums (not numpy's pairwise sum).
    if (values.size() < 2)
        return std::nullopt;
    double sum = 0.0;
    for (double v : values)
        sum += v;
    const double mean = sum / static_cast<double>(values.size());
    double squares = 0.0;
    for (double v : values)
        squares += (v - mean) * (v - mean);
    return std::sqrt(squares / static_cast<double>(values.size() - 1));
}

Describe describe(std::vector<double> values)
{
    std::erase_if(values, [](double v) { return std::isnan(v); });
    Describe d;
    d.count = static_cast<std::int64_t>(values.size());
    if (values.empty())
        return d;
    d.mean = pairwiseSum(values) / static_cast<double>(values.size());
    d.std = sampleStd(values);
    std::sort(values.begin(), values.end());
    d.min = values.front();
    d.max = values.back();
    d.q25 = quantileSorted(values, 0.25);
    d.q50 = quantileSorted(values, 0.5);
    d.q75 = quantileSorted(values, 0.75);
    return d;
}

} // namespace ks::core
