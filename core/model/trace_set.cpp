#include "core/model/trace_set.h"

#include <algorithm>

namespace ks::core {

TimeNs TraceSet::startNs() const
{
    if (ranks.empty())
        return 0;
    TimeNs t = ranks.front()->startNs;
    for (const auto& r : ranks)
        t = std::min(t, r->startNs);
    return t;
}

TimeNs TraceSet::endNs() const
{
    TimeNs t = 0;
    for (const auto& r : ranks)
        t = std::max(t, r->endNs);
    return t;
}

std::string nothingToAnalyse(const std::vector<std::string>& inputs, const std::vector<SkippedFile>& skipped)
{
    std::string line = "nothing to analyse in ";
    for (std::size_t i = 0; i < inputs.size(); ++i)
        line += (i ? ", " : "") + inputs[i];
    if (skipped.empty())
        return line + ": no trace loaded";
    const SkippedFile& first = skipped.front();
    if (skipped.size() == 1)
        return line + ": skipped " + first.path + " (" + first.reason + ")";
    return line + ": skipped " + std::to_string(skipped.size()) + " files that are not Kineto traces, e.g. "
        + first.path + " (" + first.reason + ")";
}

} // namespace ks::core
