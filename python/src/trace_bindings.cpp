// kinetoscope.open's side of the module: loading (the CLI's loadForCli, on the
// module's threads, interruptible), what a load holds, a rank's columns.
#include "app/common/allocator_tuning.h"
#include "app/common/thread_pool_parallel_for.h"
#include "core/io/json/args_reader.h"
#include "core/io/trace_set_loader.h"
#include "python/src/bindings.h"
#include "python/src/errors.h"
#include "python/src/interruptible.h"
#include "python/src/store_columns.h"

#include <pybind11/stl.h>

namespace py = pybind11;

namespace ks::python {

namespace {

    // Loads as `kinetoscope-cli` does (load_for_cli.cpp): every rank side by
    // side, one rank alone on parse workers; nothing loaded is an error with
    // the CLI's line, a file that failed beside others that loaded a warning.
    std::shared_ptr<Session> openTraces(const std::vector<std::string>& paths, unsigned threads,
        const py::object& progress, py::list& warnings)
    {
        if (paths.empty())
            throwInvalidArgument("give at least one path");
        std::optional<core::Result<core::TraceSet>> loaded;
        runInterruptibly(
            [&](const core::CancelToken& cancel, WorkProgress& sink) {
                core::LoadOptions options;
                options.background = app::makeThreadBackgroundWork;
                options.releaseFreedMemory = app::releaseFreedMemory;
                options.parseWorkers = app::parseWorkersForOneRank(threads);
                loaded = core::loadTraceSet(paths, options, &sink, &cancel,
                    [threads](std::size_t n, const std::function<void(std::size_t)>& body) {
                        app::parallelForOnThreads(n, body, threads);
                    });
            },
            progress);
        if (!*loaded)
            throwError(loaded->error());
        core::TraceSet& set = loaded->value();
        for (const core::Error& failure : set.failures)
            warnings.append(failure.describe());
        if (set.ranks.empty()) {
            if (set.failures.size() == 1 && set.skipped.empty())
                throwError(set.failures.front());
            throw KsError(ErrorClass::Load, core::nothingToAnalyse(set.inputs, set.skipped));
        }
        auto session = std::make_shared<Session>();
        session->threads = threads;
        session->analyses =
            std::make_shared<core::TraceAnalyses>(std::make_shared<const core::TraceSet>(std::move(set)));
        return session;
    }

    const std::shared_ptr<const core::RankTrace>& rankAt(const Session& session, std::size_t index)
    {
        const auto& ranks = session.traces().ranks;
        if (index >= ranks.size())
            throwInvalidArgument("no rank at position " + std::to_string(index));
        return ranks[index];
    }

    py::dict deviceOf(const core::DeviceProperties& d)
    {
        py::dict out;
        out["id"] = d.id;
        out["name"] = d.name;
        out["total_global_mem"] = d.totalGlobalMem;
        out["compute_major"] = d.computeMajor;
        out["compute_minor"] = d.computeMinor;
        out["num_sms"] = d.numSms;
        out["gcn_arch_name"] = d.gcnArchName;
        return out;
    }

    py::list diagnosticsOf(const core::Diagnostics& diagnostics, std::optional<std::int64_t> rank)
    {
        py::list out;
        for (std::size_t k = 0; k < core::kDiagnosticKindCount; ++k) {
            const auto kind = static_cast<core::DiagnosticKind>(k);
            const core::Diagnostics::Entry& e = diagnostics.entry(kind);
            if (e.count == 0)
                continue;
            py::dict row;
            row["rank"] = rank ? py::object(py::int_(*rank)) : py::none();
            row["kind"] = std::string(core::diagnosticName(kind));
            row["count"] = e.count;
            row["example"] = e.example;
            row["event_index"] = e.exampleEventIndex;
            row["note"] = core::isNote(kind);
            row["description"] = std::string(core::diagnosticDescription(kind));
            out.append(row);
        }
        return out;
    }

