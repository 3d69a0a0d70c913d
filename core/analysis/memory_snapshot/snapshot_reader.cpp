#include "core/analysis/memory_snapshot/snapshot_reader.h"

#include <optional>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ks::core {

namespace {

    TraceAction actionFromName(std::string_view name)
    {
        static const std::pair<std::string_view, TraceAction> kActions[] = {
            { "alloc", TraceAction::Alloc }, { "free_requested", TraceAction::FreeRequested },
            { "free_completed", TraceAction::FreeCompleted }, { "segment_alloc", TraceAction::SegmentAlloc },
            { "segment_free", TraceAction::SegmentFree }, { "segment_map", TraceAction::SegmentMap },
            { "segment_unmap", TraceAction::SegmentUnmap }, { "snapshot", TraceAction::Snapshot },
            { "oom", TraceAction::Oom },
            { "free", TraceAction::Free }, // written by memory_viz's own tests; treated as a merged free
        };
        for (const auto& [text, action] : kActions)
            if (text == name)
                return action;
        return TraceAction::Unknown;
    }

    // The keys of a trace entry the model reads.
    enum class EntryKey : std::uint8_t
    {
        Action,
        Addr,
        Size,
        Stream,
        TimeUs,
        DeviceFree,
        Frames,
        Other,
        Unresolved,
    };

    constexpr int kEntryKeys = static_cast<int>(EntryKey::Other);

    EntryKey entryKeyOf(std::string_view text)
    {
        static const std::pair<std::string_view, EntryKey> kKeys[] = {
            { "action", EntryKey::Action },
            { "addr", EntryKey::Addr },
            { "size", EntryKey::Size },
            { "stream", EntryKey::Stream },
            { "time_us", EntryKey::TimeUs },
            { "device_free", EntryKey::DeviceFree },
            { "frames", EntryKey::Frames },
        };
        for (const auto& [name, key] : kKeys)
            if (name == text)
                return key;
        return EntryKey::Other;
    }

    // Turns the document into the model. Each method returns false with
    // m_error set at the first field it cannot use.
    class SnapshotDecoder
    {
    public:
        SnapshotDecoder(const PickleDocument& doc, const std::string& path)
            : m_doc(doc)
            , m_budget(static_cast<std::int64_t>(doc.itemCount()) + 1024)
        {
            m_snapshot.path = path;
        }

        bool decode();

        MemorySnapshot take() { return std::move(m_snapshot); }

        const std::string& error() const { return m_error; }

    private:
        bool fail(const std::string& where, const std::string& what)
        {
            m_error = where + " " + what;
            return false;
        }

        bool spend(const std::string& where)
        {
            if (m_budget-- > 0)
                return true;
            return fail(
                where, "is reached through more shared lists than a memory snapshot has (a crafted pickle)");
        }

        bool expect(PickleValue v, PickleKind kind, const std::string& where)
        {
            if (v.kind() == kind)
                return true;
            return fail(where,
                std::string("is of type ") + pickleKindName(v.kind()) + ", not " + pickleKindName(kind));
        }

        bool integer(PickleValue dict, std::string_view key, const std::string& where, std::int64_t& out,
            bool required = false);
        bool unsignedInt(PickleValue dict, std::string_view key, const std::string& where, std::uint64_t& out,
            bool required = false);
        std::string text(PickleValue dict, std::string_view key);
        SnapshotStackId stackOf(PickleValue dict, const std::string& where);
        SnapshotStackId stackOfFrames(const std::optional<PickleValue>& frames, const std::string& where);
        EntryKey entryKey(PickleValue key);
        // A value found (or not) under `key`: what integer() and unsignedInt() check, for a value in hand.
        bool entryInteger(const std::optional<PickleValue>& v, std::string_view key, const std::string& where,
            std::int64_t& out, bool required = false);
        bool entryUnsigned(const std::optional<PickleValue>& v, std::string_view key,
            const std::string& where, std::uint64_t& out, bool required = false);
        std::uint32_t frameOf(PickleValue frame);

        bool segments(PickleValue list);
        bool segment(PickleValue dict, const std::string& where);
        bool block(PickleValue dict, const SnapshotSegment& segment, std::uint64_t address,
            const std::string& where);
        bool traces(PickleValue list);
        bool entry(PickleValue dict, std::vector<TraceEntry>& out, const std::string& where);
        void annotations(PickleValue list);
        void settings(PickleValue dict);
        std::string describe(PickleValue v, int depth) const;

