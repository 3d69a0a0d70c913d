#pragma once

// What the family models share: reading a dtype's size and checking shapes.

#include "core/analysis/efficiency/dtypes.h"
#include "core/analysis/efficiency/perf_model.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

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

// Which argument a model reads and the rank it needs: exactly `rank` dims, or (rank < 0) at least
// `minRank`. Made with rankIs or rankAtLeast.
struct DimsSpec
{
    std::size_t index;
    int rank;
    std::size_t minRank;
};

constexpr DimsSpec rankIs(std::size_t index, int rank)
{
    return { index, rank, 0 };
}

constexpr DimsSpec rankAtLeast(std::size_t index, std::size_t minRank)
{
    return { index, -1, minRank };
}

// The argument's shape when it meets the spec (non-negative dims).
inline std::optional<std::vector<std::int64_t>> shapeOf(const OpArgs& args, const DimsSpec& spec)
{
    auto s = shapeOfRank(args, spec.index, spec.rank);
    if (s && s->size() < spec.minRank)
        return std::nullopt;
    return s;
}

// The models' "read dims, check rank" preamble: every argument's shape, in the order asked, or
// nullopt when any misses its spec (the call's SkipReason::MalformedDims):
//   const auto s = shapesOf(args, { rankIs(0, 3), rankIs(1, 2) });
//   if (!s) return SkipReason::MalformedDims;
//   const auto& [out, x] = *s;
template <std::size_t N>
std::optional<std::array<std::vector<std::int64_t>, N>> shapesOf(
    const OpArgs& args, const DimsSpec (&specs)[N])
{
    std::array<std::vector<std::int64_t>, N> shapes;
    for (std::size_t i = 0; i < N; ++i) {
        auto s = shapeOf(args, specs[i]);
        if (!s)
            return std::nullopt;
        shapes[i] = std::move(*s);
    }
    return shapes;
}

// A present (non-empty) tensor argument, such as an optional bias.
inline bool present(const OpArgs& args, std::size_t i)
{
    return args.hasDims(i) && !args.dims[i]->empty();
}

// Bytes per element of a dtype in the reading's table; NaN when the table has no
// size for it, so that the bytes computed from it are NaN (TraceLens's None: the
// call keeps its row, without bytes).
inline double sizeOf(std::string_view type, const ModelReading& reading)
{
    const auto bpe = bytesPerElement(type, reading.dtypes());
    return bpe ? *bpe : std::numeric_limits<double>::quiet_NaN();
}

// An optional tensor argument. Ours: present when its dims are non-empty (an absent
// tensor is recorded as []). TraceLens's: `Input Dims[i] is not None`, true for every
// argument the call has, since a trace never holds null.
inline bool presentIn(const OpArgs& args, std::size_t i, const ModelReading& reading)
{
    return reading.tracelens ? i < args.dims.size() : present(args, i);
}

// A boolean Concrete Input. Ours: "True"/"False" (fallback when neither); TraceLens's
// bool() of the string: true when it is non-empty, "False" included.
inline bool flagIn(std::string_view text, const ModelReading& reading, bool fallback)
{
    return reading.tracelens ? !text.empty() : concreteBool(text).value_or(fallback);
}

// TraceLens's DTYPE_TO_BYTES (moe_perf_model_extensions.py), which its MoE models read instead of
// name2bpe: exact, case-sensitive names; each model has its own default for a name not there.
inline std::optional<double> moeBytesPerElement(std::string_view dtype)
{
    static constexpr std::pair<std::string_view, double> kTable[] = { { "Float8_e4m3fn", 1 },
        { "Float8_e4m3fnuz", 1 }, { "Float8_e5m2", 1 }, { "Float8_e5m2fnuz", 1 }, { "FP8", 1 },
        { "FP4", 0.5 }, { "BFloat16", 2 }, { "Float16", 2 }, { "Half", 2 }, { "Float32", 4 }, { "Float", 4 },
        { "c10::BFloat16", 2 }, { "c10::Float8_e4m3fn", 1 }, { "c10::Float8_e4m3fnuz", 1 },
        { "c10::Float4_e2m1fn_x2", 0.5 }, { "c10::Half", 2 }, { "c10::Float", 4 } };
    for (const auto& [name, bytes] : kTable)
        if (name == dtype)
            return bytes;
    return std::nullopt;
}

inline PerfEstimate estimate(double flops, double bytes, std::string_view dtype, ComputeUnit unit,
    const ModelReading& reading, std::string params = {}, std::string groupKey = {})
{
    return PerfEstimate { flops, bytes, precisionOf(dtype, reading.dtypes()), unit, std::move(params),
        std::move(groupKey) };
}

} // namespace ks::core::perf_detail
