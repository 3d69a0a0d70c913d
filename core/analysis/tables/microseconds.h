#pragma once

// ns -> µs, the unit of every analysis' time columns, in one place.

#include "core/analysis/tables/table.h"

#include <cstdint>

namespace ks::core {

// Exact below 2^53 ns (about 104 days); the division rounds once, as pandas' would.
inline double microseconds(std::int64_t ns)
{
    return static_cast<double>(ns) / 1000.0;
}

// A time in µs as HTA's column holds it: an integer when the column is int64
// and the time a whole µs, else a float64 (default mode's exact ns rarely are).
inline Cell microsecondsCell(std::int64_t ns, bool floatColumn)
{
    if (!floatColumn && ns % 1000 == 0)
        return ns / 1000;
    return microseconds(ns);
}

} // namespace ks::core
