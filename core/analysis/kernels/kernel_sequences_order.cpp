#include "core/analysis/kernels/kernel_sequences_order.h"

#include <algorithm>
#include <string>

namespace ks::core::sequences {

namespace {

    bool nonzeroLess(const EndPoint& x, const EndPoint& y)
    {
        if (x.kind != y.kind)
            return x.kind == kCloseEnd; // closing before opening
        if (x.dur != y.dur)
            return x.kind == kOpenEnd ? x.dur > y.dur : x.dur < y.dur;
        return x.kind == kOpenEnd ? x.index < y.index : x.index > y.index;
    }

    // Sorts [begin, end) of points that share one time.
    void orderBlock(std::vector<EndPoint>::iterator begin, std::vector<EndPoint>::iterator end, bool zeroLast)
    {
        const auto zeroStart =
            std::stable_partition(begin, end, [](const EndPoint& p) { return p.dur != 0; });
        std::sort(begin, zeroStart, nonzeroLess);
        if (zeroLast) {
            std::sort(zeroStart, end, [](const EndPoint& x, const EndPoint& y) {
                return x.index != y.index ? x.index < y.index : x.kind == kOpenEnd;
            });
            return;
        }
        // HTA: zero-length opens by index, then their closes by descending index.
        std::sort(zeroStart, end, [](const EndPoint& x, const EndPoint& y) {
            if (x.kind != y.kind)
                return x.kind == kOpenEnd;
            return x.kind == kOpenEnd ? x.index < y.index : x.index > y.index;
        });
        const bool closes =
            std::any_of(begin, zeroStart, [](const EndPoint& p) { return p.kind == kCloseEnd; });
        if (closes) // zero-length operators before the closing ones: inside the operator that ends
            std::rotate(begin, zeroStart, end);
    }

} // namespace

Result<std::vector<EndPoint>> sortEndPointsLikeHta(std::vector<EndPoint> points)
{
    std::stable_sort(
        points.begin(), points.end(), [](const EndPoint& a, const EndPoint& b) { return a.time < b.time; });
    for (auto begin = points.begin(); begin != points.end();) {
        auto end =
            std::find_if(begin, points.end(), [t = begin->time](const EndPoint& p) { return p.time != t; });
        const bool zero = std::any_of(begin, end, [](const EndPoint& p) { return p.dur == 0; });
        const bool negative = std::any_of(begin, end, [](const EndPoint& p) { return p.dur < 0; });
        if (zero && negative)
            return Error { ErrorCode::NotApplicable,
                "HTA raises ValueError (\"Unexpected case\") sorting a zero-length and a negative-length "
                "operator at "
                    + std::to_string(begin->time) + " ns (durations of -1 us left by HTA's ns rounding)",
                {}, {} };
        orderBlock(begin, end, false);
        begin = end;
    }
    return points;
}

Result<std::vector<EndPoint>> sortEndPoints(std::vector<EndPoint> points)
{
    std::stable_sort(
        points.begin(), points.end(), [](const EndPoint& a, const EndPoint& b) { return a.time < b.time; });
    for (auto begin = points.begin(); begin != points.end();) {
        auto end =
            std::find_if(begin, points.end(), [t = begin->time](const EndPoint& p) { return p.time != t; });
        orderBlock(begin, end, true);
        begin = end;
    }
    return points;
}

} // namespace ks::core::sequences
