#include "core/session/analysis_catalog.h"

#include "core/analysis/hta/annotated_kernels.h"
#include "core/analysis/hta/aten_op_kernels.h"
#include "core/analysis/hta/comm_comp_overlap.h"
#include "core/analysis/hta/cupti_counters.h"
#include "core/analysis/hta/frame_args.h"
#include "core/analysis/hta/idle_time_breakdown.h"
#include "core/analysis/hta/kernel_breakdown.h"
#include "core/analysis/hta/launch_stats.h"
#include "core/analysis/hta/memory_bandwidth.h"
#include "core/analysis/hta/potential_stragglers.h"
#include "core/analysis/hta/queue_length.h"
#include "core/analysis/hta/temporal_breakdown.h"
#include "core/analysis/hta/user_annotation_breakdown.h"
#include "core/common/json_text.h"

#include <optional>
#include <set>
#include <string>

namespace ks::core {

namespace {

    std::string rankListJson(const std::vector<std::int64_t>& ranks)
    {
        std::string out = "[";
        for (std::size_t i = 0; i < ranks.size(); ++i) {
            if (i)
                out += ',';
            out += std::to_string(ranks[i]);
        }
        out += ']';
        return out;
    }

    // HTA's arguments of get_gpu_user_annotation_breakdown: the ones the reference files
    // hold, and the others where they differ from HTA's defaults.
    std::string annotationArgs(const UserAnnotationOptions& a)
    {
        std::string out = std::string(R"({"use_gpu_annotation":)") + (a.useGpuAnnotation ? "true" : "false")
            + R"(,"visualize":false)";
        const UserAnnotationOptions defaults;
        if (a.durationRatio != defaults.durationRatio)
            out += R"(,"duration_ratio":)" + std::to_string(a.durationRatio);
        if (a.numKernels != defaults.numKernels)
            out += R"(,"num_kernels":)" + std::to_string(a.numKernels);
        if (!a.allowlist.empty()) {
            out += R"(,"allowlist_patterns":[)";
            for (std::size_t i = 0; i < a.allowlist.size(); ++i)
                out += (i ? "," : "") + jsonString(a.allowlist[i]);
            out += ']';
        }
        return out + '}';
    }

    // The GPU-time and the CPU-time breakdown (`--use-cpu-annotation`: only the CPU one).
    void addAnnotationCalls(std::vector<AnalysisCall>& calls, const AnalysisOptions& options)
    {
        AnalysisOptions gpu = options;
        gpu.annotations.useGpuAnnotation = true;
        AnalysisOptions cpu = options;
        cpu.annotations.useGpuAnnotation = false;
        if (options.annotations.useGpuAnnotation)
            calls.push_back({ OutputKey::UserAnnotationsGpu, "user-annotations",
                "get_gpu_user_annotation_breakdown", "get_gpu_user_annotation_breakdown.json",
                annotationArgs(gpu.annotations), gpu, userAnnotationBreakdown });
        calls.push_back({ OutputKey::UserAnnotationsCpu, "user-annotations",
            "get_gpu_user_annotation_breakdown", "get_gpu_user_annotation_breakdown__cpu.json",
            annotationArgs(cpu.annotations), cpu, userAnnotationBreakdown });
    }

