#include "core/summary/utilisation_profile.h"

#include "core/analysis/frame/hta_frame.h"
#include "core/analysis/frame/kernel_type.h"

#include <algorithm>

namespace ks::core {

std::int64_t floorDiv(std::int64_t a, std::int64_t b)
{
    const std::int64_t q = a / b;
    return (a % b != 0 && a < 0) ? q - 1 : q;
}

std::int64_t binWidthFor(std::int64_t start, std::int64_t end, int bins, std::int64_t minWidth)
{
    std::int64_t width = 1;
    while (width < minWidth)
        width *= 2;
    while (floorDiv(end, width) - floorDiv(start, width) + 1 > bins)
        width *= 2;
    return width;
}

std::vector<StreamProfile> streamProfiles(const RankTrace& trace, int bins)
{
    std::vector<StreamProfile> out;
    const std::int64_t width = binWidthFor(trace.startNs, trace.endNs, bins);
    const std::int64_t first = floorDiv(trace.startNs, width);
    for (const Track& track : trace.tracks) {
        if (track.kind != TrackKind::GpuStream)
            continue;
        StreamProfile profile;
        profile.stream = track.stream;
        profile.widthNs = width;
        profile.firstBin = first;
        profile.busy.assign(static_cast<std::size_t>(floorDiv(trace.endNs, width) - first + 1), {});
        bool any = false;
        for (std::uint32_t s = track.sliceBegin; s < track.sliceEnd; ++s) {
            const std::string_view category = trace.sliceCategory(s);
            if (!isDeviceActivityCategory(category))
                continue; // sync events and annotations on the stream are not device work
            const auto kind = static_cast<std::size_t>(classifyKernelDefault(category, trace.sliceName(s)));
            const std::int64_t start = trace.slices.start[s];
            const std::int64_t end = trace.slices.end(s);
            // Each bin the slice touches gets the part of the slice inside it.
            for (std::int64_t b = floorDiv(start, width); b * width < end; ++b) {
                const std::int64_t inside = std::min(end, (b + 1) * width) - std::max(start, b * width);
                if (inside > 0 && b >= first && b - first < static_cast<std::int64_t>(profile.busy.size())) {
                    profile.busy[static_cast<std::size_t>(b - first)][kind] += inside;
                    any = true;
                }
            }
        }
        if (any)
            out.push_back(std::move(profile));
    }
    return out;
}

} // namespace ks::core
