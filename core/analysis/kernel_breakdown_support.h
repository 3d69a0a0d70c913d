#pragma once

// Helpers shared by the temporal breakdown (A1), the GPU kernel breakdown (A3)
// and the communication/computation overlap (A4): which rows are GPU work, their
// kernel type, HTA's interval merge, and numpy's sort order where HTA's output
// depends on how pandas breaks ties.

#include "core/analysis/hta_frame.h"
#include "core/analysis/kernel_type.h"

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

// numpy 1.24's argsort(kind="quicksort") (introsort: median-of-3 quicksort,
// insertion sort below 17 elements, heapsort past the depth limit). pandas
// sort_values uses it, so reproducing it reproduces HTA's order among ties.
namespace numpy_sort {

    template <typename T>
    void heapArgsort(const std::vector<T>& v, std::size_t* tosort, std::ptrdiff_t n)
    {
        std::size_t* a = tosort - 1; // 1-based heap indexing as numpy
        auto siftDown = [&](std::ptrdiff_t i, std::ptrdiff_t size, std::size_t tmp) {
            for (std::ptrdiff_t j = i * 2; j <= size;) {
                if (j < size && v[a[j]] < v[a[j + 1]])
                    ++j;
                if (!(v[tmp] < v[a[j]]))
                    break;
                a[i] = a[j];
                i = j;
                j += j;
            }
            a[i] = tmp;
        };
        for (std::ptrdiff_t l = n >> 1; l > 0; --l)
            siftDown(l, n, a[l]);
        while (n > 1) {
            const std::size_t tmp = a[n];
            a[n] = a[1];
            --n;
            siftDown(1, n, tmp);
        }
    }

    template <typename T>
    void partitionStep(
        const std::vector<T>& v, std::size_t*& pl, std::size_t*& pr, std::vector<std::size_t*>& stack)
    {
        std::size_t* pm = pl + ((pr - pl) >> 1);
        if (v[*pm] < v[*pl])
            std::swap(*pm, *pl);
        if (v[*pr] < v[*pm])
            std::swap(*pr, *pm);
        if (v[*pm] < v[*pl])
            std::swap(*pm, *pl);
        const T vp = v[*pm];
        std::size_t* pi = pl;
        std::size_t* pj = pr - 1;
        std::swap(*pm, *pj);
        for (;;) {
            do
                ++pi;
            while (v[*pi] < vp);
            do
                --pj;
            while (vp < v[*pj]);
            if (pi >= pj)
                break;
            std::swap(*pi, *pj);
        }
        std::swap(*pi, *(pr - 1));
        // The larger partition waits on the stack; the loop continues with the smaller.
        if (pi - pl < pr - pi) {
            stack.push_back(pi + 1);
            stack.push_back(pr);
            pr = pi - 1;
        } else {
            stack.push_back(pl);
            stack.push_back(pi - 1);
            pl = pi + 1;
        }
    }

    template <typename T>
    void insertionArgsort(const std::vector<T>& v, std::size_t* pl, std::size_t* pr)
    {
        for (std::size_t* pi = pl + 1; pi <= pr; ++pi) {
            const std::size_t vi = *pi;
            std::size_t* pj = pi;
            for (std::size_t* pk = pi - 1; pj > pl && v[vi] < v[*pk]; --pk)
                *pj-- = *pk;
            *pj = vi;
        }
    }

} // namespace numpy_sort

template <typename T>
std::vector<std::size_t> numpyArgsort(const std::vector<T>& v)
{
    std::vector<std::size_t> order(v.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    if (v.size() < 2)
        return order;
    constexpr std::ptrdiff_t kSmallQuicksort = 15;
    int cdepth = 0;
    for (std::size_t n = v.size(); n >>= 1;)
        ++cdepth;
    cdepth *= 2;
    std::size_t* pl = order.data();
    std::size_t* pr = order.data() + order.size() - 1;
    std::vector<std::size_t*> stack;
    std::vector<int> depths;
    for (;;) {
        if (cdepth < 0) {
            numpy_sort::heapArgsort(v, pl, pr - pl + 1);
        } else {
            while (pr - pl > kSmallQuicksort) {
                numpy_sort::partitionStep(v, pl, pr, stack);
                depths.push_back(--cdepth);
            }
            numpy_sort::insertionArgsort(v, pl, pr);
        }
        if (stack.empty())
            break;
        pr = stack.back();
        stack.pop_back();
        pl = stack.back();
        stack.pop_back();
        cdepth = depths.back();
        depths.pop_back();
    }
    return order;
}

// pandas sort_values(ascending=False) with quicksort (nargsort): argsort of the
// reversed values, mapped back and reversed.
template <typename T>
std::vector<std::size_t> numpyArgsortDescending(const std::vector<T>& v)
{
    const std::vector<T> reversed(v.rbegin(), v.rend());
    const std::vector<std::size_t> order = numpyArgsort(reversed);
    std::vector<std::size_t> indexer(order.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        indexer[order.size() - 1 - i] = v.size() - 1 - order[i];
    return indexer;
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