    // The time each stream's launch queue was full, at the chosen maximum and (the variant
    // the references hold) at 8; and the queue summary of the same series.
    void addQueueBlockedCalls(
        std::vector<AnalysisCall>& calls, const AnalysisOptions& options, const std::string& ranks)
    {
        const std::string series =
            R"x({"queue_length_dict":"get_queue_length_time_series(ranks=)x" + ranks + R"x()")x";
        std::string args = series;
        if (options.queue.maxQueueLength != QueueLengthOptions {}.maxQueueLength)
            args += R"(,"max_queue_length":)" + std::to_string(options.queue.maxQueueLength);
        calls.push_back(
            { OutputKey::TimeBlockedOnFullQueue, "queue-blocked", "get_time_spent_blocked_on_full_queue",
                "get_time_spent_blocked_on_full_queue.json", args + "}", options, timeBlockedOnFullQueue });
        AnalysisOptions eight = options;
        eight.queue.maxQueueLength = 8;
        calls.push_back(
            { OutputKey::TimeBlockedOnFullQueueMax8, "queue-blocked", "get_time_spent_blocked_on_full_queue",
                "get_time_spent_blocked_on_full_queue__max_queue_length_8.json",
                series + R"(,"max_queue_length":8})", eight, timeBlockedOnFullQueue });
        calls.push_back({ OutputKey::QueueLengthSummaryFromSeries, "queue-blocked",
            "get_queue_length_summary_from_time_series", "get_queue_length_summary_from_time_series.json",
            series + "}", options, queueLengthSummary });
    }

