#include "core/analysis/memory/memory_records.h"

#include "core/io/json/trace_elements.h"
#include "core/io/store_builder/typed_args.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <limits>
#include <numeric>
#include <string>
#include <unordered_map>

namespace ks::core {

namespace {

    // What the store did not keep of one [memory] or [OutOfMemory] element.
    struct ElementExtras
    {
        std::int64_t addr = 0;
        bool hasAddr = false;
        std::int64_t totalReserved = -1;
        std::int64_t bytes = 0;
        std::int64_t totalAllocated = -1;
        std::int32_t deviceType = -1;
        std::int32_t deviceId = -1;
        ThreadKey thread;
        bool hasCategory = false;
        bool cpuInstant = false;
        std::int64_t evIdx = -1;
    };

    // pid/tid as the loader keys them: a number, or a string (then not a number the plugin can use).
    void readThreadId(std::string_view token, std::int64_t& id, bool& isName)
    {
        if (auto n = tokenToInt(token)) {
            id = *n;
            isName = false;
        } else {
            id = 0;
            isName = true;
        }
    }

    ElementExtras extrasOf(std::string_view element)
    {
        ElementExtras x;
        forEachMember(element, [&](std::string_view key, std::string_view value) {
            if (key == "pid")
                readThreadId(value, x.thread.pid, x.thread.pidIsName);
            else if (key == "tid")
                readThreadId(value, x.thread.tid, x.thread.tidIsName);
            else if (key == "cat") {
                x.hasCategory = true;
                x.cpuInstant = tokenToString(value).value_or("") == "cpu_instant_event";
            } else if (key == "args") {
                forEachMember(value, [&](std::string_view argKey, std::string_view argValue) {
                    if (argKey == "Addr") {
                        const auto addr = tokenToInt(argValue);
                        x.hasAddr = addr.has_value();
                        x.addr = addr.value_or(0);
                    } else if (argKey == "Total Reserved")
                        x.totalReserved = tokenToInt(argValue).value_or(-1);
                    else if (argKey == "Total Allocated")
                        x.totalAllocated = tokenToInt(argValue).value_or(-1);
                    else if (argKey == "Bytes")
                        x.bytes = tokenToInt(argValue).value_or(0);
                    else if (argKey == "Device Type")
                        x.deviceType = static_cast<std::int32_t>(tokenToInt(argValue).value_or(-1));
                    else if (argKey == "Ev Idx")
                        x.evIdx = tokenToInt(argValue).value_or(-1);
                    else if (argKey == "Device Id")
                        x.deviceId = static_cast<std::int32_t>(tokenToInt(argValue).value_or(-1));
                });
            }
        });
        return x;
    }

} // namespace

Result<MemoryRecords> memoryRecords(const RankTrace& trace)
{
    const MemoryEventTable& m = trace.memory;
    std::vector<std::uint32_t> order(m.size());
    std::iota(order.begin(), order.end(), 0U);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        if (m.ts[a] != m.ts[b])
            return m.ts[a] < m.ts[b];
        return m.eventIndex[a] < m.eventIndex[b];
    });
    MemoryRecords out;
    out.records.reserve(order.size());
    for (std::uint32_t row : order) {
        MemoryRecord r;
        r.ts = m.ts[row];
        r.bytes = m.bytes[row];
        r.totalAllocated = m.totalAllocated[row];
        r.totalReserved = m.totalReserved[row];
        r.addr = m.addr[row];
        r.hasAddr = (m.flags[row] & kMemoryHasAddr) != 0;
        r.device = { m.deviceType[row], m.deviceId[row] };
        r.thread = m.threads[m.thread[row]];
        r.row = row;
        r.hasCategory = (m.flags[row] & kMemoryHasCategory) != 0;
        r.cpuInstantCategory = (m.flags[row] & kMemoryCpuInstantCategory) != 0;
        r.evIdx = m.evIdx[row];
        out.anyAddr = out.anyAddr || r.hasAddr;
        out.anyTotals = out.anyTotals || r.hasTotals();
        out.anyCategory = out.anyCategory || r.hasCategory;
        out.records.push_back(r);
        if (std::find(out.devices.begin(), out.devices.end(), r.device) == out.devices.end())
            out.devices.push_back(r.device);
    }
    std::sort(out.devices.begin(), out.devices.end());
    return out;
}

Result<std::vector<OutOfMemoryRecord>> outOfMemoryRecords(const RankTrace& trace)
{
    std::vector<std::uint32_t> indices;
    std::unordered_map<std::uint32_t, TimeNs> tsOfEvent;
    for (std::uint32_t row = 0; row < trace.instants.size(); ++row)
        if (trace.name(trace.instants.name[row]) == "[OutOfMemory]") {
            indices.push_back(trace.instants.eventIndex[row]);
            tsOfEvent.emplace(trace.instants.eventIndex[row], trace.instants.ts[row]);
        }
    std::vector<OutOfMemoryRecord> out;
    if (indices.empty())
        return out;
    if (auto err = forEachTraceElement(trace, indices, [&](std::uint32_t index, std::string_view text) {
            const ElementExtras x = extrasOf(text);
            OutOfMemoryRecord oom;
            oom.ts = tsOfEvent.at(index);
            oom.bytes = x.bytes;
            oom.totalAllocated = x.totalAllocated;
            oom.totalReserved = x.totalReserved;
            oom.device = { x.deviceType, x.deviceId };
            oom.thread = x.thread;
            out.push_back(oom);
        }))
        return *err;
    std::stable_sort(out.begin(), out.end(),
        [](const OutOfMemoryRecord& a, const OutOfMemoryRecord& b) { return a.ts < b.ts; });
    return out;
}

namespace {

    // The plugin's EventTypeMap (its trace.py): the categories of the complete
    // events it keeps, lower-cased.
    bool keptByPlugin(std::string_view category)
    {
        static constexpr std::array<std::string_view, 16> kKept { "trace", "cpu_op", "operator", "runtime",
            "cuda_runtime", "cuda_driver", "kernel", "memcpy", "gpu_memcpy", "memset", "gpu_memset", "python",
            "python_function", "user_annotation", "gpu_user_annotation", "memory" };
        std::string lower(category);
        std::transform(lower.begin(), lower.end(), lower.begin(),
            [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        return std::find(kKept.begin(), kKept.end(), lower) != kKept.end();
    }

} // namespace

TimeNs memoryTimeBase(const RankTrace& trace)
{
    TimeNs base = std::numeric_limits<TimeNs>::max();
    std::vector<char> kept(trace.categories.size(), 0);
    for (std::size_t c = 0; c < trace.categories.size(); ++c)
        kept[c] = keptByPlugin(trace.name(trace.categories[c])) ? 1 : 0;
    for (std::size_t s = 0; s < trace.slices.size(); ++s)
        if (kept[trace.slices.category[s]])
            base = std::min(base, trace.slices.start[s]);
    for (TimeNs t : trace.memory.ts)
        base = std::min(base, t);
    return base == std::numeric_limits<TimeNs>::max() ? trace.startNs : base;
}

} // namespace ks::core
