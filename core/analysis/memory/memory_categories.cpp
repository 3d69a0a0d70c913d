#include "core/analysis/memory/memory_categories.h"

#include "core/analysis/frame/kernel_type.h"
#include "core/analysis/tables/numpy_argsort.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

namespace ks::core {

namespace {

    // The µs value Python's float() gives for the trace's "ts" token (exact ns as text).
    double pythonMicroseconds(TimeNs ns)
    {
        // Both ns and 1000 are exact doubles below 2^53, and IEEE division rounds the
        // exact quotient to nearest, as strtod rounds the decimal text: the same double.
        constexpr TimeNs kExact = TimeNs { 1 } << 53;
        if (ns > -kExact && ns < kExact)
            return static_cast<double>(ns) / 1000.0;
        char text[40];
        const std::uint64_t abs = ns < 0 ? static_cast<std::uint64_t>(-ns) : static_cast<std::uint64_t>(ns);
        char* end = text;
        if (ns < 0)
            *end++ = '-';
        end = std::to_chars(end, text + sizeof text - 5, abs / 1000).ptr;
        const std::uint64_t fraction = abs % 1000;
        *end++ = '.';
        *end++ = static_cast<char>('0' + fraction / 100);
        *end++ = static_cast<char>('0' + fraction / 10 % 10);
        *end++ = static_cast<char>('0' + fraction % 10);
        *end = '\0';
        return std::strtod(text, nullptr);
    }

    // HTA.2: ts rounded up, end = ts + dur rounded down, in double arithmetic as
    // HTA's parser (trace_parser.py L326-343). Identity on whole microseconds.
    struct RoundedTime
    {
        std::int64_t ts = 0;
        std::int64_t end = 0;
    };

    RoundedTime roundLikeHta(TimeNs start, TimeNs duration)
    {
        const double ts = pythonMicroseconds(start);
        return { static_cast<std::int64_t>(std::ceil(ts)),
            static_cast<std::int64_t>(std::floor(ts + pythonMicroseconds(duration))) };
    }

    // HTA.1: rows of HTA's frame are events with a dur and a cat, not cat "Trace".
    bool keptSlice(const RankTrace& trace, std::uint32_t slice)
    {
        const std::string_view category = trace.sliceCategory(slice);
        return !category.empty() && category != "Trace";
    }

    // HTA's shorten_name (hta/utils/utils.py L147-): names without '(' or '<' stay whole.
    std::string shortName(std::string_view name)
    {
        if (name.find('(') == std::string_view::npos && name.find('<') == std::string_view::npos)
            return std::string(name);
        return shortenBracketedName(name);
    }

    // One row of a (pid, tid) group of HTA's frame (HTA.4).
    struct GroupRow
    {
        std::int64_t index = 0;
        std::int64_t ts = 0;
        std::int64_t end = 0;
        std::uint32_t name = 0; // into StackNames::shortNames
        std::int32_t record = -1; // into `rows` when a [memory] event that needs a stack
    };

    // Stacks of names without a string per event: a stack is a node of a trie over
    // short-name ids (node 0 the empty stack), its text (the names joined by ';',
    // HTA's stack name) made once per node asked for. A long trace repeats a few
    // thousand stacks over hundreds of thousands of [memory] events, each stack
    // hundreds of characters: one string each was most of the analysis' memory.
    class StackNames
    {
    public:
        StackNames() { m_nodes.push_back({ 0, 0 }); }

        std::uint32_t shortNameOf(NameId name, std::string_view text)
        {
            if (name.value >= m_shortOfName.size())
                m_shortOfName.resize(name.value + 1, kNone);
            std::uint32_t& id = m_shortOfName[name.value];
            if (id == kNone)
                id = addShortName(shortName(text));
            return id;
        }

        std::uint32_t addShortName(std::string text)
        {
            m_shortNames.push_back(std::move(text));
            return static_cast<std::uint32_t>(m_shortNames.size() - 1);
        }

