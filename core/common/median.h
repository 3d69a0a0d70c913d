#pragma once

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace ks::core {

// pandas' median: the middle value, or the mean of the two middle ones for an
// even count; nullopt for no values.
inline std::optional<double> median(std::vector<double> values)
{
    if (values.empty())
        return std::nullopt;
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

} // namespace ks::core
