#pragma once

// Helpers shared by the counter analyses (queue length, memory bandwidth).

#include "core/analysis/hta_frame.h"
#include "core/analysis/table.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ks::core::counters {

// A time in µs as HTA's column holds it: an integer unless the column is
// float64 (or the time is not a whole µs, which only happens in default mode).
inline Cell microsecondsCell(std::int64_t ns, bool floatColumn)
{
    if (!floatColumn && ns % 1000 == 0)
        return ns / 1000;
    return static_cast<double>(ns) / 1000.0;
}

// The pid or tid HTA has for a row: the integer, or the text when the trace wrote a string.
inline Cell threadKeyCell(const RankTrace& trace, std::int64_t value, bool isName)
{
    if (isName)
        return std::string(trace.name(NameId(static_cast<std::uint32_t>(value))));
    return value;
}

inline const ThreadKey& threadKeyOf(const RankFrame& frame, const FrameRow& row)
{
    return frame.trace->tracks[frame.trace->trackOf(row.slice).value].key;
}

// The order pandas' sort_values(kind="quicksort") gives is numpy 1.24's argsort
// introsort. HTA sorts the queue-length and memory-bandwidth points with it
// (hta-semantics.md §7-8, Q9), and it is not stable: the order of points with
// equal timestamps, and so the intermediate counter values, depend on this
// exact algorithm. Reproducing it makes HTA-compatible outputs match HTA's
// row for row instead of only as multisets.

// Sift-down heapsort over positions [begin, begin + n) of `order`, as numpy's
// aheapsort (1-based heap indexing); used past the introsort depth limit.
inline void heapArgsort(
    const std::vector<double>& keys, std::vector<std::uint32_t>& order, std::size_t begin, std::size_t n)
{
    auto at = [&](std::size_t oneBased) -> std::uint32_t& { return order[begin + oneBased - 1]; };
    auto siftDown = [&](std::size_t i, std::size_t size, std::uint32_t moving) {
        for (std::size_t j = i * 2; j <= size;) {
            if (j < size && keys[at(j)] < keys[at(j + 1)])
                ++j;
            if (!(keys[moving] < keys[at(j)]))
                break;
            at(i) = at(j);
            i = j;
            j *= 2;
        }
        at(i) = moving;
    };
    for (std::size_t l = n / 2; l > 0; --l)
        siftDown(l, n, at(l));
    for (std::size_t size = n; size > 1;) {
        const std::uint32_t moving = at(size);
        at(size) = at(1);
        --size;
        siftDown(1, size, moving);
    }
}

// numpy's argsort(kind="quicksort") of `keys` (no NaN): median-of-three
// partitioning, the larger part deferred on a stack, insertion sort for parts
// of at most 16 elements, heapsort when the depth budget 2*floor(log2 n) runs out.
inline std::vector<std::uint32_t> quicksortArgsort(const std::vector<double>& keys)
{
    const std::size_t n = keys.size();
    std::vector<std::uint32_t> order(n);
    for (std::size_t i = 0; i < n; ++i)
        order[i] = static_cast<std::uint32_t>(i);
    if (n < 2)
        return order;
    int depth = 0;
    for (std::size_t m = n; m >>= 1;)
        ++depth;
    depth *= 2;
    auto less = [&keys](std::uint32_t a, std::uint32_t b) { return keys[a] < keys[b]; };

    struct Part
    {
        std::ptrdiff_t lo, hi;
        int depth;
    };

    std::vector<Part> pending;
    std::ptrdiff_t lo = 0;
    std::ptrdiff_t hi = static_cast<std::ptrdiff_t>(n) - 1;
    for (;;) {
        if (depth < 0) {
            heapArgsort(keys, order, static_cast<std::size_t>(lo), static_cast<std::size_t>(hi - lo + 1));
        } else {
            while (hi - lo > 15) {
                const std::ptrdiff_t mid = lo + ((hi - lo) >> 1);
                if (less(order[mid], order[lo]))
                    std::swap(order[mid], order[lo]);
                if (less(order[hi], order[mid]))
                    std::swap(order[hi], order[mid]);
                if (less(order[mid], order[lo]))
                    std::swap(order[mid], order[lo]);
                const double pivot = keys[order[mid]];
                std::ptrdiff_t i = lo;
                std::ptrdiff_t j = hi - 1;
                std::swap(order[mid], order[j]);
                for (;;) {
                    do
                        ++i;
                    while (keys[order[i]] < pivot);
                    do
                        --j;
                    while (pivot < keys[order[j]]);
                    if (i >= j)
                        break;
                    std::swap(order[i], order[j]);
                }
                std::swap(order[i], order[hi - 1]);
                // The larger side waits on the stack; keep partitioning the smaller.
                --depth;
                if (i - lo < hi - i) {
                    pending.push_back({ i + 1, hi, depth });
                    hi = i - 1;
                } else {
                    pending.push_back({ lo, i - 1, depth });
                    lo = i + 1;
                }
            }
            for (std::ptrdiff_t i = lo + 1; i <= hi; ++i) {
                const std::uint32_t moving = order[i];
                std::ptrdiff_t j = i;
                for (; j > lo && keys[moving] < keys[order[j - 1]]; --j)
                    order[j] = order[j - 1];
                order[j] = moving;
            }
        }
        if (pending.empty())
            break;
        lo = pending.back().lo;
        hi = pending.back().hi;
        depth = pending.back().depth;
        pending.pop_back();
    }
    return order;
}

} // namespace ks::core::counters
