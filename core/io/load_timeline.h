#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace ks::core {

// What a thread of one load is doing. Parse includes appending the rows to the
// builder's columns (the parser hands each event over as it reads it); Build is
// the store's finishing (flows paired and bound, columns permuted, links) but
// for Layout (tracks' levels and order); Wait is a thread idle on the queue of
// pieces between the two.
enum class LoadStage : std::uint8_t
{
    Inflate, // reading the file and inflating it (InputStream::read)
    Split, // cutting the traceEvents array into pieces and copying them out
    Parse,
    Build,
    Layout,
    Wait,
};

constexpr std::size_t kLoadStageCount = 6;

const char* loadStageName(LoadStage stage);

// The threads of a load. A rank read alone on two cores (the pipelined read)
// has both; one read on the calling thread only has Calling.
enum class LoadLane : std::uint8_t
{
    Calling, // parses (and builds) on the thread that asked for the load
    Reading, // inflates and splits on a second thread
};

constexpr std::size_t kLoadLaneCount = 2;

// B1: where the time of one load goes, thread by thread, for the load
// benchmark's per-stage timeline. Every moment of a lane, from beginLane to
// endLane, belongs to one stage: enter() switches. Each lane is written by its
// own thread only; read the figures once the load has returned. Costs a few
// clock reads per piece of 256 KB when given, nothing when
// LoadOptions::timeline is null.
class LoadTimeline
{
public:
    using Clock = std::chrono::steady_clock;

    struct Interval
    {
        LoadStage stage = LoadStage::Parse;
        std::int64_t beginNs = 0; // since the timeline's origin
        std::int64_t endNs = 0;
    };

    LoadTimeline();

    // The thread running `lane` starts in `stage`, or stops: its CPU time is
    // taken between the two.
    void beginLane(LoadLane lane, LoadStage stage);
    void endLane(LoadLane lane);
    // The lane switches to `stage`; returns the stage it leaves.
    LoadStage enter(LoadLane lane, LoadStage stage);

    // Wall time from the first lane's begin to the last lane's end.
    double wallSeconds() const;
    double seconds(LoadLane lane, LoadStage stage) const;
    // CPU time the lane's thread ran between beginLane and endLane.
    double cpuSeconds(LoadLane lane) const;
    // One character per slice of wall time: the stage that took most of it on
    // the lane ('.' when the lane was not running then): I inflate, S split,
    // P parse, B build, L layout, w wait.
    std::vector<char> strip(LoadLane lane, std::size_t width) const;

private:
    struct Lane
    {
        std::vector<Interval> intervals;
        std::array<std::int64_t, kLoadStageCount> totalNs {};
        bool active = false;
        LoadStage current = LoadStage::Parse;
        std::int64_t sinceNs = 0;
        std::int64_t cpuBeginNs = 0;
        std::int64_t cpuNs = 0;
    };

    std::int64_t now() const;
    std::pair<std::int64_t, std::int64_t> span() const; // first begin, last end; -1 when empty
    void close(Lane& lane, std::int64_t at);

    Clock::time_point m_origin;
    std::array<Lane, kLoadLaneCount> m_lanes;
};

// Puts a lane in a stage for as long as it lives, then back in the one it was
// in; does nothing without a timeline.
class StageScope
{
public:
    StageScope(LoadTimeline* timeline, LoadLane lane, LoadStage stage)
        : m_timeline(timeline)
        , m_lane(lane)
    {
        if (m_timeline)
            m_previous = m_timeline->enter(lane, stage);
    }

    ~StageScope()
    {
        if (m_timeline)
            m_timeline->enter(m_lane, m_previous);
    }

    StageScope(const StageScope&) = delete;
    StageScope& operator=(const StageScope&) = delete;

private:
    LoadTimeline* m_timeline;
    LoadLane m_lane;
    LoadStage m_previous = LoadStage::Parse;
};

} // namespace ks::core
