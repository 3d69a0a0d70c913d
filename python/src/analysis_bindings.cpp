// The analyses of one load, through the session the CLI's commands ask
// (core/session/TraceAnalyses): HTA's calls by their output keys, the frames'
// iterations, one rank's critical path, kernel sequences, the trace diff.
// Every request runs interruptibly without the GIL; results come back through
// the one converter (table_to_python.h).
#include "core/analysis/critical_path/critical_path.h"
#include "core/analysis/hta/trace_diff.h"
#include "core/analysis/kernels/kernel_sequences.h"
#include "core/report/counters_trace_writer.h"
#include "core/report/critical_path_json.h"
#include "core/report/critical_path_trace_writer.h"
#include "core/report/sequences_trace_writer.h"
#include "core/report/trace_writer.h"
#include "core/session/analysis_catalog.h"
#include "python/src/bindings.h"
#include "python/src/errors.h"
#include "python/src/interruptible.h"
#include "python/src/table_to_python.h"

#include <filesystem>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace ks::python {

namespace {

    std::shared_ptr<const core::FrameSet> framesOf(
        Session& session, const core::AnalysisOptions& options, const core::SessionWork& work)
    {
        auto frames = session.analyses->frames(core::FrameScope { options, std::nullopt }, work);
        if (!frames)
            throwError(frames.error());
        return std::move(frames).value();
    }

    // The outputs named (outputKeyName: the reference's file stems), computed
    // side by side as `analyze` computes them.
    py::dict outputs(Session& session, const std::vector<std::string>& names, const py::dict& optionsDict,
        const py::object& progress)
    {
        core::AnalysisOptions options = analysisOptionsOf(optionsDict);
        std::vector<core::OutputKey> keys;
        for (const std::string& name : names) {
            const auto key = core::outputKeyFromName(name);
            if (!key || *key == core::OutputKey::KernelSequences)
                throwInvalidArgument("unknown output '" + name + "'");
            keys.push_back(*key);
        }
        std::optional<core::Result<core::OutputSet>> computed;
        runInterruptibly(
            [&](const core::CancelToken& cancel, WorkProgress& sink) {
                sink.setStage("analysing", 0, keys.size());
                core::AnalysisOptions cancellable = options;
                cancellable.cancel = &cancel;
                computed = session.analyses->outputs(
                    core::FrameScope { cancellable, std::nullopt }, keys, sessionWork(session, cancel));
                sink.setStage("analysing", keys.size(), keys.size());
            },
            progress);
        if (!*computed)
            throwError(computed->error());
        py::dict out;
        for (const auto& [key, output] : computed->value())
            out[py::str(std::string(core::outputKeyName(key)))] = outputToPython(*output);
        return out;
    }

    py::dict framesInfo(Session& session, const py::dict& optionsDict, const py::object& progress)
    {
        const core::AnalysisOptions options = analysisOptionsOf(optionsDict);
        std::shared_ptr<const core::FrameSet> frames;
        runInterruptibly(
            [&](const core::CancelToken& cancel, WorkProgress&) {
                frames = framesOf(session, options, sessionWork(session, cancel));
            },
            progress);
        py::dict out;
        out["iterations"] = frames->iterations;
        out["device_type"] = frames->deviceType;
        out["min_ts_ns"] = frames->minTs;
        std::vector<std::int64_t> ranks;
        for (const core::RankFrame& f : frames->ranks)
            ranks.push_back(f.rank);
        out["ranks"] = ranks;
        return out;
    }

    // One rank's critical path with the frames it reads (the graph points into them).
    struct CriticalPath
    {
        std::shared_ptr<const core::FrameSet> frames;
        std::shared_ptr<const core::CriticalPathGraph> graph;
    };

    std::shared_ptr<CriticalPath> criticalPath(Session& session, std::optional<std::int64_t> rank,
        const std::string& annotation, std::int64_t first, std::int64_t last, const py::dict& optionsDict,
        const py::object& progress)
    {
        const core::AnalysisOptions options = analysisOptionsOf(optionsDict);
        auto result = std::make_shared<CriticalPath>();
        std::optional<core::Result<core::CriticalPathGraph>> graph;
        runInterruptibly(
            [&](const core::CancelToken& cancel, WorkProgress& sink) {
                result->frames = framesOf(session, options, sessionWork(session, cancel));
                sink.setStage("critical path", 0, 1);
                const std::int64_t r =
                    rank.value_or(result->frames->ranks.empty() ? 0 : result->frames->ranks.front().rank);
                graph = core::buildCriticalPath(*result->frames, r, annotation, { first, last }, options);
            },
            progress);
        if (!*graph)
            throwNotApplicable("critical_path_analysis: " + graph->error().message);
        result->graph = std::make_shared<const core::CriticalPathGraph>(std::move(*graph).value());
        return result;
    }

