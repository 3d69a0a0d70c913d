#pragma once

#include "core/analysis/memory_snapshot/memory_snapshot.h"
#include "core/analysis/memory_snapshot/snapshot_summary.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ks::core {

struct OverlayPoint
{
    std::int64_t x = 0; // µs since the curve's origin (memory_viz's step when not byTime)
    std::uint64_t bytes = 0; // the Active Memory Timeline's total (requested bytes) from x on
};

// What x counts in an overlay.
enum class OverlayAxis
{
    // Time when both snapshots have time_us and an external annotation in common (the
    // same point of the program in both); else memory_viz's steps: two runs' clocks
    // from their first events are rarely comparable (an idle gap of seconds in one
    // squeezes the other's whole run into a pixel), their event order often is.
    Auto,
    Time, // µs since each one's origin (the common annotation or its first event); steps without time_us
    Steps, // memory_viz's step, whatever the snapshots hold
};

// Two snapshots' Active Memory Timeline totals of one device on one axis.
struct SnapshotOverlay
{
    std::int64_t device = 0;
    bool byTime = true; // false: a snapshot has no time_us, x is memory_viz's step
    std::string alignedBy; // the annotation both origins are at; empty: each one's first event
    std::int64_t beforeOriginUs = kNoTime; // the time of x = 0 in each snapshot's clock
    std::int64_t afterOriginUs = kNoTime;
    std::vector<OverlayPoint> before; // empty when the device has no memory in it
    std::vector<OverlayPoint> after;
};

// Per device of either snapshot (ascending): both curves, x as `axis` says:
// µs since the START of the first external annotation whose name both have
// (its first occurrence in each), or since each one's first event; or
// memory_viz's step (always when either lacks time_us). Each curve keeps at most `maxPoints` points
// (at least 4): the first, the last and per bucket its lowest and highest, so
// the peak is always kept.
std::vector<SnapshotOverlay> overlaySnapshots(const MemorySnapshot& before,
    const SnapshotSummary& beforeSummary, const MemorySnapshot& after, const SnapshotSummary& afterSummary,
    std::size_t maxPoints = 1000, OverlayAxis axis = OverlayAxis::Auto);

// The down-sampling overlaySnapshots applies (exposed for the tests).
std::vector<OverlayPoint> downsampleKeepingPeaks(
    const std::vector<OverlayPoint>& points, std::size_t maxPoints);

} // namespace ks::core
