// Convolution family. TraceLens's CONV model (PerfModel/perf_model.py, after
// torch/utils/flop_counter.py), input x (N, C_in, spatial...), weight w (C_out,
// C_in/groups, kernel...), output y:
//   y spatial    = floor((in + 2·pad − dil·(k − 1) − 1) / stride) + 1
//                  transposed: (in − 1)·stride − 2·pad + dil·(k − 1) + out_pad + 1
//   forward FLOPs = 2·prod(w[1:])·prod(y)  (transposed: ·prod(x))  + (bias ? prod(y) : 0)
//   forward bytes = bpe·(prod(x) + prod(w) + (bias ? C_out : 0) + prod(y))
//   backward FLOPs = dX: 2·prod(w[1:])·prod(y)  + dW: 2·prod(w)·N·prod(y spatial)  + (bias ? prod(y) : 0)
//                    (transposed swaps the roles of x and y in dW)
//   backward bytes = bpe·(2·(prod(y) + prod(w) + prod(x)) + (bias ? prod(y) + C_out : 0))
// Grouped convolutions need nothing more: w[1] is already C_in/groups. Held against
// the matrix peak of x's precision. Differences from TraceLens: the bias is read from
// the bias argument forward and from output_mask[2] backward (TraceLens tests
// len(Input Dims) == 3 and a non-empty dims entry of bias_sizes, never true for these
// ops, so it never counts a bias: so under ModelReading::tracelens), a transposed
// convolution's output has w[1]·groups channels, and the bias gradient's elements are
// counted in bytes (TraceLens adds elements: so under ModelReading::tracelens, where only
// ConvBias_Backward has a bias gradient).

#include "core/analysis/efficiency/model_support.h"

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <variant>

namespace ks::core {

namespace {

    using namespace perf_detail;
    using Shape = std::vector<std::int64_t>;

    double prodFrom(const Shape& s, std::size_t from)
    {
        double p = 1;
        for (std::size_t i = from; i < s.size(); ++i)
            p *= double(s[i]);
        return p;
    }

    // A per-dimension parameter: "[2, 2]" or "[2]" (broadcast) or "" (the default).
    std::optional<Shape> spatialParam(std::string_view text, std::size_t dims, std::int64_t fallback)
    {
        if (text.empty())
            return Shape(dims, fallback);
        auto list = concreteIntList(text);
        if (!list) {
            if (const auto single = concreteInt(text))
                list = Shape { *single };
            else
                return std::nullopt;
        }
        if (list->size() == 1)
            return Shape(dims, list->front());
        if (list->size() != dims)
            return std::nullopt;
        return list;
    }

    std::string listText(const Shape& s)
    {
        std::string text = "[";
        for (std::size_t i = 0; i < s.size(); ++i)
            text += (i ? ", " : "") + std::to_string(s[i]);
        return text + "]";
    }

    // Indices of the arguments of aten::convolution and of its backward.
    struct ConvSignature
    {
        std::size_t x, w, stride, padding, dilation, transposed, outputPadding, groups;
        bool backward;
        bool fusedBias = false; // apex's ConvBias_ / ConvBiasReLU_: the bias is always added
        bool fusedRelu = false; // ConvBiasReLU_: a ReLU on the output
    };

    // An argument position no call has: its Concrete Input reads "", the parameter's default.
    constexpr std::size_t kAbsent = 64;

    // Entry i of a Concrete Inputs bool list ("[True, True, False]"); nullopt when absent.
    std::optional<bool> maskEntry(std::string_view text, std::size_t i)
    {
        if (text.size() < 2 || text.front() != '[' || text.back() != ']')
            return std::nullopt;
        text = text.substr(1, text.size() - 2);
        for (std::size_t k = 0;; ++k) {
            const std::size_t comma = text.find(',');
            std::string_view item = text.substr(0, comma);
            while (!item.empty() && item.front() == ' ')
                item.remove_prefix(1);
            while (!item.empty() && item.back() == ' ')
                item.remove_suffix(1);
            if (k == i)
                return concreteBool(item);
            if (comma == std::string_view::npos)
                return std::nullopt;
            text.remove_prefix(comma + 1);
        }
    }

