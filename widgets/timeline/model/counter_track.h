#pragma once

#include "widgets/timeline/model/index_pyramid.h"
#include "widgets/timeline/model/timeline_types.h"

#include <QString>

#include <limits>
#include <memory>
#include <vector>

namespace ks::core {
class RankTrace;
struct TraceSet;
} // namespace ks::core

namespace ks::widgets {

// T7: one counter drawn as a step chart (the value holds until the next point).
// Times are the rank's raw timestamps.
struct CounterTrack
{
    enum class Placement : std::uint8_t
    {
        Gpu,
        Host
    }; // after the GPU streams, or after the CPU threads

    struct MinMax
    {
        double min = std::numeric_limits<double>::infinity();
        double max = -std::numeric_limits<double>::infinity();
    };

    QString name; // "GPU 0 memory allocated", "Queue length · stream 7", "Memcpy HtoD bandwidth"
    QString unit; // "B", "GB/s", ""
    Placement placement = Placement::Gpu;
    std::int64_t stream = -1; // queue length: the stream it belongs to (drawn right under it)
    std::vector<TimeNs> ts;
    std::vector<double> value; // NaN: no sample from here to the next point
    double minValue = 0; // over the whole series (0 included), for a y scale that does not jump
    double maxValue = 0;
    IndexPyramid<MinMax> pyramid;

    // Sorts by time if needed, computes the scale and the min/max pyramid.
    void finish();

    std::size_t size() const { return ts.size(); }

    // Index of the last point at or before t, or -1 when t precedes every point.
    std::ptrdiff_t pointAtOrBefore(TimeNs t) const;
    MinMax rangeMinMax(std::uint32_t a, std::uint32_t b) const;
    QString formatValue(double v) const;
};

using CounterTracks = std::vector<CounterTrack>;

// Counters read straight from a rank: GPU (and host) memory allocated from the
// [memory] allocator instants, each followed by its memory reserved when the
// events carry `Total Reserved` (and it is ever above 0), and every C counter series.
CounterTracks buildTraceCounters(const core::RankTrace& rank);

// Counters of the core's analyses (A5, default mode) computed straight from the
// rank (core/analysis/hta/counter_series.h): queue length per stream, memory
// bandwidth per copy kind, and est. SM efficiency per stream (its args re-read
// from the file; NaN values are stretches without a sample, drawn empty). `rankIndex` is the position in
// set.ranks. One pass over the rank's slices and a sort of its launches: call off the GUI thread.
CounterTracks buildAnalysisCounters(const core::TraceSet& set, int rankIndex);

} // namespace ks::widgets
