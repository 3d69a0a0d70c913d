#include "core/session/output_key.h"

#include <array>

namespace ks::core {

namespace {

    constexpr std::array<std::string_view, kOutputKeyCount> kNames = {
        "get_temporal_breakdown",
        "get_idle_time_breakdown",
        "get_gpu_kernel_breakdown",
        "get_gpu_kernel_breakdown__num_kernels_5",
        "get_comm_comp_overlap",
        "get_memory_bw_time_series",
        "get_memory_bw_summary",
        "get_queue_length_time_series",
        "get_queue_length_summary",
        "get_cuda_kernel_launch_stats",
        "get_profiler_steps",
        "get_gpu_user_annotation_breakdown",
        "get_gpu_user_annotation_breakdown__cpu",
        "get_time_spent_blocked_on_full_queue",
        "get_time_spent_blocked_on_full_queue__max_queue_length_8",
        "get_queue_length_summary_from_time_series",
        "get_potential_stragglers",
        "get_potential_stragglers__1",
        "get_aten_op_kernels_and_delay",
        "get_cupti_counter_data_with_operators",
        "get_gpu_kernels_with_user_annotations",
        "get_frequent_cuda_kernel_sequences",
        "rank_overview",
        "kernels_by_annotation",
        "operator_stats",
        "memory",
    };

} // namespace

std::string_view outputKeyName(OutputKey key)
{
    return kNames[static_cast<std::size_t>(key)];
}

std::optional<OutputKey> outputKeyFromName(std::string_view name)
{
    for (std::size_t i = 0; i < kNames.size(); ++i)
        if (kNames[i] == name)
            return static_cast<OutputKey>(i);
    return std::nullopt;
}

bool readsFrames(OutputKey key)
{
    return key != OutputKey::OperatorStats && key != OutputKey::Memory;
}

} // namespace ks::core