        const PickleDocument& m_doc;
        MemorySnapshot m_snapshot;
        std::int64_t m_budget;
        std::string m_error;
        // By container index, 0 = not seen yet (ids are 1-based here): every trace
        // entry looks its frames list up, so a flat array, not a hash map.
        std::vector<std::uint32_t> m_stackByList;
        std::unordered_map<std::string, SnapshotStackId> m_stackByFrames;
        std::unordered_map<std::uint64_t, std::uint32_t> m_frameByDict;
        std::unordered_map<std::string, std::uint32_t> m_frameByText;
        std::string m_key; // scratch
        std::vector<EntryKey> m_entryKeys; // by string index, filled as keys are met
    };

    bool SnapshotDecoder::integer(
        PickleValue dict, std::string_view key, const std::string& where, std::int64_t& out, bool required)
    {
        return entryInteger(m_doc.find(dict, key), key, where, out, required);
    }

    bool SnapshotDecoder::unsignedInt(
        PickleValue dict, std::string_view key, const std::string& where, std::uint64_t& out, bool required)
    {
        return entryUnsigned(m_doc.find(dict, key), key, where, out, required);
    }

    std::string SnapshotDecoder::text(PickleValue dict, std::string_view key)
    {
        const auto v = m_doc.find(dict, key);
        return v ? std::string(m_doc.asString(*v)) : std::string();
    }

    std::uint32_t SnapshotDecoder::frameOf(PickleValue frame)
    {
        const std::uint64_t index = m_doc.containerIndex(frame);
        if (const auto it = m_frameByDict.find(index); it != m_frameByDict.end())
            return it->second;
        SnapshotFrame f;
        f.filename = text(frame, "filename");
        f.name = text(frame, "name");
        if (const auto line = m_doc.find(frame, "line"))
            f.line = m_doc.asInt(*line).value_or(0);
        m_key = f.filename;
        m_key += '\0';
        m_key += std::to_string(f.line);
        m_key += '\0';
        m_key += f.name;
        auto [it, added] =
            m_frameByText.try_emplace(m_key, static_cast<std::uint32_t>(m_snapshot.frames.size()));
        if (added)
            m_snapshot.frames.push_back(std::move(f));
        m_frameByDict.emplace(index, it->second);
        return it->second;
    }

    SnapshotStackId SnapshotDecoder::stackOf(PickleValue dict, const std::string& where)
    {
        return stackOfFrames(m_doc.find(dict, "frames"), where);
    }

    SnapshotStackId SnapshotDecoder::stackOfFrames(
        const std::optional<PickleValue>& frames, const std::string& where)
    {
        if (!frames || frames->kind() != PickleKind::List || m_doc.containerSize(*frames) == 0)
            return {};
        const std::uint64_t list = m_doc.containerIndex(*frames);
        if (m_stackByList.empty())
            m_stackByList.assign(m_doc.containerCount(), 0);
        if (const std::uint32_t known = m_stackByList[list]; known != 0)
            return SnapshotStackId { known - 1 };
        if (!spend(where + ".frames"))
            return {};
        std::string key;
        std::vector<std::uint32_t> ids;
        const std::uint32_t n = m_doc.containerSize(*frames);
        ids.reserve(n);
        for (std::uint32_t i = 0; i < n; ++i) {
            const PickleValue f = m_doc.item(*frames, i);
            if (f.kind() != PickleKind::Dict)
                continue; // not a frame; memory_viz would show it as text, we leave it out
            ids.push_back(frameOf(f));
        }
        key.assign(reinterpret_cast<const char*>(ids.data()), ids.size() * sizeof(std::uint32_t));
        auto [it, added] = m_stackByFrames.try_emplace(key, SnapshotStackId { 0 });
        if (added) {
            it->second.value = static_cast<std::uint32_t>(m_snapshot.stacks.size());
            m_snapshot.stacks.emplace_back(static_cast<std::uint32_t>(m_snapshot.stackFrames.size()),
                static_cast<std::uint32_t>(ids.size()));
            m_snapshot.stackFrames.insert(m_snapshot.stackFrames.end(), ids.begin(), ids.end());
        }
        m_stackByList[list] = it->second.value + 1;
        return it->second;
    }

