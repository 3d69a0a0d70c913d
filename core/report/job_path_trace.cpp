#include "core/report/job_path_trace.h"

#include "core/common/json_text.h"

#include <cstdio>

namespace ks::core {

namespace {

    std::string microseconds(TimeNs ns)
    {
        char text[40];
        std::snprintf(text, sizeof text, "%.3f", static_cast<double>(ns) / 1000.0);
        return text;
    }

    // Path processes get pids far above real ones so that a merge does not mix them.
    constexpr std::int64_t kPidBase = 1'000'000'000;

} // namespace

std::string jobPathTraceJson(const JobCriticalPath& job, TimeNs minTs)
{
    std::string out = "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[";
    bool first = true;
    auto add = [&out, &first](const std::string& event) {
        out += first ? "\n" : ",\n";
        out += event;
        first = false;
    };
    for (const CondensedRank& r : job.ranks) {
        const std::string pid = std::to_string(kPidBase + r.rank);
        add("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + pid + ",\"tid\":0,\"args\":{\"name\":"
            + jsonString("rank " + std::to_string(r.rank) + ": critical path") + "}}");
    }
    for (const PathSegment& s : job.path.segments) {
        const std::string pid = std::to_string(kPidBase + s.rank);
        const std::string name =
            s.piece.name.empty() ? std::string(pathBoundName(s.piece.bound)) : s.piece.name.str();
        add("{\"ph\":\"X\",\"pid\":" + pid + ",\"tid\":1,\"cat\":" + jsonString(pathBoundName(s.piece.bound))
            + ",\"name\":" + jsonString(name) + ",\"ts\":" + microseconds(minTs + s.piece.start)
            + ",\"dur\":" + microseconds(s.piece.duration)
            + ",\"args\":{\"path_offset_ms\":" + std::to_string(static_cast<double>(s.pathOffset) / 1e6)
            + ",\"event_index\":" + std::to_string(s.piece.eventIndex) + "}}");
    }
    // A hop: from the last segment on the rank the path left to the transfer on the next rank.
    std::size_t id = 0;
    for (const PathHop& h : job.path.hops) {
        const PathSegment* from = nullptr;
        const PathSegment* to = nullptr;
        for (const PathSegment& s : job.path.segments) {
            if (s.pathOffset < h.pathOffset && s.rank == h.fromRank)
                from = &s;
            if (!to && s.pathOffset >= h.pathOffset && s.rank == h.toRank)
                to = &s;
        }
        if (!from || !to)
            continue;
        const std::string flow = ",\"cat\":\"critical_path_hop\",\"name\":" + jsonString(h.collective)
            + ",\"id\":" + std::to_string(++id) + ",\"tid\":1";
        add("{\"ph\":\"s\",\"pid\":" + std::to_string(kPidBase + h.fromRank) + flow
            + ",\"ts\":" + microseconds(minTs + from->piece.start) + "}");
        add("{\"ph\":\"f\",\"bp\":\"e\",\"pid\":" + std::to_string(kPidBase + h.toRank) + flow
            + ",\"ts\":" + microseconds(minTs + to->piece.start) + "}");
    }
    out += "\n]}\n";
    return out;
}

} // namespace ks::core
