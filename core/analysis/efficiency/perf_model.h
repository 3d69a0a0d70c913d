#pragma once

#include "core/analysis/efficiency/dtypes.h"
#include "core/analysis/efficiency/op_args.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <variant>

namespace ks::core {

// FLOPs and bytes moved per call of an operator, from its recorded input shapes
// and dtypes. One file per family (gemm_model.cpp, attention_model.cpp, ...);
// each states its formulas, which are TraceLens's PerfModel ones unless the
// comment there says otherwise.

enum class OpFamily : std::uint8_t
{
    Gemm,
    Attention,
    Conv,
    Elementwise,
    Reduce,
    Norm,
    Rope,
    Moe, // MoE token routing (TraceLens's MoE_comm categories)
    Collective, // vendor custom all-reduce / gather / scatter kernels (TraceLens's CustomCollective)
    Mhc, // AITER's manifold-constrained hyper-connection ops (TraceLens's mHC)
};

std::string_view opFamilyName(OpFamily family); // "gemm", "attention", ...
std::optional<OpFamily> opFamilyFromName(std::string_view name);

enum class ComputeUnit : std::uint8_t
{
    Matrix, // tensor cores / matrix cores
    Vector, // CUDA cores / SIMD units
};

// How a model reads the recorded arguments. By default as the op's schema means
// them; with `tracelens` (roofline --tracelens-compat) as TraceLens's PerfModel
// reads them where that differs: a convolution's bias never counted, an optional
// norm tensor always present and a boolean true when its string is non-empty,
// TraceLens's dtype table (docs/tracelens-differences.md lists each).
struct ModelReading
{
    bool tracelens = false;

    DtypeTable dtypes() const { return tracelens ? DtypeTable::TraceLens : DtypeTable::Kinetoscope; }
};

struct PerfEstimate
{
    double flops = 0;
    // NaN when a dtype has no size (TraceLens's None): the call keeps its row with
    // FLOPs and kernel time, but no bytes, TB/s, intensity or roofline.
    double bytes = 0;
    std::string precision; // "bf16", ...; "" when the dtype has no peak
    ComputeUnit unit = ComputeUnit::Vector;
    // What else decides the numbers beyond dims, dtypes and strides (causal,
    // stride/padding of a convolution): part of the grouping key.
    std::string params;
    // TraceLens's perf-model parameters (its "param: *" columns) where they are not
    // the dims, dtypes and strides (reductions, normalisation): rows then group on the
    // op name and these, as TraceLens's do; empty: on name, dims, dtypes, strides, params.
    std::string groupKey;

    bool bytesKnown() const { return !std::isnan(bytes); }
};

// Why a call of a modelled op has no estimate (each counted, the call skipped).
enum class SkipReason : std::uint8_t
{
    NoShapes, // the trace has no "Input Dims" for it
    MalformedDims, // dims missing, not integer lists, or of the wrong rank
    UnknownDtype, // a dtype with no known size
    MismatchedShapes, // operands that cannot go together (K differs, no broadcast, causal with N_Q != N_KV)
    NoStepAnnotation, // inference attention outside a step annotation with the batch's token sums
    NoForwardCall, // a backward op whose shapes are its forward call's, without one of its sequence number
    Count_
};
inline constexpr std::size_t kSkipReasonCount = static_cast<std::size_t>(SkipReason::Count_);
std::string_view skipReasonText(SkipReason reason);

using ModelResult = std::variant<PerfEstimate, SkipReason>;
using OpModelFn = ModelResult (*)(std::string_view name, const OpArgs& args, const ModelReading& reading);

struct OpModel
{
    std::string_view name; // the op as it appears in the trace ("aten::mm")
    OpFamily family;
    OpModelFn fn;
    // A forward op whose TraceLens model has backward formulas (reductions, attention): the
    // FLOPs and bytes of its autograd backward, from the forward call's args. nullptr: none.
    OpModelFn backward = nullptr;
    // The model reads OpArgs::annotation, the step annotation around the call.
    bool readsAnnotation = false;
    // A backward op recorded under its own name whose model reads the args of its forward call (apex's
    // ConvBias_Backward, whose own args hold only the output gradient): that forward op's name
    // ("ConvBias_"), the call matched by sequence number (forwardCalls, backward_calls.h). Empty: the
    // model reads the call's own args.
    std::string_view forwardOp = {};

    ModelResult model(std::string_view op, const OpArgs& args, const ModelReading& reading = {}) const
    {
        return fn(op, args, reading);
    }
};

// The op's name as TraceLens reports and maps it: SGLang's profiler ops lose their per-layer
// `_<digits>` suffix ("sglang_profiler::attention_paged_attention_ragged_3" -> "…_ragged";
// TraceLens's normalize_sglang_profiler_op_names, `^(sglang_profiler::.+?)_\d+$`); others unchanged.
std::string_view canonicalOpName(std::string_view name);
// The model of an op name (its canonical name's); nullptr when none (the op is not in the report).
const OpModel* findOpModel(std::string_view name);
// Whether the efficiency analysis models the op (and so reads its args): what a
// load keeps the args of when the roofline will run (LoadOptions::keepArgsOf).
bool isModelledOp(std::string_view name);

// The family tables, each defined in its own file.
std::span<const OpModel> gemmModels();
std::span<const OpModel> attentionModels();
std::span<const OpModel> varlenAttentionModels();
std::span<const OpModel> inferenceAttentionModels();
std::span<const OpModel> convModels();
std::span<const OpModel> elementwiseModels();
std::span<const OpModel> reduceModels();
std::span<const OpModel> normModels();
std::span<const OpModel> ropeModels();
std::span<const OpModel> rmsnormQuantModels();
std::span<const OpModel> groupedGemmModels();
std::span<const OpModel> quantGemmModels();
std::span<const OpModel> quantModels();
std::span<const OpModel> mlaCacheModels();
std::span<const OpModel> moeModels();
std::span<const OpModel> customCollectiveModels();
std::span<const OpModel> mhcModels();
std::span<const OpModel> samplingModels();
// Matched by name prefix, not whole name (TraceLens's register_perf_model_matcher): torch.compile's
// Triton kernels, one name per generated kernel ("triton_poi_fused_add_0").
std::span<const OpModel> tritonCompiledModels();

} // namespace ks::core
