// Reduction family. TraceLens's Reduce model (PerfModel/perf_model.py, class Reduce),
// held against the vector peak of the input's precision:
//   FLOPs = n_in;  bytes = n_in·bpe_in + n_out·bpe_out  (bpe_out = bpe_in: no output dtype is recorded)
// n_out is n_in for cumulative ops. For the others TraceLens takes the dim list
// from Concrete Inputs only when it is a Python list, which a trace's strings never
// are, so it counts one output element; that is kept here so the numbers agree.

#include "core/analysis/efficiency/model_support.h"

#include <array>

namespace ks::core {

namespace {

    using namespace perf_detail;

    ModelResult reduce(std::string_view name, const OpArgs& args)
    {
        const auto in = shapeOfRank(args, 0, -1);
        if (!in)
            return SkipReason::MalformedDims;
        const auto bpe = bytesPerElement(args.type(0));
        if (!bpe)
            return SkipReason::UnknownDtype;
        const double n = elementCount(*in);
        const bool cumulative =
            name.find("cumsum") != std::string_view::npos || name.find("cumprod") != std::string_view::npos;
        const double out = cumulative ? n : 1;
        return estimate(n, n * *bpe + out * *bpe, args.type(0), ComputeUnit::Vector);
    }

    constexpr std::array kModels {
        OpModel { "aten::sum", OpFamily::Reduce, reduce },
        OpModel { "aten::mean", OpFamily::Reduce, reduce },
        OpModel { "aten::max", OpFamily::Reduce, reduce },
        OpModel { "aten::min", OpFamily::Reduce, reduce },
        OpModel { "aten::amax", OpFamily::Reduce, reduce },
        OpModel { "aten::amin", OpFamily::Reduce, reduce },
        OpModel { "aten::norm", OpFamily::Reduce, reduce },
        OpModel { "aten::linalg_norm", OpFamily::Reduce, reduce },
        OpModel { "aten::linalg_vector_norm", OpFamily::Reduce, reduce },
        OpModel { "aten::prod", OpFamily::Reduce, reduce },
        OpModel { "aten::cumsum", OpFamily::Reduce, reduce },
        OpModel { "aten::cumprod", OpFamily::Reduce, reduce },
        OpModel { "aten::argmax", OpFamily::Reduce, reduce },
        OpModel { "aten::argmin", OpFamily::Reduce, reduce },
    };

} // namespace

std::span<const OpModel> reduceModels()
{
    return kModels;
}

} // namespace ks::core
