#pragma once

#include "core/analysis/memory_snapshot/snapshot_compare.h"
#include "core/analysis/memory_snapshot/snapshot_summary.h"

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

// "+1.5 GiB", "−20.0 MiB", "0 bytes".
QString signedBytes(std::int64_t delta);

} // namespace ks::widgets
