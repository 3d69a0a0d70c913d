// PyTorch memory snapshots (torch.cuda.memory._dump_snapshot pickles) in
// Python: what `kinetoscope-cli memory --snapshot` reads and prints
// (core/analysis/memory_snapshot/), read with the same restricted unpickler.
// Per device the totals of the CLI's JSON, the live bytes by frame at the
// timeline's peak or at the end, and two snapshots compared.
#include "core/analysis/memory_snapshot/snapshot_compare.h"
#include "core/analysis/memory_snapshot/snapshot_reader.h"
#include "core/analysis/memory_snapshot/snapshot_summary.h"
#include "core/analysis/snapshot_align/rank_alignment.h"
#include "core/analysis/snapshot_align/snapshot_alignment.h"
#include "python/src/bindings.h"
#include "python/src/errors.h"
#include "python/src/table_to_python.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace ks::python {

namespace {

    // One snapshot read and summarised once, as the CLI does.
    struct LoadedSnapshot
    {
        core::MemorySnapshot snapshot;
        core::SnapshotSummary summary;

        const core::DeviceSnapshotSummary& device(std::int64_t id) const
        {
            for (const core::DeviceSnapshotSummary& d : summary.devices)
                if (d.device == id)
                    return d;
            throwInvalidArgument(snapshot.path + ": no memory on device " + std::to_string(id));
        }
    };

    std::shared_ptr<LoadedSnapshot> loadSnapshot(const std::string& path)
    {
        auto loaded = std::make_shared<LoadedSnapshot>();
        std::optional<core::Error> error;
        {
            // Reading a 100 MB snapshot takes a second or two: other Python threads run meanwhile.
            py::gil_scoped_release released;
            auto read = core::readMemorySnapshot(path);
            if (read) {
                loaded->snapshot = std::move(read).value();
                loaded->summary = core::summarizeSnapshot(loaded->snapshot);
            } else {
                error = read.error();
            }
        }
        if (error)
            throwError(*error);
        return loaded;
    }

    // The CLI JSON's totals of a device (memory_snapshot_output.cpp's names).
    py::dict totalsDict(std::int64_t device, const core::SnapshotDeviceTotals& t)
    {
        py::dict d;
        d["device"] = device;
        d["reserved_b"] = t.reserved;
        d["allocated_b"] = t.allocated;
        d["active_b"] = t.active;
        d["requested_b"] = t.requested;
        d["segments"] = t.segments;
        d["blocks"] = t.blocks;
        d["peak_allocated_b"] = t.peakAllocated;
        d["peak_reserved_b"] = t.peakReserved;
        d["oom_events"] = t.oomEvents;
        return d;
    }

    py::list devices(const LoadedSnapshot& s)
    {
        py::list out;
        for (const core::DeviceSnapshotSummary& d : s.summary.devices)
            out.append(totalsDict(d.device, core::deviceTotals(d)));
        return out;
    }

    core::FrameRule ruleOf(const std::string& rule)
    {
        if (rule == "user")
            return core::FrameRule::User;
        if (rule == "memoryviz")
            return core::FrameRule::MemoryViz;
        throwInvalidArgument("rule takes user or memoryviz, got \"" + rule + "\"");
    }

    core::Table frameTable(std::int64_t device, const std::vector<core::FrameGroup>& groups, bool blocks)
    {
        core::Table t;
        t.name = "by_frame";
        t.columns = { { "device", "" }, { "frame", "" }, { "bytes_b", "B" } };
        if (blocks)
            t.columns.push_back({ "block_bytes_b", "B" });
        t.columns.push_back({ "count", "" });
        for (const core::FrameGroup& g : groups) {
            std::vector<core::Cell> row { device, g.frame, static_cast<std::int64_t>(g.bytes) };
            if (blocks)
                row.emplace_back(static_cast<std::int64_t>(g.blockBytes));
            row.emplace_back(static_cast<std::int64_t>(g.count));
            t.addRow(row);
        }
        return t;
    }

    // Live bytes by frame, largest first: at the Active Memory Timeline's peak
    // (when="peak", requested bytes) or at the end (the snapshot's blocks).
    py::dict byFrame(const LoadedSnapshot& s, std::optional<std::int64_t> device, const std::string& when,
        const std::string& rule)
    {
        if (when != "peak" && when != "end")
            throwInvalidArgument("when takes peak or end, got \"" + when + "\"");
        const core::FrameRule r = ruleOf(rule);
        const core::DeviceSnapshotSummary& d = s.device(device.value_or(s.summary.defaultDevice));
        if (when == "peak")
            return tableToPython(frameTable(d.device, core::peakByFrame(s.snapshot, d.timeline, r), false));
        return tableToPython(frameTable(d.device, core::endByFrame(s.snapshot, d.device, r), true));
    }

    core::Table deltaTable(const std::vector<core::DeviceComparison>& devices, bool peak)
    {
        core::Table t;
        t.name = peak ? "peak_by_frame" : "end_by_frame";
        t.columns = { { "device", "" }, { "frame", "" }, { "before_b", "B" }, { "after_b", "B" },
            { "delta_b", "B" }, { "count_before", "" }, { "count_after", "" } };
        for (const core::DeviceComparison& c : devices)
            for (const core::FrameDelta& f : peak ? c.peakByFrame : c.endByFrame)
                t.addRow({ c.device, f.frame, static_cast<std::int64_t>(f.before),
                    static_cast<std::int64_t>(f.after), f.delta(), static_cast<std::int64_t>(f.countBefore),
                    static_cast<std::int64_t>(f.countAfter) });
        return t;
    }

