#include "widgets/memory_snapshot/snapshot_view_data.h"

#include "core/analysis/memory_snapshot/snapshot_reader.h"

namespace ks::widgets {

namespace {

    core::Error cancelled(const std::string& path)
    {
        return core::Error { core::ErrorCode::Cancelled, "cancelled", path, std::nullopt };
    }

} // namespace

core::Result<SnapshotViewData> loadSnapshotViewData(const std::string& path, const core::CancelToken* cancel)
{
    auto read = core::readMemorySnapshot(path);
    if (!read)
        return read.error();
    if (cancel && cancel->isCancelled())
        return cancelled(path);
    auto snapshot = std::make_shared<core::MemorySnapshot>(std::move(read).value());
    if (snapshot->devices().empty())
        return core::Error { core::ErrorCode::NotApplicable,
            "the snapshot holds no segment and no trace entry on any device: nothing to show", path,
            std::nullopt };
    SnapshotViewData data;
    data.path = path;
    auto summary = std::make_shared<core::SnapshotSummary>(core::summarizeSnapshot(*snapshot));
    for (std::size_t d = 0; d < summary->devices.size(); ++d) {
        if (cancel && cancel->isCancelled())
            return cancelled(path);
        const core::DeviceSnapshotSummary& device = summary->devices[d];
        SnapshotDeviceData shown;
        shown.bands = buildBandLayout(device.timeline);
        shown.peakByFrame = core::peakByFrame(*snapshot, device.timeline, core::FrameRule::User);
        data.devices.push_back(std::move(shown));
        if (device.device == summary->defaultDevice)
            data.defaultDevice = int(d);
    }
    data.snapshot = std::move(snapshot);
    data.summary = std::move(summary);
    return data;
}

std::vector<core::DeviceComparison> compareViewData(
    const SnapshotViewData& base, const SnapshotViewData& other)
{
    return core::compareSnapshots(*base.snapshot, *base.summary, *other.snapshot, *other.summary);
}

std::vector<core::SnapshotOverlay> overlayViewData(
    const SnapshotViewData& base, const SnapshotViewData& other, core::OverlayAxis axis)
{
    return core::overlaySnapshots(
        *base.snapshot, *base.summary, *other.snapshot, *other.summary, kOverlayPoints, axis);
}

} // namespace ks::widgets
