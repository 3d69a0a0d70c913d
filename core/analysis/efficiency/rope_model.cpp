// Rotary position embedding. TraceLens's FusedRoPE model (PerfModel/perf_model.py):
// each pair of head-dim elements takes 4 multiplies and 2 adds, so
//   FLOPs = 3·n;  bytes = 2·n·bpe  (read and write every element; the cos/sin table left out)
// with n the elements rotated: the input tensor for TransformerEngine's FusedRoPEFunc,
// query plus key for vLLM's rotary_embedding(positions, query, key, head_size, cos_sin_cache, is_neox).
// Held against the vector peak of the input's precision.

#include "core/analysis/efficiency/model_support.h"

#include <array>

namespace ks::core {

namespace {

    using namespace perf_detail;

    ModelResult rope(const OpArgs& args, std::size_t first, std::size_t count)
    {
        double n = 0;
        for (std::size_t i = first; i < first + count; ++i) {
            const auto s = shapeOfRank(args, i, -1);
            if (!s || s->empty())
                return SkipReason::MalformedDims;
            n += elementCount(*s);
        }
        const auto bpe = bytesPerElement(args.type(first));
        if (!bpe)
            return SkipReason::UnknownDtype;
        return estimate(3 * n, 2 * n * *bpe, args.type(first), ComputeUnit::Vector);
    }

    ModelResult fusedRope(std::string_view, const OpArgs& args)
    {
        return rope(args, 0, 1);
    }

    ModelResult vllmRotary(std::string_view, const OpArgs& args)
    {
        return rope(args, 1, 2);
    }

    constexpr std::array kModels {
        OpModel { "FusedRoPEFunc", OpFamily::Rope, fusedRope },
        OpModel { "_C::rotary_embedding", OpFamily::Rope, vllmRotary },
        OpModel { "vllm::rotary_embedding", OpFamily::Rope, vllmRotary },
    };

} // namespace

std::span<const OpModel> ropeModels()
{
    return kModels;
}

} // namespace ks::core
