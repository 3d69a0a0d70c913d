#pragma once

// Helpers shared by the temporal breakdown (A1), the GPU kernel breakdown (A3)
// and the communication/computation overlap (A4): which rows are GPU work, their
// kernel type and HTA's interval merge.

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/frame/kernel_type.h"
#include "core/analysis/tables/numpy_argsort.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace ks::core {

// A GPU row in "frame units": in HtaCompat mode HTA's µs doubles, end computed as
// pandas adds ts + dur (so fractional-µs durations round exactly as there); in
// default mode exact nanoseconds (doubles hold them exactly below 2^53).
struct KernelSpan
{
    double start = 0.0;
    double end = 0.0;
    double dur = 0.0;
    KernelType type = KernelType::Other;
    std::string_view name;
    const FrameRow* row = nullptr;
};

struct Span
{
    double start = 0.0;
    double end = 0.0;
};

// Output values are µs: compat frame units already are, default ones are ns.
inline double spanUnitsToUs(double value, AnalysisMode mode)
{
    return mode == AnalysisMode::HtaCompat ? value : value / 1000.0;
}

// Q3: HTA counts every row with a `stream` arg as GPU work (sync events, Triton
// launcher ops); Kinetoscope only device activity (kernels, memcpy, memset).
inline bool isGpuWork(const FrameRow& row, AnalysisMode mode)
{
    return mode == AnalysisMode::HtaCompat ? row.stream != -1 : row.device;
}

// The rank's GPU work in frame row order (HTA's row order in compat mode), typed
// by HTA's name patterns (compat) or by category first (default, Q7).
inline std::vector<KernelSpan> gpuWorkSpans(const RankFrame& frame, AnalysisMode mode)
{
    const bool compat = mode == AnalysisMode::HtaCompat;
    std::vector<KernelSpan> spans;
    for (const FrameRow& row : frame.rows) {
        if (!isGpuWork(row, mode))
            continue;
        KernelSpan s;
        s.start = compat ? static_cast<double>(row.ts) / 1000.0 : static_cast<double>(row.ts);
        s.dur = compat ? static_cast<double>(row.dur) / 1000.0 : static_cast<double>(row.dur);
        s.end = s.start + s.dur;
        s.name = frame.name(row);
        s.type = row.kernelType;
        s.row = &row;
        spans.push_back(s);
    }
    return spans;
}

// HTA's merge_kernel_intervals: sort by start (numpy's order in compat mode, where
// ties matter for negative durations; stable otherwise), then a new group when a
// start is strictly after the running max end, so touching spans merge.
inline std::vector<Span> mergeSpans(const std::vector<KernelSpan>& spans, AnalysisMode mode)
{
    std::vector<std::size_t> order;
    if (mode == AnalysisMode::HtaCompat) {
        std::vector<double> starts;
        starts.reserve(spans.size());
        for (const KernelSpan& s : spans)
            starts.push_back(s.start);
        order = numpyArgsort(starts);
    } else {
        order.resize(spans.size());
        for (std::size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(), order.end(),
            [&spans](std::size_t a, std::size_t b) { return spans[a].start < spans[b].start; });
    }
    std::vector<Span> merged;
    double runningEnd = 0.0; // max end of all earlier spans (pandas' shifted cummax)
    for (const std::size_t i : order) {
        const KernelSpan& s = spans[i];
        if (merged.empty() || s.start > runningEnd) {
            merged.push_back(Span { s.start, s.end });
            runningEnd = merged.size() == 1 ? s.end : std::max(runningEnd, s.end);
            continue;
        }
        merged.back().end = std::max(merged.back().end, s.end);
        runningEnd = std::max(runningEnd, s.end);
    }
    return merged;
}

// The spans of one kernel type, in frame row order.
inline std::vector<KernelSpan> spansOfType(const std::vector<KernelSpan>& spans, KernelType type)
{
    std::vector<KernelSpan> out;
    for (const KernelSpan& s : spans)
        if (s.type == type)
            out.push_back(s);
    return out;
}

} // namespace ks::core
