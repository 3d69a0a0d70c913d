#pragma once

#include "core/io/raw_event.h"
#include "core/io/typed_args.h"
#include "core/model/rank_trace.h"

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ks::core {

// Builds a RankTrace from events in file order: add() stages each event by
// phase; finish() sorts slices into tracks and levels and resolves links.
class RankBuilder
{
public:
    explicit RankBuilder(std::string path);

    // Reserves columns for about `events` events: growth by doubling would copy
    // and page-fault the columns several times on a multi-GB rank. Reserving
    // only takes address space; untouched pages cost no memory.
    void reserveFor(std::uint64_t events);
    void add(const RawEvent& event);

    void setMetadata(RankMetadata metadata) { m_trace.metadata = std::move(metadata); }

    void setReadCounts(std::uint64_t jsonBytes, std::uint64_t fileBytes, bool gzip);
    RankTrace finish();

    // A flow point waiting for its slice.
    struct FlowPoint
    {
        std::int64_t id = 0;
        std::uint32_t idName = 0xFFFFFFFFu; // NameId value when the id is a string
        std::uint32_t category = 0; // NameId value
        std::uint32_t stagingTrack = 0;
        std::int64_t ts = 0;
        std::uint32_t eventIndex = 0;
        char phase = 's';
        bool enclosing = false;
    };

    struct StagingTrack
    {
        ThreadKey key;
        bool device = false; // holds device activity (kernels, copies, syncs)
        std::vector<SliceRow> openBegins; // B events waiting for their E (duration and flags unset)
    };

    struct ThreadKeyHash
    {
        std::size_t operator()(const ThreadKey& k) const noexcept
        {
            const auto mix = static_cast<std::uint64_t>(k.pid) * 0x9E3779B97F4A7C15ull
                ^ static_cast<std::uint64_t>(k.tid) ^ (static_cast<std::uint64_t>(k.pidIsName) << 62)
                ^ (static_cast<std::uint64_t>(k.tidIsName) << 63);
            return std::hash<std::uint64_t> {}(mix);
        }
    };

    // Names and sort indexes from metadata events; for a thread named twice the
    // last name wins (as in Chrome's viewer). Maps, not lists: real traces repeat
    // thread_name tens of thousands of times on one thread.
    struct ThreadNames
    {
        std::unordered_map<std::int64_t, std::string> processNames;
        std::unordered_map<std::int64_t, std::int64_t> processSort;
        std::unordered_map<std::int64_t, std::string> processLabels;
        std::unordered_map<ThreadKey, std::string, ThreadKeyHash> threadNames;
        std::unordered_map<ThreadKey, std::int64_t, ThreadKeyHash> threadSort;
        // Keys already counted as named differently: one duplicate-metadata per key.
        std::unordered_set<ThreadKey, ThreadKeyHash> threadConflictCounted;
        std::unordered_set<std::int64_t> processConflictCounted;
    };

private:
    void countEvent(const RawEvent& e);
    void addComplete(const RawEvent& e);
    void addBegin(const RawEvent& e);
    void addEnd(const RawEvent& e);
    void addInstant(const RawEvent& e);
    void addMemoryInstant(const RawEvent& e);
    void addCounter(const RawEvent& e);
    void addFlow(const RawEvent& e);
    void addMetadata(const RawEvent& e);
    bool timesInRange(const RawEvent& e);
    bool requireTimedFields(const RawEvent& e);
    void noteTime(std::int64_t t);
    std::uint32_t stagingTrackFor(const RawEvent& e);
    std::uint16_t categoryIndex(std::string_view category);
    std::uint32_t addActivity(const TypedArgs& a);
    // A slice's row from an X or B event: every field but duration and flags.
    SliceRow openRow(const RawEvent& e);
    void pushSlice(const SliceRow& row, std::uint32_t stagingTrack);
    void closeOpenBegins();
    void storeActivityInSliceOrder();
    std::string describe(const RawEvent& e) const;

    RankTrace m_trace;
    std::vector<StagingTrack> m_tracks;

    std::unordered_map<ThreadKey, std::uint32_t, ThreadKeyHash> m_trackIndex;
    std::unordered_map<std::uint32_t, std::uint16_t> m_categoryIndex; // NameId -> category index
    std::vector<bool> m_deviceCategory; // by category index

    // Staging slices, in file order; `track` is the staging track.
    std::vector<std::uint32_t> m_sliceTrack;
    // Typed args in file order while loading; finish() stores them in slice order (ActivityArgs).
    std::vector<std::uint32_t> m_sliceActivity; // staged activity row per slice, or kNoRow
    CompactInt64Column m_activityCorrelation;
    CompactInt64Column m_activityStream;
    std::vector<std::uint32_t> m_activityExtra; // ExtraArgs row, or kNoRow
    std::vector<FlowPoint> m_flows;
    std::unordered_map<std::string, std::uint32_t> m_counterIndex; // "pid/name/key" -> series
    std::vector<std::array<std::uint64_t, kPhaseCount>> m_categoryCounts; // by category index
    ThreadNames m_names;
    std::int64_t m_minTime = 0;
    std::int64_t m_maxTime = 0;
    bool m_anyTime = false;
};

} // namespace ks::core
