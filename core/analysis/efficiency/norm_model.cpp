// Normalisation family. TraceLens's Normalization models (PerfModel/perf_model.py),
// held against the vector peak of the input's precision; n = prod(input), C the
// normalised channels (dim 1 for batch, instance and group norm, prod(normalized_shape)
// for layer and RMS norm):
//   forward FLOPs = 3·C + (training ? 3·n : 0) + 3·C + 2·n
//   forward bytes = n·bpe_in + n·bpe_out + T·C·bpe_in,
//                   T = 2 (mean, var) + (affine ? 1 + (bias ? 1 : 0) : 0) + (training ? 2 : 0)
//   RMS forward:   FLOPs = (n/C)·(2·C + 2) + n·(affine ? 2 : 1);  bytes = 2·n·bpe + (affine ? C·bpe : 0)
//   backward FLOPs = C·((training ? 0 : 3) + 4·n/C + (dX ? (training ? 5·n/C : 0) : 2·n/C))
//   backward bytes = n·bpe_out + n·bpe_in·(dX && training ? 2 : 1) + (training ? C·bpe_in : 0)
//                    + (affine ? C·bpe_in + (training ? C·bpe_in·(bias ? 2 : 1) : 0) : 0)
//   RMS backward:  FLOPs = (affine ? n : 0) + n + (dX ? 6·n : 0) + (dW && affine ? n + (n/C > 1 ? n : 0) : 0)
//                  bytes = n·bpe_out + 2·n·bpe_in + (affine ? 2·C·bpe_in : 0)
// Training is always true for layer and group norm (TraceLens's choice) and read from
// the op's `training` / `use_input_stats` argument for batch and instance norm.
// Flags and optional tensors are read two ways (ModelReading): by default an absent
// weight or bias (an empty dims entry) is absent and "False" is false; TraceLens's
// reading tests `Input Dims[i] is not None`, true for every argument position, and
// bool() of the Concrete Input string, true when non-empty ("False" included), per
// class as its get_param_details do. Rows group on TraceLens's parameters: input
// shape, dtype and strides, C, bias, affine, training.
// Vendor ops follow TraceLens's pseudo-op and extension models: AITER's _groupnorm_run
// (GroupNorm), rms_norm / rmsnorm (RMS norm, always affine) and the fused add + RMS
// norm ops (n more FLOPs, bytes = 4·n·bpe + C·bpe: x and the residual read, both written).
// A dtype with no size drops the call: TraceLens's bytes raise on None there.
// Backward ops: every form TraceLens's norm_ops maps (plain, native_, miopen_, cudnn_ of batch,
// layer, group and RMS norm backward, and _fused_rms_norm_backward); its instance_norm_backward
// forms raise in TraceLens and have no model here either.
// Primus's fused LayerNorm + modulate and its backward (FusedLnModulate*): their formulas at lnModulate.

#include "core/analysis/efficiency/model_support.h"

#include <array>

namespace ks::core {

namespace {

    using namespace perf_detail;
    using Shape = std::vector<std::int64_t>;

    struct Norm
    {
        std::size_t x = 0; // the input's argument
        double n = 0, c = 0;
        bool affine = false, bias = false, training = true;
    };

    std::string listText(const Shape& s)
    {
        std::string text = "[";
        for (std::size_t i = 0; i < s.size(); ++i)
            text += (i ? ", " : "") + std::to_string(s[i]);
        return text + "]";
    }

    // TraceLens's param_details of a norm call: the rows' key.
    std::string groupKey(const OpArgs& args, const Norm& m)
    {
        const Shape none;
        return "shape=" + listText(args.shape(m.x)) + " dtype=" + std::string(args.type(m.x)) + " stride="
            + listText(m.x < args.strides.size() ? args.strides[m.x] : none) + " C=" + std::to_string(m.c)
            + (m.bias ? " bias" : "") + (m.affine ? " affine" : "") + (m.training ? " training" : "");
    }

    std::string paramsOf(const Norm& m)
    {
        return std::string("C=") + std::to_string(std::int64_t(m.c)) + (m.affine ? " affine" : "")
            + (m.training ? " training" : "");
    }

    std::optional<double> sizeFor(const OpArgs& args, const Norm& m, const ModelReading& reading)
    {
        return bytesPerElement(args.type(m.x), reading.dtypes());
    }

