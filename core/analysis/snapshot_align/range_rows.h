#pragma once

#include "core/analysis/memory_snapshot/memory_snapshot.h"
#include "core/analysis/memory_snapshot/snapshot_summary.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace ks::core {

// The rows of a device's Active Memory Timeline inside a time range: rows
// [before, through) are the events inside it, so the totals after row
// `before` - 1 are the memory at its start and those after `through` - 1 at
// its end (the timeline's initial totals when the count is 0).
struct RowSpan
{
    std::size_t before = 0; // rows at or before the start
    std::size_t through = 0; // rows at or before the end (never fewer than `before`)
};

// Each row of one device's timeline with its time on the snapshot's clock (a
// row without a time takes the time before it, so the times never go down
// and a range is found by binary search). The one replay of the rows' times:
// alignSnapshot measures a range's memory over rowsIn(), and the app's marks
// span the same rows, so a band on the timeline covers exactly the events
// its row of the Steps table counts.
class RangeRows
{
public:
    RangeRows(const MemorySnapshot& snapshot, const DeviceSnapshotSummary& device);

    // The rows inside [startUs, endUs], both on the snapshot's clock.
    RowSpan rowsIn(std::int64_t startUs, std::int64_t endUs) const;

    // Row `row`'s time (the snapshot's clock; the lowest int64 before the first timed row).
    std::int64_t timeOf(std::size_t row) const { return m_times[row]; }

private:
    std::size_t rowsUpTo(std::int64_t timeUs) const;

    std::vector<std::int64_t> m_times;
};

} // namespace ks::core
