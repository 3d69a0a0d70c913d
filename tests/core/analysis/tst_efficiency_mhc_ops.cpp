// AITER's mHC (manifold-constrained hyper-connection) ops and its token sampler
// (aiter::mixed_sample_outer_exponential), as TraceLens's perf model reads them
// (extensions/perf_model_extensions.py). Every expected number is computed by hand from the formula
// in core/analysis/efficiency/mhc_model.cpp and sampling_model.cpp, in the default reading and in
// TraceLens's (--tracelens-compat); a trace checks the row a launched kernel gives.
//
// The shapes: M = 4 tokens, n = 2 streams, C = 128 hidden, K = n·C = 256, hc3 = n² + 2n = 8 projection
// rows, split_k = 2; activations bf16, the mixes, fn and the GEMM partials fp32.

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"
#include "tests/support/one_call_trace.h"
#include "tests/support/op_model_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

#include <cmath>
#include <string>

using namespace ks::core;
using namespace ks::test::op_model_names;
using ks::test::oneCallRow;

namespace {

const char* const kPost = "aiter::mhc_post";
const char* const kPreGemm = "aiter::mhc_pre_gemm_sqrsum";
const char* const kBigFuse = "aiter::mhc_pre_big_fuse_rmsnorm";
const char* const kFused = "aiter::mhc_fused_post_pre_gemm_sqrsum";
const char* const kSample = "aiter::mixed_sample_outer_exponential";

// mhc_post(out, x, residual, post_layer_mix, comb_res_mix, store_nt), the mixes of dtype `mix`.
OpArgs postArgs(const std::string& mix = "float")
{
    return argsOf("[[4, 2, 128], [4, 128], [4, 2, 128], [4, 2, 1], [4, 2, 2], []]",
        R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", ")" + mix + R"(", ")" + mix
            + R"(", "Scalar"])");
}

// mhc_pre_gemm_sqrsum(out, sqrsum, x, fn, tile_k, is_fn_pack_bf16), fn of dtype `fn`.
OpArgs preGemmArgs(const std::string& fn = "float")
{
    return argsOf("[[2, 4, 8], [2, 4], [4, 2, 128], [8, 256], [], []]",
        R"(["float", "float", "c10::BFloat16", ")" + fn + R"(", "Scalar", "Scalar"])");
}

// mhc_pre_big_fuse_rmsnorm(post_mix, comb_mix, out, gemm_out_mul, gemm_out_sqrsum, hc_scale, hc_base,
// residual, norm_weight, rms_eps, ...).
OpArgs bigFuseArgs()
{
    return argsOf("[[4, 2, 1], [4, 2, 2], [4, 128], [2, 4, 8], [2, 4], [3], [8], [4, 2, 128], [128], [], []]",
        R"(["float", "float", "c10::BFloat16", "float", "float", "float", "float", "c10::BFloat16", )"
        R"("c10::BFloat16", "Scalar", "Scalar"])");
}

// mhc_fused_post_pre_gemm_sqrsum(gemm_out_mul, gemm_out_sqrsum, next_residual, layer_input, residual_in,
// post_layer_mix, comb_res_mix, fn, tile_m, ...).
OpArgs fusedArgs()
{
    return argsOf(
        "[[2, 4, 8], [2, 4], [4, 2, 128], [4, 128], [4, 2, 128], [4, 2, 1], [4, 2, 2], [8, 256], []]",
        R"(["float", "float", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "float", "float", "float", )"
        R"("Scalar"])");
}

} // namespace

class TestEfficiencyMhcOps : public QObject
{
    Q_OBJECT

private Q_SLOTS:

