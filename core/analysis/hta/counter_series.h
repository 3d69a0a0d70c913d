#pragma once

#include "core/model/rank_trace.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

// T7: the timeline's analysis counters of one rank, read straight from its
// RankTrace: the same series as queueLengthTimeSeries and memoryBwTimeSeries
// in default mode (hta-semantics.md: +1 at a launch / -1 when its GPU work
// starts; +bandwidth at a copy's start / -bandwidth at its end; equal times
// put decrements first), without building the analysis frame. Building the
// frame costs seconds on ranks of millions of slices; these passes touch
// only launches and GPU work.

// One step series: the value from ts[i] until ts[i + 1].
struct StepSeries
{
    std::string name; // queue length: the stream as text; bandwidth: "Memcpy HtoD", "Memset", ...
    std::int64_t stream = -1; // queue length: the stream
    std::vector<TimeNs> ts; // absolute ns (the rank's raw time), ascending
    std::vector<double> value;
};

// Queue length per stream, streams ascending.
std::vector<StepSeries> queueLengthSeries(const RankTrace& trace);

// Memory bandwidth (GB/s) per copy kind, kinds in name order.
std::vector<StepSeries> memoryBandwidthSeries(const RankTrace& trace);

// Est. SM efficiency (%), the TensorBoard plugin's counter (core/analysis/kernels/kernel_occupancy.h):
// while kernels run, 100 x min(1, the sum of their blocks per SM); 0 while none runs; NaN (no
// sample) while only kernels without "blocks per SM" run. Per stream (streams ascending, name:
// the stream), and per GPU (name: its index; stream -1) where two or more of its streams carry
// the arg: there concurrent kernels add up, as in the plugin's per-GPU counter. Only streams with
// a kernel that carries it; nothing when the args cannot be read again. Re-reads every kernel's
// args from the file.
struct SmEfficiencySeries
{
    std::vector<StepSeries> perStream;
    std::vector<StepSeries> perDevice;
};

SmEfficiencySeries smEfficiencySeries(const RankTrace& trace);

} // namespace ks::core