        std::uint32_t child(std::uint32_t parent, std::uint32_t name)
        {
            const std::uint64_t key = (std::uint64_t { parent } << 32) | name;
            const auto [it, added] = m_children.try_emplace(key, static_cast<std::uint32_t>(m_nodes.size()));
            if (added)
                m_nodes.push_back({ parent, name });
            return it->second;
        }

        // The names from the outermost down, joined by ';' (made anew: callers ask once
        // per node, and keeping every prefix's text cost more than the stacks themselves).
        std::string text(std::uint32_t node) const
        {
            std::vector<std::uint32_t> names;
            for (; node != 0; node = m_nodes[node].parent)
                names.push_back(m_nodes[node].name);
            std::size_t size = names.empty() ? 0 : names.size() - 1;
            for (const std::uint32_t n : names)
                size += m_shortNames[n].size();
            std::string out;
            out.reserve(size);
            for (auto it = names.rbegin(); it != names.rend(); ++it) {
                if (it != names.rbegin())
                    out += ';';
                out += m_shortNames[*it];
            }
            return out;
        }

    private:
        static constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

        struct Node
        {
            std::uint32_t parent;
            std::uint32_t name;
        };

        std::vector<std::string> m_shortNames;
        std::vector<std::uint32_t> m_shortOfName; // by NameId
        std::vector<Node> m_nodes;
        std::unordered_map<std::uint64_t, std::uint32_t> m_children;
    };

    struct HtaMemoryRow
    {
        const MemoryRecord* record = nullptr;
        std::int64_t index = 0;
        std::int64_t ts = 0; // rounded, relative
        std::uint32_t stack = 0; // StackNames node: its text is HTA's stack name
        std::vector<std::int64_t> stackIds;
        std::optional<std::int64_t> mirror;
    };

    // HTA.4 (_collect_stack_ids_for_process_group): before each row of the group in ts
    // order, the entries not enclosing it ([ts, end], both inclusive) leave the stack.
    void addStacks(std::vector<GroupRow>& group, std::vector<HtaMemoryRow>& rows, StackNames& names)
    {
        std::sort(group.begin(), group.end(),
            [](const GroupRow& a, const GroupRow& b) { return a.index < b.index; });
        std::vector<std::int64_t> ts(group.size());
        for (std::size_t k = 0; k < group.size(); ++k)
            ts[k] = group[k].ts;

        struct Entry
        {
            const GroupRow* row;
            std::uint32_t node; // the stack up to and with this entry
        };

        std::vector<Entry> stack;
        for (std::size_t k : numpyArgsort(ts)) { // pandas sort_values: numpy's unstable quicksort
            const GroupRow& row = group[k];
            // Entries leave from anywhere (overlapping events): the nodes above the first
            // that left are made again.
            std::size_t kept = 0;
            std::size_t firstLeft = stack.size();
            for (std::size_t s = 0; s < stack.size(); ++s) {
                const GroupRow* e = stack[s].row;
                if (e->end >= row.end && e->ts <= row.ts)
                    stack[kept++] = stack[s];
                else if (firstLeft == stack.size())
                    firstLeft = s;
            }
            stack.resize(kept);
            for (std::size_t s = firstLeft; s < stack.size(); ++s)
                stack[s].node = names.child(s ? stack[s - 1].node : 0, stack[s].row->name);
            if (row.record >= 0) {
                HtaMemoryRow& out = rows[static_cast<std::size_t>(row.record)];
                out.stack = stack.empty() ? 0 : stack.back().node;
                if (stack.size() > 1) {
                    out.stackIds.reserve(stack.size() - 1);
                    for (std::size_t s = 0; s + 1 < stack.size(); ++s)
                        out.stackIds.push_back(stack[s].row->index);
                }
            }
            stack.push_back({ &row, names.child(stack.empty() ? 0 : stack.back().node, row.name) });
        }
    }