    // mhc_post: FLOPs = 2·M·n·C·(n + 1) = 2·4·2·128·3; bytes = (M·C + 2·M·n·C)·2 + M·n·4 + M·n²·4
    // = (512 + 2048)·2 + 32 + 64.
    void mhcPost()
    {
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const PerfEstimate e = modelled(kPost, postArgs(), reading);
            QCOMPARE(e.flops, 6144.0);
            QCOMPARE(e.bytes, 5216.0);
            QCOMPARE(e.precision, std::string("bf16"));
            QCOMPARE(e.unit, ComputeUnit::Vector);
            QCOMPARE(e.params, std::string("streams=2"));
        }
        // bf16 mixes: ours at their size (8·2 + 16·2), TraceLens's at 4 bytes whatever they are
        QCOMPARE(modelled(kPost, postArgs("c10::BFloat16"), kOurs).bytes, 5168.0);
        QCOMPARE(modelled(kPost, postArgs("c10::BFloat16"), kTraceLens).bytes, 5216.0);
        // a single recorded type: the activations are taken for bf16, as TraceLens's default
        const OpArgs oneType = argsOf("[[4, 2, 128], [4, 128]]", R"(["float"])");
        QCOMPARE(modelled(kPost, oneType, kTraceLens).bytes, 5216.0);
        QCOMPARE(modelled(kPost, oneType, kOurs).bytes, 5216.0);
        // an activation dtype with no size: FLOPs, no bytes
        const OpArgs unsized = argsOf("[[4, 2, 128], [4, 128]]", R"(["mystery", "mystery"])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            QVERIFY(!modelled(kPost, unsized, reading).bytesKnown());
            QCOMPARE(modelled(kPost, unsized, reading).flops, 6144.0);
        }
        // x of the wrong rank
        QCOMPARE(skipOf(kPost, argsOf("[[4, 2, 128], [4, 2, 128]]", R"(["c10::BFloat16", "c10::BFloat16"])"),
                     kOurs),
            std::optional(SkipReason::MalformedDims));
        QCOMPARE(findOpModel(kPost)->family, OpFamily::Mhc);
    }

    // mhc_pre_gemm_sqrsum: FLOPs = 2·M·hc3·K = 2·4·8·256; bytes = x 4·2·128·2 + fn 8·256·4 + out 2·4·8·4
    // + sqrsum 2·4·4 = 2048 + 8192 + 256 + 32; matrix units.
    void mhcPreGemmSqrsum()
    {
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const PerfEstimate e = modelled(kPreGemm, preGemmArgs(), reading);
            QCOMPARE(e.flops, 16384.0);
            QCOMPARE(e.bytes, 10528.0);
            QCOMPARE(e.precision, std::string("bf16"));
            QCOMPARE(e.unit, ComputeUnit::Matrix);
            QCOMPARE(e.params, std::string("streams=2 split_k=2"));
        }
        // a bf16-packed fn: ours 8·256·2, TraceLens's 8·256·4
        QCOMPARE(modelled(kPreGemm, preGemmArgs("c10::BFloat16"), kOurs).bytes, 6432.0);
        QCOMPARE(modelled(kPreGemm, preGemmArgs("c10::BFloat16"), kTraceLens).bytes, 10528.0);
        QCOMPARE(skipOf(kPreGemm, argsOf("[[2, 4, 8], [2, 4], [4, 256]]", R"(["float", "float", "float"])"),
                     kTraceLens),
            std::optional(SkipReason::MalformedDims));
    }

    // mhc_pre_big_fuse_rmsnorm: FLOPs = 2·M·C·n + 5·M·C = 2048 + 2560; TraceLens's bytes = residual
    // 4·2·128·2 + partials 2·4·8·4 + norm weight 128·2 + layer input 4·128·2 + mixes 32 + 64 = 3680;
    // ours also reads the square-sum partials, 2·4·4.
    void mhcPreBigFuseRmsnorm()
    {
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const PerfEstimate e = modelled(kBigFuse, bigFuseArgs(), reading);
            QCOMPARE(e.flops, 4608.0);
            QCOMPARE(e.bytes, reading.tracelens ? 3680.0 : 3712.0);
            QCOMPARE(e.precision, std::string("bf16"));
            QCOMPARE(e.unit, ComputeUnit::Vector);
        }
    }

    // mhc_fused_post_pre_gemm_sqrsum: FLOPs = post 2·4·2·128·3 + GEMM 2·4·8·256 = 6144 + 16384; bytes =
    // layer input 1024 + 3·(4·2·128·2) + mixes 96 + fn 8192 + partials 256 + square sums 32; matrix units.
    void mhcFusedPostPreGemmSqrsum()
    {
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const PerfEstimate e = modelled(kFused, fusedArgs(), reading);
            QCOMPARE(e.flops, 22528.0);
            QCOMPARE(e.bytes, 15744.0);
            QCOMPARE(e.precision, std::string("bf16"));
            QCOMPARE(e.unit, ComputeUnit::Matrix);
        }
        QCOMPARE(opFamilyName(OpFamily::Mhc), std::string_view("mhc"));
        QCOMPARE(opFamilyFromName("mhc"), std::optional(OpFamily::Mhc));
    }

    // mixed_sample_outer_exponential(out (4), logits (4, 32000) bf16, exponentials (4, 32000) fp32,
    // temperatures (4), eps): FLOPs = 2·T·V; TraceLens's bytes = 128000·2 + 128000·4 + 4·4; ours also
    // reads the temperatures, 4·4.
    void mixedSampleOuterExponential()
    {
        const OpArgs args = argsOf("[[4], [4, 32000], [4, 32000], [4], []]",
            R"(["int", "c10::BFloat16", "float", "float", "Scalar"])");
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const PerfEstimate e = modelled(kSample, args, reading);
            QCOMPARE(e.flops, 256000.0);
            QCOMPARE(e.bytes, reading.tracelens ? 768016.0 : 768032.0);
            QCOMPARE(e.precision, std::string("bf16"));
            QCOMPARE(e.unit, ComputeUnit::Vector);
        }
        // TraceLens's own case: no output shape recorded, fp32 logits: the formula in both readings
        const OpArgs bare = argsOf("[[], [4, 32000], [4, 32000]]", R"(["Scalar", "float", "float"])");
        for (const ModelReading& reading : { kOurs, kTraceLens })
            QCOMPARE(modelled(kSample, bare, reading).bytes, 1024016.0); // 128000·8 + 16
        // Input types not recorded past the first: TraceLens's defaults, the logits c10::bfloat16 (2 bytes,
        // name2bpe lower-cases) and the noise float (4): 128000·2 + 128000·4 + 16, the logits' bf16
        const PerfEstimate untyped =
            modelled(kSample, argsOf("[[4], [4, 32000], [4, 32000]]", R"(["int"])"), kTraceLens);
        QCOMPARE(untyped.bytes, 768016.0);
        QCOMPARE(untyped.precision, std::string("bf16"));
        QCOMPARE(findOpModel(kSample)->family, OpFamily::Elementwise);
        QCOMPARE(skipOf(kSample, argsOf("[[4]]", R"(["int"])"), kTraceLens),
            std::optional(SkipReason::MalformedDims));
    }

    // An mHC call in a trace: one row with its kernel's time in both modes.
    void mhcRow()
    {
        const std::string call =
            R"({"Input Dims": [[4, 2, 128], [4, 128], [4, 2, 128], [4, 2, 1], [4, 2, 2], []], )"
            R"("Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "float", "float", "Scalar"], )"
            R"("Input Strides": [], "Concrete Inputs": ["", "", "", "", "", "False"]})";
        for (const bool compat : { false, true }) {
            const EfficiencyRow row = oneCallRow(kPost, call, compat);
            QCOMPARE(row.family, OpFamily::Mhc);
            QCOMPARE(row.flops, 6144.0);
            QCOMPARE(row.bytes, 5216.0);
            QCOMPARE(row.kernelTimeUsSum, 10.0);
            QCOMPARE(row.calls, std::int64_t(1));
        }
    }
};

KS_TEST_MAIN(tst_efficiency_mhc_ops, TestEfficiencyMhcOps)
#include "tst_efficiency_mhc_ops.moc"
