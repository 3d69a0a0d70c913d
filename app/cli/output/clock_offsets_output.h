#pragma once

// Estimated clock offsets (core/analysis/cross_rank/clock_offsets.h) as text and JSON,
// for `info` and `collectives --estimated-clocks`.

#include "core/analysis/cross_rank/clock_offsets.h"

#include <iosfwd>

namespace ks::cli {

// "estimated clock offsets (rank 0 is the reference):" and one line per rank.
void printClockOffsetsText(std::ostream& out, const core::ClockOffsets& offsets);

// [{"rank":0,"offset_ns":0,"spread_ns":0,"samples":0,"rejected":0,"estimated":true}, ...]
void printClockOffsetsJson(std::ostream& out, const core::ClockOffsets& offsets);

} // namespace ks::cli
