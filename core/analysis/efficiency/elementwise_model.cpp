// Elementwise family. TraceLens's UnaryElementwise and BinaryElementwise models
// (PerfModel/perf_model.py), held against the vector peak of the first input's precision:
//   unary:  FLOPs = n;      bytes = n·bpe_in + n·bpe_out
//           n = prod(input); the output dtype is argument 1's when it is a tensor
//           (copy_'s destination), else the input's.
//   binary: FLOPs = n_out;  bytes = n_1·bpe_1 + n_2·bpe_2 + n_out·bpe_out
//           n_out = prod(broadcast(shape_1, shape_2)); a scalar operand is one element
//           (a "Scalar" of 4 bytes); the output dtype is argument 2's when it is a
//           tensor, else the wider input's when both are tensors, else the first's.
// The op lists are TraceLens's (torch_op_mapping.py), with more unary and binary aten
// ops that follow the same pattern.

#include "core/analysis/efficiency/model_support.h"

#include <algorithm>
#include <array>

namespace ks::core {

namespace {

    using namespace perf_detail;
    using Shape = std::vector<std::int64_t>;

    ModelResult unary(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto in = shapeOfRank(args, 0, -1);
        if (!in)
            return SkipReason::MalformedDims;
        const double bpeIn = sizeOf(args.type(0), reading);
        const double bpeOut = present(args, 1) ? sizeOf(args.type(1), reading) : bpeIn;
        const double n = elementCount(*in);
        return estimate(n, n * bpeIn + n * bpeOut, args.type(0), ComputeUnit::Vector, reading);
    }

    // upsample_nearest{1,2,3}d(input, output_size, scales...): TraceLens's aten_upsample_nearest,
    // output = input's (N, C) then output_size; FLOPs = prod(out); bytes = (prod(x) + prod(out))·bpe(x).
    // Without an output_size (scales only) TraceLens has no estimate: malformed here.
    ModelResult upsampleNearest(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto in = shapeOfRank(args, 0, -1);
        const auto size = concreteIntList(args.concreteAt(1));
        if (!in || in->size() < 2 || !size || size->empty())
            return SkipReason::MalformedDims;
        Shape out { (*in)[0], (*in)[1] };
        out.insert(out.end(), size->begin(), size->end());
        const double nOut = elementCount(out);
        return estimate(nOut, (elementCount(*in) + nOut) * sizeOf(args.type(0), reading), args.type(0),
            ComputeUnit::Vector, reading);
    }

    // The gated activations act_and_mul(out, input): input is [gate | up], twice out's width.
    // TraceLens's aiter_silu_and_mul (PerfModel/extensions/perf_model_extensions.py) and its
    // subclasses sgl_kernel_silu_and_mul, aiter_gelu_and_mul, aiter_gelu_tanh_and_mul:
    //   FLOPs = f·prod(out), f = 5 (SiLU), 8 (erf GELU), 10 (tanh GELU)
    //   bytes = 2·prod(out)·bpe(input) + prod(out)·bpe(out)   (UnaryElementwise sheet, input's precision)
    ModelResult gatedActivation(const OpArgs& args, double flopsPerElement, const ModelReading& reading)
    {
        const auto out = shapeOfRank(args, 0, -1);
        if (!out || !shapeOfRank(args, 1, -1))
            return SkipReason::MalformedDims;
        const double n = elementCount(*out);
        return estimate(flopsPerElement * n,
            2 * n * sizeOf(args.type(1), reading) + n * sizeOf(args.type(0), reading), args.type(1),
            ComputeUnit::Vector, reading);
    }

    ModelResult siluAndMul(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return gatedActivation(args, 5, reading);
    }

    ModelResult geluAndMul(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return gatedActivation(args, 8, reading);
    }

    ModelResult geluTanhAndMul(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return gatedActivation(args, 10, reading);
    }

    // numpy's broadcasting: shapes aligned on the right, a 1 stretches.
    std::optional<Shape> broadcast(Shape a, Shape b)
    {
        const std::size_t rank = std::max(a.size(), b.size());
        a.insert(a.begin(), rank - a.size(), 1);
        b.insert(b.begin(), rank - b.size(), 1);
        Shape out(rank);
        for (std::size_t i = 0; i < rank; ++i) {
            if (a[i] != b[i] && a[i] != 1 && b[i] != 1)
                return std::nullopt;
            out[i] = std::max(a[i], b[i]);
        }
        return out;
    }

    // A binary elementwise op; `outputArg`: whether argument 2, when a tensor, is the output.
    ModelResult binaryOp(const OpArgs& args, bool outputArg, const ModelReading& reading)
    {
        const auto a = shapeOfRank(args, 0, -1);
        const auto b = shapeOfRank(args, 1, -1);
        if (!a || !b)
            return SkipReason::MalformedDims;
        const auto out = broadcast(*a, *b);
        if (!out)
            return SkipReason::MismatchedShapes;
        const double bpeA = sizeOf(args.type(0), reading);
        const double bpeB = sizeOf(args.type(1), reading);
        double bpeOut = bpeA;
        if (outputArg && present(args, 2))
            bpeOut = sizeOf(args.type(2), reading);
        else if (!a->empty() && !b->empty())
            bpeOut = std::max(bpeA, bpeB);
        const double n = elementCount(*out);
        return estimate(n, elementCount(*a) * bpeA + elementCount(*b) * bpeB + n * bpeOut, args.type(0),
            ComputeUnit::Vector, reading);
    }