    // HTA 0.6.1 cannot load a rank whose file has no "args" anywhere: its frame then has no
    // `stream` column (trace_parser.py _compress_df, `if "args" in columns`), and
    // trace.py add_iteration reads df["stream"] while parsing the file. The pool's
    // exception ends the whole load, so every call fails with it.
    std::optional<std::string> htaLoadFailure(const FrameSet& frames)
    {
        for (const RankFrame& frame : frames.ranks)
            if (frame.trace && !frame_args::hasArgColumns(*frame.trace))
                return "KeyError: 'stream' (HTA cannot load rank " + std::to_string(frame.rank)
                    + ": no event of its file has args, so its frame has no stream column; Q16)";
        return std::nullopt;
    }

} // namespace

AnalysisOutput profilerSteps(const FrameSet& frames, const AnalysisOptions&)
{
    HtaResult list;
    list.kind = HtaResult::Kind::List;
    if (!frames.ranks.empty()) {
        std::set<std::int64_t> steps;
        for (const FrameRow& row : frames.ranks.front().rows)
            if (row.iteration >= 0)
                steps.insert(row.iteration);
        for (std::int64_t s : steps) {
            HtaResult item;
            item.kind = HtaResult::Kind::Scalar;
            item.scalar = s;
            list.items.push_back(item);
        }
    }
    return AnalysisOutput::of(std::move(list));
}

std::vector<std::string> analysisIds()
{
    return { "temporal", "idle", "kernels", "overlap", "memory-bw", "queue-length", "launch-stats", "steps",
        "user-annotations", "annotated-kernels", "queue-blocked", "potential-stragglers", "cupti-counters",
        "aten-op-delay" };
}

std::vector<AnalysisCall> analysisCalls(
    const AnalysisOptions& options, const std::vector<std::int64_t>& rankList)
{
    const std::string ranks = rankListJson(rankList);
    AnalysisOptions five = options;
    five.kernels.numKernels = 5;
    const std::string idleArgs = R"({"ranks":)" + ranks + R"(,"visualize":false,"show_idle_interval_stats":)"
        + (options.idle.showIntervalStats ? "true" : "false") + "}";
    std::vector<AnalysisCall> calls {
        { OutputKey::TemporalBreakdown, "temporal", "get_temporal_breakdown", "get_temporal_breakdown.json",
            R"({"visualize":false})", options, temporalBreakdown },
        { OutputKey::IdleTimeBreakdown, "idle", "get_idle_time_breakdown", "get_idle_time_breakdown.json",
            idleArgs, options, idleTimeBreakdown },
        { OutputKey::GpuKernelBreakdown, "kernels", "get_gpu_kernel_breakdown",
            "get_gpu_kernel_breakdown.json", R"({"visualize":false})", options, gpuKernelBreakdown },
        { OutputKey::GpuKernelBreakdownTop5, "kernels", "get_gpu_kernel_breakdown",
            "get_gpu_kernel_breakdown__num_kernels_5.json", R"({"visualize":false,"num_kernels":5})", five,
            gpuKernelBreakdown },
        { OutputKey::CommCompOverlap, "overlap", "get_comm_comp_overlap", "get_comm_comp_overlap.json",
            R"({"visualize":false})", options, commCompOverlap },
        { OutputKey::MemoryBwTimeSeries, "memory-bw", "get_memory_bw_time_series",
            "get_memory_bw_time_series.json", R"({"ranks":)" + ranks + "}", options, memoryBwTimeSeries },
        { OutputKey::MemoryBwSummary, "memory-bw", "get_memory_bw_summary", "get_memory_bw_summary.json",
            R"({"ranks":)" + ranks + "}", options, memoryBwSummary },
        { OutputKey::QueueLengthTimeSeries, "queue-length", "get_queue_length_time_series",
            "get_queue_length_time_series.json", R"({"ranks":)" + ranks + "}", options,
            queueLengthTimeSeries },
        { OutputKey::QueueLengthSummary, "queue-length", "get_queue_length_summary",
            "get_queue_length_summary.json", R"({"ranks":)" + ranks + "}", options, queueLengthSummary },
        { OutputKey::KernelLaunchStats, "launch-stats", "get_cuda_kernel_launch_stats",
            "get_cuda_kernel_launch_stats.json", R"({"ranks":)" + ranks + R"(,"visualize":false})", options,
            cudaKernelLaunchStats },
        { OutputKey::ProfilerSteps, "steps", "get_profiler_steps", "get_profiler_steps.json", "{}", options,
            profilerSteps },
    };
    addAnnotationCalls(calls, options);
    addQueueBlockedCalls(calls, options, ranks);
    // HTA's straggler finder at the chosen number of candidates and (the references' variant) at 1.
    AnalysisOptions one = options;
    one.stragglers.numCandidates = 1;
    const PotentialStragglerOptions defaultStragglers;
    calls.push_back({ OutputKey::PotentialStragglers, "potential-stragglers", "get_potential_stragglers",
        "get_potential_stragglers.json",
        options.stragglers.numCandidates == defaultStragglers.numCandidates
            ? std::string(R"({"visualize":false})")
            : R"({"visualize":false,"num_candidates":)" + std::to_string(options.stragglers.numCandidates)
                + "}",
        options, potentialStragglers });
    calls.push_back({ OutputKey::PotentialStragglersTop1, "potential-stragglers", "get_potential_stragglers",
        "get_potential_stragglers__1.json", R"({"visualize":false,"num_candidates":1})", one,
        potentialStragglers });
    calls.push_back({ OutputKey::AtenOpDelays, "aten-op-delay", "get_aten_op_kernels_and_delay",
        "get_aten_op_kernels_and_delay.json", R"({"ranks":)" + ranks + "}", options, atenOpKernelsAndDelay });
    calls.push_back({ OutputKey::CuptiCounters, "cupti-counters", "get_cupti_counter_data_with_operators",
        "get_cupti_counter_data_with_operators.json", R"({"ranks":)" + ranks + "}", options,
        cuptiCounterData });
    // HTA's call takes one rank: the first selected (every selected rank in default mode).
    const std::int64_t firstRank = rankList.empty() ? 0 : rankList.front();
    calls.push_back({ OutputKey::AnnotatedKernels, "annotated-kernels",
        "get_gpu_kernels_with_user_annotations", "get_gpu_kernels_with_user_annotations.json",
        R"({"rank":)" + std::to_string(firstRank) + R"(,"expand_names":true,"shorten_names":true})", options,
        [firstRank](const FrameSet& frames, const AnalysisOptions& o) {
            return gpuKernelsWithUserAnnotations(frames, o, firstRank);
        } });
    if (options.mode == AnalysisMode::HtaCompat)
        for (AnalysisCall& call : calls)
            call.run = [run = std::move(call.run)](const FrameSet& frames, const AnalysisOptions& o) {
                if (const std::optional<std::string> failure = htaLoadFailure(frames))
                    return AnalysisOutput::notApplicable(*failure);
                return run(frames, o);
            };
    return calls;
}

} // namespace ks::core
