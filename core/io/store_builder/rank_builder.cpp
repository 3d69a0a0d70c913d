#include "core/io/store_builder/rank_builder.h"

#include "core/io/store_builder/flow_binding.h"
#include "core/io/store_builder/rank_layout.h"
#include "core/io/store_builder/rpc_links.h"
#include "core/io/store_builder/time_range.h"
#include "core/io/store_builder/typed_args.h"
#include "core/model/store_bytes.h"

#include <algorithm>
#include <limits>

namespace ks::core {

namespace {

    Phase phaseOf(char ph)
    {
        switch (ph) {
        case 'X':
            return Phase::Complete;
        case 'B':
            return Phase::Begin;
        case 'E':
            return Phase::End;
        case 'i':
        case 'I':
            return Phase::Instant;
        case 'C':
            return Phase::Counter;
        case 's':
            return Phase::FlowStart;
        case 't':
            return Phase::FlowStep;
        case 'f':
            return Phase::FlowEnd;
        case 'M':
            return Phase::Metadata;
        default:
            return Phase::Other;
        }
    }

    // Categories whose slices are device activity: they make a track a GPU track.
    bool isDeviceCategory(std::string_view c)
    {
        return c == "kernel" || c == "Kernel" || c == "gpu_memcpy" || c == "Memcpy" || c == "gpu_memset"
            || c == "Memset" || c == "cuda_sync" || c == "gpu_user_annotation" || c == "mtia_ccp_events";
    }

} // namespace

RankBuilder::RankBuilder(std::string path)
{
    m_trace.path = std::move(path);
    categoryIndex({}); // index 0: events without a category
}

void RankBuilder::reserveFor(std::uint64_t events)
{
    // Kineto: about 2/3 of events are slices, 1/3 flows, 45 % of slices carry a stream or correlation.
    const auto slices = static_cast<std::size_t>(events * 7 / 10);
    m_trace.slices.reserve(slices);
    m_sliceTrack.reserve(slices);
    const std::size_t activity = slices / 2;
    m_sliceHasActivity.reserve(slices);
    m_activityCorrelation.reserve(activity);
    m_activityStream.reserve(activity);
    m_activityExtra.reserve(activity);
    m_activityLaunch.reserve(activity);
    m_flows.reserve(static_cast<std::size_t>(events * 4 / 10));
}

void RankBuilder::setReadCounts(std::uint64_t jsonBytes, std::uint64_t fileBytes, bool gzip)
{
    m_trace.counts.jsonBytes = jsonBytes;
    m_trace.counts.fileBytes = fileBytes;
    m_trace.counts.gzip = gzip;
}

std::string RankBuilder::describe(const RawEvent& e) const
{
    std::string s = "event #" + std::to_string(e.eventIndex);
    if (e.phase)
        s += std::string(" ph=") + e.phase;
    if (e.hasName)
        s += " name=\"" + std::string(e.name.substr(0, 120)) + "\"";
    if (e.tsNs)
        s += " ts=" + std::to_string(*e.tsNs) + "ns";
    return s;
}

std::uint16_t RankBuilder::categoryIndex(std::string_view category)
{
    const NameId id = m_trace.strings.intern(category);
    if (id.value < m_categoryByName.size() && m_categoryByName[id.value] != 0)
        return static_cast<std::uint16_t>(m_categoryByName[id.value] - 1);
    const auto index = static_cast<std::uint16_t>(m_trace.categories.size());
    m_trace.categories.push_back(id);
    if (id.value >= m_categoryByName.size())
        m_categoryByName.resize(id.value + 1, 0);
    m_categoryByName[id.value] = std::uint32_t { index } + 1;
    m_deviceCategory.push_back(isDeviceCategory(category));
    m_categoryCounts.emplace_back();
    return index;
}

std::uint32_t RankBuilder::stagingTrackFor(const RawEvent& e)
{
    ThreadKey key = e.key;
    if (key.pidIsName)
        key.pid = m_trace.strings.intern(e.pidText).value;
    if (key.tidIsName)
        key.tid = m_trace.strings.intern(e.tidText).value;
    if (m_lastTrack != kNoRow && key == m_lastKey)
        return m_lastTrack;
    m_lastKey = key;
    if (auto it = m_trackIndex.find(key); it != m_trackIndex.end())
        return m_lastTrack = it->second;
    const auto index = static_cast<std::uint32_t>(m_tracks.size());
    m_tracks.push_back(StagingTrack { key, false, {} });
    m_trackIndex.emplace(key, index);
    return m_lastTrack = index;
}

void RankBuilder::noteTime(std::int64_t t)
{
    if (!m_anyTime) {
        m_minTime = m_maxTime = t;
        m_anyTime = true;
        return;
    }
    m_minTime = std::min(m_minTime, t);
    m_maxTime = std::max(m_maxTime, t);
}

void RankBuilder::countEvent(const RawEvent& e)
{
    const Phase phase = phaseOf(e.phase);
    ++m_trace.counts.events;
    ++m_trace.counts.byPhase[static_cast<std::size_t>(phase)];
    const std::uint16_t cat = e.hasCategory ? categoryIndex(e.category) : 0;
    ++m_categoryCounts[cat][static_cast<std::size_t>(phase)];
}

void RankBuilder::add(const RawEvent& e)
{
    m_trace.args.noteElement(e.eventIndex, e.jsonOffset);
    countEvent(e);
    ReadCounts& counts = m_trace.counts;
    counts.fractionalTimestamps = counts.fractionalTimestamps || e.tsFractional;
    counts.fractionalDurations = counts.fractionalDurations || e.durFractional;
    counts.eventWithoutTimestamp = counts.eventWithoutTimestamp || !e.tsNs;
    counts.eventWithoutDuration = counts.eventWithoutDuration || !e.durNs;
    counts.eventWithArgs = counts.eventWithArgs || e.hasArgs || e.wrongTypeField == "args";
    if (!e.wrongTypeField.empty())
        m_trace.diagnostics.add(DiagnosticKind::WrongFieldType,
            "field '" + std::string(e.wrongTypeField) + "' has the wrong type in " + describe(e),
            static_cast<std::int64_t>(e.eventIndex));
    if (e.invalidUtf8Bytes + e.controlCharacters + e.largeIntegers > 0)
        noteRewrites(e);
    if (!timesInRange(e))
        return;
    if (e.phase == 0) {
        if (!e.wrongTypeField.empty())
            return; // already counted: the element is not an event object, or ph has the wrong type
        m_trace.diagnostics.add(DiagnosticKind::MissingField, "no 'ph' in " + describe(e),
            static_cast<std::int64_t>(e.eventIndex));
        return;
    }
    switch (phaseOf(e.phase)) {
    case Phase::Complete:
        addComplete(e);
        break;
    case Phase::Begin:
        addBegin(e);
        break;
    case Phase::End:
        addEnd(e);
        break;
    case Phase::Instant:
        if (e.name == "[memory]")
            addMemoryInstant(e);
        else
            addInstant(e);
        break;
    case Phase::Counter:
        addCounter(e);
        break;
    case Phase::FlowStart:
    case Phase::FlowStep:
    case Phase::FlowEnd:
        addFlow(e);
        break;
    case Phase::Metadata:
        addMetadata(e);
        break;
    case Phase::Other:
    case Phase::Count_:
        m_trace.diagnostics.add(
            DiagnosticKind::UnknownPhase, describe(e), static_cast<std::int64_t>(e.eventIndex));
        break;
    }
}

// What the parser read specially in this event (raw_event.h): one count per event.
void RankBuilder::noteRewrites(const RawEvent& e)
{
    const auto index = static_cast<std::int64_t>(e.eventIndex);
    if (e.invalidUtf8Bytes > 0)
        m_trace.diagnostics.add(DiagnosticKind::InvalidUtf8,
            std::to_string(e.invalidUtf8Bytes) + " byte(s) not UTF-8, read as '?', in " + describe(e), index);
    if (e.controlCharacters > 0)
        m_trace.diagnostics.add(DiagnosticKind::ControlCharacter,
            std::to_string(e.controlCharacters) + " unescaped control character(s), read as spaces, in "
                + describe(e),
            index);
    if (e.largeIntegers > 0)
        m_trace.diagnostics.add(DiagnosticKind::LargeInteger,
            "'" + std::string(e.largeIntegerField) + "' above 2^63 - 1 in " + describe(e), index);
}

bool RankBuilder::timesInRange(const RawEvent& e)
{
    const bool inRange = !e.timeOutOfRange && (!e.tsNs || sliceInRange(*e.tsNs, e.durNs.value_or(0)))
        && (!e.durNs || timeInRange(*e.durNs));
    if (!inRange)
        m_trace.diagnostics.add(DiagnosticKind::TimestampOutOfRange,
            describe(e) + ": ts, dur or ts + dur beyond ±2^62 ns (event skipped)",
            static_cast<std::int64_t>(e.eventIndex));
    return inRange;
}

// Corrupted CUPTI timestamps give kernels lasting years (HTA PR #325): longer than
// the limit, a slice is skipped and counted, so it stretches neither the trace nor
// any breakdown.
bool RankBuilder::durationBelievable(const RawEvent& e, std::int64_t durationNs)
{
    if (m_maxEventDurationNs <= 0 || durationNs <= m_maxEventDurationNs)
        return true;
    m_trace.diagnostics.add(DiagnosticKind::CorruptDuration,
        describe(e) + " lasts " + std::to_string(durationNs / 1000) + " us, more than the "
            + std::to_string(m_maxEventDurationNs / 1000) + " us believed (event skipped)",
        static_cast<std::int64_t>(e.eventIndex));
    return false;
}

bool RankBuilder::requireTimedFields(const RawEvent& e)
{
    const char* missing = !e.tsNs ? "ts" : !e.hasPid ? "pid" : !e.hasTid ? "tid" : nullptr;
    if (!missing)
        return true;
    m_trace.diagnostics.add(DiagnosticKind::MissingField,
        std::string("no '") + missing + "' in " + describe(e) + " (event skipped)",
        static_cast<std::int64_t>(e.eventIndex));
    return false;
}

RankBuilder::StagedActivity RankBuilder::stageActivity(const RawEvent& e)
{
    StagedActivity staged;
    const TypedArgs& a = e.typed;
    if (!e.hasArgs || !a.hasActivity())
        return staged;
    staged.present = true;
    staged.correlation = a.correlation.value_or(-1);
    staged.stream = a.stream.value_or(-1);
    if (a.hasLaunch()) {
        KernelLaunchArgs& k = m_trace.launch;
        staged.launchRow = static_cast<std::uint32_t>(k.size());
        constexpr double kAbsent = std::numeric_limits<double>::quiet_NaN();
        k.blocksPerSm.push_back(a.blocksPerSm.value_or(kAbsent));
        k.warpsPerSm.push_back(a.warpsPerSm.value_or(kAbsent));
        k.occupancyPct.push_back(a.occupancyPct.value_or(kAbsent));
        k.grid.push_back(a.grid.value_or(LaunchDims {}));
        k.block.push_back(a.block.value_or(LaunchDims {}));
    }
    if (!a.hasExtra())
        return staged;
    ExtraArgs& x = m_trace.extra;
    staged.extraRow = static_cast<std::uint32_t>(x.size());
    auto i32 = [](std::optional<std::int64_t> v) { return static_cast<std::int32_t>(v.value_or(-1)); };
    auto name = [this](const std::optional<std::string>& v) {
        return v ? m_trace.strings.intern(*v) : NameId { 0 };
    };
    x.bytes.push_back(a.bytes.value_or(-1));
    x.memoryBandwidthGBps.push_back(a.memoryBandwidthGBps.value_or(0.0));
    x.device.push_back(i32(a.device));
    x.waitOnStream.push_back(i32(a.waitOnStream));
    x.waitOnEventRecordCorrelation.push_back(a.waitOnEventRecordCorrelation.value_or(-1));
    x.collectiveName.push_back(name(a.collectiveName));
    x.inMsgNelems.push_back(a.inMsgNelems.value_or(0));
    x.outMsgNelems.push_back(a.outMsgNelems.value_or(0));
    x.dtype.push_back(name(a.dtype));
    x.groupSize.push_back(a.groupSize.value_or(0));
    x.processRank.push_back(a.processRank.value_or(-1));
    x.processGroupName.push_back(name(a.processGroupName));
    x.sequenceNumber.push_back(a.sequenceNumber.value_or(-1));
    x.processGroupRanks.push_back(name(a.processGroupRanks));
    x.processGroupDescription.push_back(name(a.processGroupDescription));
    return staged;
}

void RankBuilder::pushSlice(const SliceRow& row, std::uint32_t track, const StagedActivity& activity)
{
    m_trace.slices.push(row);
    m_sliceHasActivity.push(activity.present);
    if (activity.present) {
        m_activityCorrelation.push(activity.correlation);
        m_activityStream.push(activity.stream);
        m_activityExtra.push_back(activity.extraRow);
        m_activityLaunch.push_back(activity.launchRow);
    }
    m_sliceTrack.push_back(track);
    if (m_deviceCategory[row.category])
        m_tracks[track].device = true;
    // No overflow: add() kept only events with start and start + dur in range
    // (time_range.h), and B/E pairs end at their E's timestamp.
    noteTime(row.start);
    noteTime(row.start + row.duration);
}

void RankBuilder::addComplete(const RawEvent& e)
{
    if (!requireTimedFields(e))
        return;
    std::int64_t dur = 0;
    std::uint8_t flags = 0;
    if (!e.durNs) {
        m_trace.diagnostics.add(DiagnosticKind::MissingField, "no 'dur' in " + describe(e) + " (duration 0)",
            static_cast<std::int64_t>(e.eventIndex));
        flags |= kSliceMissingDuration;
    } else if (*e.durNs < 0) {
        // Sub-µs events whose producer rounded start and end apart (HTA PR #342) among them.
        m_trace.diagnostics.add(DiagnosticKind::NegativeDuration,
            describe(e) + " dur=" + std::to_string(*e.durNs) + "ns", static_cast<std::int64_t>(e.eventIndex));
        flags |= kSliceNegativeDuration;
    } else if (!durationBelievable(e, *e.durNs)) {
        return;
    } else {
        dur = *e.durNs;
    }
    const std::uint32_t track = stagingTrackFor(e);
    SliceRow row = openRow(e);
    row.duration = dur;
    row.flags |= flags;
    pushSlice(row, track, stageActivity(e));
}

void RankBuilder::addBegin(const RawEvent& e)
{
    if (!requireTimedFields(e))
        return;
    const std::uint32_t track = stagingTrackFor(e);
    m_tracks[track].openBegins.push_back({ openRow(e), stageActivity(e) });
}

SliceRow RankBuilder::openRow(const RawEvent& e)
{
    SliceRow row;
    row.start = *e.tsNs;
    row.name = m_trace.strings.intern(e.name);
    row.category = e.hasCategory ? categoryIndex(e.category) : 0;
    row.eventIndex = static_cast<std::uint32_t>(e.eventIndex);
    row.flags = e.hasArgs ? kSliceHasArgs : 0; // the text is re-read from the file when asked for
    if (m_keepArgsOf && e.hasArgs && keepsArgsOf(row.name))
        m_trace.keptArgs.add(row.eventIndex, e.argsText);
    return row;
}

bool RankBuilder::keepsArgsOf(NameId name)
{
    if (name.value >= m_keepArgsByName.size())
        m_keepArgsByName.resize(name.value + 1, -1);
    std::int8_t& keep = m_keepArgsByName[name.value];
    if (keep < 0)
        keep = m_keepArgsOf(m_trace.strings.view(name)) ? 1 : 0;
    return keep == 1;
}

void RankBuilder::addEnd(const RawEvent& e)
{
    if (!requireTimedFields(e))
        return;
    const std::uint32_t track = stagingTrackFor(e);
    auto& open = m_tracks[track].openBegins;
    if (open.empty()) {
        m_trace.diagnostics.add(
            DiagnosticKind::UnmatchedEnd, describe(e), static_cast<std::int64_t>(e.eventIndex));
        return;
    }
    const OpenBegin begin = open.back();
    open.pop_back();
    SliceRow row = begin.row;
    row.duration = *e.tsNs - row.start; // both in range (time_range.h): the difference fits
    row.flags |= kSliceFromBeginEnd;
    if (!durationBelievable(e, row.duration))
        return;
    if (row.duration < 0) {
        m_trace.diagnostics.add(
            DiagnosticKind::NegativeDuration, describe(e), static_cast<std::int64_t>(e.eventIndex));
        row.duration = 0;
        row.flags |= kSliceNegativeDuration;
    }
    pushSlice(row, track, begin.activity);
}

void RankBuilder::closeOpenBegins()
{
    for (std::uint32_t t = 0; t < m_tracks.size(); ++t) {
        auto& open = m_tracks[t].openBegins;
        for (const OpenBegin& begin : open) {
            SliceRow row = begin.row;
            m_trace.diagnostics.add(DiagnosticKind::UnmatchedBegin,
                "event #" + std::to_string(row.eventIndex) + " name=\""
                    + std::string(m_trace.strings.view(row.name)) + "\"",
                row.eventIndex);
            row.duration = std::max<std::int64_t>(0, m_maxTime - row.start);
            row.flags |= kSliceFromBeginEnd | kSliceUnclosed;
            pushSlice(row, t, begin.activity);
        }
        open.clear();
        open.shrink_to_fit();
    }
}

void RankBuilder::addInstant(const RawEvent& e)
{
    if (!e.tsNs) {
        m_trace.diagnostics.add(DiagnosticKind::MissingField, "no 'ts' in " + describe(e),
            static_cast<std::int64_t>(e.eventIndex));
        return;
    }
    InstantTable& in = m_trace.instants;
    in.ts.push_back(*e.tsNs);
    in.name.push_back(m_trace.strings.intern(e.name));
    in.category.push_back(e.hasCategory ? categoryIndex(e.category) : 0);
    const bool threadScoped = (e.scope == 0 || e.scope == 't') && e.hasPid && e.hasTid;
    in.track.push_back(threadScoped ? stagingTrackFor(e) : kNoRow);
    in.eventIndex.push_back(static_cast<std::uint32_t>(e.eventIndex));
    noteTime(*e.tsNs);
}

void RankBuilder::addMemoryInstant(const RawEvent& e)
{
    if (!e.tsNs) {
        m_trace.diagnostics.add(DiagnosticKind::MissingField, "no 'ts' in " + describe(e),
            static_cast<std::int64_t>(e.eventIndex));
        return;
    }
    std::int64_t bytes = 0, allocated = -1, reserved = -1, addr = 0, deviceId = -1, deviceType = -1,
                 evIdx = -1;
    std::uint8_t flags = 0;
    forEachMember(e.argsText, [&](std::string_view key, std::string_view value) {
        if (key == "Bytes")
            bytes = tokenToInt(value).value_or(0);
        else if (key == "Total Allocated")
            allocated = tokenToInt(value).value_or(-1);
        else if (key == "Total Reserved")
            reserved = tokenToInt(value).value_or(-1);
        else if (key == "Addr") {
            const auto a = tokenToInt(value);
            addr = a.value_or(0);
            flags = a ? (flags | kMemoryHasAddr) : (flags & ~kMemoryHasAddr);
        } else if (key == "Device Id")
            deviceId = tokenToInt(value).value_or(-1);
        else if (key == "Device Type")
            deviceType = tokenToInt(value).value_or(-1);
        else if (key == "Ev Idx")
            evIdx = tokenToInt(value).value_or(-1);
    });
    if (e.hasCategory) {
        flags |= kMemoryHasCategory;
        if (e.category == "cpu_instant_event")
            flags |= kMemoryCpuInstantCategory;
    }
    MemoryEventTable& m = m_trace.memory;
    m.ts.push_back(*e.tsNs);
    m.bytes.push(bytes);
    m.totalAllocated.push_back(allocated);
    m.totalReserved.push_back(reserved);
    m.addr.push_back(addr);
    m.deviceId.push_back(static_cast<std::int32_t>(deviceId));
    m.deviceType.push_back(static_cast<std::int32_t>(deviceType));
    m.thread.push_back(memoryThreadRow(e.key));
    m.evIdx.push(evIdx);
    m.flags.push_back(flags);
    m.eventIndex.push_back(static_cast<std::uint32_t>(e.eventIndex));
    noteTime(*e.tsNs);
}

std::uint32_t RankBuilder::memoryThreadRow(const ThreadKey& key)
{
    std::vector<ThreadKey>& threads = m_trace.memory.threads;
    if (m_lastMemoryThread < threads.size() && threads[m_lastMemoryThread] == key)
        return m_lastMemoryThread; // few threads allocate: nearly every event is the last one's
    const auto [it, added] =
        m_memoryThreadRows.try_emplace(std::tuple { key.pid, key.tid, key.pidIsName, key.tidIsName },
            static_cast<std::uint32_t>(threads.size()));
    if (added)
        threads.push_back(key);
    m_lastMemoryThread = it->second;
    return m_lastMemoryThread;
}

void RankBuilder::addCounter(const RawEvent& e)
{
    if (!e.tsNs || !e.hasArgs) {
        m_trace.diagnostics.add(DiagnosticKind::MissingField,
            std::string("no '") + (e.tsNs ? "args" : "ts") + "' in counter " + describe(e),
            static_cast<std::int64_t>(e.eventIndex));
        return;
    }
    const std::string prefix =
        (e.hasPid ? (e.key.pidIsName ? std::string(e.pidText) : std::to_string(e.key.pid)) : std::string())
        + '\x1f' + std::string(e.name) + '\x1f';
    for (const auto& [key, value] : numericMembers(e.argsText)) {
        const std::string id = prefix + key;
        auto it = m_counterIndex.find(id);
        if (it == m_counterIndex.end()) {
            CounterSeries series;
            series.pidIsName = e.key.pidIsName;
            series.pid = e.key.pidIsName ? m_trace.strings.intern(e.pidText).value : e.key.pid;
            series.name = m_trace.strings.intern(e.name);
            series.key = m_trace.strings.intern(key);
            it = m_counterIndex.emplace(id, static_cast<std::uint32_t>(m_trace.counters.size())).first;
            m_trace.counters.push_back(std::move(series));
        }
        CounterSeries& s = m_trace.counters[it->second];
        s.ts.push_back(*e.tsNs);
        s.value.push_back(value);
    }
    noteTime(*e.tsNs);
}

void RankBuilder::addFlow(const RawEvent& e)
{
    if (!e.tsNs || !e.hasPid || !e.hasTid || !e.hasId) {
        m_trace.diagnostics.add(
            e.phase == 'f' ? DiagnosticKind::OrphanFlowEnd : DiagnosticKind::OrphanFlowStart,
            "flow without ts, pid, tid or id: " + describe(e), static_cast<std::int64_t>(e.eventIndex));
        return;
    }
    FlowPoint p;
    p.id = e.idIsString ? static_cast<std::int64_t>(m_trace.strings.intern(e.idText).value) : e.idValue;
    p.ts = *e.tsNs;
    p.eventIndex = static_cast<std::uint32_t>(e.eventIndex);
    p.stagingTrack = stagingTrackFor(e);
    m_flows.add(m_trace.strings.intern(e.category), e.idIsString, e.phase, p);
}

void RankBuilder::addMetadata(const RawEvent& e)
{
    if (!e.hasArgs || !e.hasPid)
        return;
    ThreadKey key = e.key;
    if (key.pidIsName)
        key.pid = m_trace.strings.intern(e.pidText).value;
    if (key.tidIsName)
        key.tid = m_trace.strings.intern(e.tidText).value;
    std::optional<std::string> nameArg;
    std::optional<std::int64_t> sortArg;
    forEachMember(e.argsText, [&](std::string_view k, std::string_view v) {
        if (k == "name" || k == "labels")
            nameArg = tokenToString(v);
        else if (k == "sort_index")
            sortArg = tokenToInt(v);
    });
    // One duplicate-metadata per process or thread named differently, however
    // often: real traces repeat thread_name on one thread tens of thousands of times.
    auto noteConflict = [&](bool firstOfKey) {
        if (firstOfKey)
            m_trace.diagnostics.add(
                DiagnosticKind::DuplicateMetadata, describe(e), static_cast<std::int64_t>(e.eventIndex));
    };
    if (e.name == "process_name" && nameArg) {
        auto [it, inserted] = m_names.processNames.emplace(key.pid, *nameArg);
        if (!inserted && it->second != *nameArg)
            noteConflict(m_names.processConflictCounted.insert(key.pid).second);
    } else if (e.name == "process_labels" && nameArg) {
        m_names.processLabels[key.pid] = *nameArg;
    } else if (e.name == "process_sort_index" && sortArg) {
        m_names.processSort[key.pid] = *sortArg;
    } else if (e.name == "thread_name" && nameArg && e.hasTid) {
        auto [it, inserted] = m_names.threadNames.try_emplace(key, *nameArg);
        if (!inserted && it->second != *nameArg) {
            noteConflict(m_names.threadConflictCounted.insert(key).second);
            it->second = *nameArg; // the last name wins
        }
    } else if (e.name == "thread_sort_index" && sortArg && e.hasTid) {
        m_names.threadSort[key] = *sortArg;
    }
}

// The staged typed args, referenced by slice, become rows in slice order found
// through a bitmap: no 4-byte reference per slice, and 32-bit ids (exact).
void RankBuilder::storeActivityInSliceOrder(const std::vector<std::uint32_t>& order)
{
    ActivityArgs& act = m_trace.activity;
    const std::size_t rows = m_activityCorrelation.size();
    act.ofSlice.reserve(order.size());
    act.correlation.reserve(rows);
    act.stream.reserve(rows);
    act.extra.reserve(rows);
    act.launch.reserve(rows);
    std::vector<std::uint32_t> extraOrder;
    std::vector<std::uint32_t> launchOrder;
    launchOrder.reserve(m_trace.launch.size());
    for (const std::uint32_t staged : order) {
        const bool has = m_sliceHasActivity.has(staged);
        act.ofSlice.push(has);
        if (!has)
            continue;
        const std::uint32_t ref = m_sliceHasActivity.rank(staged);
        act.correlation.push(m_activityCorrelation[ref]);
        act.stream.push(m_activityStream[ref]);
        act.extra.push(m_activityExtra[ref] != kNoRow);
        if (m_activityExtra[ref] != kNoRow)
            extraOrder.push_back(m_activityExtra[ref]);
        act.launch.push(m_activityLaunch[ref] != kNoRow);
        if (m_activityLaunch[ref] != kNoRow)
            launchOrder.push_back(m_activityLaunch[ref]);
    }
    m_trace.extra.permute(extraOrder);
    m_trace.launch.permute(launchOrder);
    m_sliceHasActivity = {};
    m_activityExtra = {};
    m_activityLaunch = {};
    m_activityCorrelation = {};
    m_activityStream = {};
}

RankTrace RankBuilder::finish(const std::vector<BackgroundWork*>& helpers)
{
    closeOpenBegins();
    for (std::size_t c = 0; c < m_categoryCounts.size(); ++c) {
        auto& slot = m_trace.counts.byCategory[std::string(m_trace.strings.view(m_trace.categories[c]))];
        for (std::size_t p = 0; p < kPhaseCount; ++p)
            slot[p] += m_categoryCounts[c][p];
    }
    m_trace.startNs = m_anyTime ? m_minTime : 0;
    m_trace.endNs = m_anyTime ? m_maxTime : 0;

    pairFlows(m_trace, m_flows, helpers);
    LayoutInput input { m_tracks, m_sliceTrack, m_names };
    input.helpers = helpers;
    {
        const StageScope layout(m_timeline, LoadLane::Calling, LoadStage::Layout);
        layoutTracks(m_trace, input);
    }
    storeActivityInSliceOrder(input.order);
    resolveFlows(m_trace, m_flows, input);
    permuteSlices(m_trace, input);
    linkRpcCalls(m_trace);
    linkByCorrelation(m_trace);
    finalizeLinks(m_trace);
    m_trace.args.finish();
    shrinkToFit(m_trace); // capacity reserved from the size estimate, or grown by doubling
    return std::move(m_trace);
}

} // namespace ks::core