    ModelResult binary(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return binaryOp(args, true, reading);
    }

    // LigerSiLUMulFunction(a, b) = SiLU(a)·b (Liger-Kernel's swiglu): TraceLens's
    // liger_silu_mul_function (PerfModel/perf_model.py), a BinaryElementwise whose output dtype is
    // never read from the args: the wider of a's and b's (both tensors). FLOPs = prod(broadcast(a, b)).
    ModelResult ligerSiluMul(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return binaryOp(args, false, reading);
    }

    constexpr std::array kModels {
        // TraceLens's unary list
        OpModel { "aten::copy", OpFamily::Elementwise, unary },
        OpModel { "aten::copy_", OpFamily::Elementwise, unary },
        OpModel { "aten::clamp_min", OpFamily::Elementwise, unary },
        OpModel { "aten::clamp_min_", OpFamily::Elementwise, unary },
        OpModel { "aten::clamp_max", OpFamily::Elementwise, unary },
        OpModel { "aten::clamp_max_", OpFamily::Elementwise, unary },
        OpModel { "aten::sigmoid", OpFamily::Elementwise, unary },
        OpModel { "aten::rsqrt", OpFamily::Elementwise, unary },
        OpModel { "aten::silu", OpFamily::Elementwise, unary },
        OpModel { "aten::neg", OpFamily::Elementwise, unary },
        OpModel { "aten::pow", OpFamily::Elementwise, unary },
        // more unary ops of the same pattern
        OpModel { "aten::relu", OpFamily::Elementwise, unary },
        OpModel { "aten::relu_", OpFamily::Elementwise, unary },
        OpModel { "aten::gelu", OpFamily::Elementwise, unary },
        OpModel { "aten::tanh", OpFamily::Elementwise, unary },
        OpModel { "aten::exp", OpFamily::Elementwise, unary },
        OpModel { "aten::log", OpFamily::Elementwise, unary },
        OpModel { "aten::sqrt", OpFamily::Elementwise, unary },
        OpModel { "aten::abs", OpFamily::Elementwise, unary },
        OpModel { "aten::reciprocal", OpFamily::Elementwise, unary },
        OpModel { "aten::sin", OpFamily::Elementwise, unary },
        OpModel { "aten::cos", OpFamily::Elementwise, unary },
        OpModel { "aten::clamp", OpFamily::Elementwise, unary },
        OpModel { "aten::clamp_", OpFamily::Elementwise, unary },
        OpModel { "aten::silu_", OpFamily::Elementwise, unary },
        OpModel { "aten::upsample_nearest1d", OpFamily::Elementwise, upsampleNearest },
        OpModel { "aten::upsample_nearest2d", OpFamily::Elementwise, upsampleNearest },
        OpModel { "aten::upsample_nearest3d", OpFamily::Elementwise, upsampleNearest },
        // TraceLens's gated activations (pseudo_ops_perf_utils.py get_pseudo_op_mappings)
        OpModel { "sgl_kernel::silu_and_mul", OpFamily::Elementwise, siluAndMul },
        OpModel { "aiter::silu_and_mul", OpFamily::Elementwise, siluAndMul },
        OpModel { "_C::silu_and_mul", OpFamily::Elementwise, siluAndMul },
        OpModel { "aiter::gelu_and_mul", OpFamily::Elementwise, geluAndMul },
        OpModel { "aiter::gelu_tanh_and_mul", OpFamily::Elementwise, geluTanhAndMul },
        // TraceLens's binary list
        OpModel { "aten::div", OpFamily::Elementwise, binary },
        OpModel { "aten::div_", OpFamily::Elementwise, binary },
        OpModel { "aten::mul", OpFamily::Elementwise, binary },
        OpModel { "aten::mul_", OpFamily::Elementwise, binary },
        OpModel { "aten::add", OpFamily::Elementwise, binary },
        OpModel { "aten::add_", OpFamily::Elementwise, binary },
        OpModel { "aten::sigmoid_backward", OpFamily::Elementwise, binary },
        OpModel { "aten::threshold_backward", OpFamily::Elementwise, binary },
        OpModel { "LigerSiLUMulFunction", OpFamily::Elementwise, ligerSiluMul },
        // more binary ops of the same pattern
        OpModel { "aten::sub", OpFamily::Elementwise, binary },
        OpModel { "aten::sub_", OpFamily::Elementwise, binary },
        OpModel { "aten::silu_backward", OpFamily::Elementwise, binary },
        OpModel { "aten::gelu_backward", OpFamily::Elementwise, binary },
        OpModel { "aten::tanh_backward", OpFamily::Elementwise, binary },
        OpModel { "aten::maximum", OpFamily::Elementwise, binary },
        OpModel { "aten::minimum", OpFamily::Elementwise, binary },
    };

} // namespace

std::span<const OpModel> elementwiseModels()
{
    return kModels;
}

} // namespace ks::core
