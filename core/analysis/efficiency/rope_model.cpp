// Rotary position embedding. TraceLens's FusedRoPE model (PerfModel/perf_model.py):
// each pair of head-dim elements takes 4 multiplies and 2 adds, so
//   FLOPs = 3·n;  bytes = 2·n·bpe  (read and write every element; the cos/sin table left out)
// with n the elements rotated: the input tensor for TransformerEngine's FusedRoPEFunc,
// query plus key for vLLM's rotary_embedding(positions, query, key, head_size, cos_sin_cache, is_neox).
// SGLang's sgl_kernel::rotary_embedding(positions, query, key, head_size, cos_sin_cache, is_neox)
// rotates only the cache's width of each head (TraceLens's sgl_kernel_rotary_embedding):
//   n = tokens·(query heads + key heads)·rot, heads = width / head_size (Concrete Inputs[3], else
//   the query's last dim), rot = the cos/sin cache's dim 1.
// AITER's rope_cached_positions_2c_fwd_impl(out_x, out_y, in_x, in_y, cos, sin, positions, ...) rotates
// two channels, q and k (TraceLens's aiter_rope_cached_positions_2c_fwd_impl): n = prod(in_x) +
// prod(in_y), at out_x's dtype (Input type[0]). TraceLens's FusedRoPE takes 2 bytes per element for a
// dtype with no size (`name2bpe(dtype) or 2`); ours leaves the bytes null there.
// Held against the vector peak of the input's precision.

#include "core/analysis/efficiency/model_support.h"

#include <array>
#include <cmath>

namespace ks::core {

namespace {

    using namespace perf_detail;

    ModelResult ropeOf(double n, std::string_view dtype, const ModelReading& reading)
    {
        return estimate(3 * n, 2 * n * sizeOf(dtype, reading), dtype, ComputeUnit::Vector, reading);
    }

    ModelResult rope(const OpArgs& args, std::size_t first, std::size_t count, const ModelReading& reading)
    {
        double n = 0;
        for (std::size_t i = first; i < first + count; ++i) {
            const auto s = shapeOf(args, rankAtLeast(i, 1));
            if (!s)
                return SkipReason::MalformedDims;
            n += elementCount(*s);
        }
        return ropeOf(n, args.type(first), reading);
    }

    // aiter::rope_cached_positions_2c_fwd_impl: the inputs at 2 and 3.
    ModelResult ropeCached2c(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto s = shapesOf(args, { rankAtLeast(2, 0), rankAtLeast(3, 0) });
        if (!s)
            return SkipReason::MalformedDims;
        const auto& [x, y] = *s;
        const double n = elementCount(x) + elementCount(y);
        const double bpe = sizeOf(args.type(0), reading);
        const double bytes = 2 * n * (std::isnan(bpe) && reading.tracelens ? 2.0 : bpe);
        return estimate(3 * n, bytes, args.type(0), ComputeUnit::Vector, reading);
    }

    ModelResult fusedRope(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return rope(args, 0, 1, reading);
    }

    ModelResult vllmRotary(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return rope(args, 1, 2, reading);
    }

    ModelResult sglRotary(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto s = shapesOf(args, { rankIs(1, 2), rankIs(2, 2), rankIs(4, 2) });
        if (!s)
            return SkipReason::MalformedDims;
        const auto& [q, k, cache] = *s;
        const double head = double(concreteInt(args.concreteAt(3)).value_or(q.back()));
        if (head <= 0)
            return SkipReason::MalformedDims;
        const double n = double(q[0]) * (double(q[1]) / head + double(k[1]) / head) * double(cache[1]);
        return ropeOf(n, args.type(1), reading);
    }

    constexpr std::array kModels {
        OpModel { "FusedRoPEFunc", OpFamily::Rope, fusedRope },
        OpModel { "_C::rotary_embedding", OpFamily::Rope, vllmRotary },
        OpModel { "vllm::rotary_embedding", OpFamily::Rope, vllmRotary },
        OpModel { "sgl_kernel::rotary_embedding", OpFamily::Rope, sglRotary },
        OpModel { "aiter::rope_cached_positions_2c_fwd_impl", OpFamily::Rope, ropeCached2c },
    };

} // namespace

std::span<const OpModel> ropeModels()
{
    return kModels;
}

} // namespace ks::core
