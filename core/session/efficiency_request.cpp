#include "core/session/efficiency_request.h"

namespace ks::core {

EfficiencyRequest efficiencyRequest(const TraceSet& set, std::vector<std::int64_t> ranks,
    std::vector<std::int64_t> iterations, std::optional<AnalysisWindow> window)
{
    EfficiencyRequest request;
    request.device = chooseDevice(set, std::nullopt, std::nullopt);
    request.options.device = request.device.peaks;
    request.options.ranks = std::move(ranks);
    request.options.iterations = std::move(iterations);
    if (window) {
        request.options.windowStart = window->start;
        request.options.windowEnd = window->end;
    }
    return request;
}

} // namespace ks::core