    py::object kernelSequences(Session& session, std::optional<std::int64_t> rank, const std::string& op,
        const py::dict& optionsDict, bool regex, int minPatternLength, int topK,
        const std::optional<std::string>& outputDir, bool compressOtherKernels, const py::object& progress)
    {
        const core::AnalysisOptions options = analysisOptionsOf(optionsDict);
        if (minPatternLength < 1 || topK < 0)
            throwInvalidArgument("min_pattern_len needs a whole number >= 1 and top_k one >= 0");
        std::optional<core::AnalysisOutput> output;
        std::optional<std::string> written;
        std::optional<core::Error> writeError;
        runInterruptibly(
            [&](const core::CancelToken& cancel, WorkProgress&) {
                const auto frames = framesOf(session, options, sessionWork(session, cancel));
                const std::int64_t r = rank.value_or(frames->ranks.empty() ? 0 : frames->ranks.front().rank);
                core::KernelSequenceOptions seq;
                seq.mode = options.mode;
                seq.regex = regex;
                seq.minPatternLength = minPatternLength;
                seq.topK = topK;
                const core::KernelSequences result = core::kernelSequences(*frames, r, op, seq);
                output = result.output;
                if (!outputDir || result.patterns.empty())
                    return;
                for (const core::RankFrame& frame : frames->ranks) {
                    if (frame.rank != r)
                        continue;
                    const std::string path = core::sequencesTracePath(frame.trace->path, *outputDir);
                    core::SequencesTraceOptions writeOptions;
                    writeOptions.topK = topK;
                    writeOptions.compressOtherEvents = compressOtherKernels;
                    if (auto w = core::writeSequencesTrace(
                            frame, result, path, core::isGzipPath(path), writeOptions))
                        written = path;
                    else
                        writeError = w.error();
                }
            },
            progress);
        if (writeError)
            throwError(*writeError);
        return py::make_tuple(outputToPython(*output), written ? py::object(py::str(*written)) : py::none());
    }

    // HTA's generate_trace_with_counters for one rank: the input with its
    // queue-length and bandwidth counters appended, written to `path`.
    std::uint64_t countersTrace(Session& session, std::int64_t rank, const std::string& path,
        const py::dict& optionsDict, const py::object& progress)
    {
        const core::AnalysisOptions options = analysisOptionsOf(optionsDict);
        std::optional<core::Result<core::TraceWriteSummary>> written;
        runInterruptibly(
            [&](const core::CancelToken& cancel, WorkProgress&) {
                const auto frames = framesOf(session, options, sessionWork(session, cancel));
                written = core::writeCountersTrace(*frames, options, rank, path, core::isGzipPath(path));
            },
            progress);
        if (!*written)
            throwError(written->error());
        return written->value().appendedEvents;
    }

    // A load as the trace diff reads it (HTA's LabeledTrace).
    struct DiffSide
    {
        std::shared_ptr<const core::TraceSet> traces; // what `diff` points into
        std::shared_ptr<const core::DiffTrace> diff;
    };

    std::shared_ptr<DiffSide> diffSide(Session& session, bool htaCompat, const py::object& progress)
    {
        auto side = std::make_shared<DiffSide>();
        side->traces = session.analyses->traceSet();
        std::optional<core::Result<core::DiffTrace>> loaded;
        runInterruptibly(
            [&](const core::CancelToken&, WorkProgress&) {
                loaded = core::loadDiffTrace(
                    *side->traces, htaCompat ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default);
            },
            progress);
        if (!*loaded)
            throwError(loaded->error());
        side->diff = std::make_shared<const core::DiffTrace>(std::move(*loaded).value());
        return side;
    }

    core::TraceDiffOptions diffOptions(bool htaCompat, const std::string& device, bool shortNames,
        const std::string& controlLabel, const std::string& testLabel, const py::object& controlRanks,
        const py::object& controlIterations, const py::object& testRanks, const py::object& testIterations)
    {
        core::TraceDiffOptions o;
        o.mode = htaCompat ? core::AnalysisMode::HtaCompat : core::AnalysisMode::Default;
        if (device == "CPU")
            o.device = core::DiffDevice::Cpu;
        else if (device == "GPU")
            o.device = core::DiffDevice::Gpu;
        else if (device != "ALL")
            throwInvalidArgument("device_type needs ALL, CPU or GPU, got '" + device + "'");
        o.shortNames = shortNames;
        o.control.label = controlLabel;
        o.test.label = testLabel;
        auto list = [](const py::object& v) {
            return v.is_none() ? std::nullopt : std::optional(v.cast<std::vector<std::int64_t>>());
        };
        o.control.ranks = list(controlRanks);
        o.control.iterations = list(controlIterations);
        o.test.ranks = list(testRanks);
        o.test.iterations = list(testIterations);
        return o;
    }

} // namespace

