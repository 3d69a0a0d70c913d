// The attention ops TraceLens models beyond aten's SDPA (issue 35, conformance notes part 1,
// class B and "Latent differences"): vLLM's unified attention with its shapes from the step
// annotation (TraceLens's InferenceAttention), flash_attn's varlen ops, AITER's and
// flash_attn_3's. Every expected number is computed by hand from TraceLens's formula, written
// beside it, in the default reading and under ModelReading::tracelens (--tracelens-compat).

#include "core/analysis/efficiency/efficiency.h"
#include "core/analysis/efficiency/iteration_annotation.h"
#include "core/analysis/efficiency/op_args.h"
#include "core/analysis/efficiency/perf_model.h"
#include "tests/support/analysis_test_support.h"
#include "tests/support/one_call_trace.h"
#include "tests/support/op_model_test_support.h"
#include "tests/support/test_main.h"

#include <QTest>

using namespace ks::core;
using ks::test::kernelEvent;
using ks::test::launchEvent;
using ks::test::oneCallEvent;

namespace {

const ModelReading& kOurs = ks::test::kOursReading;
const ModelReading& kTraceLens = ks::test::kTraceLensReading;

// vLLM's detailed step annotation: 1 context request of 8 new tokens (8 keys, Σsq² = Σsq·sk = 64)
// and 4 generation requests of 1 token each over 40 keys in all (Σsq² = 4, Σsq·sk = 40).
const std::string kStep = "execute_12_context_1(sq8sk8sqsq64sqsk64)_generation_4(sq4sk40sqsq4sqsk40)";

OpArgs argsOf(const std::string& dims, const std::string& types, const std::string& concrete = "[]")
{
    return ks::test::opArgsOf(dims, types, concrete);
}

PerfEstimate modelled(const char* op, const OpArgs& args, const ModelReading& reading, bool grad = false)
{
    return ks::test::opModelled(op, args, reading, grad);
}

std::optional<SkipReason> skipOf(const char* op, const OpArgs& args, const ModelReading& reading)
{
    return ks::test::opSkipOf(op, args, reading);
}

// A Concrete Inputs list of `n` empty strings with some set: { index, text }.
std::string concreteList(std::size_t n, const std::vector<std::pair<std::size_t, std::string>>& set)
{
    std::vector<std::string> items(n, "\"\"");
    for (const auto& [i, text] : set)
        items[i] = "\"" + text + "\"";
    std::string out = "[";
    for (std::size_t i = 0; i < n; ++i)
        out += (i ? ", " : "") + items[i];
    return out + "]";
}

// vllm::unified_attention_with_output(query, key, value, output, layer_name): H_Q 8, H_KV 2, d 64.
const std::string kVllmArgs = R"({"Input Dims": [[12, 8, 64], [12, 2, 64], [12, 2, 64], [12, 8, 64], []], )"
                              R"("Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", )"
                              R"("c10::BFloat16", ""], "Input Strides": [], "Concrete Inputs": []})";

} // namespace

class TestEfficiencyVendorAttention : public QObject
{
    Q_OBJECT

private slots:

