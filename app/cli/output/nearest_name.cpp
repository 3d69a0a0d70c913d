#include "app/cli/output/nearest_name.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace ks::cli {

std::size_t editDistance(std::string_view a, std::string_view b)
{
    // One row of the dynamic-programming table is enough: row[j] holds the
    // distance between the first i characters of a and the first j of b.
    std::vector<std::size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), std::size_t { 0 });
    for (std::size_t i = 1; i <= a.size(); ++i) {
        std::size_t diagonal = row[0];
        row[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t above = row[j];
            const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            row[j] = std::min({ above + 1, row[j - 1] + 1, substitute });
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::optional<std::string> nearestName(std::string_view typed, std::span<const std::string> candidates)
{
    std::optional<std::string> best;
    std::size_t bestDistance = 0;
    for (const std::string& candidate : candidates) {
        const std::size_t distance = editDistance(typed, candidate);
        const std::size_t allowed = std::max<std::size_t>(1, std::max(typed.size(), candidate.size()) / 3);
        if (distance > allowed)
            continue;
        if (!best || distance < bestDistance) {
            best = candidate;
            bestDistance = distance;
        }
    }
    return best;
}

} // namespace ks::cli