    // HTA.5: per (addr, device), among rows of equal and opposite size, an allocation's
    // earliest strictly later row and a free's latest strictly earlier one (first in
    // frame order on equal ts); an address seen once among all devices is never matched.
    // Rows by (ts, row) per place and size, searched: a place the caching allocator
    // reuses holds thousands of rows on a long trace, and scanning them all for every
    // row made the pairing quadratic (2 minutes on an 826 MB rank).
    void pairRows(std::vector<HtaMemoryRow>& rows)
    {
        using Place = std::tuple<std::int64_t, std::int32_t, std::int64_t>; // addr, device, size
        using TimedRow = std::pair<std::int64_t, std::size_t>; // ts, row
        std::unordered_map<std::int64_t, std::size_t> rowsAtAddr;
        std::map<Place, std::pair<std::vector<TimedRow>, std::vector<TimedRow>>> byPlace; // allocs, frees
        for (std::size_t k = 0; k < rows.size(); ++k) {
            const MemoryRecord& r = *rows[k].record;
            ++rowsAtAddr[r.addr];
            if (r.bytes == 0)
                continue;
            auto& place = byPlace[{ r.addr, r.device.id, r.bytes > 0 ? r.bytes : -r.bytes }];
            (r.bytes > 0 ? place.first : place.second).emplace_back(rows[k].ts, k);
        }
        for (auto& [place, lists] : byPlace) {
            std::sort(lists.first.begin(), lists.first.end());
            std::sort(lists.second.begin(), lists.second.end());
        }
        for (HtaMemoryRow& row : rows) {
            const MemoryRecord& r = *row.record;
            if (r.bytes == 0 || r.addr < 0 || rowsAtAddr[r.addr] < 2)
                continue;
            const auto place = byPlace.find({ r.addr, r.device.id, r.bytes > 0 ? r.bytes : -r.bytes });
            const TimedRow* best = nullptr;
            if (r.bytes > 0) { // the first free after it
                const std::vector<TimedRow>& frees = place->second.second;
                const auto it = std::upper_bound(
                    frees.begin(), frees.end(), TimedRow { row.ts, std::numeric_limits<std::size_t>::max() });
                if (it != frees.end())
                    best = &*it;
            } else { // the last allocation before it, the first row at that time
                const std::vector<TimedRow>& allocs = place->second.first;
                const auto it = std::lower_bound(allocs.begin(), allocs.end(), TimedRow { row.ts, 0 });
                if (it != allocs.begin())
                    best = &*std::lower_bound(allocs.begin(), it, TimedRow { std::prev(it)->first, 0 });
            }
            if (best)
                row.mirror = rows[best->second].index;
        }
    }

    // HTA.2's ProfilerStep filter: with two or more ProfilerStep names, rows from the
    // last step's start on are dropped (include_last_profiler_step=False).
    std::optional<std::int64_t> lastStepStart(const RankTrace& trace)
    {
        std::set<std::string_view> names;
        std::optional<std::int64_t> last;
        for (std::uint32_t s = 0; s < trace.slices.size(); ++s) {
            const std::string_view name = trace.sliceName(s);
            if (name.find("ProfilerStep") == std::string_view::npos || !keptSlice(trace, s))
                continue;
            names.insert(name);
            const std::int64_t ts = roundLikeHta(trace.slices.start[s], 0).ts;
            last = std::max(last.value_or(ts), ts);
        }
        return names.size() >= 2 ? last : std::nullopt;
    }

