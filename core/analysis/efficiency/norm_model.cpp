// Normalisation family. TraceLens's Normalization models (PerfModel/perf_model.py),
// held against the vector peak of the input's precision; n = prod(input), C the
// normalised channels (dim 1 for batch and group norm, prod(normalized_shape) for
// layer and RMS norm):
//   forward FLOPs = 3·C + (training ? 3·n : 0) + 3·C + 2·n
//   forward bytes = n·bpe_in + n·bpe_out + T·C·bpe_in,
//                   T = 2 (mean, var) + (affine ? 1 + (bias ? 1 : 0) : 0) + (training ? 2 : 0)
//   RMS forward:   FLOPs = (n/C)·(2·C + 2) + n·(affine ? 2 : 1);  bytes = n·(bpe_in + bpe_out) + (affine ?
//   C·bpe_in : 0) backward FLOPs = C·((training ? 0 : 3) + 4·n/C + (dX ? (training ? 5·n/C : 0) : 2·n/C))
//   backward bytes = n·bpe_out + n·bpe_in·(dX && training ? 2 : 1) + (training ? C·bpe_in : 0)
//                    + (affine ? C·bpe_in + (training ? C·bpe_in·(bias ? 2 : 1) : 0) : 0)
// Training is always true for layer, group and RMS norm (TraceLens's choice), and read
// from the op's `training` argument for batch norm. Differences from TraceLens: an
// absent weight or bias (an empty dims entry) counts as absent, where TraceLens tests
// for None, which a trace never holds; "False" is read as false (TraceLens's bool() of
// the string is true); native_group_norm's weight is argument 1.

#include "core/analysis/efficiency/model_support.h"

#include <array>

namespace ks::core {

namespace {

    using namespace perf_detail;

    struct Norm
    {
        double n = 0, c = 0;
        bool affine = false, bias = false, training = true;
    };

    ModelResult forward(const OpArgs& args, const Norm& m)
    {
        const auto bpe = bytesPerElement(args.type(0));
        if (!bpe)
            return SkipReason::UnknownDtype;
        if (m.c <= 0)
            return SkipReason::MalformedDims;
        const double flops = 3 * m.c + (m.training ? 3 * m.n : 0) + 3 * m.c + 2 * m.n;
        const double tensors = 2 + (m.affine ? 1 + (m.bias ? 1 : 0) : 0) + (m.training ? 2 : 0);
        return estimate(flops, 2 * m.n * *bpe + tensors * m.c * *bpe, args.type(0), ComputeUnit::Vector,
            std::string("C=") + std::to_string(std::int64_t(m.c)) + (m.affine ? " affine" : ""));
    }

    ModelResult backward(const OpArgs& args, std::size_t input, const Norm& m, bool inputGrad)
    {
        const auto bpe = bytesPerElement(args.type(input));
        if (!bpe)
            return SkipReason::UnknownDtype;
        if (m.c <= 0)
            return SkipReason::MalformedDims;
        const double perChannel = m.n / m.c;
        double fpc = (m.training ? 0 : 3) + 4 * perChannel;
        if (inputGrad)
            fpc += m.training ? 5 * perChannel : 0;
        else
            fpc += 2 * perChannel;
        double bytes = m.n * *bpe + m.n * *bpe * (inputGrad && m.training ? 2 : 1);
        if (m.training)
            bytes += m.c * *bpe;
        if (m.affine)
            bytes += m.c * *bpe + (m.training ? m.c * *bpe * (m.bias ? 2 : 1) : 0);
        return estimate(m.c * fpc, bytes, args.type(input), ComputeUnit::Vector,
            std::string("C=") + std::to_string(std::int64_t(m.c)) + (m.affine ? " affine" : ""));
    }

    double prodOf(const std::vector<std::int64_t>& s)
    {
        return elementCount(s);
    }

    // normalized_shape from Concrete Inputs; traces without them give the weight's shape,
    // which is normalized_shape whenever the op is affine.
    std::optional<std::vector<std::int64_t>> normalizedShape(
        const OpArgs& args, std::size_t concrete, std::size_t weight)
    {
        if (auto shape = concreteIntList(args.concreteAt(concrete)))
            return shape;
        if (present(args, weight))
            return args.shape(weight);
        return std::nullopt;
    }

    // batch_norm(input, weight, bias, running_mean, running_var, training, momentum, eps, ...)
    ModelResult batchNorm(std::string_view, const OpArgs& args)
    {
        const auto x = shapeOfRank(args, 0, -1);
        if (!x || x->size() < 2)
            return SkipReason::MalformedDims;
        return forward(args,
            { prodOf(*x), double((*x)[1]), present(args, 1), present(args, 2),
                concreteBool(args.concreteAt(5)).value_or(true) });
    }

