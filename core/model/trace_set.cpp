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

} // namespace ks::core
