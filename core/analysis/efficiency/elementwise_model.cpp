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

    ModelResult unary(std::string_view, const OpArgs& args)
    {
        const auto in = shapeOfRank(args, 0, -1);
        if (!in)
            return SkipReason::MalformedDims;
        const auto bpeIn = bytesPerElement(args.type(0));
        const auto bpeOut = present(args, 1) ? bytesPerElement(args.type(1)) : bpeIn;
        if (!bpeIn || !bpeOut)
            return SkipReason::UnknownDtype;
        const double n = elementCount(*in);
        return estimate(n, n * *bpeIn + n * *bpeOut, args.type(0), ComputeUnit::Vector);
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

    ModelResult binary(std::string_view, const OpArgs& args)
    {
        const auto a = shapeOfRank(args, 0, -1);
        const auto b = shapeOfRank(args, 1, -1);
        if (!a || !b)
            return SkipReason::MalformedDims;
        const auto out = broadcast(*a, *b);
        if (!out)
            return SkipReason::MismatchedShapes;
        const auto bpeA = bytesPerElement(args.type(0));
        const auto bpeB = bytesPerElement(args.type(1));
        if (!bpeA || !bpeB)
            return SkipReason::UnknownDtype;
        std::optional<double> bpeOut;
        if (present(args, 2))
            bpeOut = bytesPerElement(args.type(2));
        else
            bpeOut = !a->empty() && !b->empty() ? std::max(*bpeA, *bpeB) : *bpeA;
        if (!bpeOut)
            return SkipReason::UnknownDtype;
        const double n = elementCount(*out);
        return estimate(n, elementCount(*a) * *bpeA + elementCount(*b) * *bpeB + n * *bpeOut, args.type(0),
            ComputeUnit::Vector);
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
        // TraceLens's binary list
        OpModel { "aten::div", OpFamily::Elementwise, binary },
        OpModel { "aten::div_", OpFamily::Elementwise, binary },
        OpModel { "aten::mul", OpFamily::Elementwise, binary },
        OpModel { "aten::mul_", OpFamily::Elementwise, binary },
        OpModel { "aten::add", OpFamily::Elementwise, binary },
        OpModel { "aten::add_", OpFamily::Elementwise, binary },
        OpModel { "aten::sigmoid_backward", OpFamily::Elementwise, binary },
        OpModel { "aten::threshold_backward", OpFamily::Elementwise, binary },
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
