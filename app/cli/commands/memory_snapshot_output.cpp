#include "app/cli/commands/memory_snapshot_output.h"

#include "app/cli/output/json_out.h"

#include <algorithm>
#include <cstdio>
#include <ostream>

namespace ks::cli {

namespace {

    using core::DeviceSnapshotSummary;
    using core::SnapshotDeviceTotals;

    constexpr std::size_t kOverlayPoints = 1000; // per curve in --compare's JSON

    std::string humanBytes(double bytes)
    {
        static const char* const kUnits[] = { "B", "KiB", "MiB", "GiB", "TiB" };
        int unit = 0;
        const double sign = bytes < 0 ? -1 : 1;
        bytes *= sign;
        while (bytes >= 1024 && unit < 4) {
            bytes /= 1024;
            ++unit;
        }
        char text[32];
        std::snprintf(text, sizeof text, unit == 0 ? "%.0f %s" : "%.2f %s", sign * bytes, kUnits[unit]);
        return text;
    }

    std::string timeOrNull(std::int64_t t)
    {
        return t == core::kNoTime ? std::string("null") : std::to_string(t);
    }

    std::string idxOrNull(std::int64_t i)
    {
        return i < 0 ? std::string("null") : std::to_string(i);
    }

    bool wanted(const SnapshotReport& r, const DeviceSnapshotSummary& d)
    {
        return !r.device || *r.device == d.device;
    }

    std::string userFrameOf(const SnapshotReport& r, core::SnapshotStackId stack)
    {
        return core::userFrame(*r.snapshot, stack).text;
    }

    void writeTotalsJson(const SnapshotDeviceTotals& t, std::ostream& out)
    {
        out << "\"reserved_b\": " << t.reserved << ", \"allocated_b\": " << t.allocated
            << ", \"active_b\": " << t.active << ", \"requested_b\": " << t.requested
            << ", \"segments\": " << t.segments << ", \"blocks\": " << t.blocks
            << ", \"peak_allocated_b\": " << t.peakAllocated << ", \"peak_reserved_b\": " << t.peakReserved
            << ", \"oom_events\": " << t.oomEvents;
    }

    template <typename Rows, typename Write>
    void writeArray(const char* name, const Rows& rows, std::size_t top, std::ostream& out, Write write)
    {
        out << ", \"" << name << "\": [";
        for (std::size_t i = 0; i < rows.size() && i < top; ++i) {
            out << (i ? ", " : "") << '{';
            write(rows[i]);
            out << '}';
        }
        out << ']';
    }

    void writeDeviceJson(const SnapshotReport& r, const DeviceSnapshotSummary& d, std::ostream& out)
    {
        const core::SegmentStats& s = d.segments;
        const core::ActiveMemoryTimeline& t = d.timeline;
        out << "{\"device\": " << d.device << ", ";
        writeTotalsJson(core::deviceTotals(d), out);
        out << ", \"inactive_b\": " << s.bytesByState[static_cast<std::size_t>(core::BlockState::Inactive)]
            << ", \"pending_free_b\": "
            << s.bytesByState[static_cast<std::size_t>(core::BlockState::ActivePendingFree)]
            << ", \"internal_free_b\": " << s.segsumFreeInternal
            << ", \"largest_free_gap_b\": " << s.largestFreeGap << ", \"fragmentation\": " << s.fragmentation
            << ", \"free_not_in_largest_gap\": " << s.freeNotInLargestGapFraction
            << ", \"trace_events\": " << d.trace.events
            << ", \"has_time_us\": " << (d.trace.hasTime ? "true" : "false")
            << ", \"initial_allocated_b\": " << t.initialAllocated
            << ", \"final_allocated_b\": " << t.finalAllocated
            << ", \"peak_event_idx\": " << idxOrNull(t.peakEventIdx)
            << ", \"peak_time_us\": " << timeOrNull(t.peakTimeUs)
            << ", \"peak_live_allocations\": " << t.liveAtPeak.size();
        writeArray("peak_by_frame", core::peakByFrame(*r.snapshot, t, core::FrameRule::User), r.top, out,
            [&](const core::FrameGroup& g) {
                out << "\"frame\": " << jsonQuote(g.frame) << ", \"bytes_b\": " << g.bytes
                    << ", \"count\": " << g.count;
            });
        writeArray("end_by_frame", core::endByFrame(*r.snapshot, d.device, core::FrameRule::User), r.top, out,
            [&](const core::FrameGroup& g) {
                out << "\"frame\": " << jsonQuote(g.frame) << ", \"bytes_b\": " << g.bytes
                    << ", \"block_bytes_b\": " << g.blockBytes << ", \"count\": " << g.count;
            });
        writeArray("peak_allocations", t.liveAtPeak, r.top, out, [&](std::uint32_t i) {
            const core::TimelineAllocation& a = t.allocations[i];
            out << "\"size_b\": " << a.size << ", \"addr\": " << a.addr << ", \"origin\": \""
                << core::allocationOriginName(a.origin) << "\", \"event_idx\": " << idxOrNull(a.eventIdx)
                << ", \"time_us\": " << timeOrNull(a.timeUs)
                << ", \"frame\": " << jsonQuote(userFrameOf(r, a.stack));
        });
        writeArray("ooms", d.trace.ooms, d.trace.ooms.size(), out, [&](const core::OomEvent& o) {
            out << "\"event_idx\": " << o.eventIdx << ", \"size_b\": " << o.size
                << ", \"device_free_b\": " << o.deviceFree << ", \"stream\": " << o.stream
                << ", \"time_us\": " << timeOrNull(o.timeUs)
                << ", \"frame\": " << jsonQuote(userFrameOf(r, o.stack));
        });
        out << '}';
    }