    std::vector<HtaMemoryRow> htaMemoryRows(
        const RankTrace& trace, const MemoryRecords& records, std::int64_t minTs, StackNames& names)
    {
        const std::uint32_t memoryName = names.addShortName("[memory]");
        const std::optional<std::int64_t> cut = lastStepStart(trace);
        // Every [memory] row of the frame is a group row; those with a total a memory row (HTA.1).
        std::vector<HtaMemoryRow> rows;
        std::map<std::pair<std::int64_t, std::int64_t>, std::vector<GroupRow>> groups;
        auto key = [](const ThreadKey& k) { return std::pair { k.pid, k.tid }; };
        std::vector<const MemoryRecord*> kept;
        for (const MemoryRecord& r : records.records)
            if (r.cpuInstantCategory && !(cut && roundLikeHta(r.ts, 0).ts >= *cut))
                kept.push_back(&r);
        std::sort(kept.begin(), kept.end(), [&](const MemoryRecord* a, const MemoryRecord* b) {
            return trace.memory.eventIndex[a->row] < trace.memory.eventIndex[b->row];
        });
        for (const MemoryRecord* r : kept) {
            // A [memory] row's end is its rounded ts: checked against the references, where
            // an op ending in the µs before a fractional ts does not enclose it.
            const std::int64_t ts = roundLikeHta(r->ts, 0).ts;
            GroupRow g { trace.memory.eventIndex[r->row], ts, ts, memoryName, -1 };
            if (r->totalReserved >= 0) { // the rows get_memory_timeline_per_category reads (HTA.5)
                g.record = r->totalAllocated >= 0 ? static_cast<std::int32_t>(rows.size()) : -1;
                rows.push_back({ r, g.index, ts - minTs, {}, {}, {} });
            }
            groups[key(r->thread)].push_back(std::move(g));
        }
        for (const Track& track : trace.tracks) {
            auto group = groups.find(key(track.key));
            if (group == groups.end())
                continue;
            for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s) {
                const RoundedTime t = roundLikeHta(trace.slices.start[s], trace.slices.duration(s));
                if (keptSlice(trace, s) && !(cut && t.ts >= *cut))
                    group->second.push_back({ trace.slices.eventIndex[s], t.ts, t.end,
                        names.shortNameOf(trace.slices.name[s], trace.sliceName(s)), -1 });
            }
        }
        for (auto& [thread, group] : groups)
            addStacks(group, rows, names);
        pairRows(rows);
        return rows;
    }

    // Drops the stack names no event uses and renumbers the rest by first use in `events`.
    void pruneStackNames(MemoryCategories& c)
    {
        std::vector<std::uint32_t> renumbered(c.stackNames.size(), std::numeric_limits<std::uint32_t>::max());
        std::vector<std::string> names;
        for (ClassifiedMemoryEvent& e : c.events) {
            std::uint32_t& id = renumbered[e.stackNameId];
            if (id == std::numeric_limits<std::uint32_t>::max()) {
                id = static_cast<std::uint32_t>(names.size());
                names.push_back(c.stackNames[e.stackNameId]);
            }
            e.stackNameId = id;
        }
        for (CategoryTimelineRow& r : c.timeline)
            r.stackNameId = renumbered[r.stackNameId];
        c.stackNames = std::move(names);
    }

    // HTA.6 step 4: per category its rows and a ts-1 copy with 0 bytes, by ts, summed.
    void addTimelines(const std::vector<ClassifiedMemoryEvent>& device, std::vector<CategoryTimelineRow>& out)
    {
        std::set<std::string> categories;
        for (const ClassifiedMemoryEvent& e : device)
            categories.insert(e.stackType);
        for (const std::string& category : categories) {
            std::vector<CategoryTimelineRow> rows;
            for (const ClassifiedMemoryEvent& e : device)
                if (e.stackType == category)
                    rows.push_back(
                        { e.deviceId, e.index, e.ts, category, e.bytesDelta, false, 0, e.stackNameId, e.at });
            const std::size_t events = rows.size();
            for (std::size_t k = 0; k < events; ++k) {
                CategoryTimelineRow copy = rows[k];
                copy.ts -= 1;
                copy.bytesDelta = 0;
                copy.plottingOnly = true;
                rows.push_back(copy);
            }
            std::vector<std::int64_t> ts(rows.size());
            for (std::size_t k = 0; k < rows.size(); ++k)
                ts[k] = rows[k].ts;
            std::int64_t total = 0;
            for (std::size_t k : numpyArgsort(ts)) {
                total += rows[k].bytesDelta;
                rows[k].categoryTotal = total;
                out.push_back(rows[k]);
            }
        }
    }

} // namespace

namespace {

