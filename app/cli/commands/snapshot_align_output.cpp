#include "app/cli/commands/snapshot_align_output.h"

#include "app/cli/output/json_out.h"

#include <cstdio>
#include <ostream>

namespace ks::cli {

namespace {

    bool wanted(const AlignmentReport& r, const core::RangeMemory& m)
    {
        return !r.device || *r.device == m.device;
    }

    std::string mib(std::uint64_t bytes)
    {
        char text[32];
        std::snprintf(text, sizeof text, "%.2f", static_cast<double>(bytes) / (1024.0 * 1024.0));
        return text;
    }

    std::string csvCell(const std::string& text)
    {
        if (text.find_first_of(",\"\n") == std::string::npos)
            return text;
        std::string quoted = "\"";
        for (const char c : text) {
            if (c == '"')
                quoted += '"';
            quoted += c;
        }
        return quoted + '"';
    }

} // namespace

void printAlignmentTable(const AlignmentReport& r, std::ostream& out)
{
    const core::SnapshotAlignment& a = *r.alignment;
    out << r.snapshotPath << " aligned with " << r.tracePath << '\n';
    out << "  offset: snapshot time = trace time + " << a.offsetUs << " us (median of " << a.matches.size()
        << " matched START" << (a.matches.size() == 1 ? "" : "s") << " of " << a.snapshotAnnotations
        << " annotations; spread " << a.spreadUs << " us)\n";
    for (const std::string& d : a.diagnostics)
        out << "  note: " << d << '\n';
    out << "\n  device  range                              start_us     dur_us  req@start MiB  req@end MiB  "
           "req peak MiB  alloc peak MiB  allocs  top frame\n";
    for (const core::RangeMemory& m : a.ranges) {
        if (!wanted(r, m))
            continue;
        char line[256];
        std::snprintf(line, sizeof line, "  %6lld  %-32.32s %12lld %10lld %14s %12s %13s %15s %7llu  ",
            static_cast<long long>(m.device), m.name.c_str(), static_cast<long long>(m.startUs),
            static_cast<long long>(m.endUs - m.startUs), mib(m.requestedAtStart).c_str(),
            mib(m.requestedAtEnd).c_str(), mib(m.requestedPeak).c_str(), mib(m.allocatedPeak).c_str(),
            static_cast<unsigned long long>(m.allocations));
        out << line << (m.topFrames.empty() ? std::string("-") : m.topFrames.front().frame) << '\n';
    }
}

void printAlignmentCsv(const AlignmentReport& r, std::ostream& out)
{
    const core::SnapshotAlignment& a = *r.alignment;
    out << "device,name,start_us,end_us,offset_us,requested_start_b,requested_end_b,requested_peak_b,"
           "requested_peak_time_us,allocated_start_b,allocated_end_b,allocated_peak_b,reserved_start_b,"
           "reserved_end_b,allocations,allocated_in_range_b,top_frame\n";
    for (const core::RangeMemory& m : a.ranges) {
        if (!wanted(r, m))
            continue;
        out << m.device << ',' << csvCell(m.name) << ',' << m.startUs << ',' << m.endUs << ',' << a.offsetUs
            << ',' << m.requestedAtStart << ',' << m.requestedAtEnd << ',' << m.requestedPeak << ','
            << m.requestedPeakTimeUs << ',' << m.allocatedAtStart << ',' << m.allocatedAtEnd << ','
            << m.allocatedPeak << ',' << m.reservedAtStart << ',' << m.reservedAtEnd << ',' << m.allocations
            << ',' << m.allocatedBytes << ','
            << csvCell(m.topFrames.empty() ? std::string() : m.topFrames.front().frame) << '\n';
    }
}

void printAlignmentJson(const AlignmentReport& r, std::ostream& out)
{
    const core::SnapshotAlignment& a = *r.alignment;
    out << "{\"snapshot\": " << jsonQuote(r.snapshotPath) << ", \"trace\": " << jsonQuote(r.tracePath)
        << ", \"offset_us\": " << a.offsetUs << ", \"spread_us\": " << a.spreadUs
        << ", \"matched\": " << a.matches.size() << ", \"snapshot_annotations\": " << a.snapshotAnnotations
        << ", \"diagnostics\": [";
    for (std::size_t i = 0; i < a.diagnostics.size(); ++i)
        out << (i ? ", " : "") << jsonQuote(a.diagnostics[i]);
    out << "], \"matches\": [";
    for (std::size_t i = 0; i < a.matches.size(); ++i) {
        const core::AnnotationMatch& m = a.matches[i];
        out << (i ? ", " : "") << "{\"name\": " << jsonQuote(m.name) << ", \"device\": " << m.device
            << ", \"occurrence\": " << m.occurrence << ", \"snapshot_start_us\": " << m.snapshotStartUs
            << ", \"trace_start_us\": " << m.traceStartUs << ", \"difference_us\": " << m.differenceUs << '}';
    }
    out << "], \"ranges\": [";
    bool first = true;
    for (const core::RangeMemory& m : a.ranges) {
        if (!wanted(r, m))
            continue;
        out << (first ? "" : ", ") << "{\"name\": " << jsonQuote(m.name) << ", \"device\": " << m.device
            << ", \"start_us\": " << m.startUs << ", \"end_us\": " << m.endUs
            << ", \"requested_start_b\": " << m.requestedAtStart
            << ", \"requested_end_b\": " << m.requestedAtEnd << ", \"requested_peak_b\": " << m.requestedPeak
            << ", \"requested_peak_time_us\": " << m.requestedPeakTimeUs
            << ", \"allocated_start_b\": " << m.allocatedAtStart
            << ", \"allocated_end_b\": " << m.allocatedAtEnd << ", \"allocated_peak_b\": " << m.allocatedPeak
            << ", \"reserved_start_b\": " << m.reservedAtStart << ", \"reserved_end_b\": " << m.reservedAtEnd
            << ", \"allocations\": " << m.allocations << ", \"allocated_in_range_b\": " << m.allocatedBytes
            << ", \"top_frames\": [";
        for (std::size_t i = 0; i < m.topFrames.size(); ++i)
            out << (i ? ", " : "") << "{\"frame\": " << jsonQuote(m.topFrames[i].frame)
                << ", \"bytes_b\": " << m.topFrames[i].bytes << ", \"count\": " << m.topFrames[i].count
                << '}';
        out << "]}";
        first = false;
    }
    out << "]}\n";
}

} // namespace ks::cli