    // Whether the call has a bias. The forward's is a tensor; the backward computes the
    // bias gradient when output_mask[2] is true (bias_sizes, [0] or [C_out], when the
    // mask is not recorded). TraceLens never finds one (see the header).
    bool hasBias(const OpArgs& args, const ConvSignature& sig, const ModelReading& reading)
    {
        if (sig.fusedBias)
            return true;
        if (reading.tracelens)
            return false;
        if (!sig.backward)
            return present(args, 2);
        if (const auto mask = maskEntry(args.concreteAt(10), 2))
            return *mask;
        const auto sizes = concreteIntList(args.concreteAt(3)).value_or(Shape {});
        return !sizes.empty() && !(sizes.size() == 1 && sizes[0] == 0);
    }

    ModelResult conv(const OpArgs& args, const ConvSignature& sig, const ModelReading& reading)
    {
        const auto x = shapeOfRank(args, sig.x, -1);
        const auto w = shapeOfRank(args, sig.w, -1);
        if (!x || !w || x->size() < 3 || x->size() > 5 || w->size() != x->size())
            return SkipReason::MalformedDims;
        const std::size_t nd = x->size() - 2;
        const auto stride = spatialParam(args.concreteAt(sig.stride), nd, 1);
        const auto padding = spatialParam(args.concreteAt(sig.padding), nd, 0);
        const auto dilation = spatialParam(args.concreteAt(sig.dilation), nd, 1);
        const auto outputPadding = spatialParam(args.concreteAt(sig.outputPadding), nd, 0);
        const bool transposed = concreteBool(args.concreteAt(sig.transposed)).value_or(false);
        const std::int64_t groups = concreteInt(args.concreteAt(sig.groups)).value_or(1);
        if (!stride || !padding || !dilation || !outputPadding || groups < 1)
            return SkipReason::MalformedDims;
        Shape y { (*x)[0], transposed ? (*w)[1] * groups : (*w)[0] };
        for (std::size_t i = 0; i < nd; ++i) {
            const std::int64_t in = (*x)[i + 2], k = (*w)[i + 2];
            const std::int64_t s = (*stride)[i], p = (*padding)[i], d = (*dilation)[i];
            if (s <= 0)
                return SkipReason::MalformedDims;
            const std::int64_t out = transposed ? (in - 1) * s - 2 * p + d * (k - 1) + (*outputPadding)[i] + 1
                                                : (in + 2 * p - d * (k - 1) - 1) / s + 1;
            if (out <= 0)
                return SkipReason::MismatchedShapes;
            y.push_back(out);
        }
        if (!transposed && (*x)[1] != (*w)[1] * groups)
            return SkipReason::MismatchedShapes;
        const double bpe = sizeOf(args.type(sig.x), reading);
        const bool bias = hasBias(args, sig, reading);
        const double px = prodFrom(*x, 0), pw = prodFrom(*w, 0), py = prodFrom(y, 0);
        const double cout = double(y[1]);
        double flops = 0, elements = 0, biasElements = 0;
        if (!sig.backward) {
            // TraceLens leaves the fused ReLU's one FLOP per output element out
            const double relu = sig.fusedRelu && !reading.tracelens ? py : 0;
            flops = 2 * prodFrom(*w, 1) * (transposed ? px : py) + (bias ? py : 0) + relu;
            elements = px + pw + (bias ? cout : 0) + py;
        } else {
            // dX is the transposed direction of the forward; dW correlates x with dY.
            const double dx = 2 * prodFrom(*w, 1) * (transposed ? px : py);
            const double dw =
                transposed ? 2 * pw * double(y[0]) * prodFrom(*x, 2) : 2 * pw * double(y[0]) * prodFrom(y, 2);
            // The fused ReLU's gradient: dY masked where the saved output y is not positive, one FLOP per
            // element and y read (TraceLens counts neither).
            const double relu = sig.fusedRelu && !reading.tracelens ? py : 0;
            flops = dx + dw + (bias ? py : 0) + relu;
            elements = 2 * (py + pw + px) + relu;
            // The bias gradient reads dY and writes C_out elements; TraceLens adds them to the bytes as
            // elements (CONV.bytes_bwd_func), which only its ConvBias_Backward models ever reach.
            if (bias)
                biasElements = py + cout;
        }
        std::string params = "stride=" + std::string(args.concreteAt(sig.stride))
            + " padding=" + std::string(args.concreteAt(sig.padding))
            + " dilation=" + std::string(args.concreteAt(sig.dilation))
            + " output_padding=" + std::string(args.concreteAt(sig.outputPadding))
            + " groups=" + std::to_string(groups) + (transposed ? " transposed" : "") + (bias ? " bias" : "");
        const double bytes = bpe * elements + biasElements * (reading.tracelens ? 1 : bpe);
        // TraceLens's rows group on CONV's param_details: x's and w's shapes, dtypes and strides, its
        // bias flag and the parameters as parsed (a one-entry list broadcast, "" the default;
        // output_padding kept for a plain convolution too). Not on the whole dims text: a call with a
        // bias tensor and one without (no bias either way for TraceLens), or "[1]" and "[1, 1]", share
        // its row.
        std::string groupKey;
        if (reading.tracelens) {
            const auto strideOf = [&args](std::size_t i) {
                return listText(i < args.strides.size() ? args.strides[i] : Shape {});
            };
            groupKey = "x=" + listText(*x) + " w=" + listText(*w) + " dtypes=" + std::string(args.type(sig.x))
                + "," + std::string(args.type(sig.w)) + " strides=" + strideOf(sig.x) + strideOf(sig.w)
                + (bias ? " bias" : "") + " stride=" + listText(*stride) + " padding=" + listText(*padding)
                + " dilation=" + listText(*dilation) + (transposed ? " transposed" : "")
                + " output_padding=" + listText(*outputPadding) + " groups=" + std::to_string(groups);
        }
        return estimate(flops, bytes, args.type(sig.x), ComputeUnit::Matrix, reading, std::move(params),
            std::move(groupKey));
    }

