// The vendor custom collectives (collective family) as TraceLens models them
// (PerfModel/extensions/custom_collectives_perf_model_extensions.py, category CustomCollective, mapped
// by pseudo_ops_perf_utils.py get_pseudo_op_mappings): the HBM traffic of one GPU, the inter-GPU
// transfer left out, so no FLOPs but for the fused norm; n = the elements of the input, bpe its dtype's
// size (a dtype with no size drops the call: TraceLens's bytes raise). No precision (TraceLens's classes
// have none), so no peak: TB/s without a roofline.
//   the all-reduces: _C_custom_ar::all_reduce(fa, inp, out, ...), its qr_all_reduce, SGLang's
//     sgl_kernel::all_reduce_reg and qr_all_reduce (custom_ar_all_reduce and subclasses): inp = Input
//     Dims[1]; FLOPs 0, bytes 2·n·bpe (inp read, out written)
//   aiter::reduce_scatter(fa, inp, out, ...), aiter::all_gather_reg(fa, inp, out): inp = [1], out = [2];
//     bytes (n + n_out)·bpe;  sglang::reg_all_gather_into_tensor(out, inp, fa): out = [0], inp = [1],
//     bpe of Input type[0]
//   the fused all-reduce + residual add + RMS norm (aiter_fused_allreduce_rmsnorm): AITER's C++
//     aiter::fused_allreduce_rmsnorm(ptr, reg, inp, res_inp, res_out, out, w, eps, ...) with inp = [2],
//     w (N) = [6]; the Python wrappers aiter::fused_allreduce_rmsnorm_(inp, res_inp, w, eps, ...) and
//     vllm::rocm_aiter_fused_allreduce_rmsnorm with inp = [0], w = [2]:
//     FLOPs = n + ⌊n/N⌋·(2·N + 2) + 2·n (the add, the affine RMS norm); bytes = 4·n·bpe + N·bpe (inp and
//     the residual read, the residual and the output written, the weight read).

#include "core/analysis/efficiency/model_support.h"

#include <array>
#include <cmath>

namespace ks::core {

namespace {

    using namespace perf_detail;

    ModelResult collective(double flops, double elements, std::string_view dtype, const ModelReading& reading)
    {
        const double bpe = sizeOf(dtype, reading);
        if (std::isnan(bpe))
            return SkipReason::UnknownDtype;
        return estimate(flops, elements * bpe, "", ComputeUnit::Vector, reading);
    }

    // custom_ar_all_reduce: inp = Input Dims[1], read and written.
    ModelResult allReduce(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto inp = shapeOfRank(args, 1, -1);
        if (!inp)
            return SkipReason::MalformedDims;
        return collective(0, 2 * elementCount(*inp), args.type(1), reading);
    }

    // aiter_reduce_scatter, aiter_all_gather_reg: inp = [1] read, out = [2] written.
    ModelResult scatterGather(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto inp = shapeOfRank(args, 1, -1);
        const auto out = shapeOfRank(args, 2, -1);
        if (!inp || !out)
            return SkipReason::MalformedDims;
        return collective(0, elementCount(*inp) + elementCount(*out), args.type(1), reading);
    }

    // sgl_kernel_reg_all_gather_into_tensor(out, inp, fa): bpe of out's dtype.
    ModelResult regAllGather(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto out = shapeOfRank(args, 0, -1);
        const auto inp = shapeOfRank(args, 1, -1);
        if (!inp || !out)
            return SkipReason::MalformedDims;
        return collective(0, elementCount(*inp) + elementCount(*out), args.type(0), reading);
    }

    ModelResult allReduceRmsnorm(
        const OpArgs& args, std::size_t input, std::size_t weight, const ModelReading& reading)
    {
        const auto inp = shapeOfRank(args, input, -1);
        const auto w = shapeOfRank(args, weight, -1);
        if (!inp || !w || w->empty() || (*w)[0] == 0)
            return SkipReason::MalformedDims;
        const double n = elementCount(*inp), channels = double((*w)[0]);
        const double flops = n + std::floor(n / channels) * (2 * channels + 2) + 2 * n;
        return collective(flops, 4 * n + channels, args.type(input), reading);
    }

    ModelResult aiterAllReduceRmsnorm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return allReduceRmsnorm(args, 2, 6, reading);
    }

    ModelResult wrapperAllReduceRmsnorm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return allReduceRmsnorm(args, 0, 2, reading);
    }

    constexpr std::array kModels {
        OpModel { "_C_custom_ar::all_reduce", OpFamily::Collective, allReduce },
        OpModel { "_C_custom_ar::qr_all_reduce", OpFamily::Collective, allReduce },
        OpModel { "sgl_kernel::all_reduce_reg", OpFamily::Collective, allReduce },
        OpModel { "sgl_kernel::qr_all_reduce", OpFamily::Collective, allReduce },
        OpModel { "aiter::reduce_scatter", OpFamily::Collective, scatterGather },
        OpModel { "aiter::all_gather_reg", OpFamily::Collective, scatterGather },
        OpModel { "sglang::reg_all_gather_into_tensor", OpFamily::Collective, regAllGather },
        OpModel { "aiter::fused_allreduce_rmsnorm", OpFamily::Collective, aiterAllReduceRmsnorm },
        OpModel { "aiter::fused_allreduce_rmsnorm_", OpFamily::Collective, wrapperAllReduceRmsnorm },
        OpModel { "vllm::rocm_aiter_fused_allreduce_rmsnorm", OpFamily::Collective, wrapperAllReduceRmsnorm },
    };

} // namespace

std::span<const OpModel> customCollectiveModels()
{
    return kModels;
}

} // namespace ks::core