    // layer_norm(input, normalized_shape, weight, bias, eps, ...)
    ModelResult layerNorm(std::string_view, const OpArgs& args)
    {
        const auto x = shapeOfRank(args, 0, -1);
        const auto shape = normalizedShape(args, 1, 2);
        if (!x || !shape)
            return SkipReason::MalformedDims;
        return forward(args, { prodOf(*x), prodOf(*shape), present(args, 2), present(args, 3), true });
    }

    // group_norm(input, num_groups, weight, bias, eps, ...); native_group_norm(input, weight, bias, N, C,
    // HxW, group, eps)
    ModelResult groupNorm(std::string_view name, const OpArgs& args)
    {
        const auto x = shapeOfRank(args, 0, -1);
        if (!x || x->size() < 2)
            return SkipReason::MalformedDims;
        const std::size_t weight = name == "aten::native_group_norm" ? 1 : 2;
        return forward(
            args, { prodOf(*x), double((*x)[1]), present(args, weight), present(args, weight + 1), true });
    }

    // rms_norm / _fused_rms_norm(input, normalized_shape, weight, eps)
    ModelResult rmsNorm(std::string_view, const OpArgs& args)
    {
        const auto x = shapeOfRank(args, 0, -1);
        const auto shape = normalizedShape(args, 1, 2);
        if (!x || !shape)
            return SkipReason::MalformedDims;
        const auto bpe = bytesPerElement(args.type(0));
        if (!bpe)
            return SkipReason::UnknownDtype;
        const double n = prodOf(*x), c = prodOf(*shape);
        if (c <= 0)
            return SkipReason::MalformedDims;
        const bool affine = present(args, 2);
        const double flops = (n / c) * (2 * c + 2) + n * (affine ? 2 : 1);
        const double bytes = 2 * n * *bpe + (affine ? c * *bpe : 0);
        return estimate(flops, bytes, args.type(0), ComputeUnit::Vector,
            std::string("C=") + std::to_string(std::int64_t(c)) + (affine ? " affine" : ""));
    }

    // native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask)
    ModelResult layerNormBackward(std::string_view, const OpArgs& args)
    {
        const auto x = shapeOfRank(args, 1, -1);
        const auto shape = normalizedShape(args, 2, 5);
        if (!x || !shape)
            return SkipReason::MalformedDims;
        const auto mask = args.concreteAt(7);
        const bool dx = mask.find("True") < mask.find(',') || mask.empty();
        const bool affine = present(args, 5), bias = present(args, 6);
        return backward(args, 1, { prodOf(*x), prodOf(*shape), affine, bias, true }, dx);
    }

    // native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean,
    //     save_invstd, train, eps, output_mask)
    ModelResult batchNormBackward(std::string_view, const OpArgs& args)
    {
        const auto x = shapeOfRank(args, 1, -1);
        if (!x || x->size() < 2)
            return SkipReason::MalformedDims;
        const auto mask = args.concreteAt(9);
        const bool dx = mask.find("True") < mask.find(',') || mask.empty();
        return backward(args, 1,
            { prodOf(*x), double((*x)[1]), present(args, 2), true,
                concreteBool(args.concreteAt(7)).value_or(true) },
            dx);
    }

    constexpr std::array kModels {
        OpModel { "aten::batch_norm", OpFamily::Norm, batchNorm },
        OpModel { "aten::native_batch_norm", OpFamily::Norm, batchNorm },
        OpModel { "aten::cudnn_batch_norm", OpFamily::Norm, batchNorm },
        OpModel { "aten::miopen_batch_norm", OpFamily::Norm, batchNorm },
        OpModel { "aten::layer_norm", OpFamily::Norm, layerNorm },
        OpModel { "aten::native_layer_norm", OpFamily::Norm, layerNorm },
        OpModel { "aten::group_norm", OpFamily::Norm, groupNorm },
        OpModel { "aten::native_group_norm", OpFamily::Norm, groupNorm },
        OpModel { "aten::rms_norm", OpFamily::Norm, rmsNorm },
        OpModel { "aten::_fused_rms_norm", OpFamily::Norm, rmsNorm },
        OpModel { "aten::native_layer_norm_backward", OpFamily::Norm, layerNormBackward },
        OpModel { "aten::native_batch_norm_backward", OpFamily::Norm, batchNormBackward },
    };

} // namespace

std::span<const OpModel> normModels()
{
    return kModels;
}

} // namespace ks::core
