#pragma once

#include "core/model/args_index.h"
#include "core/model/diagnostics.h"
#include "core/model/event_tables.h"
#include "core/model/kept_args.h"
#include "core/model/rank_metadata.h"
#include "core/model/string_pool.h"
#include "core/model/track.h"

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

// Event phases as counted by the reader.
enum class Phase : std::uint8_t
{
    Complete,
    Begin,
    End,
    Instant,
    Counter,
    FlowStart,
    FlowStep,
    FlowEnd,
    Metadata,
    Other,
    Count_
};
constexpr std::size_t kPhaseCount = static_cast<std::size_t>(Phase::Count_);
std::string_view phaseName(Phase phase); // "X", "B", ...

// What was read, before any modelling: the counts a person can check against
// the file with any JSON tool.
struct ReadCounts
{
    std::uint64_t events = 0;
    std::array<std::uint64_t, kPhaseCount> byPhase {};
    // category text ("" when absent) -> phase -> count
    std::map<std::string, std::array<std::uint64_t, kPhaseCount>, std::less<>> byCategory;
    std::uint64_t jsonBytes = 0; // inflated size
    std::uint64_t fileBytes = 0; // size on disk
    bool gzip = false;
    // How numbers were written, which decides HTA's column types (Q1): a `ts`
    // or `dur` token with a '.' or exponent makes that column float in pandas.
    bool fractionalTimestamps = false;
    bool fractionalDurations = false;
    bool eventWithoutTimestamp = false; // any traceEvents element without ts (pandas: NaN -> float)
    bool eventWithoutDuration =
        false; // any element without dur (metadata, instants, flows): dur is float in pandas
    // Any element with an "args" member (metadata events included): HTA's frame has its parser-argument
    // columns only then (pandas makes a column of a key some element has).
    bool eventWithArgs = false;
};

// One rank's trace, immutable once built and shared read-only across threads.
class RankTrace
{
public:
    std::string path;
    std::int64_t rank = 0;
    RankSource rankSource = RankSource::FileOrder;
    RankMetadata metadata;
    ReadCounts counts;
    Diagnostics diagnostics;

    StringPool strings;
    std::vector<NameId> categories; // category index -> text
    std::vector<Track> tracks; // GPU streams first (by device, stream), then CPU threads
    SliceTable slices;
    ActivityArgs activity;
    ExtraArgs extra;
    KernelLaunchArgs launch;
    ArgsIndex args; // where each event's JSON is in the file: args are re-read, not kept
    KeptArgs keptArgs; // except those the load was asked to keep (LoadOptions::keepArgsOf)
    InstantTable instants;
    MemoryEventTable memory;
    std::vector<CounterSeries> counters;
    LinkTable links;

    TimeNs startNs = 0; // earliest timestamp of any event with a time
    TimeNs endNs = 0; // latest end

    std::string_view name(NameId id) const { return strings.view(id); }

    std::string_view sliceName(std::uint32_t slice) const { return strings.view(slices.name[slice]); }

    std::string_view sliceCategory(std::uint32_t slice) const
    {
        return strings.view(categories[slices.category[slice]]);
    }

    TrackId trackOf(std::uint32_t slice) const;
    std::uint32_t levelOf(std::uint32_t slice) const;

    // Typed args of a slice; defaults when absent.
    std::int64_t correlation(std::uint32_t slice) const;
    std::int64_t stream(std::uint32_t slice) const;
    std::uint32_t extraRow(std::uint32_t slice) const;
    std::uint32_t launchRow(std::uint32_t slice) const; // row of `launch`, or kNoRow

    // Slices of a track intersecting [t0, t1] (closed), level by level, each
    // level in start order. O(levels * log n + k).
    void forEachSliceInRange(
        TrackId track, TimeNs t0, TimeNs t1, const std::function<void(std::uint32_t)>& visit) const;
    std::vector<std::uint32_t> slicesInRange(TrackId track, TimeNs t0, TimeNs t1) const;
    // First slice of one level of a track whose end is >= t; levelEnd if none.
    std::uint32_t firstEndingAtOrAfter(const Track& track, std::uint32_t level, TimeNs t) const;

    // Links touching a slice: rows of `links`. Launch -> GPU work is from -> to.
    std::vector<std::uint32_t> linksFrom(std::uint32_t slice) const;
    std::vector<std::uint32_t> linksTo(std::uint32_t slice) const;

    std::size_t keptEvents() const
    {
        return slices.size() + instants.size() + memory.size() + counterPoints();
    }

    std::size_t counterPoints() const;
    std::size_t bytesUsed() const;
};

} // namespace ks::core