    ModelResult forward(const OpArgs& args, const Norm& m, const ModelReading& reading)
    {
        const auto bpe = sizeFor(args, m, reading);
        if (!bpe)
            return SkipReason::UnknownDtype;
        if (m.c <= 0)
            return SkipReason::MalformedDims;
        const double flops = 3 * m.c + (m.training ? 3 * m.n : 0) + 3 * m.c + 2 * m.n;
        const double tensors = 2 + (m.affine ? 1 + (m.bias ? 1 : 0) : 0) + (m.training ? 2 : 0);
        return estimate(flops, 2 * m.n * *bpe + tensors * m.c * *bpe, args.type(m.x), ComputeUnit::Vector,
            reading, paramsOf(m), groupKey(args, m));
    }

    ModelResult backward(const OpArgs& args, const Norm& m, bool inputGrad, const ModelReading& reading)
    {
        const auto bpe = sizeFor(args, m, reading);
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
        return estimate(
            m.c * fpc, bytes, args.type(m.x), ComputeUnit::Vector, reading, paramsOf(m), groupKey(args, m));
    }

    // RMS norm forward; `added` counts the fused residual add (n FLOPs, x and the
    // residual read and written: 4·n·bpe in all).
    ModelResult rms(const OpArgs& args, const Norm& m, bool added, const ModelReading& reading)
    {
        const auto bpe = sizeFor(args, m, reading);
        if (!bpe)
            return SkipReason::UnknownDtype;
        if (m.c <= 0)
            return SkipReason::MalformedDims;
        double flops = (m.n / m.c) * (2 * m.c + 2) + m.n * (m.affine ? 2 : 1);
        double bytes = 2 * m.n * *bpe + (m.affine ? m.c * *bpe : 0);
        if (added) {
            flops += m.n;
            bytes += 2 * m.n * *bpe;
        }
        Norm key = m;
        key.training = false; // TraceLens's RMS parameters: no bias, not training
        key.bias = false;
        return estimate(
            flops, bytes, args.type(m.x), ComputeUnit::Vector, reading, paramsOf(key), groupKey(args, key));
    }

    // Entry i of a Concrete Inputs bool list ("[True, False, True]"); fallback when absent.
    bool maskAt(std::string_view text, std::size_t i, bool fallback)
    {
        if (text.size() < 2 || text.front() != '[')
            return fallback;
        text = text.substr(1, text.size() - 2);
        for (std::size_t k = 0;; ++k) {
            const std::size_t comma = text.find(',');
            std::string_view item = text.substr(0, comma);
            while (!item.empty() && item.front() == ' ')
                item.remove_prefix(1);
            if (k == i)
                return concreteBool(item).value_or(fallback);
            if (comma == std::string_view::npos)
                return fallback;
            text.remove_prefix(comma + 1);
        }
    }

    // The input's shape with at least a channel dim.
    std::optional<Shape> channelled(const OpArgs& args, std::size_t x)
    {
        auto shape = shapeOfRank(args, x, -1);
        if (!shape || shape->size() < 2)
            return std::nullopt;
        return shape;
    }

    // normalized_shape from Concrete Inputs; traces without them give the weight's shape,
    // which is normalized_shape whenever the op is affine.
    std::optional<Shape> normalizedShape(const OpArgs& args, std::size_t concrete, std::size_t weight)
    {
        if (auto shape = concreteIntList(args.concreteAt(concrete)))
            return shape;
        if (present(args, weight))
            return args.shape(weight);
        return std::nullopt;
    }

    // batch_norm / instance_norm(input, weight, bias, running_mean, running_var, training or
    // use_input_stats, momentum, eps, ...). TraceLens: affine = dims[2] is not None, bias always.
    ModelResult batchNorm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = channelled(args, 0);
        if (!x)
            return SkipReason::MalformedDims;
        Norm m { 0, elementCount(*x), double((*x)[1]), presentIn(args, 2, reading), true,
            flagIn(args.concreteAt(5), reading, true) };
        if (!reading.tracelens) {
            m.affine = present(args, 1);
            m.bias = present(args, 2);
        }
        return forward(args, m, reading);
    }

