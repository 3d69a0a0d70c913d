#pragma once

#include "core/analysis/memory_snapshot/memory_snapshot.h"
#include "core/analysis/memory_snapshot/snapshot_compare.h"
#include "core/analysis/memory_snapshot/snapshot_overlay.h"
#include "core/analysis/memory_snapshot/snapshot_summary.h"
#include "core/common/progress.h"
#include "core/common/result.h"
#include "widgets/memory_snapshot/band_layout.h"

#include <memory>
#include <string>
#include <vector>

namespace ks::widgets {

// What the Memory Snapshot view shows of one device, computed once.
struct SnapshotDeviceData
{
    BandLayout bands; // the Active Memory Timeline's bands
    std::vector<core::FrameGroup> peakByFrame; // live at the peak, by user frame
};

// One snapshot as the view shows it: the model, memory_viz's numbers per
// device (snapshot_summary.h) and the drawing of each device's timeline.
// Immutable once built; built off the GUI thread (a 100 MB pickle takes seconds).
struct SnapshotViewData
{
    std::string path;
    std::shared_ptr<const core::MemorySnapshot> snapshot;
    std::shared_ptr<const core::SnapshotSummary> summary;
    std::vector<SnapshotDeviceData> devices; // parallel to summary->devices
    int defaultDevice = 0; // index into devices: memory_viz's default

    const core::DeviceSnapshotSummary& summaryOf(int device) const
    {
        return summary->devices[std::size_t(device)];
    }
};

using SnapshotViewDataPtr = std::shared_ptr<const SnapshotViewData>;

// Reads the pickle (the restricted unpickler) and computes everything the view
// shows. A file that is not a snapshot is an error naming it; a snapshot with
// no device (no segments, no trace) too, since there is nothing to draw.
core::Result<SnapshotViewData> loadSnapshotViewData(const std::string& path, const core::CancelToken* cancel);

// Two snapshots side by side: before = `base`, after = `other` (snapshot_compare.h).
std::vector<core::DeviceComparison> compareViewData(
    const SnapshotViewData& base, const SnapshotViewData& other);

// Both Active Memory Timelines per device on one axis (snapshot_overlay.h), at
// most kOverlayPoints points a curve: enough for a chart the width of a screen.
inline constexpr std::size_t kOverlayPoints = 4000;
std::vector<core::SnapshotOverlay> overlayViewData(
    const SnapshotViewData& base, const SnapshotViewData& other, core::OverlayAxis axis);

} // namespace ks::widgets