    void stepAnnotationsParseAsTraceLensDoes()
    {
        // TraceLens's own example of the vLLM detailed form (annotation_utils.py).
        const auto v = chunkStatsOf("execute_6147_context_2(sq6144sk7144sqsq20971520sqsk23019520)_generation_"
                                    "3(sq3sk6144sqsq3sqsk6144)");
        QVERIFY(v);
        QCOMPARE(v->cSq, 6144.0);
        QCOMPARE(v->cSk, 7144.0);
        QCOMPARE(v->cSqSq, 20971520.0);
        QCOMPARE(v->cSqSk, 23019520.0);
        QCOMPARE(v->gSq, 3.0);
        QCOMPARE(v->gSk, 6144.0);
        QCOMPARE(v->gSqSq, 3.0);
        QCOMPARE(v->gSqSk, 6144.0);
        // SGLang's detailed form: key=value pairs, absent keys 0.
        const auto s =
            chunkStatsOf("step[MIXED bs=2 c=1 g=1 c_sq=5 c_sk=8 c_sqsq=25 c_sqsk=40 g_sq=1 g_sk=12 "
                         "g_sqsq=1 g_sqsk=12]");
        QVERIFY(s);
        QCOMPARE(s->cSq, 5.0);
        QCOMPARE(s->cSqSk, 40.0);
        QCOMPARE(s->gSk, 12.0);
        QCOMPARE(chunkStatsOf("step[DECODE bs=64 g_sq=128 g_sqsq=256 g_sqsk=262144 g_sk=131072]")->cSq, 0.0);
        // SGLang's native EXTEND: B equal requests of T tokens in all: c_sq = c_sk = T, Σsq² = Σsq·sk = T²/B.
        const auto e = chunkStatsOf("step[EXTEND bs=2 toks=14721]");
        QVERIFY(e);
        QCOMPARE(e->cSq, 14721.0);
        QCOMPARE(e->cSk, 14721.0);
        QCOMPARE(e->cSqSq, 14721.0 * 14721 / 2);
        QCOMPARE(e->cSqSk, 14721.0 * 14721 / 2);
        QVERIFY(!chunkStatsOf("step[EXTEND bs=2]")); // no tokens: TraceLens raises
        // ATOM's detailed forms: tok is the phase's sq, then its sk, sqsq, sqsk.
        const auto p =
            chunkStatsOf("prefill[bs=2 tok=14721 ctx=[7803, 6918] sqsq=108745533 sqsk=108745533 sk=14721]");
        QVERIFY(p);
        QCOMPARE(p->cSq, 14721.0);
        QCOMPARE(p->cSk, 14721.0);
        QCOMPARE(p->cSqSq, 108745533.0);
        QCOMPARE(p->gSq, 0.0);
        const auto d = chunkStatsOf("decode[bs=32 tok=128 d=32 spec=3 sqsq=512 sqsk=262144 sk=65536]");
        QVERIFY(d);
        QCOMPARE(d->gSq, 128.0);
        QCOMPARE(d->gSk, 65536.0);
        QCOMPARE(d->gSqSq, 512.0);
        QCOMPARE(d->gSqSk, 262144.0);
        QCOMPARE(d->cSq, 0.0);
        QVERIFY(!chunkStatsOf("decode[bs=64 tok=64 d=64]"));
        // The native forms carry no sq/sk sums: no estimate, as TraceLens's NotImplementedError.
        QVERIFY(!chunkStatsOf("execute_context_2(14721)_generation_0(0)"));
        QVERIFY(!chunkStatsOf("step[DECODE bs=64]"));
        QVERIFY(!chunkStatsOf("ProfilerStep#3"));
        // re.match: the pattern must start the name.
        QVERIFY(!chunkStatsOf("x_" + kStep));
    }