    // aten::convolution(input, weight, bias, stride, padding, dilation, transposed, output_padding, groups)
    ModelResult convolution(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return conv(a, { 0, 1, 3, 4, 5, 6, 7, 8, false }, reading);
    }

    // aten::convolution_backward(grad_output, input, weight, bias_sizes, stride, padding, dilation,
    //     transposed, output_padding, groups, output_mask)
    ModelResult convolutionBackward(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        return conv(a, { 1, 2, 4, 5, 6, 7, 8, 9, true }, reading);
    }

    // apex's fused ConvBias_ / ConvBiasReLU_ (apex.contrib.conv_bias_relu, autograd Functions recorded under
    // their class name): forward(x, weight, bias, padding, stride), padding and stride one int each; no
    // dilation, groups or transpose. TraceLens's ConvBias_ and ConvBiasReLU_ (perf_model.py, mapped in
    // torch_op_mapping.py op_to_perf_model_class_map) are its CONV forward with the bias always counted,
    // but read Concrete Inputs[3] as the stride and [4] as the padding (its comment guesses that order)
    // and an int only (int() of a list raises: no row); they count no FLOP for the ReLU. Ours: [3] the
    // padding, [4] the stride, as the Function's signature has them, and the ReLU's prod(y) FLOPs.
    ModelResult convBiasOf(const OpArgs& a, const ModelReading& reading, bool backward, bool relu)
    {
        const std::size_t stride = reading.tracelens ? 3 : 4, padding = reading.tracelens ? 4 : 3;
        if (reading.tracelens)
            for (const std::size_t i : { stride, padding })
                if (!a.concreteAt(i).empty() && !concreteInt(a.concreteAt(i)))
                    return SkipReason::MalformedDims;
        ConvSignature sig { 0, 1, stride, padding, kAbsent, kAbsent, kAbsent, kAbsent, backward };
        sig.fusedBias = true;
        sig.fusedRelu = relu;
        return conv(a, sig, reading);
    }