    // HTA's re.search("optimizedmodule_[0-9]+"): the word followed by a digit.
    bool hasOptimizedModuleIndex(std::string_view lower)
    {
        constexpr std::string_view kWord = "optimizedmodule_";
        for (std::size_t at = lower.find(kWord); at != std::string_view::npos;
             at = lower.find(kWord, at + 1)) {
            const std::size_t digit = at + kWord.size();
            if (digit < lower.size() && lower[digit] >= '0' && lower[digit] <= '9')
                return true;
        }
        return false;
    }

} // namespace

std::string classifyTorchtitanStack(std::string_view stackName)
{
    std::string lower(stackName);
    std::transform(lower.begin(), lower.end(), lower.begin(),
        [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    auto has = [&](std::string_view s) { return lower.find(s) != std::string::npos; };
    // classify_torchtitan_calls (trace_memory_analysis.py L623-667), in its order.
    std::string out = has("backward") ? "backward"
        : has("forward")              ? "forward"
        : has("optimizer")            ? "optimizer"
                                      : "unknown";
    if (has("loss"))
        out += ":loss";
    if (hasOptimizedModuleIndex(lower))
        out += ":layer";
    if (has("shard"))
        out += ":fsdp_parameters";
    if (has("forward") && has("checkpoint"))
        out += ":activation";
    if (has("embedding"))
        out += ":embedding";
    if (has("rmsnorm_0") || (has("linear_0") && has("transformer_0")))
        out += ":output";
    if (has("backward") && (has("call") || has("aten")))
        out += ":details";
    return out.find(':') == std::string::npos ? out + ":unknown" : out;
}

std::optional<std::int64_t> htaRankStartUs(const RankTrace& trace)
{
    std::optional<std::int64_t> minTs;
    for (std::uint32_t s = 0; s < trace.slices.size(); ++s)
        if (keptSlice(trace, s)) {
            const std::int64_t ts = roundLikeHta(trace.slices.start[s], 0).ts;
            minTs = std::min(minTs.value_or(ts), ts);
        }
    const MemoryEventTable& m = trace.memory;
    for (std::size_t k = 0; k < m.size(); ++k)
        if (m.flags[k] & kMemoryCpuInstantCategory) {
            const std::int64_t ts = roundLikeHta(m.ts[k], 0).ts;
            minTs = std::min(minTs.value_or(ts), ts);
        }
    return minTs;
}

MemoryCategories memoryCategories(
    const RankTrace& trace, const MemoryRecords& records, std::optional<std::int64_t> timeBaseUs)
{
    MemoryCategories out;
    out.jobTimeBase = timeBaseUs.has_value();
    const std::optional<std::int64_t> base = timeBaseUs ? timeBaseUs : htaRankStartUs(trace);
    if (!base)
        return out;
    out.timeBaseUs = *base;
    StackNames stackNames;
    const std::vector<HtaMemoryRow> rows = htaMemoryRows(trace, records, *base, stackNames);
    if (rows.empty())
        return out;
    std::int64_t firstTs = rows.front().ts;
    TimeNs firstAt = rows.front().record->ts;
    std::set<std::int64_t> devices;
    for (const HtaMemoryRow& r : rows) {
        firstTs = std::min(firstTs, r.ts);
        firstAt = std::min(firstAt, r.record->ts);
        devices.insert(r.record->device.id);
    }
    // Stack names by text (two stacks of other names can join to one text), each text
    // kept once: in out.stackNames, found by its hash.
    std::unordered_multimap<std::size_t, std::uint32_t> nameIds;
    auto nameId = [&](std::string name) {
        const std::size_t hash = std::hash<std::string> {}(name);
        for (auto [it, end] = nameIds.equal_range(hash); it != end; ++it)
            if (out.stackNames[it->second] == name)
                return it->second;
        const auto id = static_cast<std::uint32_t>(out.stackNames.size());
        out.stackNames.push_back(std::move(name));
        nameIds.emplace(hash, id);
        return id;
    };
    // Per stack node (few, shared by many events): its stack name's id and its category.
    constexpr std::uint32_t kBeforeProfile = std::numeric_limits<std::uint32_t>::max();

    struct NodeClass
    {
        std::uint32_t nameId;
        std::string type;
    };

    std::unordered_map<std::uint32_t, NodeClass> classOfNode;
    auto classOf = [&](std::uint32_t node) -> const NodeClass& {
        auto known = classOfNode.find(node);
        if (known == classOfNode.end()) {
            const std::string name =
                node == kBeforeProfile ? std::string(kAllocatedBeforeProfile) : stackNames.text(node);
            std::string type =
                node == kBeforeProfile ? std::string(kAllocatedBeforeProfile) : classifyTorchtitanStack(name);
            known = classOfNode.emplace(node, NodeClass { nameId(name), std::move(type) }).first;
        }
        return known->second;
    };
    for (std::int64_t device : devices) {
        std::vector<ClassifiedMemoryEvent> events;
        std::vector<std::uint32_t> nodes;
        for (const HtaMemoryRow& r : rows) {
            if (r.record->device.id != device)
                continue;
            const MemoryRecord& m = *r.record;
            events.push_back({ device, r.index, m.evIdx, r.ts, m.thread.pid, m.thread.tid, m.addr, m.bytes,
                m.totalAllocated, m.totalReserved, r.mirror, {}, r.stackIds, 0, m.ts });
            nodes.push_back(r.stack);
        }
        // HTA.6 step 1: the device's earliest row, as memory allocated before the trace.
        const auto earliest = std::min_element(events.begin(), events.end(),
            [](const ClassifiedMemoryEvent& a, const ClassifiedMemoryEvent& b) { return a.ts < b.ts; });
        ClassifiedMemoryEvent before = *earliest;
        before.totalAllocated -= before.bytesDelta;
        before.bytesDelta = before.totalAllocated;
        before.ts = firstTs - 1;
        before.at = firstAt - 1000;
        before.addr = -1;
        before.evIdx = -1;
        before.index = std::max_element(events.begin(), events.end(),
                           [](const auto& a, const auto& b) { return a.index < b.index; })
                           ->index
            + 1;
        events.push_back(before);
        nodes.push_back(kBeforeProfile);
        std::unordered_map<std::int64_t, std::size_t> byIndex;
        for (std::size_t k = 0; k < events.size(); ++k) {
            const NodeClass& c = classOf(nodes[k]);
            events[k].stackType = c.type;
            events[k].stackNameId = c.nameId;
            byIndex.emplace(events[k].index, k);
        }
        // HTA.6 step 3: a free counts where its memory was allocated; unmatched, before the trace.
        std::vector<std::string> allocationType(events.size());
        for (std::size_t k = 0; k < events.size(); ++k) {
            ClassifiedMemoryEvent& e = events[k];
            if (e.bytesDelta >= 0)
                continue;
            if (!e.allocOrDeallocId)
                allocationType[k] = kAllocatedBeforeProfile;
            else if (*e.allocOrDeallocId > 0)
                allocationType[k] = events[byIndex.at(*e.allocOrDeallocId)].stackType;
        }
        for (std::size_t k = 0; k < events.size(); ++k)
            if (!allocationType[k].empty())
                events[k].stackType = allocationType[k];
        addTimelines(events, out.timeline);
        out.events.insert(out.events.end(), events.begin(), events.end());
    }
    return out;
}

void restrictCategoriesToRange(MemoryCategories& categories, const MemoryRange& range)
{
    const auto outside = [&](TimeNs at) { return at < range.start || at > range.end; };
    std::erase_if(categories.events, [&](const ClassifiedMemoryEvent& e) { return outside(e.at); });
    std::erase_if(categories.timeline, [&](const CategoryTimelineRow& r) { return outside(r.at); });
    pruneStackNames(categories);
}

void restrictCategoriesToDevice(MemoryCategories& categories, std::int64_t deviceId)
{
    std::erase_if(categories.events, [&](const ClassifiedMemoryEvent& e) { return e.deviceId != deviceId; });
    std::erase_if(categories.timeline, [&](const CategoryTimelineRow& r) { return r.deviceId != deviceId; });
    pruneStackNames(categories);
}

} // namespace ks::core