    void vllmUnifiedAttentionFromTheStepAnnotation()
    {
        OpArgs a = argsOf("[[12, 8, 64], [12, 2, 64], [12, 2, 32], [12, 8, 32], []]",
            R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", ""])");
        a.annotation = kStep;
        // H_Q = 8, d_qk = 64, H_KV = 2; ours d_v = V's 32, TraceLens's d_v = K's last dim, 64.
        // FLOPs = H_Q·(2·c_sqsk·d_qk + 2·c_sqsk·d_v − c_sqsq·d_qk − c_sqsq·d_v) + H_Q·2·g_sqsk·(d_qk + d_v)
        //   ours: 8·(8192 + 4096 − 4096 − 2048 + 5120 + 2560) = 110592
        //   TraceLens: 8·(8192 + 8192 − 4096 − 4096 + 5120 + 5120) = 147456
        // bytes = (c_sq + g_sq)·(H_Q·(d_qk + d_v) + H_KV·(d_qk + d_v))·2 + ((c_sk − c_sq) + (g_sk −
        // g_sq))·H_KV·(d_qk + d_v)·2
        //   ours: 12·(8·96 + 2·96)·2 + 36·2·96·2 = 23040 + 13824;  TraceLens: 12·1280·2 + 36·256·2 = 30720 +
        //   18432
        const auto ours = modelled("vllm::unified_attention_with_output", a, kOurs);
        QCOMPARE(ours.flops, 110592.0);
        QCOMPARE(ours.bytes, 36864.0);
        QCOMPARE(ours.precision, std::string("bf16"));
        QVERIFY(ours.unit == ComputeUnit::Matrix);
        const auto theirs = modelled("vllm::unified_attention_with_output", a, kTraceLens);
        QCOMPARE(theirs.flops, 147456.0);
        QCOMPARE(theirs.bytes, 49152.0);
        // AITER's fmha_v3_varlen_fwd reads d_v from V in TraceLens too.
        QCOMPARE(modelled("aiter::fmha_v3_varlen_fwd", a, kTraceLens).flops, 110592.0);
        // The cached K/V at K's dtype (fp8, 1 byte): 23040 + 36·2·96·1.
        OpArgs fp8 = argsOf("[[12, 8, 64], [12, 2, 64], [12, 2, 32]]",
            R"(["c10::BFloat16", "c10::Float8_e4m3fn", "c10::Float8_e4m3fn"])");
        fp8.annotation = kStep;
        QCOMPARE(modelled("vllm::unified_attention_with_output", fp8, kOurs).bytes, 23040.0 + 6912.0);
        // No step annotation, or one without a query token: no estimate.
        a.annotation.clear();
        QCOMPARE(skipOf("vllm::unified_attention_with_output", a, kOurs), SkipReason::NoStepAnnotation);
        a.annotation = "execute_0_context_0(sq0sk0sqsq0sqsk0)_generation_0(sq0sk0sqsq0sqsk0)";
        QCOMPARE(skipOf("vllm::unified_attention_with_output", a, kTraceLens), SkipReason::NoStepAnnotation);
    }

    void vllmCallsTakeTheStepAnnotationAroundThem()
    {
        // The step annotation around the first call (another annotation nested between them); the
        // second call is outside any: no row, counted.
        const std::vector<std::string> events {
            oneCallEvent("user_annotation", kStep, 0, 100, "{}"),
            oneCallEvent("user_annotation", "attention_layer", 5, 50, "{}"),
            oneCallEvent("cpu_op", "vllm::unified_attention_with_output", 10, 20, kVllmArgs),
            launchEvent(11, 1),
            kernelEvent(40, 10, 1),
            oneCallEvent("cpu_op", "vllm::unified_attention_with_output", 200, 20, kVllmArgs),
            launchEvent(201, 2),
            kernelEvent(230, 10, 2),
        };
        QTemporaryDir dir;
        const TraceSet set = ks::tests::loadRanks(dir, { ks::tests::kinetoDocument(0, events) });
        for (const bool compat : { false, true }) {
            EfficiencyOptions options;
            options.tracelensCompat = compat;
            const EfficiencyReport report = efficiencyReport(set, options);
            QCOMPARE(report.rows.size(), std::size_t(1));
            const EfficiencyRow& row = report.rows.front();
            QCOMPARE(row.name, std::string("vllm::unified_attention_with_output"));
            QCOMPARE(row.calls, std::int64_t(1));
            // d_v = 64 in both readings: 8·64·(256 − 128 + 160) FLOPs; 30720 + 18432 bytes.
            QCOMPARE(row.flops, 147456.0);
            QCOMPARE(row.bytes, 49152.0);
            QCOMPARE(row.kernelTimeUsSum, 10.0);
            QCOMPARE(report.skipped[std::size_t(SkipReason::NoStepAnnotation)], std::int64_t(1));
        }
    }

