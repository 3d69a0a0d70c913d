#pragma once

#include "core/analysis/efficiency/device_peaks.h"
#include "core/analysis/efficiency/perf_model.h"
#include "core/analysis/tables/column_id.h"
#include "core/analysis/tables/table.h"
#include "core/model/trace_set.h"

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace ks::core {

// Efficiency: per call of every modelled op (perf_model.h) its FLOPs and bytes,
// its kernel time (the length of the union of the intervals of the GPU work it and
// the ops inside it launched: overlaps count once), and from those achieved TFLOP/s,
// TB/s and arithmetic intensity; against a device's peaks (device_peaks.h) the
// roofline time max(FLOPs / peak FLOP/s, bytes / peak bandwidth), the bound, and
// roofline time / kernel time. Rows group calls as TraceLens does: by op name and
// TraceLens's perf-model parameters where a model states them (PerfEstimate::groupKey),
// else input dims, dtypes, strides and the parameters the model reads; a row shows its
// first call's dims, dtypes and strides. Per-call values are averaged over a row's calls
// ("_mean" columns), as TraceLens reports them: a call that launched no GPU work (an op
// on CPU tensors, a call recorded while a CUDA/HIP graph was captured) stays in its row
// with kernel time 0, counted in the calls and the mean kernel time, left out of the
// TFLOP/s, TB/s and % of roofline means (pandas skips their NaN) and of MFU.

enum class EfficiencyGrouping : std::uint8_t
{
    Shape, // name, dims, dtypes, strides, model parameters (TraceLens's rows)
    Name,
};

struct EfficiencyOptions
{
    EfficiencyGrouping by = EfficiencyGrouping::Shape;
    std::vector<OpFamily> families; // empty: all
    std::vector<std::int64_t> ranks; // empty: all
    std::vector<std::int64_t> iterations; // ProfilerStep numbers; empty: all
    // Only calls starting in [windowStart, windowEnd), ns on the trace's clock.
    std::optional<TimeNs> windowStart;
    std::optional<TimeNs> windowEnd;
    std::optional<DevicePeaks> device; // what the roofline is drawn against; none: no roofline
    // TraceLens's readings where they differ from ours (roofline --tracelens-compat): the
    // models' ModelReading::tracelens, and GPU work attributed as TraceLens links it (a
    // non-graph launch gets only the GPU work its ac2g flow start points to).
    bool tracelensCompat = false;

    bool operator==(const EfficiencyOptions&) const = default;
};

// One call, to find its kernels again (the app selects them on the timeline).
struct EfficiencyCall
{
    std::uint32_t rankIndex = 0; // into TraceSet::ranks
    std::uint32_t slice = 0;
    TimeNs kernelTime = 0;
};

struct EfficiencyRow
{
    std::string name;
    OpFamily family = OpFamily::Gemm;
    std::string dims, dtypes, strides, params;
    bool modelled = true; // false in the time-only table (no shapes recorded)
    // The backward pass of the forward op it names: the GPU work of the autograd backward
    // linked to each call by sequence number, with the model's backward FLOPs and bytes
    // (TraceLens's _bwd sheets; the "direction" column says "backward").
    bool backward = false;
    std::int64_t calls = 0;
    std::int64_t timedCalls = 0; // the calls that launched GPU work: the TFLOP/s, TB/s and % means' count
    double flops = 0; // per call (the mean over calls when grouped by name)
    double bytes = 0; // per call; NaN when a dtype has no size (bytesKnown)
    double kernelTimeUsSum = 0;
    double tflopsMean = 0; // mean of per-call FLOPs / kernel time
    double tbpsMean = 0;
    std::string precision;
    ComputeUnit unit = ComputeUnit::Vector;
    std::optional<PeakChoice> peak;
    double rooflineTimeUs = 0; // per call
    bool computeBound = false;
    double rooflinePctMean = 0; // mean of per-call roofline time / kernel time x 100
    std::vector<EfficiencyCall> callList;

    double kernelTimeUsMean() const { return calls ? kernelTimeUsSum / double(calls) : 0; }

    bool bytesKnown() const { return !std::isnan(bytes); }

    double intensity() const { return bytes > 0 ? flops / bytes : 0; }

    double tflopsTotal() const
    {
        return kernelTimeUsSum > 0 ? flops * double(calls) / kernelTimeUsSum / 1e6 : 0;
    }
};

// Model FLOPs Utilisation of the steps: model FLOPs / (step time x peak).
struct ModelFlopsUtilisation
{
    double modelFlops = 0; // every modelled call inside the steps, all ranks
    double stepTimeUs = 0; // the steps' durations summed over ranks (the trace's span without steps)
    std::string peakLabel; // the matrix peak of the precision carrying most FLOPs
    double peakTflops = 0;
    std::optional<double> mfu; // a fraction; nullopt without a device or FLOPs
};

struct EfficiencyReport
{
    std::vector<EfficiencyRow> rows; // by total kernel time, largest first
    std::array<std::int64_t, kSkipReasonCount> skipped {}; // calls of modelled ops left out, per reason
    std::array<std::string, kSkipReasonCount> skippedExample; // the first such call: "aten::mm [[2, 3], [4]]"
    std::int64_t callsWithoutKernel = 0; // kept in their rows with kernel time 0
    std::string withoutKernelExample;
    bool shapesRecorded = true; // false: rows are the time-only table
    std::optional<DevicePeaks> device;
    ModelFlopsUtilisation mfu;
    std::vector<std::string> notes; // bad input met, by example
    std::optional<Error> error; // a file changed since loading (args are re-read)
};

// The device of the loaded ranks from their deviceProperties, a --device name or a
// --peaks file's numbers. note says what was chosen or which device was not known.
struct DeviceChoice
{
    std::optional<DevicePeaks> peaks;
    std::string note;
};

// The device the roofline is drawn against as the user forced it (`roofline`
// and `insights` take --device NAME or --peaks FILE); both empty: the one the
// trace's deviceProperties name.
struct RooflineDevice
{
    std::optional<std::string> name;
    std::optional<DevicePeaks> peaksFile;
};

DeviceChoice chooseDevice(const TraceSet& set, const std::optional<std::string>& deviceName,
    std::optional<DevicePeaks> peaksFile, const std::vector<DevicePeaks>& table = builtinDeviceTable());

EfficiencyReport efficiencyReport(const TraceSet& set, const EfficiencyOptions& options);

// The message for a trace with no shapes at all.
inline constexpr const char* kNoShapesMessage = "no input shapes: record with record_shapes=True";

namespace efficiency_columns {
    inline constexpr ColumnId kName { "name", "" };
    inline constexpr ColumnId kFamily { "family", "" };
    inline constexpr ColumnId kDims { "dims", "" };
    inline constexpr ColumnId kDtypes { "dtypes", "" };
    inline constexpr ColumnId kCalls { "calls", "" };
    inline constexpr ColumnId kFlops { "flops", "FLOP" };
    inline constexpr ColumnId kBytes { "bytes", "B" };
    inline constexpr ColumnId kIntensity { "intensity", "FLOP/B" };
    inline constexpr ColumnId kKernelTimeSum { "kernel_time_us_sum", "us" };
    inline constexpr ColumnId kKernelTimeMean { "kernel_time_us_mean", "us" };
    inline constexpr ColumnId kTflopsMean { "tflops_per_s_mean", "TFLOP/s" };
    inline constexpr ColumnId kTbpsMean { "tb_per_s_mean", "TB/s" };
    inline constexpr ColumnId kTflops { "tflops_per_s", "TFLOP/s" };
    inline constexpr ColumnId kPeak { "peak", "" };
    inline constexpr ColumnId kRooflineTime { "roofline_time_us", "us" };
    inline constexpr ColumnId kBound { "bound", "" };
    inline constexpr ColumnId kRooflinePct { "roofline_pct_mean", "%" };
    inline constexpr ColumnId kStrides { "strides", "" };
    inline constexpr ColumnId kParams { "params", "" };
    inline constexpr ColumnId kDirection { "direction", "" };
} // namespace efficiency_columns

Table efficiencyTable(const EfficiencyReport& report);

// One line per reason with a count ("3 calls skipped: unknown dtype (first: ...)"), and
// one for the calls kept without GPU work.
std::vector<std::string> skippedLines(const EfficiencyReport& report);

} // namespace ks::core