    // layer_norm(input, normalized_shape, weight, bias, eps, ...)
    ModelResult layerNorm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 0, -1);
        const auto shape = normalizedShape(args, 1, 2);
        if (!x || !shape)
            return SkipReason::MalformedDims;
        return forward(args,
            { 0, elementCount(*x), elementCount(*shape), presentIn(args, 2, reading),
                presentIn(args, 3, reading), true },
            reading);
    }

    // group_norm(input, num_groups, weight, bias, eps, ...); native_group_norm(input, weight, bias, N, C,
    // HxW, group, eps). TraceLens: affine = dims[2] is not None, bias always.
    ModelResult groupNorm(std::string_view name, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = channelled(args, 0);
        if (!x)
            return SkipReason::MalformedDims;
        Norm m { 0, elementCount(*x), double((*x)[1]), presentIn(args, 2, reading), true, true };
        if (!reading.tracelens) {
            const std::size_t weight = name == "aten::group_norm" || name == "aten::miopen_group_norm"
                    || name == "aten::cudnn_group_norm"
                ? 2
                : 1;
            m.affine = present(args, weight);
            m.bias = present(args, weight + 1);
        }
        return forward(args, m, reading);
    }

    // aiter::_groupnorm_run(input, ...): TraceLens's GroupNorm with weight and bias, training.
    ModelResult aiterGroupNorm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = channelled(args, 0);
        if (!x)
            return SkipReason::MalformedDims;
        return forward(args, { 0, elementCount(*x), double((*x)[1]), true, true, true }, reading);
    }

    // _fused_rms_norm / rms_norm(input, normalized_shape, weight, eps)
    ModelResult rmsNorm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 0, -1);
        const auto shape = normalizedShape(args, 1, 2);
        if (!x || !shape)
            return SkipReason::MalformedDims;
        return rms(args,
            { 0, elementCount(*x), elementCount(*shape), presentIn(args, 2, reading), false, false }, false,
            reading);
    }

    // AITER's RMS norms: x at argument `x`, the weight (C) at `weight`, always affine.
    ModelResult aiterRms(
        const OpArgs& args, std::size_t x, std::size_t weight, bool added, const ModelReading& reading)
    {
        const auto sx = shapeOfRank(args, x, -1);
        const auto sw = shapeOfRank(args, weight, -1);
        if (!sx || !sw || sw->empty())
            return SkipReason::MalformedDims;
        return rms(args, { x, elementCount(*sx), double(sw->front()), true, false, false }, added, reading);
    }

    // aiter::rms_norm(input, weight, eps, ...)
    ModelResult aiterRmsNorm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return aiterRms(args, 0, 1, false, reading);
    }

    // aiter::rmsnorm(out, input, weight, eps)
    ModelResult aiterRmsnorm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return aiterRms(args, 1, 2, false, reading);
    }

    // aiter::add_rmsnorm / rmsnorm2d_fwd_with_add_ck(out, input, residual_in, residual_out, weight, eps)
    ModelResult aiterAddRmsnorm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return aiterRms(args, 1, 4, true, reading);
    }

    // native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, output_mask)
    // Both readings take affine and bias from output_mask[1] and [2] (TraceLens's LayerNormBwd too).
    ModelResult layerNormBackward(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 1, -1);
        const auto shape = normalizedShape(args, 2, 5);
        if (!x || !shape)
            return SkipReason::MalformedDims;
        const auto mask = args.concreteAt(7);
        const bool dx = maskAt(mask, 0, true);
        const bool affine = maskAt(mask, 1, present(args, 5)), bias = maskAt(mask, 2, present(args, 6));
        return backward(args, { 1, elementCount(*x), elementCount(*shape), affine, bias, true }, dx, reading);
    }

    // native_batch_norm_backward(grad_out, input, weight, running_mean, running_var, save_mean,
    //     save_invstd, train, eps, output_mask). TraceLens: training = bool(Concrete[7]), affine =
    //     dims[2] is not None, and dX always (output_mask = [dims[0] is not None]).
    // cudnn_ / miopen_batch_norm_backward(input, grad_output, weight, ...): the input is argument 0;
    //     training here (they only run for training-mode batch norm), false in TraceLens's reading.
    ModelResult batchNormBackward(std::string_view name, const OpArgs& args, const ModelReading& reading)
    {
        const bool vendor =
            name == "aten::cudnn_batch_norm_backward" || name == "aten::miopen_batch_norm_backward";
        const std::size_t in = vendor ? 0 : 1;
        const auto x = channelled(args, in);
        if (!x)
            return SkipReason::MalformedDims;
        Norm m { in, elementCount(*x), double((*x)[1]), presentIn(args, 2, reading), true, true };
        bool dx = true;
        if (vendor)
            m.training = !reading.tracelens;
        else
            m.training = flagIn(args.concreteAt(7), reading, true);
        if (!vendor && !reading.tracelens)
            dx = maskAt(args.concreteAt(9), 0, true);
        return backward(args, m, dx, reading);
    }

    // native_group_norm_backward(grad_out, input, mean, rstd, weight, N, C, HxW, group, output_mask).
    // TraceLens: C = channels / groups, affine always (dims[5] is not None), bias, training.
    ModelResult groupNormBackward(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = channelled(args, 1);
        if (!x)
            return SkipReason::MalformedDims;
        const auto mask = args.concreteAt(9);
        Norm m { 1, elementCount(*x), double((*x)[1]), true, true, true };
        if (reading.tracelens) {
            const auto groups = concreteInt(args.concreteAt(8));
            if (!groups || *groups <= 0)
                return SkipReason::MalformedDims;
            m.c /= double(*groups);
        } else {
            m.affine = present(args, 4) && maskAt(mask, 1, true);
            m.bias = maskAt(mask, 2, m.affine);
        }
        return backward(args, m, maskAt(mask, 0, true), reading);
    }

    // _fused_rms_norm_backward / rms_norm_backward(grad_out, input, normalized_shape, rstd, weight,
    //     output_mask). TraceLens: affine always (dims[4] is not None).
    // TraceLens maps the native_, miopen_ and cudnn_ forms to RMSNormBwd too (PerfModel/
    // torch_op_mapping.py norm_ops, 343-345 at 021be66; perf_model.py RMSNormBwd, 4937-5005 at
    // 171dd74). PyTorch's op is _fused_rms_norm_backward; the vendor forms are read with its
    // schema, the layout RMSNormBwd reads for every form.
    ModelResult rmsNormBackward(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 1, -1);
        const auto shape = normalizedShape(args, 2, 4);
        if (!x || !shape)
            return SkipReason::MalformedDims;
        Norm m { 1, elementCount(*x), elementCount(*shape), presentIn(args, 4, reading), false, false };
        const auto bpe = sizeFor(args, m, reading);
        if (!bpe)
            return SkipReason::UnknownDtype;
        if (m.c <= 0)
            return SkipReason::MalformedDims;
        const auto mask = args.concreteAt(5);
        const double n = m.n;
        double flops = (m.affine ? n : 0) + n;
        if (maskAt(mask, 0, true))
            flops += 6 * n;
        if (maskAt(mask, 1, true) && m.affine)
            flops += n + (n / m.c > 1 ? n : 0);
        const double bytes = n * *bpe + 2 * n * *bpe + (m.affine ? 2 * m.c * *bpe : 0);
        return estimate(
            flops, bytes, args.type(1), ComputeUnit::Vector, reading, paramsOf(m), groupKey(args, m));
    }

    // Primus's fused LayerNorm + scale/shift modulation of MM-DiT blocks (perf_model.py FusedLnModulate,
    // FusedLnModulateBackward; torch_op_mapping.py norm_ops): x or grad_out (T, B, H) = Input Dims[0],
    // n = T·B·H, bpe of Input type[0]; mean and rstd are fp32, one per row:
    //   primus::fused_ln_modulate(x, scale (B, H), shift (B, H), eps):
    //     FLOPs = 12·n;  bytes = 2·n·bpe + 2·B·H·bpe + 2·T·B·4
    //   primus::fused_ln_modulate_backward(grad_out, x_norm, mean, rstd, mod_grad (B, H)):
    //     FLOPs = 15·n;  bytes = 3·n·bpe + 2·T·B·4 + 3·B·H·bpe
    // Rows group on TraceLens's parameters (C = H, biased, affine, training).
    ModelResult lnModulate(const OpArgs& args, bool backward, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, 0, 3);
        if (!x)
            return SkipReason::MalformedDims;
        const auto bpe = bytesPerElement(args.type(0), reading.dtypes());
        if (!bpe)
            return SkipReason::UnknownDtype;
        const double t = double((*x)[0]), b = double((*x)[1]), h = double((*x)[2]), n = t * b * h;
        const Norm m { 0, n, h, true, true, true };
        const double flops = (backward ? 15 : 12) * n;
        const double bytes = backward ? 3 * n * *bpe + 2 * t * b * 4 + 3 * b * h * *bpe
                                      : 2 * n * *bpe + 2 * b * h * *bpe + 2 * t * b * 4;
        return estimate(
            flops, bytes, args.type(0), ComputeUnit::Vector, reading, paramsOf(m), groupKey(args, m));
    }

    ModelResult fusedLnModulate(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return lnModulate(args, false, reading);
    }

    ModelResult fusedLnModulateBackward(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return lnModulate(args, true, reading);
    }

    constexpr std::array kModels {
        OpModel { "aten::batch_norm", OpFamily::Norm, batchNorm },
        OpModel { "aten::native_batch_norm", OpFamily::Norm, batchNorm },
        OpModel { "aten::cudnn_batch_norm", OpFamily::Norm, batchNorm },
        OpModel { "aten::miopen_batch_norm", OpFamily::Norm, batchNorm },
        OpModel { "aten::instance_norm", OpFamily::Norm, batchNorm },
        OpModel { "aten::native_instance_norm", OpFamily::Norm, batchNorm },
        OpModel { "aten::miopen_instance_norm", OpFamily::Norm, batchNorm },
        OpModel { "aten::cudnn_instance_norm", OpFamily::Norm, batchNorm },
        OpModel { "aten::layer_norm", OpFamily::Norm, layerNorm },
        OpModel { "aten::native_layer_norm", OpFamily::Norm, layerNorm },
        OpModel { "aten::miopen_layer_norm", OpFamily::Norm, layerNorm },
        OpModel { "aten::cudnn_layer_norm", OpFamily::Norm, layerNorm },
        OpModel { "aten::group_norm", OpFamily::Norm, groupNorm },
        OpModel { "aten::native_group_norm", OpFamily::Norm, groupNorm },
        OpModel { "aten::miopen_group_norm", OpFamily::Norm, groupNorm },
        OpModel { "aten::cudnn_group_norm", OpFamily::Norm, groupNorm },
        OpModel { "aiter::_groupnorm_run", OpFamily::Norm, aiterGroupNorm },
        OpModel { "aten::rms_norm", OpFamily::Norm, rmsNorm },
        OpModel { "aten::_fused_rms_norm", OpFamily::Norm, rmsNorm },
        OpModel { "aiter::rms_norm", OpFamily::Norm, aiterRmsNorm },
        OpModel { "aiter::rmsnorm", OpFamily::Norm, aiterRmsnorm },
        OpModel { "aiter::rmsnorm2d_fwd_ck", OpFamily::Norm, aiterRmsNorm }, // TraceLens: aiter_rms_norm
        OpModel { "aiter::add_rmsnorm", OpFamily::Norm, aiterAddRmsnorm },
        OpModel { "aiter::rmsnorm2d_fwd_with_add_ck", OpFamily::Norm, aiterAddRmsnorm },
        OpModel { "aten::layer_norm_backward", OpFamily::Norm, layerNormBackward },
        OpModel { "aten::native_layer_norm_backward", OpFamily::Norm, layerNormBackward },
        OpModel { "aten::miopen_layer_norm_backward", OpFamily::Norm, layerNormBackward },
        OpModel { "aten::cudnn_layer_norm_backward", OpFamily::Norm, layerNormBackward },
        OpModel { "aten::batch_norm_backward", OpFamily::Norm, batchNormBackward },
        OpModel { "aten::native_batch_norm_backward", OpFamily::Norm, batchNormBackward },
        OpModel { "aten::miopen_batch_norm_backward", OpFamily::Norm, batchNormBackward },
        OpModel { "aten::cudnn_batch_norm_backward", OpFamily::Norm, batchNormBackward },
        OpModel { "aten::group_norm_backward", OpFamily::Norm, groupNormBackward },
        OpModel { "aten::native_group_norm_backward", OpFamily::Norm, groupNormBackward },
        OpModel { "aten::miopen_group_norm_backward", OpFamily::Norm, groupNormBackward },
        OpModel { "aten::cudnn_group_norm_backward", OpFamily::Norm, groupNormBackward },
        OpModel { "aten::rms_norm_backward", OpFamily::Norm, rmsNormBackward },
        OpModel { "aten::native_rms_norm_backward", OpFamily::Norm, rmsNormBackward },
        OpModel { "aten::miopen_rms_norm_backward", OpFamily::Norm, rmsNormBackward },
        OpModel { "aten::cudnn_rms_norm_backward", OpFamily::Norm, rmsNormBackward },
        OpModel { "aten::_fused_rms_norm_backward", OpFamily::Norm, rmsNormBackward },
        OpModel { "primus::fused_ln_modulate", OpFamily::Norm, fusedLnModulate },
        OpModel { "primus::fused_ln_modulate_backward", OpFamily::Norm, fusedLnModulateBackward },
        // No aten::{,native_,miopen_,cudnn_}instance_norm_backward: TraceLens maps them to
        // InstanceNormBwd (torch_op_mapping.py norm_ops, 338-341 at 021be66), whose
        // get_param_details raises NotImplementedError (perf_model.py, right after InstanceNorm,
        // 4821-4861 at 171dd74), which TreePerf/tree_perf.py build_df_perf_metrics takes for "no model"
        // and drops silently: no row there, nor here (nor a skip count). PyTorch has no such op:
        // instance norm's backward runs as a batch norm backward above on the (1, N·C, ...) view.
    };

} // namespace

std::span<const OpModel> normModels()
{
    return kModels;
}

} // namespace ks::core