void bindAnalyses(py::module_& m, SessionClass& session)
{
    py::class_<CriticalPath, std::shared_ptr<CriticalPath>>(
        m, "CriticalPath", "One rank's critical path (A8).")
        .def_property_readonly("success", [](const CriticalPath& p) { return p.graph->success; })
        .def_property_readonly("rank", [](const CriticalPath& p) { return p.graph->rank; })
        .def_property_readonly("warnings", [](const CriticalPath& p) { return p.graph->warnings; })
        .def_property_readonly("problems", [](const CriticalPath& p) { return p.graph->problems; })
        .def(
            "result_json", [](const CriticalPath& p) { return core::criticalPathResultJson(*p.graph); },
            "The result as ../shared/reference's critical_path_analysis files hold it (JSON text).")
        .def("tables",
            [](const CriticalPath& p) { return outputToPython(core::criticalPathTables(*p.graph)); })
        .def(
            "write_trace",
            [](const CriticalPath& p, const std::string& path) {
                std::optional<core::Result<core::CriticalPathTraceSummary>> written;
                {
                    py::gil_scoped_release released;
                    written = core::writeCriticalPathTrace(*p.graph, path);
                }
                if (!*written)
                    throwError(written->error());
                return py::make_tuple(
                    written->value().events, written->value().markedEvents, written->value().flowEvents / 2);
            },
            "Writes the rank's trace with the path overlaid (HTA's overlay): (events, marked, path edges).");

    py::class_<DiffSide, std::shared_ptr<DiffSide>>(m, "DiffSide", "A load as the trace diff reads it.")
        .def_property_readonly("iterations", [](const DiffSide& s) { return s.diff->iterations; });

    session
        .def("outputs", &outputs, py::arg("names"), py::arg("options"), py::arg("progress") = py::none(),
            "HTA's calls and the session's own outputs by name: {name: result}.")
        .def("frames_info", &framesInfo, py::arg("options"), py::arg("progress") = py::none())
        .def("critical_path", &criticalPath, py::arg("rank"), py::arg("annotation"), py::arg("first"),
            py::arg("last"), py::arg("options"), py::arg("progress") = py::none())
        .def("kernel_sequences", &kernelSequences, py::arg("rank"), py::arg("operator_name"),
            py::arg("options"), py::arg("regex") = false, py::arg("min_pattern_len") = 3,
            py::arg("top_k") = 5, py::arg("output_dir") = py::none(),
            py::arg("compress_other_kernels") = true, py::arg("progress") = py::none())
        .def("counters_trace", &countersTrace, py::arg("rank"), py::arg("path"), py::arg("options"),
            py::arg("progress") = py::none())
        .def("diff_side", &diffSide, py::arg("hta_compat"), py::arg("progress") = py::none());

    m.def(
        "compare_traces",
        [](const DiffSide& control, const DiffSide& test, bool htaCompat, const std::string& device,
            bool shortNames, const std::string& controlLabel, const std::string& testLabel,
            const py::object& cr, const py::object& ci, const py::object& tr, const py::object& ti) {
            const core::TraceDiffOptions o =
                diffOptions(htaCompat, device, shortNames, controlLabel, testLabel, cr, ci, tr, ti);
            std::optional<core::AnalysisOutput> out;
            {
                py::gil_scoped_release released;
                out = core::compareTraces(*control.diff, *test.diff, o);
            }
            return outputToPython(*out);
        },
        py::arg("control"), py::arg("test"), py::arg("hta_compat"), py::arg("device_type") = "ALL",
        py::arg("use_short_name") = false, py::arg("control_label") = "Control",
        py::arg("test_label") = "Test", py::arg("control_ranks") = py::none(),
        py::arg("control_iterations") = py::none(), py::arg("test_ranks") = py::none(),
        py::arg("test_iterations") = py::none());
    m.def(
        "ops_diff",
        [](const DiffSide& control, const DiffSide& test, bool htaCompat, const std::string& controlLabel,
            const std::string& testLabel, const py::object& cr, const py::object& ci, const py::object& tr,
            const py::object& ti) {
            const core::TraceDiffOptions o =
                diffOptions(htaCompat, "ALL", false, controlLabel, testLabel, cr, ci, tr, ti);
            std::optional<core::AnalysisOutput> out;
            {
                py::gil_scoped_release released;
                out = core::opsDiff(*control.diff, *test.diff, o);
            }
            return outputToPython(*out);
        },
        py::arg("control"), py::arg("test"), py::arg("hta_compat"), py::arg("control_label") = "Control",
        py::arg("test_label") = "Test", py::arg("control_ranks") = py::none(),
        py::arg("control_iterations") = py::none(), py::arg("test_ranks") = py::none(),
        py::arg("test_iterations") = py::none());
    m.def("output_names", [] {
        std::vector<std::string> names;
        for (std::size_t k = 0; k < core::kOutputKeyCount; ++k)
            names.emplace_back(core::outputKeyName(static_cast<core::OutputKey>(k)));
        return names;
    });
}

} // namespace ks::python
