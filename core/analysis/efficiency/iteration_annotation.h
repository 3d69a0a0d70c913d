#pragma once

#include "core/model/rank_trace.h"

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace ks::core {

// What an inference engine's step annotation says about the attention of its batch: the
// sums over the context (prefill) requests and the generation (decode) requests of the
// query tokens (sq), the key tokens (sk), sq² and sq·sk. TraceLens's IterationAnnotation
// (TraceUtils/annotation_utils.py) chunk_stats(); attention ops whose tensors are packed
// across requests (vLLM's unified attention, AITER's varlen ones) take their FLOPs from it.
struct ChunkStats
{
    double cSq = 0, cSk = 0, cSqSq = 0, cSqSk = 0;
    double gSq = 0, gSk = 0, gSqSq = 0, gSqSk = 0;
};

// The stats of an annotation that carries them, as TraceLens's IterationAnnotation parses
// it and InferenceAttention._parse_chunk_stats reads it: vLLM's detailed
// `execute_N_context_k(sqAskBsqsqCsqskD)_generation_m(sq…sk…sqsq…sqsk…)` (annotation_utils.py
// VLLM_DETAILED_PATTERN, _fill_vllm_detailed), SGLang's detailed `step[EXTEND|DECODE|MIXED …
// c_sq=… g_sqsk=…]` (SGLANG_DETAILED_PATTERN) and native `step[EXTEND bs=B toks=T]` (a prefill of B
// equal requests), ATOM's detailed `prefill[… tok=… sqsq=… sqsk=… sk=…]` / `decode[…]`; each
// matched at the start of the name, as re.match does. nullopt otherwise: vLLM's native
// `execute_context_k(n)_generation_m(n)` and ATOM's native forms have no sums, SGLang's native
// DECODE no key length (TraceLens gives no estimate, or for that DECODE bytes without FLOPs).
std::optional<ChunkStats> chunkStatsOf(std::string_view annotation);

// The step annotations of a rank (user_annotation slices whose name carries chunk stats),
// to find the one around a call: TraceLens applies to each op the first such annotation
// whose span contains it (Trace2Tree's apply_annotation over the iteration roots).
class IterationAnnotations
{
public:
    explicit IterationAnnotations(const RankTrace& trace);

    // The name of the earliest-starting step annotation containing the slice; "" when none.
    std::string_view around(std::uint32_t slice) const;

private:
    const RankTrace& m_trace;
    std::vector<std::uint32_t> m_spans; // by start
};

} // namespace ks::core