    // `memory --snapshot A --compare B`: per device the totals of each and where the change comes from.
    py::dict compare(const LoadedSnapshot& before, const LoadedSnapshot& after)
    {
        const std::vector<core::DeviceComparison> devices =
            core::compareSnapshots(before.snapshot, before.summary, after.snapshot, after.summary);
        py::list beforeTotals;
        py::list afterTotals;
        for (const core::DeviceComparison& c : devices) {
            if (c.inBefore)
                beforeTotals.append(totalsDict(c.device, c.before));
            if (c.inAfter)
                afterTotals.append(totalsDict(c.device, c.after));
        }
        py::dict out;
        out["before"] = beforeTotals;
        out["after"] = afterTotals;
        out["peak_by_frame"] = tableToPython(deltaTable(devices, true));
        out["end_by_frame"] = tableToPython(deltaTable(devices, false));
        return out;
    }

    // `memory --snapshot FILE --trace TRACE`: the clock offset, the matches and the memory per trace range.
    // `rank`: an index among the trace's loaded ranks; none: the rank the snapshot fits
    // (chooseSnapshotRank, as the app's Steps tab and the CLI choose it).
    py::dict align(
        const LoadedSnapshot& s, const Session& session, std::optional<std::size_t> rank, std::size_t top)
    {
        const core::TraceSet& set = session.traces();
        if (rank && *rank >= set.ranks.size())
            throwInvalidArgument("rank index " + std::to_string(*rank) + " is not loaded (the trace has "
                + std::to_string(set.ranks.size()) + " ranks)");
        if (set.ranks.empty())
            throwInvalidArgument("the trace has no rank loaded");
        core::RankAlignment aligned;
        {
            py::gil_scoped_release released;
            aligned = core::alignWithRank(s.snapshot, s.summary, set, rank, top);
        }
        const core::SnapshotAlignment& a = aligned.alignment;
        const std::size_t index = aligned.rankIndex;
        const bool told = aligned.named || set.ranks.size() == 1 || aligned.choice.told;
        if (!a.error.empty())
            throwNotApplicable("cannot align: " + a.error);
        core::Table matches;
        matches.name = "matches";
        matches.columns = { { "name", "" }, { "device", "" }, { "occurrence", "" },
            { "snapshot_start_us", "us" }, { "trace_start_us", "us" }, { "difference_us", "us" } };
        for (const core::AnnotationMatch& m : a.matches)
            matches.addRow(
                { m.name, m.device, m.occurrence, m.snapshotStartUs, m.traceStartUs, m.differenceUs });
        core::Table ranges;
        ranges.name = "ranges";
        ranges.columns = { { "device", "" }, { "name", "" }, { "start_us", "us" }, { "end_us", "us" },
            { "requested_start_b", "B" }, { "requested_end_b", "B" }, { "requested_peak_b", "B" },
            { "requested_peak_time_us", "us" }, { "allocated_start_b", "B" }, { "allocated_end_b", "B" },
            { "allocated_peak_b", "B" }, { "reserved_start_b", "B" }, { "reserved_end_b", "B" },
            { "allocations", "" }, { "allocated_in_range_b", "B" }, { "top_frame", "" },
            { "top_frame_b", "B" } };
        auto i64 = [](std::uint64_t v) { return static_cast<std::int64_t>(v); };
        for (const core::RangeMemory& m : a.ranges)
            ranges.addRow({ m.device, m.name, m.startUs, m.endUs, i64(m.requestedAtStart),
                i64(m.requestedAtEnd), i64(m.requestedPeak), m.requestedPeakTimeUs, i64(m.allocatedAtStart),
                i64(m.allocatedAtEnd), i64(m.allocatedPeak), i64(m.reservedAtStart), i64(m.reservedAtEnd),
                i64(m.allocations), i64(m.allocatedBytes),
                m.topFrames.empty() ? std::string() : m.topFrames.front().frame,
                i64(m.topFrames.empty() ? 0 : m.topFrames.front().bytes) });
        py::dict out;
        out["rank"] = set.ranks[index]->rank;
        out["rank_told"] = told;
        out["offset_us"] = a.offsetUs;
        out["spread_us"] = a.spreadUs;
        out["matched"] = a.matches.size();
        out["snapshot_annotations"] = a.snapshotAnnotations;
        py::list diagnostics;
        for (const std::string& d : a.diagnostics)
            diagnostics.append(d);
        out["diagnostics"] = diagnostics;
        out["matches"] = tableToPython(matches);
        out["ranges"] = tableToPython(ranges);
        return out;
    }

} // namespace

void bindSnapshots(py::module_& m)
{
    py::class_<LoadedSnapshot, std::shared_ptr<LoadedSnapshot>>(
        m, "MemorySnapshot", "A PyTorch memory snapshot (kinetoscope.Snapshot).")
        .def_property_readonly("path", [](const LoadedSnapshot& s) { return s.snapshot.path; })
        .def_property_readonly(
            "default_device", [](const LoadedSnapshot& s) { return s.summary.defaultDevice; })
        .def("devices", &devices)
        .def("by_frame", &byFrame, py::arg("device") = py::none(), py::arg("when") = "peak",
            py::arg("rule") = "user")
        .def("compare", &compare, py::arg("other"))
        .def("align", &align, py::arg("trace"), py::arg("rank") = py::none(), py::arg("top") = 5);
    m.def("load_snapshot", &loadSnapshot, py::arg("path"),
        "Reads a torch.cuda.memory._dump_snapshot() pickle with the restricted unpickler (nothing in it "
        "runs); LoadError with the CLI's one line when it is not one.");
}

} // namespace ks::python