    void writeReportJson(const SnapshotReport& r, std::ostream& out)
    {
        const core::MemorySnapshot& s = *r.snapshot;
        out << "{\"path\": " << jsonQuote(s.path)
            << ", \"bare_segment_list\": " << (s.bareSegmentList ? "true" : "false")
            << ", \"has_device_traces\": " << (s.hasDeviceTraces ? "true" : "false")
            << ", \"default_device\": " << r.summary->defaultDevice << ", \"devices\": [";
        bool first = true;
        for (const DeviceSnapshotSummary& d : r.summary->devices) {
            if (!wanted(r, d))
                continue;
            out << (first ? "" : ", ");
            first = false;
            writeDeviceJson(r, d, out);
        }
        out << "]}";
    }

    void printFrames(
        const char* title, const std::vector<core::FrameGroup>& groups, std::size_t top, std::ostream& out)
    {
        out << "  " << title << ":\n";
        if (groups.empty())
            out << "    (none)\n";
        for (std::size_t i = 0; i < groups.size() && i < top; ++i) {
            char line[64];
            std::snprintf(line, sizeof line, "    %12s %6llu  ",
                humanBytes(static_cast<double>(groups[i].bytes)).c_str(),
                static_cast<unsigned long long>(groups[i].count));
            out << line << groups[i].frame << '\n';
        }
    }

    void printLine(const char* label, std::uint64_t bytes, const std::string& more, std::ostream& out)
    {
        char line[96];
        std::snprintf(line, sizeof line, "  %-16s %16llu B  %12s", label,
            static_cast<unsigned long long>(bytes), humanBytes(static_cast<double>(bytes)).c_str());
        out << line << (more.empty() ? "" : "  ") << more << '\n';
    }

    void printDeviceTable(const SnapshotReport& r, const DeviceSnapshotSummary& d, std::ostream& out)
    {
        const core::SegmentStats& s = d.segments;
        const core::ActiveMemoryTimeline& t = d.timeline;
        out << "device " << d.device
            << (d.device == r.summary->defaultDevice ? " (memory_viz's default)" : "") << ": " << s.segments
            << " segments, " << s.blocks << " blocks, " << d.trace.events << " trace events"
            << (d.trace.hasTime ? "" : " (no time_us)") << '\n';
        printLine("reserved", s.reserved, "", out);
        printLine("allocated", s.allocated, "active_allocated blocks", out);
        printLine("active", s.active, "allocated + pending free", out);
        printLine("requested", s.requestedActive, "asked for by the program (active blocks)", out);
        std::string peakWhere = t.peakAtInitial ? "before the first event"
                                                : "at event " + std::to_string(t.peakEventIdx)
                + (t.peakTimeUs == core::kNoTime ? std::string()
                                                 : ", time_us " + std::to_string(t.peakTimeUs));
        printLine("peak allocated", t.peakAllocated,
            peakWhere + ", " + std::to_string(t.liveAtPeak.size()) + " live", out);
        printLine("peak reserved", d.segmentTimeline.peakAllocated, "", out);
        char frag[128];
        std::snprintf(frag, sizeof frag,
            "  fragmentation    %.4f (memory_viz; 1 = one free gap), %.1f%% of free memory outside the "
            "largest gap",
            s.fragmentation, 100 * s.freeNotInLargestGapFraction);
        out << frag << '\n';
        out << "  oom events       " << d.trace.ooms.size() << '\n';
        for (const core::OomEvent& o : d.trace.ooms)
            out << "    event " << o.eventIdx << ": asked " << humanBytes(static_cast<double>(o.size)) << ", "
                << humanBytes(static_cast<double>(o.deviceFree)) << " free on the device, from "
                << userFrameOf(r, o.stack) << '\n';
        printFrames("live at the peak, by frame", core::peakByFrame(*r.snapshot, t, core::FrameRule::User),
            r.top, out);
        printFrames("live at the end (the snapshot), by frame",
            core::endByFrame(*r.snapshot, d.device, core::FrameRule::User), r.top, out);
    }

