#pragma once

// A rank's columnar store as NumPy arrays: views over the store's own columns
// (no copy) where their layout is NumPy's, kept alive by the RankTrace they
// view; copies only for what the store keeps in another form (the tracks'
// ranges, the typed args' compact columns).

#include "core/model/rank_trace.h"

#include <memory>
#include <pybind11/pybind11.h>

namespace ks::python {

// {"ts", "dur", "name", "category", "flags", "event_index"} for every slice of
// the rank, in the store's order (track by track, level by level); "names"
// (the string pool, which "name" indexes) and "categories" (what "category"
// indexes) as lists; "tracks" as a dict of arrays (kind, pid, tid, device,
// stream, slice_begin, slice_end, name) and "levels" (track, level, begin, end).
pybind11::dict sliceColumns(const std::shared_ptr<const core::RankTrace>& trace);

// The typed args of slices [begin, end): correlation and stream (-1 when absent).
pybind11::dict sliceActivityColumns(const core::RankTrace& trace, std::uint32_t begin, std::uint32_t end);

// Counters and instants as columns (copies: they are small).
pybind11::dict counterColumns(const core::RankTrace& trace);

} // namespace ks::python
