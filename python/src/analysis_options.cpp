// The analyses' keyword options, read and checked as `kinetoscope-cli analyze`
// reads its flags (app/cli/commands/analyze_command.cpp): the same ranges, the
// same messages.
#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "python/src/bindings.h"
#include "python/src/errors.h"

#include <pybind11/stl.h>
#include <set>

namespace py = pybind11;

namespace ks::python {

core::SessionWork sessionWork(const Session& session, const core::CancelToken& cancel)
{
    core::SessionWork work;
    const unsigned threads = session.threads;
    work.parallelFor = [threads](std::size_t n, const std::function<void(std::size_t)>& body) {
        app::parallelForOnThreads(n, body, threads);
    };
    work.cancel = &cancel;
    work.releaseFreedMemory = app::releaseFreedMemory;
    return work;
}

namespace {

    std::optional<std::vector<std::int64_t>> numberList(const py::handle& value, const char* name)
    {
        if (value.is_none())
            return std::nullopt;
        try {
            if (py::isinstance<py::int_>(value))
                return std::vector<std::int64_t> { value.cast<std::int64_t>() };
            return value.cast<std::vector<std::int64_t>>();
        } catch (const py::cast_error&) {
            throwInvalidArgument(std::string(name) + " needs a list of whole numbers");
        }
    }

    double realIn(const py::handle& value, const char* name, double low, double high)
    {
        double v = 0;
        try {
            v = value.cast<double>();
        } catch (const py::cast_error&) {
            throwInvalidArgument(std::string(name) + " needs a number");
        }
        if (!(v >= low && v <= high))
            throwInvalidArgument(std::string(name) + " needs a number between " + std::to_string(low)
                + " and " + std::to_string(high));
        return v;
    }

    std::int64_t wholeAtLeast(const py::handle& value, const char* name, std::int64_t least)
    {
        if (!py::isinstance<py::int_>(value) || py::isinstance<py::bool_>(value))
            throwInvalidArgument(std::string(name) + " needs a whole number >= " + std::to_string(least));
        const auto v = value.cast<std::int64_t>();
        if (v < least)
            throwInvalidArgument(std::string(name) + " needs a whole number >= " + std::to_string(least));
        return v;
    }

    core::AtenOpSort sortOf(const py::handle& value)
    {
        std::string text;
        if (py::isinstance<py::list>(value) || py::isinstance<py::tuple>(value)) {
            auto items = value.cast<std::vector<std::string>>();
            text = items.empty() ? "occurrence_count" : items.front(); // HTA sorts by the first
        } else {
            text = py::str(value);
        }
        if (text == "occurrence_count")
            return core::AtenOpSort::OccurrenceCount;
        if (text == "avg_aten_op_launch_delay")
            return core::AtenOpSort::LaunchDelay;
        if (text == "avg_runtime_delay")
            return core::AtenOpSort::RuntimeDelay;
        if (text == "aten_op_name")
            return core::AtenOpSort::Name;
        throwInvalidArgument("unknown sort_by '" + text + "'");
    }

} // namespace

core::AnalysisOptions analysisOptionsOf(const py::dict& options)
{
    core::AnalysisOptions o;
    for (const auto& [keyObject, value] : options) {
        const std::string key = py::str(keyObject);
        if (key == "hta_compat")
            o.mode = value.cast<bool>() ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
        else if (key == "ranks")
            o.ranks = numberList(value, "ranks");
        else if (key == "iterations")
            o.iterations = numberList(value, "iterations");
        else if (key == "include_last_profiler_step")
            o.includeLastProfilerStep = value.cast<bool>();
        else if (key == "diff_loading")
            o.diffLoading = value.cast<bool>();
        else if (key == "consecutive_kernel_delay")
            o.idle.consecutiveKernelDelayUs = realIn(value, "consecutive_kernel_delay", 0, 1e18);
        else if (key == "show_idle_interval_stats")
            o.idle.showIntervalStats = value.cast<bool>();
        else if (key == "kernels_duration_ratio")
            o.kernels.durationRatio = realIn(value, "duration_ratio", 0, 1);
        else if (key == "kernels_num_kernels")
            o.kernels.numKernels = static_cast<int>(wholeAtLeast(value, "num_kernels", 0));
        else if (key == "include_memory_kernels")
            o.kernels.includeMemoryKernels = value.cast<bool>();
        else if (key == "runtime_cutoff")
            o.launches.runtimeCutoffUs = realIn(value, "runtime_cutoff", 0, 1e18);
        else if (key == "launch_delay_cutoff")
            o.launches.launchDelayCutoffUs = realIn(value, "launch_delay_cutoff", 0, 1e18);
        else if (key == "include_memory_events")
            o.launches.includeMemoryEvents = value.cast<bool>();
        else if (key == "max_queue_length")
            o.queue.maxQueueLength = wholeAtLeast(value, "max_queue_length", 1);
        else if (key == "use_gpu_annotation")
            o.annotations.useGpuAnnotation = value.cast<bool>();
        else if (key == "annotations_duration_ratio")
            o.annotations.durationRatio = realIn(value, "duration_ratio", 0, 1);
        else if (key == "annotations_num_kernels")
            o.annotations.numKernels = static_cast<int>(wholeAtLeast(value, "num_kernels", 0));
        else if (key == "allowlist_patterns")
            o.annotations.allowlist =
                value.is_none() ? std::vector<std::string> {} : value.cast<std::vector<std::string>>();
        else if (key == "num_candidates")
            o.stragglers.numCandidates = static_cast<int>(wholeAtLeast(value, "num_candidates", 1));
        else if (key == "sort_by")
            o.atenOps.sortBy = sortOf(value);
        else
            throwInvalidArgument("unknown option '" + key + "'");
    }
    return o;
}

} // namespace ks::python
