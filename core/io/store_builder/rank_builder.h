#pragma once

#include "core/common/background_work.h"
#include "core/io/json/raw_event.h"
#include "core/io/load_timeline.h"
#include "core/io/store_builder/flow_points.h"
#include "core/io/store_builder/typed_args.h"
#include "core/model/rank_trace.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
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
    // `helpers`: threads besides the calling one for binding flows (may be none).
    RankTrace finish(const std::vector<BackgroundWork*>& helpers = {});

    // finish() tells the calling thread's lane of `timeline` when it lays out tracks.
    void setTimeline(LoadTimeline* timeline) { m_timeline = timeline; }

    // Keeps the args text of the slices whose names `keep` accepts (asked once per
    // distinct name): see KeptArgs.
    void keepArgsOf(std::function<bool(std::string_view name)> keep) { m_keepArgsOf = std::move(keep); }

    // Slices lasting longer are skipped as corrupted (LoadOptions::maxEventDurationNs); 0: no limit.
    void setMaxEventDuration(std::int64_t ns) { m_maxEventDurationNs = ns; }

    // A slice's typed activity args until the slice is pushed (a B's until its E).
    struct StagedActivity
    {
        bool present = false;
        std::int64_t correlation = -1;
        std::int64_t stream = -1;
        std::uint32_t extraRow = kNoRow; // its ExtraArgs row, already appended
        std::uint32_t launchRow = kNoRow; // its KernelLaunchArgs row, already appended
    };

    struct OpenBegin
    {
        SliceRow row; // duration and flags unset
        StagedActivity activity;
    };

    struct StagingTrack
    {
        ThreadKey key;
        bool device = false; // holds device activity (kernels, copies, syncs)
        std::vector<OpenBegin> openBegins; // B events waiting for their E
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
    std::uint32_t memoryThreadRow(const ThreadKey& key); // row of MemoryEventTable::threads
    void addCounter(const RawEvent& e);
    void addFlow(const RawEvent& e);
    void addMetadata(const RawEvent& e);
    bool timesInRange(const RawEvent& e);
    bool requireTimedFields(const RawEvent& e);
    bool durationBelievable(const RawEvent& e, std::int64_t durationNs);
    void noteRewrites(const RawEvent& e);
    void noteTime(std::int64_t t);
    std::uint32_t stagingTrackFor(const RawEvent& e);
    std::uint16_t categoryIndex(std::string_view category);
    StagedActivity stageActivity(const RawEvent& e);
    // A slice's row from an X or B event: every field but duration and flags.
    SliceRow openRow(const RawEvent& e);
    bool keepsArgsOf(NameId name);
    void pushSlice(const SliceRow& row, std::uint32_t stagingTrack, const StagedActivity& activity);
    void closeOpenBegins();
    void storeActivityInSliceOrder(const std::vector<std::uint32_t>& order);
    std::string describe(const RawEvent& e) const;

    RankTrace m_trace;
    std::vector<StagingTrack> m_tracks;

    std::unordered_map<ThreadKey, std::uint32_t, ThreadKeyHash> m_trackIndex;
    // The last event's thread and its track: a thread's events come in runs.
    ThreadKey m_lastKey;
    std::uint32_t m_lastTrack = kNoRow;
    std::vector<std::uint32_t> m_categoryByName; // NameId -> category index + 1 (0: none yet)
    std::vector<bool> m_deviceCategory; // by category index

    // Staging slices, in file order; `track` is the staging track.
    std::vector<std::uint32_t> m_sliceTrack;
    // Typed args in staging order while loading (a row for each slice with a bit
    // set, in slice order); finish() stores them in the final slice order (ActivityArgs).
    RowBitmap m_sliceHasActivity;
    CompactInt64Column m_activityCorrelation;
    CompactInt64Column m_activityStream;
    std::vector<std::uint32_t> m_activityExtra; // ExtraArgs row, or kNoRow
    std::vector<std::uint32_t> m_activityLaunch; // KernelLaunchArgs row, or kNoRow
    FlowPoints m_flows;
    std::unordered_map<std::string, std::uint32_t> m_counterIndex; // "pid/name/key" -> series
    std::vector<std::array<std::uint64_t, kPhaseCount>> m_categoryCounts; // by category index
    ThreadNames m_names;
    LoadTimeline* m_timeline = nullptr;
    std::function<bool(std::string_view)> m_keepArgsOf;
    std::vector<std::int8_t> m_keepArgsByName; // by name id: -1 not asked yet, 0 no, 1 yes
    std::map<std::tuple<std::int64_t, std::int64_t, bool, bool>, std::uint32_t> m_memoryThreadRows;
    std::uint32_t m_lastMemoryThread = 0;
    std::int64_t m_maxEventDurationNs = 0;
    std::int64_t m_minTime = 0;
    std::int64_t m_maxTime = 0;
    bool m_anyTime = false;
};

} // namespace ks::core
