// torch.compile's Triton kernels (Inductor's triton_poi_* pointwise: elementwise family; triton_red_* and
// triton_per_* reductions: reduce family), recorded as ops named after the kernel with its arguments
// (PyTorch 2.4+). TraceLens's TritonCompiledPerfModel (PerfModel/triton_compiled_perf_model.py, matched by
// name prefix: torch_op_mapping.py _match_triton_compiled, register_perf_model_matcher), its
// trace-intrinsic path (_meta_from_trace_args):
//   xnumel, rnumel = the last two integer Concrete Inputs of a reduction, the last one of a pointwise
//     kernel (rnumel 1); no integer: no estimate
//   FLOPs = Σ flops(op) · xnumel · rnumel over the ATen ops the name lists (_parse_kernel_name:
//     "triton_red_fused_add_mean_mul_pow_rsqrt_0" -> add, mean, mul, pow, rsqrt; the longest known op
//     at each '_', an unknown word skipped; _FLOPS_PER_ELEM below, 0 for an op not there)
//   bytes = Σ prod(dims)·bpe over the tensor arguments (non-empty dims, type not "Scalar")
//   vector units; the precision the first sized tensor's dtype
// TraceLens sizes tensors with a table of its own (_C10_DTYPE_BYTES: c10::BFloat16, c10::Half and names
// PyTorch does not print, c10::Float, c10::Long ...: a "float" or "long int" tensor counts 0 bytes), adds
// a second write of the output to a pointwise kernel (first tensor's bpe · xnumel, though the output
// buffer is already among the arguments), and names the precision by the lowered dtype ("bfloat16"),
// which matches no peak: no roofline. Ours sizes every tensor with our dtype table (bytes null for one
// with no size), counts each argument once, and takes the precision's peak. A tiled pointwise kernel's
// ynumel is not counted in either reading (the trace does not tell it from a dynamic-shape size). Without
// Concrete Inputs TraceLens falls back to the Inductor cache on the machine that runs it (_lookup, the
// wrapper files of $TORCHINDUCTOR_CACHE_DIR): not reproduced, the call is "malformed input dims" here.

#include "core/analysis/efficiency/model_support.h"

#include <algorithm>
#include <array>
#include <string>
#include <utility>
#include <vector>

namespace ks::core {

namespace {

    using namespace perf_detail;

    struct OpFlops
    {
        std::string_view op; // the bare ATen name, as the kernel name spells it
        int flops;
    };

    // TraceLens's _FLOPS_PER_ELEM, in its order (the order breaks ties between names of one length).
    constexpr std::array<OpFlops, 28> kFlopsPerElement { { { "add", 1 }, { "sub", 1 }, { "mul", 1 },
        { "div", 1 }, { "pow", 2 }, { "sqrt", 2 }, { "rsqrt", 2 }, { "exp", 4 }, { "log", 4 },
        { "sigmoid", 4 }, { "tanh", 4 }, { "relu", 1 }, { "silu", 4 }, { "gelu", 8 }, { "mean", 1 },
        { "sum", 1 }, { "var", 2 }, { "abs", 1 }, { "neg", 1 }, { "reciprocal", 2 }, { "ne", 1 }, { "eq", 1 },
        { "lt", 1 }, { "gt", 1 }, { "_to_copy", 0 }, { "copy_", 0 }, { "clone", 0 }, { "embedding", 0 } } };

    // The fused ops' FLOPs per element: _parse_kernel_name on `triton_{poi,red,per}_fused_<ops>_<n>`,
    // trying the longest names first at each word; 0 for a name of another form.
    int flopsPerElement(std::string_view name)
    {
        static const auto byLength = [] {
            std::vector<OpFlops> ops(kFlopsPerElement.begin(), kFlopsPerElement.end());
            std::stable_sort(ops.begin(), ops.end(),
                [](const OpFlops& a, const OpFlops& b) { return a.op.size() > b.op.size(); });
            return ops;
        }();
        constexpr std::string_view kFused = "_fused_";
        if (name.size() < 10 || name.substr(10, kFused.size()) != kFused) // after "triton_xxx"
            return 0;
        std::string_view rest = name.substr(10 + kFused.size());
        const std::size_t last = rest.rfind('_');
        if (last == std::string_view::npos || last == 0 || last + 1 == rest.size()
            || !std::all_of(rest.begin() + std::ptrdiff_t(last + 1), rest.end(),
                [](char c) { return c >= '0' && c <= '9'; }))
            return 0;
        rest = rest.substr(0, last);
        int flops = 0;
        while (!rest.empty()) {
            const auto known = std::find_if(byLength.begin(), byLength.end(), [&](const OpFlops& o) {
                return rest == o.op
                    || (rest.starts_with(o.op) && rest.size() > o.op.size() && rest[o.op.size()] == '_');
            });
            if (known != byLength.end()) {
                flops += known->flops;
                rest.remove_prefix(known->op.size());
                while (!rest.empty() && rest.front() == '_')
                    rest.remove_prefix(1);
            } else {
                const std::size_t underscore = rest.find('_');
                rest =
                    underscore == std::string_view::npos ? std::string_view() : rest.substr(underscore + 1);
            }
        }
        return flops;
    }

