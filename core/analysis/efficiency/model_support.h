#pragma once

// What the family models share: reading a dtype's size and checking shapes.

#include "core/analysis/efficiency/dtypes.h"
#include "core/analysis/efficiency/perf_model.h"

#include <optional>
#include <string_view>

namespace ks::core::perf_detail {

// The argument's shape when it has exactly `rank` dims (any rank when rank < 0).
inline std::optional<std::vector<std::int64_t>> shapeOfRank(const OpArgs& args, std::size_t i, int rank)
{
    if (!args.hasDims(i))
        return std::nullopt;
    const auto& s = *args.dims[i];
    if (rank >= 0 && s.size() != static_cast<std::size_t>(rank))
        return std::nullopt;
    for (const std::int64_t d : s)
        if (d < 0)
            return std::nullopt;
    return s;
}

// A present (non-empty) tensor argument, such as an optional bias.
inline bool present(const OpArgs& args, std::size_t i)
{
    return args.hasDims(i) && !args.dims[i]->empty();
}

inline PerfEstimate estimate(
    double flops, double bytes, std::string_view dtype, ComputeUnit unit, std::string params = {})
{
    return PerfEstimate { flops, bytes, precisionOf(dtype), unit, std::move(params) };
}

} // namespace ks::core::perf_detail
