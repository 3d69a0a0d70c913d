#pragma once

#include "core/analysis/memory_snapshot/snapshot_compare.h"
#include "core/analysis/memory_snapshot/snapshot_summary.h"
#include "widgets/memory_snapshot/snapshot_steps.h"

#include <QString>

#include <vector>

class QTableWidget;

namespace ks::widgets {

// The small tables of the Memory Snapshot view, filled from core results
// (a few dozen rows each: a plain QTableWidget, sortable, numbers in
// Qt::UserRole). Column 0 is always the name.

// The allocations live at the peak grouped by user frame: Frame, Bytes, Allocations.
void fillPeakByFrame(QTableWidget& table, const std::vector<core::FrameGroup>& groups);

// One device of two snapshots: each total of `memory --snapshot` before, after and the change.
void fillComparisonTotals(QTableWidget& table, const core::DeviceComparison& device);

// Where the change comes from: Frame, Before, After, Change (largest change first).
void fillComparisonFrames(QTableWidget& table, const std::vector<core::FrameDelta>& frames);

// The memory of each range the snapshot's trace was aligned with (`ranges`:
// indices into steps.alignment.ranges, in trace order): Range, Start, End (as
// the timeline's ruler shows them), Requested peak / at start / at end,
// Allocated peak, Reserved at end, Allocations, Allocated in range, Top frame,
// under short headers with the whole name as their tooltip. The numbers take
// their width, the names share the rest (fitStepsColumns).
// Column 0 holds the range's index in Qt::UserRole + 1.
void fillStepsTable(QTableWidget& table, const SnapshotSteps& steps, const std::vector<std::size_t>& ranges);

inline constexpr int kRangeIndexRole = Qt::UserRole + 1;
inline constexpr int kStepsColumns = 11;
inline constexpr int kStepsNameColumn = 0;
inline constexpr int kStepsFrameColumn = 10;

// Fits the steps table to its width: every column shown whole, no sideways
// scrolling. Where all eleven do not fit, the least read fold away first
// (reserved at end, allocated peak, allocations, requested at start, end,
// allocated in range); the range's tooltip holds the whole row. Call it again
// when the table's width changes.
void fitStepsColumns(QTableWidget& table);

// "+1.5 GiB", "−20.0 MiB", "0 bytes".
QString signedBytes(std::int64_t delta);

} // namespace ks::widgets