    std::string signedBytes(std::int64_t v)
    {
        return (v > 0 ? "+" : "") + humanBytes(static_cast<double>(v));
    }

    void printDeltaFrames(
        const char* title, const std::vector<core::FrameDelta>& rows, std::size_t top, std::ostream& out)
    {
        out << "  " << title << " (before -> after, change):\n";
        std::size_t shown = 0;
        for (const core::FrameDelta& f : rows) {
            if (shown == top)
                break;
            if (f.delta() == 0)
                continue;
            ++shown;
            char line[96];
            std::snprintf(line, sizeof line, "    %12s -> %12s  %13s  ",
                humanBytes(static_cast<double>(f.before)).c_str(),
                humanBytes(static_cast<double>(f.after)).c_str(), signedBytes(f.delta()).c_str());
            out << line << f.frame << '\n';
        }
        if (shown == 0)
            out << "    (no frame changed)\n";
    }

    void writeDeltaRowsJson(const char* name, const std::vector<core::FrameDelta>& rows, std::ostream& out)
    {
        writeArray(name, rows, rows.size(), out, [&](const core::FrameDelta& f) {
            out << "\"frame\": " << jsonQuote(f.frame) << ", \"before_b\": " << f.before
                << ", \"after_b\": " << f.after << ", \"delta_b\": " << f.delta()
                << ", \"count_before\": " << f.countBefore << ", \"count_after\": " << f.countAfter;
        });
    }

} // namespace

void printSnapshotTable(const SnapshotReport& r, std::ostream& out)
{
    const core::MemorySnapshot& s = *r.snapshot;
    out << s.path << ": PyTorch memory snapshot"
        << (s.bareSegmentList          ? " (segments only)"
                   : s.hasDeviceTraces ? ""
                                       : " (no trace)")
        << ", " << r.summary->devices.size() << (r.summary->devices.size() == 1 ? " device" : " devices")
        << '\n';
    if (r.summary->devices.empty())
        out << "  no segments and no trace: the allocator held nothing\n";
    for (const DeviceSnapshotSummary& d : r.summary->devices)
        if (wanted(r, d))
            printDeviceTable(r, d, out);
}

void printSnapshotCsv(const SnapshotReport& r, std::ostream& out)
{
    out << "device,reserved_b,allocated_b,active_b,requested_b,segments,blocks,peak_allocated_b,peak_"
           "reserved_b,"
           "oom_events,peak_event_idx,peak_time_us,fragmentation\n";
    for (const DeviceSnapshotSummary& d : r.summary->devices) {
        if (!wanted(r, d))
            continue;
        const SnapshotDeviceTotals t = core::deviceTotals(d);
        out << d.device << ',' << t.reserved << ',' << t.allocated << ',' << t.active << ',' << t.requested
            << ',' << t.segments << ',' << t.blocks << ',' << t.peakAllocated << ',' << t.peakReserved << ','
            << t.oomEvents << ','
            << (d.timeline.peakEventIdx < 0 ? std::string() : std::to_string(d.timeline.peakEventIdx)) << ','
            << (d.timeline.peakTimeUs == core::kNoTime ? std::string()
                                                       : std::to_string(d.timeline.peakTimeUs))
            << ',' << d.segments.fragmentation << '\n';
    }
}

void printSnapshotJson(const SnapshotReport& r, std::ostream& out)
{
    writeReportJson(r, out);
    out << '\n';
}

void printComparisonTable(const SnapshotReport& before, const SnapshotReport& after,
    const std::vector<core::DeviceComparison>& comparison, std::ostream& out)
{
    out << "before: " << before.snapshot->path << "\nafter:  " << after.snapshot->path << '\n';
    for (const core::DeviceComparison& c : comparison) {
        if (before.device && *before.device != c.device)
            continue;
        out << "device " << c.device << (c.inBefore ? "" : " (only after)")
            << (c.inAfter ? "" : " (only before)") << '\n';
        auto row = [&](const char* label, std::uint64_t b, std::uint64_t a) {
            char line[128];
            std::snprintf(line, sizeof line, "  %-16s %12s -> %12s  %13s\n", label,
                humanBytes(static_cast<double>(b)).c_str(), humanBytes(static_cast<double>(a)).c_str(),
                signedBytes(static_cast<std::int64_t>(a) - static_cast<std::int64_t>(b)).c_str());
            out << line;
        };
        row("reserved", c.before.reserved, c.after.reserved);
        row("allocated", c.before.allocated, c.after.allocated);
        row("requested", c.before.requested, c.after.requested);
        row("peak allocated", c.before.peakAllocated, c.after.peakAllocated);
        row("peak reserved", c.before.peakReserved, c.after.peakReserved);
        out << "  oom events       " << c.before.oomEvents << " -> " << c.after.oomEvents << '\n';
        printDeltaFrames("live at the peak, by frame", c.peakByFrame, before.top, out);
        printDeltaFrames("live at the end, by frame", c.endByFrame, before.top, out);
    }
}

void printComparisonCsv(
    const std::vector<core::DeviceComparison>& comparison, std::size_t top, std::ostream& out)
{
    out << "device,when,frame,before_b,after_b,delta_b,count_before,count_after\n";
    for (const core::DeviceComparison& c : comparison) {
        for (const auto& [when, rows] :
            { std::pair { "peak", &c.peakByFrame }, std::pair { "end", &c.endByFrame } }) {
            for (std::size_t i = 0; i < rows->size() && i < top; ++i) {
                const core::FrameDelta& f = (*rows)[i];
                std::string frame = f.frame;
                std::string quoted = "\"";
                for (const char ch : frame)
                    quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
                out << c.device << ',' << when << ',' << quoted << "\"," << f.before << ',' << f.after << ','
                    << f.delta() << ',' << f.countBefore << ',' << f.countAfter << '\n';
            }
        }
    }
}

void printComparisonJson(const SnapshotReport& before, const SnapshotReport& after,
    const std::vector<core::DeviceComparison>& comparison, std::ostream& out)
{
    out << "{\"before\": ";
    writeReportJson(before, out);
    out << ", \"after\": ";
    writeReportJson(after, out);
    out << ", \"compare\": [";
    bool first = true;
    for (const core::DeviceComparison& c : comparison) {
        if (before.device && *before.device != c.device)
            continue;
        out << (first ? "" : ", ") << "{\"device\": " << c.device << ", \"before\": {";
        first = false;
        writeTotalsJson(c.before, out);
        out << "}, \"after\": {";
        writeTotalsJson(c.after, out);
        out << '}';
        writeDeltaRowsJson("peak_by_frame", c.peakByFrame, out);
        writeDeltaRowsJson("end_by_frame", c.endByFrame, out);
        out << '}';
    }
    // Both Active Memory Timelines on one axis, per device (down-sampled, peaks kept).
    out << "], \"overlay\": [";
    first = true;
    auto writePoints = [&out](const char* name, const std::vector<core::OverlayPoint>& points) {
        out << ", \"" << name << "\": [";
        for (std::size_t i = 0; i < points.size(); ++i)
            out << (i ? ", " : "") << '[' << points[i].x << ", " << points[i].bytes << ']';
        out << ']';
    };
    for (const core::SnapshotOverlay& o : core::overlaySnapshots(
             *before.snapshot, *before.summary, *after.snapshot, *after.summary, kOverlayPoints)) {
        if (before.device && *before.device != o.device)
            continue;
        out << (first ? "" : ", ") << "{\"device\": " << o.device << ", \"x\": \""
            << (o.byTime ? "time_us" : "step")
            << "\", \"aligned_by\": " << (o.alignedBy.empty() ? std::string("null") : jsonQuote(o.alignedBy))
            << ", \"before_origin_us\": " << timeOrNull(o.beforeOriginUs)
            << ", \"after_origin_us\": " << timeOrNull(o.afterOriginUs);
        writePoints("before", o.before);
        writePoints("after", o.after);
        out << '}';
        first = false;
    }
    out << "]}\n";
}

} // namespace ks::cli
