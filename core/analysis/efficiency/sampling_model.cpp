// Token sampling (elementwise family): AITER's aiter::mixed_sample_outer_exponential(out (T), logits (T, V),
// exponentials (T, V), temperatures (T), eps), ATOM's sampler: token[t] = argmax_v(logits[t, v] /
// exponentials[t, v]) after the temperature. TraceLens's model is mixed_sample_outer_exponential
// (PerfModel/extensions/perf_model_extensions.py, category elementwise), mapped by name in
// extensions/pseudo_ops_perf_utils.py get_pseudo_op_mappings:
//   T, V = logits' dims 0 and 1 (Input Dims[1]; 1 for a missing one)
//   FLOPs = 2·T·V
//   bytes = T·V·bpe_logits + T·V·bpe_noise + 4·T (the int32 token ids)
// with the logits' dtype Input type[1] (bf16 when not recorded) and the noise's [2] (float when not
// recorded); bytes null when either has no size; the logits' precision, vector units. Ours sums the
// tensors the kernel touches at their recorded dims and dtypes (the ids, the logits, the noise and the
// per-row temperatures, which TraceLens leaves out): the same numbers but for the temperatures' T·4.
// (The project's notes once said TraceLens's constructor read param_details before setting it, so that
// it had no row; the sources read, the version that maps the mHC ops, set it first and model the op.
// The version the shared references pin, 171dd747, could not be read: docs/tracelens-differences.md.)

#include "core/analysis/efficiency/model_support.h"

#include <array>
#include <string>

namespace ks::core {

namespace {

    using namespace perf_detail;

    double dimOr1(const std::vector<std::int64_t>& shape, std::size_t i)
    {
        return i < shape.size() ? double(shape[i]) : 1;
    }

    // A tensor's bytes at its recorded dtype; 0 when the call has no such argument.
    double tensorBytes(const OpArgs& args, std::size_t i, const ModelReading& reading)
    {
        if (!present(args, i))
            return 0;
        return elementCount(*args.dims[i]) * sizeOf(args.type(i), reading);
    }

    ModelResult mixedSampleOuterExponential(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto logits = shapeOfRank(args, 1, -1);
        if (!logits)
            return SkipReason::MalformedDims;
        const double t = dimOr1(*logits, 0), v = dimOr1(*logits, 1);
        const std::string_view logitsType =
            args.types.size() > 1 ? args.type(1) : std::string_view("c10::bfloat16");
        const std::string_view noiseType = args.types.size() > 2 ? args.type(2) : std::string_view("float");
        const double tracelensBytes =
            t * v * sizeOf(logitsType, reading) + t * v * sizeOf(noiseType, reading) + 4 * t;
        double bytes = tracelensBytes;
        if (!reading.tracelens && present(args, 0) && present(args, 2))
            bytes = tensorBytes(args, 0, reading) + elementCount(*logits) * sizeOf(logitsType, reading)
                + tensorBytes(args, 2, reading) + tensorBytes(args, 3, reading);
        return estimate(2 * t * v, bytes, logitsType, ComputeUnit::Vector, reading);
    }

    constexpr std::array kModels {
        OpModel {
            "aiter::mixed_sample_outer_exponential", OpFamily::Elementwise, mixedSampleOuterExponential },
    };

} // namespace

std::span<const OpModel> samplingModels()
{
    return kModels;
}

} // namespace ks::core