    ModelResult convBias(std::string_view name, const OpArgs& a, const ModelReading& reading)
    {
        return convBiasOf(a, reading, false, name == "ConvBiasReLU_");
    }

    // Their backward ops, ConvBias_Backward and ConvBiasReLU_Backward (the autograd nodes apex's Functions
    // make, recorded under their own names with only the output gradient as args): TraceLens's
    // ConvBias_Backward and ConvBiasReLU_Backward (perf_model.py, CONV_bwd sheet) take every parameter
    // from the forward call of the same sequence number (ConvBias_.fwd_pass_cache; the match:
    // forwardCalls, backward_calls.h), so `a` here is the forward's args, read as the forward reads them,
    // and give CONV's backward formulas with the bias (dX + dW + prod(y) FLOPs; bytes as the header's,
    // the bias gradient's prod(y) + C_out elements added unscaled under TraceLens's reading, as its
    // bytes_bwd_func does). Ours also counts the fused ReLU's gradient (prod(y) FLOPs and the saved
    // output's prod(y)·bpe bytes), which TraceLens's ConvBiasReLU_Backward leaves out. The rows group
    // by the forward's shapes and parameters (TraceLens's param columns) and show the backward call's
    // own dims (its first call's, as TraceLens's Input Dims_first).
    ModelResult convBiasBackward(std::string_view name, const OpArgs& a, const ModelReading& reading)
    {
        ModelResult result = convBiasOf(a, reading, true, name == "ConvBiasReLU_Backward");
        if (auto* e = std::get_if<PerfEstimate>(&result))
            e->groupKey = a.dimsText + " " + a.typesText + " " + a.stridesText + " " + e->params;
        return result;
    }

    // DaoAILab::_causal_conv1d_fwd_cpp(x (batch, C, L), weight (C, k), bias (C)?, ...): Mamba's depthwise
    // causal conv, TraceLens's causal_conv1d_fwd (PerfModel/perf_model.py CausalConv1d, SSM_fwd):
    //   FLOPs = 2·batch·C·L·k;  bytes = (2·batch·C·L + C·k + (bias ? C : 0))·bpe
    // bpe of x's dtype, 2 when it has no size (TraceLens's fallback); bias: a non-empty Input Dims[2].
    ModelResult causalConv1d(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        const auto x = shapeOfRank(a, 0, 3);
        const auto w = shapeOfRank(a, 1, 2);
        if (!x || !w)
            return SkipReason::MalformedDims;
        const double batch = double((*x)[0]), c = double((*x)[1]), length = double((*x)[2]);
        const double k = double((*w)[1]);
        const bool bias = present(a, 2);
        const double bpe = bytesPerElement(a.type(0), reading.dtypes()).value_or(2);
        return estimate(2 * batch * c * length * k, (2 * batch * c * length + c * k + (bias ? c : 0)) * bpe,
            a.type(0), ComputeUnit::Matrix, reading, bias ? "bias" : "");
    }