    // TraceLens's _C10_DTYPE_BYTES (exact names; 0 for any other).
    double tracelensTensorSize(std::string_view dtype)
    {
        static constexpr std::pair<std::string_view, double> kTable[] = { { "c10::BFloat16", 2 },
            { "c10::Half", 2 }, { "c10::Float", 4 }, { "c10::Double", 8 }, { "c10::Byte", 1 },
            { "c10::Char", 1 }, { "c10::Int", 4 }, { "c10::Long", 8 } };
        for (const auto& [n, bytes] : kTable)
            if (n == dtype)
                return bytes;
        return 0;
    }

    std::string lowered(std::string_view text)
    {
        std::string out(text);
        std::transform(out.begin(), out.end(), out.begin(),
            [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return out;
    }

    ModelResult tritonCompiled(std::string_view name, const OpArgs& args, const ModelReading& reading)
    {
        const bool reduction = name.starts_with("triton_red_") || name.starts_with("triton_per_");
        std::vector<double> scalars;
        for (const std::string& v : args.concrete) {
            if (v.empty())
                continue;
            const auto value = concreteInt(v);
            if (!value)
                return SkipReason::MalformedDims; // TraceLens's int() raises
            scalars.push_back(double(*value));
        }
        if (scalars.empty() || args.dims.empty() || args.types.empty())
            return SkipReason::MalformedDims;
        const bool twoNumels = reduction && scalars.size() >= 2;
        const double xnumel = twoNumels ? scalars[scalars.size() - 2] : scalars.back();
        const double rnumel = twoNumels ? scalars.back() : 1;

        double bytes = 0, firstSize = 0; // firstSize: TraceLens's ptr_bytes[0]
        std::string precision;
        bool anyTensor = false, sized = false;
        for (std::size_t i = 0; i < std::min(args.dims.size(), args.types.size()); ++i) {
            if (args.types[i] == "Scalar" || (args.dims[i] && args.dims[i]->empty()))
                continue;
            if (!args.dims[i])
                return SkipReason::MalformedDims;
            const double size =
                reading.tracelens ? tracelensTensorSize(args.types[i]) : sizeOf(args.types[i], reading);
            if (!anyTensor)
                firstSize = size;
            anyTensor = true;
            bytes += elementCount(*args.dims[i]) * size;
            if (!sized && size > 0) {
                sized = true;
                const std::string_view type = args.types[i];
                const std::size_t colons = type.rfind("::");
                precision = reading.tracelens
                    ? lowered(colons == std::string_view::npos ? type : type.substr(colons + 2))
                    : precisionOf(type, reading.dtypes());
            }
        }
        if (reading.tracelens && !reduction)
            bytes += firstSize * xnumel; // the output written again
        const auto i = [](double v) { return std::to_string(std::int64_t(v)); };
        return PerfEstimate { double(flopsPerElement(name)) * xnumel * rnumel, bytes, precision,
            ComputeUnit::Vector, "xnumel=" + i(xnumel) + " rnumel=" + i(rnumel), {} };
    }

    // Names here are prefixes: findOpModel matches a kernel name by its start.
    constexpr std::array kModels {
        OpModel { "triton_poi_", OpFamily::Elementwise, tritonCompiled },
        OpModel { "triton_red_", OpFamily::Reduce, tritonCompiled },
        OpModel { "triton_per_", OpFamily::Reduce, tritonCompiled },
    };

} // namespace

std::span<const OpModel> tritonCompiledModels()
{
    return kModels;
}

} // namespace ks::core
