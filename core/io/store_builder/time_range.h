#pragma once

#include <cstdint>

namespace ks::core {

// The times a trace may hold. Every time point the reader keeps (an event's ts,
// and ts + dur for a slice) lies strictly inside ±kTimeLimitNs, and every
// duration is below it: 2^62 ns is about 146 years on either side of 1970,
// far beyond any real clock. The reader skips events outside (counted as
// "timestamp out of range"), so later arithmetic is safe by construction: the
// difference of two kept time points, or a kept point plus a kept duration,
// always fits in int64.
inline constexpr std::int64_t kTimeLimitNs = std::int64_t { 1 } << 62;

constexpr bool timeInRange(std::int64_t ns)
{
    return ns > -kTimeLimitNs && ns < kTimeLimitNs;
}

// A slice [ts, ts + dur] keeps its end in range too. A negative duration is
// checked only for its size: the reader keeps such slices with duration 0.
constexpr bool sliceInRange(std::int64_t ts, std::int64_t dur)
{
    if (!timeInRange(ts) || !timeInRange(dur))
        return false;
    return dur < 0 || timeInRange(ts + dur); // both below 2^62 in size: the sum fits
}

} // namespace ks::core
