#pragma once

#include "core/analysis/memory_snapshot/snapshot_overlay.h"
#include "widgets/charts/analysis_chart.h"

#include <QString>

namespace ks::widgets {

// What buildSnapshotOverlayChart drew, for the tests.
struct SnapshotOverlayItems
{
    QCPGraph* before = nullptr; // null when the device has no memory in that snapshot
    QCPGraph* after = nullptr;
    double bytesPerUnit = 1; // the value axis' unit (KiB, MiB or GiB)
    double keysPerUnit = 1; // x: 1000 µs per ms on a time axis, 1 on memory_viz's steps
};

// Two snapshots' Active Memory Timeline totals of one device as step lines on
// one axis (core::overlaySnapshots): ms since the common annotation's start, or
// since each one's first event, or memory_viz's steps when a snapshot has no
// time_us; the axis label says which. Expects a fresh chart.
SnapshotOverlayItems buildSnapshotOverlayChart(AnalysisChart& chart, const core::SnapshotOverlay& overlay,
    const QString& beforeName, const QString& afterName);

} // namespace ks::widgets
