#include "app/cli/output/clock_offsets_output.h"

#include <cstdio>
#include <ostream>

namespace ks::cli {

namespace {

    std::string microseconds(core::TimeNs ns)
    {
        char buf[48];
        std::snprintf(buf, sizeof buf, "%+.3f us", static_cast<double>(ns) / 1e3);
        return buf;
    }

} // namespace

void printClockOffsetsText(std::ostream& out, const core::ClockOffsets& offsets)
{
    if (offsets.ranks.empty())
        return;
    out << "estimated clock offsets (from the common ends of collectives; rank "
        << offsets.ranks[offsets.referenceIndex].rank << " is the reference):\n";
    for (std::size_t i = 0; i < offsets.ranks.size(); ++i) {
        const core::RankClockOffset& r = offsets.ranks[i];
        out << "  rank " << r.rank << ": ";
        if (i == offsets.referenceIndex)
            out << "reference\n";
        else if (!r.estimated)
            out << "not estimated (no shared collective)\n";
        else
            out << microseconds(r.offset) << "  spread " << microseconds(r.spread).substr(1) << "  from "
                << r.samples << " collective(s), " << r.rejected << " rejected as outliers\n";
    }
    for (const std::string& note : offsets.notes)
        out << "note: " << note << '\n';
}

void printClockOffsetsJson(std::ostream& out, const core::ClockOffsets& offsets)
{
    out << '[';
    for (std::size_t i = 0; i < offsets.ranks.size(); ++i) {
        const core::RankClockOffset& r = offsets.ranks[i];
        out << (i ? "," : "") << "{\"rank\":" << r.rank << ",\"offset_ns\":" << r.offset
            << ",\"spread_ns\":" << r.spread << ",\"samples\":" << r.samples << ",\"rejected\":" << r.rejected
            << ",\"estimated\":" << (r.estimated ? "true" : "false") << '}';
    }
    out << ']';
}

} // namespace ks::cli
