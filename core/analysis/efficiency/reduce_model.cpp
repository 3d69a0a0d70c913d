// Reduction family. TraceLens's Reduce model (PerfModel/perf_model.py, class Reduce),
// held against the vector peak of the input's precision:
//   FLOPs = n_in;  bytes = n_in·bpe_in + n_out·bpe_out  (bpe_out = bpe_in: no output dtype is recorded)
// n_out is n_in for cumulative ops. For the others TraceLens takes the dim list
// from Concrete Inputs only when it is a Python list, which a trace's strings never
// are, so it counts one output element; that is kept here so the numbers agree.
// The backward of a reduction (TraceLens's Reduce.flops_bwd / bytes_bwd: n_in FLOPs,
// n_out·bpe + n_in·bpe) is the same pair of numbers, for the rows of its autograd backward.
// Rows group as TraceLens's: on the element counts and the input dtype only, so the
// same reduction over [1, 768] and [1, 1, 768], or with another `dim`, is one row.

#include "core/analysis/efficiency/model_support.h"

#include <array>

namespace ks::core {

namespace {

    using namespace perf_detail;

    ModelResult reduce(std::string_view name, const OpArgs& args, const ModelReading& reading)
    {
        const auto in = shapeOfRank(args, 0, -1);
        if (!in)
            return SkipReason::MalformedDims;
        const double bpe = sizeOf(args.type(0), reading);
        const double n = elementCount(*in);
        const bool cumulative =
            name.find("cumsum") != std::string_view::npos || name.find("cumprod") != std::string_view::npos;
        const double out = cumulative ? n : 1;
        std::string key = "in=" + std::to_string(std::int64_t(n))
            + " out=" + std::to_string(std::int64_t(out)) + " dtype=" + std::string(args.type(0));
        return estimate(
            n, n * bpe + out * bpe, args.type(0), ComputeUnit::Vector, reading, {}, std::move(key));
    }

    // CrossEntropyFunction(logits (batch, …, vocab), targets, ...): a fused softmax + NLL loss,
    // TraceLens's cross_entropy_fwd (PerfModel/perf_model.py CrossEntropy, CrossEntropy_fwd):
    //   FLOPs = 5·batch·vocab;  bytes = prod(logits)·bpe + batch·8 (int64 targets) + batch·4 (fp32 loss)
    // bpe of the logits' dtype, 2 when it has no size (TraceLens's fallback).
    ModelResult crossEntropy(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto logits = shapeOfRank(args, 0, -1);
        if (!logits || logits->empty())
            return SkipReason::MalformedDims;
        const double batch = double(logits->front()), vocab = double(logits->back());
        const double bpe = bytesPerElement(args.type(0), reading.dtypes()).value_or(2);
        return estimate(5 * batch * vocab, elementCount(*logits) * bpe + batch * 8 + batch * 4, args.type(0),
            ComputeUnit::Vector, reading);
    }

    constexpr std::array kModels {
        OpModel { "CrossEntropyFunction", OpFamily::Reduce, crossEntropy },
        OpModel { "aten::sum", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::mean", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::max", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::min", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::amax", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::amin", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::norm", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::linalg_norm", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::linalg_vector_norm", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::std", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::var", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::logsumexp", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::prod", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::cumsum", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::cumprod", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::argmax", OpFamily::Reduce, reduce, reduce },
        OpModel { "aten::argmin", OpFamily::Reduce, reduce, reduce },
    };

} // namespace

std::span<const OpModel> reduceModels()
{
    return kModels;
}

} // namespace ks::core
