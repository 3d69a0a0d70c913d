// GEMM family. TraceLens's GEMM model (PerfModel/perf_model.py, class GEMM):
//   FLOPs = B · (2·M·N·K + (bias ? M·N : 0))
//   bytes = B · (bpe_A·M·K + bpe_B·K·N + bpe_out·M·N + (bias ? bpe·N : 0))
// with every bpe the first matrix's dtype (the output dtype is not recorded),
// except _scaled_mm, whose output is 2 bytes when its inputs are fp8. Held against
// the matrix peak of the first matrix's precision. aten::linear and aten::matmul
// have no model of their own: the mm/addmm/bmm they call is the one measured.

#include "core/analysis/efficiency/model_support.h"

#include <array>

namespace ks::core {

namespace {

    using namespace perf_detail;

    struct Gemm
    {
        double b = 1, m = 0, n = 0, k = 0;
        bool bias = false;
    };

    ModelResult gemmEstimate(const Gemm& g, std::string_view dtype, const ModelReading& reading,
        std::optional<double> outBytes = {})
    {
        const double bpe = sizeOf(dtype, reading); // NaN without a size: no bytes
        const double out = outBytes.value_or(bpe);
        const double flops = g.b * (2 * g.m * g.n * g.k + (g.bias ? g.m * g.n : 0));
        const double bytes = g.b * (bpe * (g.m * g.k + g.k * g.n + (g.bias ? g.n : 0)) + out * g.m * g.n);
        return estimate(flops, bytes, dtype, ComputeUnit::Matrix, reading);
    }

    // A (M, K) @ B (K, N) from arguments a and b.
    ModelResult matrixProduct(
        const OpArgs& args, std::size_t a, std::size_t b, bool bias, const ModelReading& reading)
    {
        const auto sa = shapeOfRank(args, a, 2);
        const auto sb = shapeOfRank(args, b, 2);
        if (!sa || !sb)
            return SkipReason::MalformedDims;
        if ((*sa)[1] != (*sb)[0])
            return SkipReason::MismatchedShapes;
        return gemmEstimate(
            { 1, double((*sa)[0]), double((*sb)[1]), double((*sa)[1]), bias }, args.type(a), reading);
    }

    // A (B, M, K) @ B (B, K, N).
    ModelResult batchedProduct(
        const OpArgs& args, std::size_t a, std::size_t b, bool bias, const ModelReading& reading)
    {
        const auto sa = shapeOfRank(args, a, 3);
        const auto sb = shapeOfRank(args, b, 3);
        if (!sa || !sb)
            return SkipReason::MalformedDims;
        if ((*sa)[2] != (*sb)[1] || (*sa)[0] != (*sb)[0])
            return SkipReason::MismatchedShapes;
        return gemmEstimate({ double((*sa)[0]), double((*sa)[1]), double((*sb)[2]), double((*sa)[2]), bias },
            args.type(a), reading);
    }

    ModelResult mm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return matrixProduct(args, 0, 1, false, reading);
    }

    // addmm(bias, A, B): bias counted as N elements (TraceLens assumes a 1 x N bias).
    ModelResult addmm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return matrixProduct(args, 1, 2, true, reading);
    }

    ModelResult bmm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return batchedProduct(args, 0, 1, false, reading);
    }

    ModelResult baddbmm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        return batchedProduct(args, 1, 2, true, reading);
    }

    // _scaled_mm(A, B, scale_a, scale_b, bias?, scale_result?, out_dtype, ...). TraceLens
    // tests len(Input Dims) == 3 for the bias, which the op's schema never gives; the bias
    // argument (index 4) is read here. Output: 2 bytes for 1-byte inputs, else the input's.
    ModelResult scaledMm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto sa = shapeOfRank(args, 0, 2);
        const auto sb = shapeOfRank(args, 1, 2);
        if (!sa || !sb)
            return SkipReason::MalformedDims;
        if ((*sa)[1] != (*sb)[0])
            return SkipReason::MismatchedShapes;
        const double bpe = sizeOf(args.type(0), reading);
        return gemmEstimate({ 1, double((*sa)[0]), double((*sb)[1]), double((*sa)[1]), present(args, 4) },
            args.type(0), reading, bpe == 1 ? 2.0 : bpe);
    }

    // Vendor GEMMs such as vllm::rocm_unquantized_gemm(x, weight, bias?) and
    // aiter::gemm_a16w16(A, B, ...): x (..., K) with the weight either (N, K) as
    // torch.nn.functional.linear takes it or (K, N). M is the product of x's leading dims.
    ModelResult vendorGemm(std::string_view, const OpArgs& args, const ModelReading& reading)
    {
        const auto sx = shapeOfRank(args, 0, -1);
        const auto sw = shapeOfRank(args, 1, 2);
        if (!sx || !sw || sx->size() < 2)
            return SkipReason::MalformedDims;
        const double k = double(sx->back());
        double m = 1;
        for (std::size_t i = 0; i + 1 < sx->size(); ++i)
            m *= double((*sx)[i]);
        double n = 0;
        if (double((*sw)[1]) == k)
            n = double((*sw)[0]);
        else if (double((*sw)[0]) == k)
            n = double((*sw)[1]);
        else
            return SkipReason::MismatchedShapes;
        const bool bias = args.hasDims(2) && args.dims[2]->size() == 1;
        return gemmEstimate({ 1, m, n, k, bias }, args.type(0), reading);
    }

    constexpr std::array kModels {
        OpModel { "aten::mm", OpFamily::Gemm, mm },
        OpModel { "aten::addmm", OpFamily::Gemm, addmm },
        OpModel { "aten::bmm", OpFamily::Gemm, bmm },
        OpModel { "aten::baddbmm", OpFamily::Gemm, baddbmm },
        OpModel { "aten::_scaled_mm", OpFamily::Gemm, scaledMm },
        OpModel { "trtllm::cublas_scaled_mm", OpFamily::Gemm, scaledMm },
        OpModel { "vllm::rocm_unquantized_gemm", OpFamily::Gemm, vendorGemm },
        OpModel { "vllm::rocm_unquantized_gemm_impl", OpFamily::Gemm, vendorGemm },
        OpModel { "aiter::gemm_a16w16", OpFamily::Gemm, vendorGemm },
        OpModel { "aiter::tuned_gemm", OpFamily::Gemm, vendorGemm },
    };

} // namespace

std::span<const OpModel> gemmModels()
{
    return kModels;
}

} // namespace ks::core