    py::dict rankInfo(const core::RankTrace& t)
    {
        py::dict out;
        out["rank"] = t.rank;
        out["path"] = t.path;
        out["rank_source"] = std::string(core::rankSourceName(t.rankSource));
        out["start_ns"] = t.startNs;
        out["end_ns"] = t.endNs;
        out["events"] = t.counts.events;
        out["slices"] = t.slices.size();
        out["kept_events"] = t.keptEvents();
        out["file_bytes"] = t.counts.fileBytes;
        out["json_bytes"] = t.counts.jsonBytes;
        out["store_bytes"] = t.bytesUsed();
        out["world_size"] = t.metadata.worldSize ? py::object(py::int_(*t.metadata.worldSize)) : py::none();
        out["backend"] = t.metadata.backend ? py::object(py::str(*t.metadata.backend)) : py::none();
        py::list devices;
        for (const core::DeviceProperties& d : t.metadata.devices)
            devices.append(deviceOf(d));
        out["devices"] = devices;
        return out;
    }

    std::string argsText(const core::Result<std::string>& text)
    {
        if (!text)
            throwError(text.error());
        return text.value();
    }

} // namespace

void bindTrace(py::module_& m, SessionClass& session)
{
    session.def_property_readonly("rank_count", [](const Session& s) { return s.traces().ranks.size(); })
        .def("rank_info", [](const Session& s, std::size_t i) { return rankInfo(*rankAt(s, i)); })
        .def("rank_diagnostics",
            [](const Session& s, std::size_t i) {
                const auto& t = rankAt(s, i);
                return diagnosticsOf(t->diagnostics, t->rank);
            })
        .def("folder_diagnostics",
            [](const Session& s) { return diagnosticsOf(s.traces().folderDiagnostics, std::nullopt); })
        .def("notes", [](const Session& s) { return s.traces().notes; })
        .def("inputs", [](const Session& s) { return s.traces().inputs; })
        .def("skipped",
            [](const Session& s) {
                py::list out;
                for (const core::SkippedFile& f : s.traces().skipped)
                    out.append(py::make_tuple(f.path, f.reason));
                return out;
            })
        .def("start_ns", [](const Session& s) { return s.traces().startNs(); })
        .def("end_ns", [](const Session& s) { return s.traces().endNs(); })
        .def("slice_columns", [](const Session& s, std::size_t i) { return sliceColumns(rankAt(s, i)); })
        .def("slice_activity",
            [](const Session& s, std::size_t i, std::uint32_t begin, std::uint32_t end) {
                return sliceActivityColumns(*rankAt(s, i), begin, end);
            })
        .def("counter_columns", [](const Session& s, std::size_t i) { return counterColumns(*rankAt(s, i)); })
        .def(
            "slice_args",
            [](const Session& s, std::size_t i, std::uint32_t slice) {
                const auto& t = rankAt(s, i);
                if (slice >= t->slices.size())
                    throwInvalidArgument(
                        "no slice " + std::to_string(slice) + " on rank " + std::to_string(t->rank));
                py::gil_scoped_release released; // re-reads the file
                return argsText(core::sliceArgs(*t, slice));
            },
            "The args object of one slice as written in the file (re-read from it).")
        .def(
            "many_slice_args",
            [](const Session& s, std::size_t i, std::vector<std::uint32_t> slices) {
                const auto& t = rankAt(s, i);
                for (const std::uint32_t slice : slices)
                    if (slice >= t->slices.size())
                        throwInvalidArgument(
                            "no slice " + std::to_string(slice) + " on rank " + std::to_string(t->rank));
                std::vector<std::pair<std::uint32_t, std::string>> found;
                std::optional<core::Error> failed;
                {
                    py::gil_scoped_release released;
                    failed = core::forEachSliceArgs(*t, std::move(slices),
                        [&](std::uint32_t slice, std::string_view text) { found.emplace_back(slice, text); });
                }
                if (failed)
                    throwError(*failed);
                return found;
            },
            "The args objects of many slices, reading each stretch of the file once: [(slice, text)].");

    m.def(
        "open",
        [](const std::vector<std::string>& paths, unsigned threads, const py::object& progress) {
            py::list warnings;
            auto opened = openTraces(paths, threads, progress, warnings);
            return py::make_tuple(opened, warnings);
        },
        py::arg("paths"), py::arg("threads") = 0, py::arg("progress") = py::none(),
        "Loads trace files and folders (one file per rank): (Session, [warning lines]).");
}

} // namespace ks::python