    bool SnapshotDecoder::block(
        PickleValue dict, const SnapshotSegment& seg, std::uint64_t address, const std::string& where)
    {
        if (!expect(dict, PickleKind::Dict, where) || !spend(where))
            return false;
        SnapshotBlock b;
        b.address = address;
        if (!unsignedInt(dict, "size", where, b.size, true))
            return false;
        const std::string state = text(dict, "state");
        if (state == "active_allocated")
            b.state = BlockState::ActiveAllocated;
        else if (state == "active_pending_free" || state == "active_awaiting_free")
            b.state = BlockState::ActivePendingFree;
        else if (state == "inactive")
            b.state = BlockState::Inactive;
        else
            return fail(where + ".state", "is '" + state + "', not a block state");
        std::uint64_t requested = 0;
        if (!unsignedInt(dict, "requested_size", where, requested))
            return false;
        const bool hasFrames = m_doc.find(dict, "frames").has_value();
        const auto history = m_doc.find(dict, "history");
        PickleValue first;
        const bool hasHistory = history && history->kind() == PickleKind::List
            && m_doc.containerSize(*history) > 0
            && (first = m_doc.item(*history, 0)).kind() == PickleKind::Dict;
        std::uint64_t realSize = requested;
        if (hasHistory) {
            m_snapshot.historyBlocks = true;
            if (!unsignedInt(first, "real_size", where + ".history[0]", realSize))
                return false;
        }
        // memory_viz: without 'frames' a missing or zero requested size falls
        // back to the history's real size, else to the block size.
        if (!hasFrames && requested == 0)
            requested = hasHistory ? realSize : b.size;
        b.requestedSize = requested;
        b.realSize = hasHistory ? realSize : requested;
        b.stack =
            hasFrames ? stackOf(dict, where) : (hasHistory ? stackOf(first, where) : SnapshotStackId {});
        (void)seg;
        m_snapshot.blocks.push_back(b);
        return m_error.empty();
    }

    bool SnapshotDecoder::segment(PickleValue dict, const std::string& where)
    {
        if (!expect(dict, PickleKind::Dict, where) || !spend(where))
            return false;
        SnapshotSegment s;
        if (!integer(dict, "device", where, s.device) || !unsignedInt(dict, "address", where, s.address, true)
            || !unsignedInt(dict, "total_size", where, s.totalSize, true)
            || !unsignedInt(dict, "allocated_size", where, s.allocatedSize)
            || !unsignedInt(dict, "active_size", where, s.activeSize)
            || !unsignedInt(dict, "requested_size", where, s.requestedSize)
            || !integer(dict, "stream", where, s.stream))
            return false;
        s.segmentType = text(dict, "segment_type");
        if (const auto e = m_doc.find(dict, "is_expandable"))
            s.isExpandable = m_doc.asBool(*e);
        if (const auto pool = m_doc.find(dict, "segment_pool_id"); pool && m_doc.containerSize(*pool) == 2) {
            s.poolId.first = m_doc.asInt(m_doc.item(*pool, 0)).value_or(0);
            s.poolId.second = m_doc.asInt(m_doc.item(*pool, 1)).value_or(0);
        }
        s.stack = stackOf(dict, where);
        const auto blocks = m_doc.find(dict, "blocks");
        if (!blocks)
            return fail(where, "has no 'blocks'");
        if (!expect(*blocks, PickleKind::List, where + ".blocks"))
            return false;
        s.firstBlock = static_cast<std::uint32_t>(m_snapshot.blocks.size());
        std::uint64_t address = s.address;
        const std::uint32_t n = m_doc.containerSize(*blocks);
        for (std::uint32_t i = 0; i < n; ++i) {
            if (!block(m_doc.item(*blocks, i), s, address, where + ".blocks[" + std::to_string(i) + "]"))
                return false;
            address += m_snapshot.blocks.back().size;
        }
        s.blockCount = n;
        m_snapshot.segments.push_back(std::move(s));
        return true;
    }

    bool SnapshotDecoder::segments(PickleValue list)
    {
        if (!expect(list, PickleKind::List, "segments"))
            return false;
        const std::uint32_t n = m_doc.containerSize(list);
        for (std::uint32_t i = 0; i < n; ++i)
            if (!segment(m_doc.item(list, i), "segments[" + std::to_string(i) + "]"))
                return false;
        return true;
    }