    // MambaSplitConv1dScanCombinedFn(zxbcdt (B, T, D), conv1d_weight (CC, d_conv), conv1d_bias, dt_bias (H),
    //     A (H), D_skip (H), chunk_size, ..., headdim, ngroups, ...): Mamba-2's fused conv1d + SSD scan,
    // TraceLens's mamba_ssd_fwd (PerfModel/perf_model.py MambaSSD, SSM_fwd; its backward, SSM_bwd, the
    // same numbers: flops_bwd = flops, bytes_bwd = bytes). C = chunk_size (Concrete Inputs 6, 128 when
    // empty), P = headdim (15, 64), G = ngroups (16, 1), as TraceLens reads the recorded slots;
    // d_inner = H·P, d_state N = (D − 2·d_inner − H) / (2·G), a positive whole number (zxbcdt holds z,
    // x, B, C and dt):
    //   FLOPs = 2·B·CC·T·d_conv + 2·B·G·T·C·N + 2·B·H·T·C·P + 4·B·H·T·N·P
    //   bytes = (B·T·D + CC·d_conv + CC + B·T·d_inner)·bpe + H·(bpe_dt_bias + bpe_A + bpe_D)
    // bpe of zxbcdt's dtype (2 when unsized); dt_bias's and A's dtypes (4 when empty or unsized), D's
    // (bpe when so). The conv bias's CC·bpe is counted when Input Dims[2] is non-empty (Mamba's
    // conv_bias=False records []); always under --tracelens-compat, as TraceLens counts it.
    ModelResult mambaSsd(std::string_view, const OpArgs& a, const ModelReading& reading)
    {
        const auto zxbcdt = shapeOfRank(a, 0, 3);
        const auto convW = shapeOfRank(a, 1, 2);
        const auto dtBias = shapeOfRank(a, 3, -1);
        if (!zxbcdt || !convW || !dtBias || dtBias->empty())
            return SkipReason::MalformedDims;
        const auto scalar = [&](std::size_t i, std::int64_t fallback) -> std::optional<std::int64_t> {
            return a.concreteAt(i).empty() ? fallback : concreteInt(a.concreteAt(i));
        };
        const auto chunk = scalar(6, 128), headdim = scalar(15, 64), groups = scalar(16, 1);
        if (!chunk || !headdim || !groups || *groups <= 0)
            return SkipReason::MalformedDims;
        const std::int64_t h = (*dtBias)[0], dInner = h * *headdim;
        const std::int64_t numerator = (*zxbcdt)[2] - 2 * dInner - h;
        if (numerator <= 0 || numerator % (2 * *groups) != 0)
            return SkipReason::MismatchedShapes; // TraceLens raises: no d_state
        // NOLINTNEXTLINE(bugprone-integer-division): exact, the remainder is checked above
        const double n = double(numerator / (2 * *groups));
        const double b = double((*zxbcdt)[0]), t = double((*zxbcdt)[1]), width = double((*zxbcdt)[2]);
        const double cc = double((*convW)[0]), dConv = double((*convW)[1]);
        const double c = double(*chunk), p = double(*headdim), g = double(*groups), heads = double(h);
        const double bpe = bytesPerElement(a.type(0), reading.dtypes()).value_or(2);
        const auto paramBpe = [&](std::size_t i, double fallback) {
            return a.type(i).empty() ? fallback
                                     : bytesPerElement(a.type(i), reading.dtypes()).value_or(fallback);
        };
        const double flops = 2 * b * cc * t * dConv + 2 * b * g * t * c * n + 2 * b * heads * t * c * p
            + 4 * b * heads * t * n * p;
        const double bytes = (b * t * width + cc * dConv + (reading.tracelens || present(a, 2) ? cc : 0)
                                 + b * t * double(dInner))
                * bpe
            + heads * (paramBpe(3, 4) + paramBpe(4, 4) + paramBpe(5, bpe));
        const auto i = [](double v) { return std::to_string(std::int64_t(v)); };
        return estimate(flops, bytes, a.type(0), ComputeUnit::Matrix, reading,
            "chunk=" + i(c) + " headdim=" + i(p) + " ngroups=" + i(g) + " d_state=" + i(n));
    }

    constexpr std::array kModels {
        OpModel { "aten::convolution", OpFamily::Conv, convolution },
        OpModel { "aten::convolution_backward", OpFamily::Conv, convolutionBackward },
        OpModel { "ConvBias_", OpFamily::Conv, convBias },
        OpModel { "ConvBiasReLU_", OpFamily::Conv, convBias },
        OpModel { "ConvBias_Backward", OpFamily::Conv, convBiasBackward, nullptr, false, "ConvBias_" },
        OpModel {
            "ConvBiasReLU_Backward", OpFamily::Conv, convBiasBackward, nullptr, false, "ConvBiasReLU_" },
        OpModel { "DaoAILab::_causal_conv1d_fwd_cpp", OpFamily::Conv, causalConv1d },
        OpModel { "MambaSplitConv1dScanCombinedFn", OpFamily::Conv, mambaSsd, mambaSsd },
    };

} // namespace

std::span<const OpModel> convModels()
{
    return kModels;
}

} // namespace ks::core
