// Which kernels ran on Tensor Cores (core/analysis/kernels/tensor_cores.h), as the
// TensorBoard plugin tells them, by name, and the kernel breakdown's tensor_core_pct
// column built on it: 100 or 0 for a name, the time-weighted share of the names
// folded into `others`, empty for the kernel types other than COMPUTATION and absent
// in HTA-compatible mode (HTA has no such column).

#include "core/analysis/hta/kernel_breakdown.h"
#include "core/analysis/kernels/tensor_cores.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/test_main.h"

#include <optional>

using namespace ks;

namespace {

// Stream 7: a cuBLAS Tensor Core GEMM (300 µs), an FP32 SGEMM (100 µs), an AMD MFMA
// GEMM (50 µs), an elementwise kernel (50 µs); a memcpy on stream 9.
std::string mixedTrace()
{
    using tests::completeEvent;
    using tests::correlationArgs;
    return tests::kinetoDocument(0,
        { completeEvent("user_annotation", "ProfilerStep#1", 0, 1000, 100, 1),
            completeEvent("kernel", "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_tn", 0, 300, 0,
                7, correlationArgs(1, 7)),
            completeEvent("kernel", "volta_sgemm_128x64_nn", 300, 100, 0, 7, correlationArgs(2, 7)),
            completeEvent("kernel", "Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI16x16x16x1_SN_1LDSB0", 400, 50, 0,
                7, correlationArgs(3, 7)),
            completeEvent("kernel",
                "void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>>", 450, 50,
                0, 7, correlationArgs(4, 7)),
            completeEvent(
                "gpu_memcpy", "Memcpy HtoD (Pageable -> Device)", 500, 40, 0, 9, correlationArgs(5, 9)) });
}

std::optional<std::size_t> rowNamed(const core::Table& t, const std::string& name)
{
    const auto at = t.find(core::kernel_breakdown::kName);
    for (std::size_t r = 0; r < t.rows.size(); ++r)
        if (core::cellAsText(t.rows[r][*at]) == name)
            return r;
    return std::nullopt;
}

std::optional<double> shareOf(const core::Table& t, std::optional<std::size_t> row)
{
    const auto at = t.find(core::kernel_breakdown::kTensorCorePct);
    return at && row ? core::cellAsDouble(t.rows[*row][*at]) : std::nullopt;
}

} // namespace

class TestTensorCores : public QObject
{
    Q_OBJECT

private slots:

    void kernelNames()
    {
        QVERIFY(core::usesTensorCores("ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_tn"));
        QVERIFY(core::usesTensorCores("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64"));
        QVERIFY(core::usesTensorCores(
            "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_64x64_32x6_tn_align4>"));
        QVERIFY(core::usesTensorCores("flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4>>"));
        QVERIFY(core::usesTensorCores("Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI16x16x16x1_SN_1LDSB0"));
        QVERIFY(core::usesTensorCores("cudnn::cnn::conv2d_c1_k1_nchw_hw_packed_kernel")); // the plugin's list
        QVERIFY(core::usesTensorCores("void first_layer_wgrad_kernel<...>"));
        QVERIFY(!core::usesTensorCores("volta_sgemm_128x64_nn"));
        QVERIFY(!core::usesTensorCores("void at::native::vectorized_elementwise_kernel<4>"));
        QVERIFY(!core::usesTensorCores("ncclDevKernel_AllReduce_Sum_f32_RING_LL"));
    }

    void eligibleOps()
    {
        QVERIFY(core::eligibleForTensorCores("aten::addmm"));
        QVERIFY(core::eligibleForTensorCores("aten::cudnn_convolution"));
        QVERIFY(core::eligibleForTensorCores("aten::_scaled_dot_product_efficient_attention"));
        QVERIFY(core::eligibleForTensorCores("aten::mv")); // the plugin's list, matched whole
        QVERIFY(!core::eligibleForTensorCores("aten::mvlgamma"));
        QVERIFY(core::eligibleForTensorCores("MmBackward0")); // the autograd nodes, by family
        QVERIFY(core::eligibleForTensorCores("aten::lstm_cell"));
        QVERIFY(!core::eligibleForTensorCores("aten::add_"));
        QVERIFY(!core::eligibleForTensorCores("aten::layer_norm"));
    }

    void kernelBreakdownColumn()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir, { mixedTrace() });
        core::AnalysisOptions options;
        options.kernels.includeMemoryKernels = true;
        const auto out = core::gpuKernelBreakdown(tests::frames(set, options.mode), options);
        QVERIFY2(out.ok, out.error.c_str());
        const core::Table& t = out.result.items.at(1).frame;
        QCOMPARE(shareOf(t, rowNamed(t, "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_tn"))
                     .value_or(-1),
            100.0);
        QCOMPARE(
            shareOf(t, rowNamed(t, "Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI16x16x16x1_SN_1LDSB0")).value_or(-1),
            100.0);
        QCOMPARE(shareOf(t, rowNamed(t, "volta_sgemm_128x64_nn")).value_or(-1), 0.0);
        const auto memcpy = rowNamed(t, "Memcpy HtoD (Pageable -> Device)");
        QVERIFY(memcpy);
        QVERIFY2(!shareOf(t, memcpy), "a memory kernel has no Tensor Core share");
    }

    void othersFoldTheirNamesShare()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir, { mixedTrace() });
        core::AnalysisOptions options;
        options.kernels.numKernels = 1;
        const auto out = core::gpuKernelBreakdown(tests::frames(set, options.mode), options);
        const core::Table& t = out.result.items.at(1).frame;
        QVERIFY(rowNamed(t, "ampere_fp16_s16816gemm_fp16_128x128_ldg8_f2f_stages_32x5_tn"));
        // others = the SGEMM (100 µs), the MFMA GEMM (50) and the elementwise kernel (50): 50 / 200.
        QCOMPARE(shareOf(t, rowNamed(t, "others")).value_or(-1), 25.0);
    }

    void htaCompatHasNoColumn()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir, { mixedTrace() });
        core::AnalysisOptions options;
        options.mode = core::AnalysisMode::HtaCompat;
        const auto out = core::gpuKernelBreakdown(tests::frames(set, options.mode), options);
        QVERIFY(out.ok);
        QVERIFY(!out.result.items.at(1).frame.find(core::kernel_breakdown::kTensorCorePct));
    }

    void wholeRankShare()
    {
        QTemporaryDir dir;
        const core::TraceSet set = tests::loadRanks(dir, { mixedTrace() });
        const core::FrameSet frames = tests::frames(set, core::AnalysisMode::Default);
        const core::TensorCoreShare share = core::tensorCoreShare(frames.ranks.at(0));
        // 350 of 500 µs of compute kernels (the memcpy is not a compute kernel).
        QCOMPARE(share.pct().value_or(-1), 70.0);
        QVERIFY(!core::TensorCoreShare {}.pct());
    }
};

KS_TEST_MAIN(tst_tensor_cores, TestTensorCores)
#include "tst_tensor_cores.moc"