    EntryKey SnapshotDecoder::entryKey(PickleValue key)
    {
        if (key.kind() != PickleKind::String)
            return EntryKey::Other;
        if (m_entryKeys.empty())
            m_entryKeys.assign(m_doc.stringCount(), EntryKey::Unresolved);
        EntryKey& known = m_entryKeys[key.index()];
        if (known == EntryKey::Unresolved)
            known = entryKeyOf(m_doc.asString(key));
        return known;
    }

    bool SnapshotDecoder::entryInteger(const std::optional<PickleValue>& v, std::string_view key,
        const std::string& where, std::int64_t& out, bool required)
    {
        if (!v || v->isNone())
            return !required || fail(where, "has no '" + std::string(key) + "'");
        const auto i = m_doc.asInt(*v);
        if (!i)
            return fail(where + "." + std::string(key),
                std::string("is of type ") + pickleKindName(v->kind()) + ", not int");
        out = *i;
        return true;
    }

    bool SnapshotDecoder::entryUnsigned(const std::optional<PickleValue>& v, std::string_view key,
        const std::string& where, std::uint64_t& out, bool required)
    {
        std::int64_t i = static_cast<std::int64_t>(out);
        if (!entryInteger(v, key, where, i, required))
            return false;
        if (i < 0)
            return fail(where + "." + std::string(key), "is negative (" + std::to_string(i) + ")");
        out = static_cast<std::uint64_t>(i);
        return true;
    }

    // One pass over the entry's pairs (the last of a repeated key wins, as in
    // Python), keys told apart by their string's index: a snapshot spells each
    // key once and refers to it from every entry, so each is compared as text
    // once, not once per entry and field (that lookup was a fifth of opening).
    bool SnapshotDecoder::entry(PickleValue dict, std::vector<TraceEntry>& out, const std::string& where)
    {
        if (!expect(dict, PickleKind::Dict, where) || !spend(where))
            return false;
        std::optional<PickleValue> fields[kEntryKeys];
        const std::uint32_t pairs = m_doc.pairCount(dict);
        for (std::uint32_t p = 0; p < pairs; ++p) {
            const EntryKey key = entryKey(m_doc.key(dict, p));
            if (key != EntryKey::Other)
                fields[static_cast<int>(key)] = m_doc.value(dict, p);
        }
        auto field = [&](EntryKey key) -> const std::optional<PickleValue>& {
            return fields[static_cast<int>(key)];
        };
        TraceEntry e;
        const auto& action = field(EntryKey::Action);
        if (!action || !m_doc.isString(*action))
            return fail(where, "has no 'action' string");
        e.action = actionFromName(m_doc.asString(*action));
        if (e.action == TraceAction::Unknown)
            ++m_snapshot.unknownActions;
        std::int64_t time = kNoTime;
        if (!entryUnsigned(field(EntryKey::Addr), "addr", where, e.addr)
            || !entryUnsigned(field(EntryKey::Size), "size", where, e.size)
            || !entryInteger(field(EntryKey::Stream), "stream", where, e.stream)
            || !entryInteger(field(EntryKey::TimeUs), "time_us", where, time)
            || !entryUnsigned(field(EntryKey::DeviceFree), "device_free", where, e.deviceFree))
            return false;
        e.timeUs = time;
        e.stack = stackOfFrames(field(EntryKey::Frames), where);
        out.push_back(e);
        return m_error.empty();
    }

    bool SnapshotDecoder::traces(PickleValue list)
    {
        if (!expect(list, PickleKind::List, "device_traces"))
            return false;
        m_snapshot.hasDeviceTraces = true;
        const std::uint32_t devices = m_doc.containerSize(list);
        m_snapshot.deviceTraces.resize(devices);
        for (std::uint32_t d = 0; d < devices; ++d) {
            const std::string where = "device_traces[" + std::to_string(d) + "]";
            const PickleValue trace = m_doc.item(list, d);
            if (!expect(trace, PickleKind::List, where) || !spend(where))
                return false;
            const std::uint32_t n = m_doc.containerSize(trace);
            m_snapshot.deviceTraces[d].reserve(n);
            for (std::uint32_t i = 0; i < n; ++i)
                if (!entry(m_doc.item(trace, i), m_snapshot.deviceTraces[d],
                        where + "[" + std::to_string(i) + "]"))
                    return false;
        }
        return true;
    }

