#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ks::core {

// The GPU kernels the synthetic training step launches. Names and launch
// configurations are those PyTorch 2.x / cuBLAS / FlashAttention / NCCL kernels
// show in real Kineto traces, so kernel classification and name handling are
// exercised on realistic (long, templated) strings.
enum class KernelId : std::uint8_t
{
    GemmForward,
    GemmDgrad,
    GemmWgrad,
    LayerNormForward,
    LayerNormBackwardInput,
    LayerNormBackwardGammaBeta,
    FlashForward,
    FlashBackwardDotDoO,
    FlashBackwardDqDkDv,
    FlashBackwardConvertDq,
    Gelu,
    GeluBackward,
    Dropout,
    DropoutBackward,
    Add,
    Copy,
    Cat,
    SumReduce,
    IndexSelect,
    EmbeddingBackward,
    LogSoftmax,
    LogSoftmaxBackward,
    NllLoss,
    NllLossBackward,
    MultiTensorApply,
    NcclAllReduce,
    Count
};

struct KernelSpec
{
    std::string_view name;
    // Args after "correlation", pre-rendered in Kineto's layout.
    std::string launchArgs;
};

const KernelSpec& kernelSpec(KernelId id);

enum class RuntimeApi : std::uint8_t
{
    LaunchKernel,
    MemcpyAsync,
    MemsetAsync,
    StreamSynchronize,
    DeviceSynchronize,
    EventSynchronize,
    EventRecord,
    StreamWaitEvent,
    StreamIsCapturing,
    FuncSetAttribute,
    Count
};

struct RuntimeSpec
{
    std::string_view name;
    int cbid; // CUPTI callback id, as Kineto records it
};

const RuntimeSpec& runtimeSpec(RuntimeApi api);

// Op, annotation and Python function names used by one generator, interned so
// records carry a 32-bit index. Names must be valid JSON string content
// (checked on insert): they are written without escaping.
class NameTable
{
public:
    std::uint32_t intern(std::string_view name);

    std::string_view at(std::uint32_t index) const { return m_names[index]; }

    std::size_t size() const { return m_names.size(); }

private:
    std::vector<std::string> m_names;
    std::unordered_map<std::string, std::uint32_t> m_index;
};

} // namespace ks::core
