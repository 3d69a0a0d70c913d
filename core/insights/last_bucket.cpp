#include "core/insights/last_bucket.h"

#include "core/common/median.h"

#include <algorithm>
#include <map>

namespace ks::core {

LastBucket lastBucketLeft(const std::vector<PathCollective>& collectives)
{
    LastBucket out;
    std::vector<double> transfers;
    std::map<std::int64_t, TimeNs> exposedByIteration;
    for (const PathCollective& c : collectives) {
        // Hidden already: a bucket reduced under the backward (DDP's first one, gloo's
        // thread beside the main thread). Its transfer is what one bucket costs here.
        if (c.onPath > 0 && 2 * c.hidden >= c.onPath)
            transfers.push_back(static_cast<double>(c.transfer));
        if (c.onPath > c.hidden)
            exposedByIteration[c.iteration] += c.onPath - c.hidden;
    }
    out.overlapped = transfers.size();
    out.iterations = exposedByIteration.size();
    if (const auto m = median(std::move(transfers)))
        out.bucket = static_cast<TimeNs>(*m);
    if (!out.bucket)
        return out;
    for (const auto& [iteration, exposed] : exposedByIteration)
        out.left += std::min(exposed, *out.bucket);
    return out;
}

} // namespace ks::core