    void SnapshotDecoder::annotations(PickleValue list)
    {
        const std::uint32_t n = m_doc.containerSize(list);
        for (std::uint32_t i = 0; i < n && m_budget > 0; ++i, --m_budget) {
            const PickleValue a = m_doc.item(list, i);
            if (a.kind() != PickleKind::Dict)
                continue;
            ExternalAnnotation annotation;
            annotation.stage = text(a, "stage");
            annotation.name = text(a, "name");
            if (const auto d = m_doc.find(a, "device"))
                annotation.device = m_doc.asInt(*d).value_or(0);
            if (const auto t = m_doc.find(a, "time_us"))
                annotation.timeUs = m_doc.asInt(*t).value_or(kNoTime);
            m_snapshot.annotations.push_back(std::move(annotation));
        }
    }

    // A setting's value as text: numbers, strings, and small dicts like
    // roundup_power2_divisions ({1: 0, 2: 0, ...}).
    std::string SnapshotDecoder::describe(PickleValue v, int depth) const
    {
        switch (v.kind()) {
        case PickleKind::None:
            return "None";
        case PickleKind::Bool:
            return m_doc.asBool(v) ? "True" : "False";
        case PickleKind::Int:
            return std::to_string(*m_doc.asInt(v));
        case PickleKind::Float:
            return std::to_string(*m_doc.asNumber(v));
        case PickleKind::String:
        case PickleKind::Bytes:
            return std::string(m_doc.asString(v));
        default:
            break;
        }
        if (depth > 2)
            return "...";
        const bool dict = v.kind() == PickleKind::Dict;
        std::string out = dict ? "{" : "[";
        const std::uint32_t n = dict ? m_doc.pairCount(v) : m_doc.containerSize(v);
        for (std::uint32_t i = 0; i < n && i < 64; ++i) {
            if (i > 0)
                out += ", ";
            out += dict ? describe(m_doc.key(v, i), depth + 1) + ": " + describe(m_doc.value(v, i), depth + 1)
                        : describe(m_doc.item(v, i), depth + 1);
        }
        return out + (dict ? "}" : "]");
    }

    void SnapshotDecoder::settings(PickleValue dict)
    {
        const std::uint32_t n = m_doc.pairCount(dict);
        for (std::uint32_t i = 0; i < n && i < 256; ++i)
            m_snapshot.allocatorSettings.emplace_back(
                describe(m_doc.key(dict, i), 0), describe(m_doc.value(dict, i), 0));
    }

    bool SnapshotDecoder::decode()
    {
        const PickleValue root = m_doc.root();
        if (root.kind() == PickleKind::List) {
            m_snapshot.bareSegmentList = true;
            return segments(root);
        }
        if (root.kind() != PickleKind::Dict)
            return fail("the pickle",
                std::string("holds a value of type ") + pickleKindName(root.kind())
                    + ", not a memory snapshot (a dict with 'segments')");
        const auto segs = m_doc.find(root, "segments");
        if (!segs) {
            std::string keys;
            for (std::uint32_t i = 0; i < m_doc.pairCount(root) && i < 8; ++i)
                keys += (i ? ", " : "") + std::string(m_doc.asString(m_doc.key(root, i)));
            return fail("the pickle",
                "is a dict without 'segments', not a memory snapshot (its keys: "
                    + (keys.empty() ? std::string("none") : keys) + ")");
        }
        if (!segments(*segs))
            return false;
        if (const auto t = m_doc.find(root, "device_traces"); t && !traces(*t))
            return false;
        if (const auto a = m_doc.find(root, "external_annotations"); a && a->kind() == PickleKind::List)
            annotations(*a);
        if (const auto s = m_doc.find(root, "allocator_settings"); s && s->kind() == PickleKind::Dict)
            settings(*s);
        return m_error.empty();
    }

} // namespace

Result<MemorySnapshot> snapshotFromPickle(const PickleDocument& doc, const std::string& path)
{
    SnapshotDecoder decoder(doc, path);
    if (!decoder.decode())
        return Error { ErrorCode::WrongType, decoder.error(), path, std::nullopt };
    return decoder.take();
}

Result<MemorySnapshot> readMemorySnapshot(const std::string& path, const PickleLimits& limits)
{
    auto doc = readPickleFile(path, limits);
    if (!doc)
        return doc.error();
    return snapshotFromPickle(doc.value(), path);
}

} // namespace ks::core