    void aiterPagedDecodeAndSparsePrefill()
    {
        // pa_decode_gluon: decode only (context sums 0), d_v = d_qk = 64, H_Q 8, H_KV = k_cache[1] = 2,
        // KV at the cache's dtype (fp8, 1 byte), 4 requests over 400 keys; a window of 64 caps
        // g_sqsk and g_sk at g_sq·64 = 256:
        //   FLOPs = H_Q·2·256·(64 + 64) = 524288;
        //   bytes = 4·(8·128 + 2·128)·2 + (256 − 4)·2·128·1 = 10240 + 64512
        OpArgs a = argsOf("[[4, 8, 64], [], [100, 2, 16, 64]]",
            R"(["c10::BFloat16", "", "c10::Float8_e4m3fnuz"])", concreteList(20, { { 19, "64" } }));
        a.annotation = "execute_4_context_0(sq0sk0sqsq0sqsk0)_generation_4(sq4sk400sqsq4sqsk400)";
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled("aiter::pa_decode_gluon", a, reading);
            QCOMPARE(e.flops, 524288.0);
            QCOMPARE(e.bytes, 74752.0);
        }
        // Full attention (-1): 8·2·400·128 FLOPs, 10240 + 396·256 bytes.
        a.concrete[19] = "-1";
        QCOMPARE(modelled("aiter::pa_decode_gluon", a, kOurs).flops, 819200.0);
        QCOMPARE(modelled("aiter::pa_decode_gluon", a, kOurs).bytes, 111616.0);
        // pa_sparse_prefill_opus_fwd: q (16, 8, 128), pairs = 1000 + 200 (Input Dims 2 and 5), no annotation:
        //   FLOPs = 1200·8·2·(128 + 128); bytes = 2·16·8·128·2 + 1200·128·2
        const OpArgs p = argsOf("[[16, 8, 128], [], [1000], [], [], [200]]",
            R"(["c10::BFloat16", "c10::BFloat16", "int", "", "", "int"])");
        const auto e = modelled("aiter::pa_sparse_prefill_opus_fwd", p, kTraceLens);
        QCOMPARE(e.flops, 4915200.0);
        QCOMPARE(e.bytes, 372736.0);
        QCOMPARE(e.precision, std::string("bf16"));
    }

    void varlenForwardSplitsTheSequences()
    {
        // q (T_q 10, H 4, d 16), k and v (10, 2, 16) float; cu_seqlens of 4 entries: 3 sequences;
        // max_seqlen 6; causal. TraceLens: one sequence of 6, two of ⌊(10 − 6)/2⌋ = 2.
        // causal f(n) = B·H_Q·(2·n·n·d_qk + 2·n·n·d_v)/2 = 128·n²: 128·36 + 2·128·4 = 5632.
        const OpArgs a = argsOf("[[10, 4, 16], [10, 2, 16], [10, 2, 16], [4], [4], [], [], [], [], []]",
            R"(["float", "float", "float", "int", "int", "Scalar", "Scalar", "Scalar", "Scalar", "Scalar"])",
            concreteList(10, { { 5, "6" }, { 6, "6" }, { 7, "0.0" }, { 9, "True" } }));
        const char* op = "flash_attn::_flash_attn_varlen_forward";
        // bytes = bpe·(T_q·H_Q·d + T_k·H_KV·d + T_k·H_KV·d + T_q·H_Q·d) = bpe·1920: ours float 4,
        // TraceLens 2.
        const auto ours = modelled(op, a, kOurs);
        QCOMPARE(ours.flops, 5632.0);
        QCOMPARE(ours.bytes, 7680.0);
        QCOMPARE(ours.precision, std::string("fp32"));
        const auto theirs = modelled(op, a, kTraceLens);
        QCOMPARE(theirs.flops, 5632.0);
        QCOMPARE(theirs.bytes, 3840.0);
        // Its autograd backward: the flash backward f_b(n) = (5·H_Q·2·n²·d + 2·n·d·(H_Q/H_KV − 1))/2
        // = 320·n² + 16·n. Ours split as the forward: f_b(6) + 2·f_b(2) = 11616 + 2·1312 = 14240;
        // TraceLens's SDPA.flops_bwd on the totals: f_b(10) = 32160. bytes = bpe·(2·(q + k + v) + dO) =
        // bpe·3200.
        const auto grad = modelled(op, a, kOurs, true);
        QCOMPARE(grad.flops, 14240.0);
        QCOMPARE(grad.bytes, 12800.0);
        const auto theirGrad = modelled(op, a, kTraceLens, true);
        QCOMPARE(theirGrad.flops, 32160.0);
        QCOMPARE(theirGrad.bytes, 6400.0);
        // Causal with max_seqlen_q != max_seqlen_k: TraceLens's flops_func raises.
        const OpArgs odd = argsOf("[[10, 4, 16], [10, 2, 16], [10, 2, 16], [4], [4]]",
            R"(["float", "float", "float", "int", "int"])",
            concreteList(10, { { 5, "6" }, { 6, "5" }, { 7, "0.0" }, { 9, "True" } }));
        QCOMPARE(skipOf(op, odd, kOurs), SkipReason::MismatchedShapes);
    }

    void varlenBackward()
    {
        // (dout, q, k, v, out, softmax_lse, dq, dk, dv, cu_seqlens_q, cu_seqlens_k, max_q 11, max_k 12,
        // dropout 13, scale 14, causal 15): the same problem, bf16: 14240 FLOPs, 2·3200 bytes.
        const OpArgs a = argsOf("[[10, 4, 16], [10, 4, 16], [10, 2, 16], [10, 2, 16], [10, 4, 16], [4, 10], "
                                "[], [], [], [4], [4]]",
            R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "float"])",
            concreteList(16, { { 11, "6" }, { 12, "6" }, { 13, "0.0" }, { 15, "True" } }));
        for (const ModelReading& reading : { kOurs, kTraceLens }) {
            const auto e = modelled("flash_attn::_flash_attn_varlen_backward", a, reading);
            QCOMPARE(e.flops, 14240.0);
            QCOMPARE(e.bytes, 6400.0);
            QCOMPARE(e.precision, std::string("bf16"));
        }
    }

    void aiterAndFlashAttn3Forward()
    {
        // (B 1, N 8, H 4, d 16) float, causal: B·H·(2·N·N·d + 2·N·N·d)/2 = 8192 FLOPs; bytes
        // bpe·4·(8·4·16) = bpe·2048: ours float 4, TraceLens 2; TraceLens gives no dtype, so no precision.
        const std::string dims = "[[1, 8, 4, 16], [1, 8, 4, 16], [1, 8, 4, 16]]";
        const std::string types = R"(["float", "float", "float"])";
        const std::vector<std::pair<const char*, std::string>> ops {
            { "aiter::mha_fwd", concreteList(6, { { 3, "0.0" }, { 5, "True" } }) },
            { "aiter::fmha_v3_fwd", concreteList(6, { { 3, "0.0" }, { 5, "True" } }) },
            { "aiter::_flash_attn_forward", concreteList(6, { { 3, "0.0" }, { 5, "True" } }) },
            { "flash_attn_3::fwd", concreteList(25, { { 24, "True" } }) },
        };
        for (const auto& [op, concrete] : ops) {
            const OpArgs a = argsOf(dims, types, concrete);
            const auto ours = modelled(op, a, kOurs);
            QCOMPARE(ours.flops, 8192.0);
            QCOMPARE(ours.bytes, 8192.0);
            QCOMPARE(ours.precision, std::string("fp32"));
            const auto theirs = modelled(op, a, kTraceLens);
            QCOMPARE(theirs.flops, 8192.0);
            QCOMPARE(theirs.bytes, 4096.0);
            QCOMPARE(theirs.precision, std::string());
        }
        // wrapper_fmha_v3_fwd: Q, K, V at 1-3, causal at 6 (False here): 16384 FLOPs.
        const OpArgs w = argsOf("[[], " + dims.substr(1), R"(["", "float", "float", "float"])",
            concreteList(7, { { 4, "0.0" }, { 6, "False" } }));
        QCOMPARE(modelled("aiter::wrapper_fmha_v3_fwd", w, kOurs).flops, 16384.0);
    }

    void aiterFlashBackwardReadsQAfterDout()
    {
        // aiter::_flash_attn_backward(dout, q, k, v, …, dropout_p 10, scale 11, causal 12) with GQA:
        // q (1, 8, 4, 16), k and v (1, 8, 2, 16), bf16, not causal. Ours: the flash backward
        // 5·(B·H_Q·2·N·N·d) + 2·(B·N·d·(H_Q/H_KV − 1)) = 5·8192 + 2·128 = 41216 FLOPs,
        // 2·(2·(512 + 256 + 256) + 512) = 5120 bytes. TraceLens reads dout, q, k as Q, K, V: its K has
        // 4 heads, its V 2, and extract_sdpa_cfg raises: no row.
        const OpArgs a = argsOf("[[1, 8, 4, 16], [1, 8, 4, 16], [1, 8, 2, 16], [1, 8, 2, 16]]",
            R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16"])",
            concreteList(13, { { 10, "0.0" }, { 12, "False" } }));
        const auto ours = modelled("aiter::_flash_attn_backward", a, kOurs);
        QCOMPARE(ours.flops, 41216.0);
        QCOMPARE(ours.bytes, 5120.0);
        QCOMPARE(skipOf("aiter::_flash_attn_backward", a, kTraceLens), SkipReason::MismatchedShapes);
        // aiter::mha_bwd(dout, q, k, v, out, lse, dropout_p 6, scale 7, causal 8) reads Q at 1 in both.
        const OpArgs m = argsOf("[[1, 8, 4, 16], [1, 8, 4, 16], [1, 8, 2, 16], [1, 8, 2, 16]]",
            R"(["float", "float", "float", "float"])", concreteList(9, { { 6, "0.0" }, { 8, "False" } }));
        QCOMPARE(modelled("aiter::mha_bwd", m, kOurs).flops, 41216.0);
        QCOMPARE(modelled("aiter::mha_bwd", m, kOurs).bytes, 4.0 * 2560);
        QCOMPARE(modelled("aiter::mha_bwd", m, kTraceLens).bytes, 2.0 * 2560);
    }

    void evoformerAttention()
    {
        // Q (B 2, N_seq 3, N_res 8, H 4, d 16) float: 6 slices of attention over 8 residues.
        //   FLOPs = 6·4·(2·8·8·16 + 2·8·16·8) = 98304; bytes = bpe·4·(6·8·4·16) = bpe·12288.
        // Backward (not flash): dV, dP, dQ, dK = 4·6·4·2·8·8·16 = 196608 FLOPs; bytes bpe·7·3072.
        const OpArgs a = argsOf("[[2, 3, 8, 4, 16], [2, 3, 8, 4, 16], [2, 3, 8, 4, 16], [], []]",
            R"(["float", "float", "float", "float", "float"])");
        const auto ours = modelled("EvoformerAttention", a, kOurs);
        QCOMPARE(ours.flops, 98304.0);
        QCOMPARE(ours.bytes, 4.0 * 12288);
        QCOMPARE(modelled("EvoformerAttention", a, kTraceLens).bytes, 2.0 * 12288);
        const auto grad = modelled("EvoformerAttention", a, kOurs, true);
        QCOMPARE(grad.flops, 196608.0);
        QCOMPARE(grad.bytes, 4.0 * 7 * 3072);
    }

    void reductionsTraceLensListsAreModelled()
    {
        // aten::std, var, logsumexp: TraceLens's aten_reduce, n_in FLOPs, (n_in + 1)·bpe bytes (one
        // output element: a trace's dim list is a string, never a Python list).
        for (const char* op : { "aten::std", "aten::var", "aten::logsumexp" }) {
            const auto e = modelled(op, argsOf("[[4, 8], [], []]", R"(["float", "", "Scalar"])"), kTraceLens);
            QCOMPARE(e.flops, 32.0);
            QCOMPARE(e.bytes, 33.0 * 4);
        }
    }
};

KS_TEST_MAIN(tst_efficiency_vendor_attention, TestEfficiencyVendorAttention)
#include "tst_efficiency_vendor_attention.moc"
